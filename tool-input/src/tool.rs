//! The `ToolInput` trait and the compiled definition of a tool.

use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::dialect::kind::Dialect;
use crate::dialect::{check_tool, tool_definition, DialectProblem};
use crate::error::{FieldError, Rejection};
use crate::field_options::FieldOptions;
use crate::policy::Policy;
use crate::raw::RawArguments;
use crate::report::Checked;
use crate::schema_error::SchemaError;
use crate::validator::{CheckOptions, Validator};

/// A Rust type a model can call a tool with: derive it with `#[derive(ToolInput)]` beside
/// `serde::Deserialize` and `schemars::JsonSchema`.
///
/// The derive gives the tool's name (the snake_case type name, or
/// `#[tool_input(name = "...")]`), its description (the doc comment, or
/// `#[tool_input(description = "...")]`) and the compiled [`ToolDefinition`], built once per
/// type from the very schema the model sees. The provided methods turn raw arguments into
/// `Self`. It also writes the tool's partial form while a call streams, `{Type}Partial`, with
/// its [`PartialValue`](crate::partial::PartialValue) impl (see [`crate::partial`]).
///
/// ```
/// use serde::Deserialize;
/// use schemars::JsonSchema;
/// use tool_input::ToolInput;
///
/// /// Get the weather forecast for a city.
/// #[derive(Debug, Deserialize, JsonSchema, ToolInput)]
/// struct GetWeather {
///     city: String,
///     days: Option<u8>,
/// }
///
/// assert_eq!(GetWeather::NAME, "get_weather");
/// assert_eq!(GetWeather::DESCRIPTION, Some("Get the weather forecast for a city."));
/// let call = GetWeather::from_arguments(r#"{"city": "Paris", "days": "3"}"#).unwrap();
/// assert_eq!(call.days, Some(3));
/// let rejection = GetWeather::from_arguments(r#"{"town": "Paris"}"#).unwrap_err();
/// assert!(rejection.to_string().contains("/city"));
/// ```
pub trait ToolInput: DeserializeOwned + schemars::JsonSchema + Sized {
    /// The tool's name, checked at compile time against `^[a-zA-Z0-9_-]{1,64}$`.
    const NAME: &'static str;
    /// The tool's description, from the doc comment or `#[tool_input(description = "...")]`.
    const DESCRIPTION: Option<&'static str>;
    /// The options of `#[tool_input(...)]` field attributes.
    const FIELDS: &'static [FieldOptions] = &[];
    /// The policy of a `#[tool_input(policy = "...")]` container attribute.
    const POLICY: Option<Policy> = None;
    /// Assert `format` (`true`, the default), or read it as an annotation only: `false`
    /// from `#[tool_input(formats = false)]`.
    const FORMATS: bool = true;
    /// The top-level fields whose Rust name is not the name the model sends, as
    /// `(rust, serde)` pairs, for rules that name fields as Rust does (garde); a flattened
    /// field's serde name is empty (its members are sent at the top level). The Rust name is
    /// written without `r#`. Not public API.
    #[doc(hidden)]
    const __FIELD_NAMES: &'static [(&'static str, &'static str)] = &[];
    /// One probe per top-level field, reading its value alone by the field's type, so that
    /// every field serde refuses is reported, not only the first. Not public API.
    #[doc(hidden)]
    const __FIELD_PROBES: &'static [crate::probe::FieldProbe] = &[];
    /// The other names serde reads top-level fields under (`#[serde(alias = "...")]`), as
    /// `(alias, serde)` pairs. Not public API.
    #[doc(hidden)]
    const __ALIASES: &'static [(&'static str, &'static str)] = &[];
    /// What serde reads inside the fields' own types that their schema does not say (the
    /// facts of fields whose types derive `PartialValue`). Not public API.
    #[doc(hidden)]
    const __NESTED_FACTS: fn(&mut crate::serde_facts::SerdeFacts) = |_| {};

    /// The compiled definition: schema and coercion plan, built once per type.
    ///
    /// # Panics
    /// On first use, if the schema the type generates cannot be compiled (for example a
    /// `pattern` that is not a valid ECMA-262 regular expression): a bug in the type, not
    /// in the input.
    fn definition() -> &'static ToolDefinition;

    /// The tool's own rules over the typed value, run after every schema check passed:
    /// `#[tool_input(validate = path::to::fn)]` makes this call `fn(&Self) -> Result<(),
    /// Vec<FieldError>>`. Its errors ([`FieldError::custom`], each placed at a path) refuse
    /// the arguments with a rejection like any other, so the model reads them with their
    /// paths, and a [`Toolbox`](crate::Toolbox) counts them against the tool's retry budget.
    ///
    /// ```
    /// use serde::Deserialize;
    /// use schemars::JsonSchema;
    /// use tool_input::{FieldError, ToolInput};
    ///
    /// /// Book a room.
    /// #[derive(Debug, Deserialize, JsonSchema, ToolInput)]
    /// #[tool_input(validate = check_dates)]
    /// struct BookRoom {
    ///     start: u32,
    ///     end: u32,
    /// }
    ///
    /// fn check_dates(booking: &BookRoom) -> Result<(), Vec<FieldError>> {
    ///     if booking.end <= booking.start {
    ///         let error = FieldError::custom(format!("must be after `start` ({})", booking.start));
    ///         return Err(vec![error.at("end").with_value(booking.end)]);
    ///     }
    ///     Ok(())
    /// }
    ///
    /// assert!(BookRoom::from_arguments(r#"{"start": 3, "end": "5"}"#).is_ok());
    /// let rejection = BookRoom::from_arguments(r#"{"start": 3, "end": 2}"#).unwrap_err();
    /// assert_eq!(rejection.errors()[0].path(), "/end");
    /// assert!(rejection.to_string().contains("- /end: must be after `start` (3)"));
    /// ```
    fn validate_input(&self) -> Result<(), Vec<FieldError>> {
        Ok(())
    }

    /// The JSON Schema of the arguments, as the model sees it.
    fn schema() -> &'static Value {
        Self::definition().schema()
    }

    /// Turn raw arguments into `Self` under the tool's policy.
    ///
    /// The same value, or the same rejection, as
    /// [`from_arguments_with_report`](ToolInput::from_arguments_with_report), without
    /// writing the report it would drop; it does not call
    /// [`from_arguments_with`](ToolInput::from_arguments_with), so an implementation that
    /// overrides that method overrides this one too.
    fn from_arguments<'a>(raw: impl Into<RawArguments<'a>>) -> Result<Self, Rejection> {
        // As `from_arguments_with_report`, without writing the report's coercions, and
        // `apply_rules` on the value alone (moved once less).
        let definition = Self::definition();
        let options = CheckOptions::default();
        let Checked { value, report } = definition
            .validator()
            .check_typed_value::<Self>(raw.into(), &options, crate::probe::Fields::of::<Self>())
            .map_err(|rejection| rejection.with_tool_named(&definition.name))?;
        match value.validate_input() {
            Ok(()) => Ok(value),
            Err(errors) => {
                Err(crate::custom::refused(errors, report, Self::FIELDS).with_tool_named(&definition.name))
            }
        }
    }

    /// Turn raw arguments into `Self`, with the repairs and coercions applied, for logging.
    fn from_arguments_with_report<'a>(raw: impl Into<RawArguments<'a>>) -> Result<Checked<Self>, Rejection> {
        Self::from_arguments_with(raw, &CheckOptions::default())
    }

    /// Turn raw arguments into `Self` with explicit options (policy, limits).
    fn from_arguments_with<'a>(
        raw: impl Into<RawArguments<'a>>,
        options: &CheckOptions,
    ) -> Result<Checked<Self>, Rejection> {
        let definition = Self::definition();
        definition
            .validator()
            .check_typed::<Self>(raw.into(), options, crate::probe::Fields::of::<Self>())
            .and_then(apply_rules::<Self>)
            .map_err(|rejection| rejection.with_tool_named(&definition.name))
    }

    /// Turn raw arguments that a model produced after being shown this tool in `dialect`
    /// into `Self`: what the dialect's transform changed is undone first (a `null` for an
    /// optional field under OpenAI strict is absent), so they give the same value as the
    /// plain form. See [`ToolDefinition::check_as`].
    ///
    /// ```
    /// use serde::Deserialize;
    /// use schemars::JsonSchema;
    /// use tool_input::{CheckOptions, Dialect, ToolInput};
    ///
    /// /// Search the catalogue.
    /// #[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
    /// #[tool_input(policy = "strict")]
    /// struct Search {
    ///     query: String,
    ///     #[serde(default)]
    ///     page: u32,
    /// }
    ///
    /// // Shown the strict definition, the model sends `null` for the page it leaves out.
    /// let sent = r#"{"query": "rust", "page": null}"#;
    /// let search = Search::from_dialect_arguments(Dialect::OpenAiStrict, sent, &CheckOptions::default()).unwrap();
    /// assert_eq!(search.value, Search::from_arguments(r#"{"query": "rust"}"#).unwrap());
    /// ```
    fn from_dialect_arguments<'a>(
        dialect: Dialect,
        raw: impl Into<RawArguments<'a>>,
        options: &CheckOptions,
    ) -> Result<Checked<Self>, Rejection> {
        let definition = Self::definition();
        definition.check_as(dialect, raw.into(), options).and_then(typed::<Self>)
    }
}

/// Run `T`'s own rules ([`ToolInput::validate_input`]) on a value that passed the schema.
/// A rejection names no tool (the caller adds it, as for every other rejection).
pub(crate) fn apply_rules<T: ToolInput>(checked: Checked<T>) -> Result<Checked<T>, Rejection> {
    match checked.value.validate_input() {
        Ok(()) => Ok(checked),
        Err(errors) => Err(crate::custom::refused(errors, checked.report, T::FIELDS)),
    }
}

/// A checked JSON value as `T`, through serde and then `T`'s rules; a rejection names the tool.
pub(crate) fn typed<T: ToolInput>(checked: Checked<Value>) -> Result<Checked<T>, Rejection> {
    crate::validator::deserialize_checked::<T>(checked, crate::probe::Fields::of::<T>())
        .and_then(apply_rules::<T>)
        .map_err(|rejection| rejection.with_tool_named(T::definition().shared_name()))
}

/// A tool's name, description, JSON Schema and compiled validator.
///
/// Built by `#[derive(ToolInput)]` once per type, or from a plain JSON Schema with
/// [`ToolDefinition::new`].
///
/// ```
/// use tool_input::ToolDefinition;
/// use serde_json::json;
///
/// let tool = ToolDefinition::new(
///     "get_weather",
///     Some("Get the weather for a city."),
///     json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}),
/// ).unwrap();
/// let rejection = tool.check("{}").unwrap_err();
/// assert!(rejection.to_string().contains("get_weather"));
/// ```
#[derive(Debug, Clone)]
pub struct ToolDefinition {
    /// Shared with every rejection that names the tool.
    name: Arc<str>,
    description: Option<String>,
    validator: Validator,
}

impl ToolDefinition {
    /// A definition from a plain JSON Schema, with the default policy.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::ToolDefinition;
    ///
    /// let ping = ToolDefinition::new("ping", Some("Ping a host."),
    ///     json!({"type": "object", "properties": {"host": {"type": "string"}}, "required": ["host"]}))?;
    /// assert_eq!(ping.check(r#"{"host": "example.com"}"#)?.value, json!({"host": "example.com"}));
    /// // A schema that cannot be compiled is an error here, not at the first call.
    /// let broken = json!({"type": "object", "properties": {"host": {"type": "string", "pattern": "("}}});
    /// assert!(ToolDefinition::new("ping", None, broken).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(
        name: impl Into<String>,
        description: Option<&str>,
        schema: Value,
    ) -> Result<Self, SchemaError> {
        Ok(Self::from_validator(name, description, Validator::new(&schema)?))
    }

    /// A definition around an already configured validator.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::{Policy, ToolDefinition, Validator};
    ///
    /// let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]});
    /// let strict = Validator::builder(&schema).policy(Policy::Strict).build()?;
    /// let count = ToolDefinition::from_validator("count", None, strict);
    /// assert!(count.check(r#"{"n": "3"}"#).is_err()); // no coercion under `Policy::Strict`
    /// assert!(ToolDefinition::new("count", None, schema)?.check(r#"{"n": "3"}"#).is_ok());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_validator(name: impl Into<String>, description: Option<&str>, validator: Validator) -> Self {
        ToolDefinition {
            name: Arc::from(name.into()),
            description: description.map(str::to_owned),
            validator,
        }
    }

    /// The tool's name.
    ///
    /// ```
    /// # use schemars::JsonSchema;
    /// # use serde::Deserialize;
    /// use tool_input::ToolInput;
    ///
    /// /// Get the weather for a city.
    /// #[derive(Deserialize, JsonSchema, ToolInput)]
    /// struct GetWeather { city: String }
    ///
    /// assert_eq!(GetWeather::definition().name(), "get_weather");
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The name, as rejections share it ([`Rejection::with_tool_named`]).
    pub(crate) fn shared_name(&self) -> &Arc<str> {
        &self.name
    }

    /// The tool's description.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::ToolDefinition;
    ///
    /// let tool = ToolDefinition::new("ping", Some("Ping a host."), json!({"type": "object"}))?;
    /// assert_eq!(tool.description(), Some("Ping a host."));
    /// assert_eq!(ToolDefinition::new("ping", None, json!({"type": "object"}))?.description(), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    /// The JSON Schema of the arguments, as the model sees it.
    ///
    /// ```
    /// # use schemars::JsonSchema;
    /// # use serde::Deserialize;
    /// use tool_input::ToolInput;
    ///
    /// /// Get the weather for a city.
    /// #[derive(Deserialize, JsonSchema, ToolInput)]
    /// struct GetWeather { city: String, days: Option<u8> }
    ///
    /// let schema = GetWeather::definition().schema();
    /// assert_eq!(schema["type"], "object");
    /// assert_eq!(schema["required"], serde_json::json!(["city"]));
    /// ```
    pub fn schema(&self) -> &Value {
        self.validator.schema()
    }

    /// The compiled validator.
    ///
    /// ```
    /// # use schemars::JsonSchema;
    /// # use serde::Deserialize;
    /// use serde_json::json;
    /// use tool_input::{Policy, ToolInput};
    ///
    /// /// Get the weather for a city.
    /// #[derive(Deserialize, JsonSchema, ToolInput)]
    /// struct GetWeather { city: String }
    ///
    /// let validator = GetWeather::definition().validator();
    /// assert_eq!(validator.policy(), Policy::Default); // no `#[tool_input(policy = ...)]`
    /// assert!(validator.is_valid(&json!({"city": "Paris"})));
    /// assert!(!validator.is_valid(&json!({"town": "Paris"})));
    /// ```
    pub fn validator(&self) -> &Validator {
        &self.validator
    }

    /// Check raw arguments; a rejection names the tool.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::ToolDefinition;
    ///
    /// let tool = ToolDefinition::new("tag", None, json!({"type": "object",
    ///     "properties": {"tags": {"type": "array", "items": {"type": "string"}}}, "required": ["tags"]}))?;
    /// let checked = tool.check(r#"{"tags": "[\"a\", \"b\"]"}"#)?; // a list sent as a string
    /// assert_eq!(checked.value, json!({"tags": ["a", "b"]}));
    /// assert_eq!(checked.report.coercions[0].path, "/tags");
    /// let rejection = tool.check("{}").unwrap_err();
    /// assert!(rejection.to_string().starts_with("The arguments for tool `tag` were rejected"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn check<'a>(&self, raw: impl Into<RawArguments<'a>>) -> Result<Checked<Value>, Rejection> {
        self.check_with(raw.into(), &CheckOptions::default())
    }

    /// Check raw arguments with explicit options; a rejection names the tool.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::{CheckOptions, Policy, ToolDefinition};
    ///
    /// let tool = ToolDefinition::new("count", None,
    ///     json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}))?;
    /// let sent = r#"{"n": "3"}"#;
    /// assert_eq!(tool.check_with(sent.into(), &CheckOptions::new())?.value, json!({"n": 3}));
    /// let strict = CheckOptions::new().with_policy(Policy::Strict);
    /// let rejection = tool.check_with(sent.into(), &strict).unwrap_err();
    /// assert_eq!(rejection.errors()[0].path(), "/n");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn check_with(
        &self,
        raw: RawArguments<'_>,
        options: &CheckOptions,
    ) -> Result<Checked<Value>, Rejection> {
        self.validator.check_with(raw, options).map_err(|rejection| rejection.with_tool_named(&self.name))
    }
}

// A tool as a dialect shows it to a model, and the arguments read back from it.
impl ToolDefinition {
    /// This tool's definition in `dialect`; see the [module](crate::dialect) for what each
    /// dialect changes.
    ///
    /// ```
    /// use tool_input::{Dialect, ToolDefinition};
    /// use serde_json::json;
    ///
    /// let tool = ToolDefinition::new("get_weather", Some("Get the weather."),
    ///     json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]})).unwrap();
    /// assert_eq!(tool.to_dialect(Dialect::Anthropic), json!({
    ///     "name": "get_weather",
    ///     "description": "Get the weather.",
    ///     "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
    /// }));
    /// ```
    pub fn to_dialect(&self, dialect: Dialect) -> Value {
        tool_definition(self.name(), self.description(), self.schema(), dialect)
    }

    /// What `dialect` would reject in [`ToolDefinition::to_dialect`]'s definition: empty
    /// when the provider accepts it. Meant for a test, so a bad tool fails there rather
    /// than as a 400 in production.
    ///
    /// ```
    /// use tool_input::{Dialect, ToolDefinition};
    /// use serde_json::json;
    ///
    /// let tool = ToolDefinition::new("tag", None, json!({"type": "object", "properties": {
    ///     "labels": {"type": "object", "additionalProperties": {"type": "string"}}}})).unwrap();
    /// assert!(tool.check_dialect(Dialect::OpenAi).is_empty());
    /// // A map cannot be written in strict mode.
    /// assert_eq!(tool.check_dialect(Dialect::OpenAiStrict)[0].code.code(), "unrepresentable");
    /// ```
    pub fn check_dialect(&self, dialect: Dialect) -> Vec<DialectProblem> {
        check_tool(self.name(), self.description(), self.schema(), dialect)
    }

    /// Check arguments a model produced after being shown this tool in `dialect`: undo what
    /// the dialect's transform changed (see the [module](crate::dialect)), then check
    /// against the original schema with the tool's policy, as
    /// [`ToolDefinition::check_with`] does.
    ///
    /// ```
    /// use tool_input::{CheckOptions, Dialect, Policy, ToolDefinition};
    /// use serde_json::json;
    ///
    /// let tool = ToolDefinition::new("get_weather", None, json!({"type": "object",
    ///     "properties": {"city": {"type": "string"}, "days": {"type": "integer", "default": 1}},
    ///     "required": ["city"], "additionalProperties": false})).unwrap();
    /// let strict = CheckOptions::new().with_policy(Policy::Strict);
    /// // What a strict-mode model sends: every field, null for the one it leaves out.
    /// let sent = r#"{"city": "Paris", "days": null}"#;
    /// assert!(tool.check_with(sent.into(), &strict).is_err());
    /// let checked = tool.check_as(Dialect::OpenAiStrict, sent.into(), &strict).unwrap();
    /// assert_eq!(checked.value, json!({"city": "Paris", "days": 1}));
    /// ```
    pub fn check_as(
        &self,
        dialect: Dialect,
        raw: RawArguments<'_>,
        options: &CheckOptions,
    ) -> Result<Checked<Value>, Rejection> {
        if !dialect.transforms_arguments() {
            return self.check_with(raw, options);
        }
        let limits = options.limits.unwrap_or(self.validator().limits());
        let sensitive: Vec<&str> = self.validator().sensitive_fields().collect();
        self.validator().check_transformed(raw, options, |value| {
            let undone = crate::dialect::undo::undo(dialect, self.schema(), value, &sensitive, &limits);
            (undone.coercions, undone.omitted)
        })
    }
}
