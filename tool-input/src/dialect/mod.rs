//! Tool definitions for every API, a check of each against the provider's documented
//! limits, and the way back: arguments a model produced under a transformed schema read as
//! the plain schema's.
//!
//! | [`Dialect`] | definition | schema changes |
//! |---|---|---|
//! | `openai` | `{"type": "function", "function": {"name", "description", "parameters"}}` | a root union as one object (below) |
//! | `openai-strict` | the same with `"strict": true` | the strict transform (below) |
//! | `responses` | `{"type": "function", "name", "description", "parameters", "strict": false}` | a root union as one object (below) |
//! | `responses-strict` | the same with `"strict": true` | the strict transform |
//! | `anthropic` | `{"name", "description", "input_schema"}` | a root union as one object (below) |
//! | `gemini` | `{"name", "description", "parameters"}` (a `FunctionDeclaration`) | the OpenAPI subset (below) |
//! | `mcp` | `{"name", "description", "inputSchema"}` | a root union as one object (below) |
//!
//! Every dialect drops the root's `$schema` and makes sure the root says `"type": "object"`
//! when it declares properties without a type. No dialect sends a definition (`$defs`,
//! `definitions`) that nothing refers to: neither one the schema never used, nor one whose
//! every reference a transform inlined, nor one referred to only from such definitions.
//!
//! **OpenAI strict transform** (Structured Outputs' "supported schemas"): every property is
//! listed in `required`, and one that was optional becomes nullable (`["string", "null"]`,
//! an `anyOf` with `{"type": "null"}`, or `null` added to its `enum`) unless it already
//! accepts null; every object gets `"additionalProperties": false`; `oneOf` becomes `anyOf`;
//! a single-schema `allOf` is merged into its parent; a `$ref` with sibling keywords is
//! replaced by its target with the siblings applied; keywords strict mode does not support
//! (`default`, `minLength`, `maxLength`, `uniqueItems`, `minProperties`, `maxProperties`,
//! `not`, `if`/`then`/`else`, `examples`, `$comment`, …) and formats other than `date-time`,
//! `time`, `date`, `duration`, `email`, `hostname`, `ipv4`, `ipv6`, `uuid` are removed. The
//! engine still enforces them on what the model sends, against the original schema. Strict
//! mode takes only an object at the root: a root that is a union of object forms (a struct
//! that flattens an enum, a tool whose input is `oneOf` several objects) becomes one object
//! with the root's properties and every form's; a property not in every form is nullable and,
//! where the forms have a tag (a property each gives a `const` of its own), described as
//! "Only when `kind` is "url"; otherwise null."; the tag's constants become one `enum`. What
//! cannot be expressed (a map, an object that takes properties beyond the ones it lists (a
//! struct's flattened map), `patternProperties`, tuples, an `allOf` of several schemas, a
//! form with keywords of its own beyond its properties) is left for the check to report.
//!
//! **A root union as one object** (Anthropic, MCP, OpenAI without strict mode): Anthropic's
//! API refuses a tool whose `input_schema` has `oneOf`, `allOf` or `anyOf` at the top level,
//! MCP clients pass a server's `inputSchema` to it as it is, and OpenAI refuses `parameters`
//! with `oneOf`, `anyOf`, `allOf`, `enum` or `not` at the top level, strict or not. A root
//! `allOf` of one schema is merged; a root `oneOf`/`anyOf` of object forms becomes one object
//! as in strict mode, its properties of some forms only optional rather than nullable (and
//! described without "otherwise null").
//! A form that only requires some of the root's properties adds nothing; a property both the
//! root and a form declare keeps the root's schema. The original schema still decides.
//!
//! **Gemini transform** (the OpenAPI 3.0 subset of `Schema`): `$ref`s are inlined (a
//! recursive schema cannot be, and is reported); `["T", "null"]` and `anyOf` with a null
//! branch become `nullable: true`; `oneOf` becomes `anyOf`; `allOf` is merged; types are
//! written in upper case (`STRING`); an `enum` or `const` that is not all strings becomes a
//! string enum of the values' JSON text (`[1, 2]` → `["1", "2"]`, type `STRING`); formats
//! other than `date-time`/`enum` (strings), `float`/`double` (numbers) and `int32`/`int64`
//! (integers) are removed (so schemars' `uint32` goes); every keyword outside `Schema`'s
//! fields (`additionalProperties`, `exclusiveMinimum`, `multipleOf`, `uniqueItems`, …) is
//! removed; an array gets the `items` Gemini requires (a tuple's `prefixItems` as one schema,
//! or an `anyOf` of theirs; `{}` for an array of anything); a tool without properties gets no
//! `parameters`.
//!
//! **Reading arguments back** ([`ToolDefinition::check_as`](crate::ToolDefinition::check_as)): under a strict dialect a model
//! sends every property, with `null` for the ones it leaves out; a `null` for a property that
//! is optional in the original schema and does not accept null there is treated as absent
//! (recorded as [`CoercionKind::NullAsAbsent`](crate::CoercionKind::NullAsAbsent)), at every
//! depth, whatever the policy; so is a `null` for a property of a root union's other forms
//! (the form is the one the tag, or the properties given a value, name), so it deserializes into the same Rust value as the plain
//! form (`None`, or the field's default). Under Gemini, a string for an enum whose values
//! were written as strings is read back as the original value. The result is then checked
//! against the original schema, with the tool's policy. This is not a coercion of what the
//! model meant: under the schema it was shown, that was the exact way to say it.

mod anthropic;
mod gemini;
pub(crate) mod kind;
mod mcp;
mod openai;
mod prune;
mod root_union;
pub(crate) mod undo;
pub(crate) mod walk;

use std::fmt;

use serde::Serialize;
use serde_json::{Map, Value};

pub use kind::{Dialect, UnknownDialect};

/// What a provider's documented limits would reject in a tool definition.
///
/// ```
/// use serde_json::json;
/// use tool_input::dialect::{self, ProblemCode};
/// use tool_input::Dialect;
///
/// let schema = json!({"type": "object", "properties": {"tags": {"type": "object", "additionalProperties": {"type": "string"}}}});
/// let codes = |dialect| dialect::check_tool("get.weather", None, &schema, dialect).into_iter().map(|p| p.code).collect::<Vec<_>>();
/// assert_eq!(codes(Dialect::OpenAi), [ProblemCode::Name]); // `.` is not allowed in the name
/// assert_eq!(codes(Dialect::OpenAiStrict), [ProblemCode::Unrepresentable, ProblemCode::Name]); // and a map is not strict
/// assert_eq!(codes(Dialect::Mcp), []);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ProblemCode {
    /// The tool's name does not match the dialect's pattern or length.
    Name,
    /// The schema's root is not an object schema.
    RootNotObject,
    /// A keyword the dialect does not accept.
    UnsupportedKeyword,
    /// A `format` the dialect does not accept.
    UnsupportedFormat,
    /// A `type` the dialect does not accept (Gemini: a list of types, an unknown name, or an
    /// `ARRAY` without `items`).
    UnsupportedType,
    /// Gemini: an enum value that is not a string.
    EnumNotString,
    /// OpenAI strict: an object whose `additionalProperties` is not `false`.
    AdditionalProperties,
    /// OpenAI strict: a property missing from `required`.
    NotRequired,
    /// OpenAI strict: keywords beside a `$ref`.
    RefSiblings,
    /// OpenAI strict: more than 5000 properties in all.
    TooManyProperties,
    /// Nested deeper than the dialect allows (OpenAI strict: 10 levels).
    TooDeep,
    /// OpenAI strict: more than 1000 enum values in all.
    TooManyEnumValues,
    /// OpenAI strict: a string enum of more than 250 values longer than 15,000 characters.
    EnumTooLong,
    /// OpenAI strict: names, enum values and consts longer than 120,000 characters in all.
    TooLong,
    /// Something the dialect's transform cannot express (a map in strict mode, a recursive
    /// schema for Gemini, an `allOf` of several schemas).
    Unrepresentable,
    /// A schema the engine itself refuses, whatever the dialect: a `$ref` that points
    /// nowhere, references that loop without descending into the value, anything else
    /// [`Validator::new`](crate::Validator::new) refuses.
    InvalidSchema,
}

impl ProblemCode {
    /// The stable snake_case name.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::{dialect, Dialect};
    /// let problems = dialect::check_tool("echo", None, &json!({"type": "string"}), Dialect::Anthropic);
    /// assert_eq!(problems[0].code.code(), "root_not_object");
    /// assert_eq!(problems[0].code.to_string(), "root_not_object");
    /// assert_eq!(serde_json::to_value(problems[0].code).unwrap(), "root_not_object");
    /// ```
    pub fn code(self) -> &'static str {
        match self {
            ProblemCode::Name => "name",
            ProblemCode::RootNotObject => "root_not_object",
            ProblemCode::UnsupportedKeyword => "unsupported_keyword",
            ProblemCode::UnsupportedFormat => "unsupported_format",
            ProblemCode::UnsupportedType => "unsupported_type",
            ProblemCode::EnumNotString => "enum_not_string",
            ProblemCode::AdditionalProperties => "additional_properties",
            ProblemCode::NotRequired => "not_required",
            ProblemCode::RefSiblings => "ref_siblings",
            ProblemCode::TooManyProperties => "too_many_properties",
            ProblemCode::TooDeep => "too_deep",
            ProblemCode::TooManyEnumValues => "too_many_enum_values",
            ProblemCode::EnumTooLong => "enum_too_long",
            ProblemCode::TooLong => "too_long",
            ProblemCode::Unrepresentable => "unrepresentable",
            ProblemCode::InvalidSchema => "invalid_schema",
        }
    }
}

impl fmt::Display for ProblemCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// One thing in a tool definition that the provider would reject (with a 400, or by
/// dropping every tool of the request).
///
/// ```
/// use serde_json::json;
/// use tool_input::{dialect, Dialect};
///
/// let schema = json!({"type": "object", "properties": {"tags": {"type": "object", "additionalProperties": {"type": "string"}}}});
/// let problem = &dialect::check_tool("tag", None, &schema, Dialect::OpenAiStrict)[0];
/// assert_eq!(problem.pointer, "/function/parameters/properties/tags/additionalProperties");
/// assert_eq!(problem.code.code(), "unrepresentable");
/// assert_eq!(
///     problem.to_string(),
///     "/function/parameters/properties/tags/additionalProperties: a map (an object with `additionalProperties` and no properties) cannot be written in strict mode (unrepresentable)"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DialectProblem {
    /// JSON Pointer into the definition as exported (`/function/parameters/properties/a`).
    pub pointer: String,
    /// What kind of problem.
    pub code: ProblemCode,
    /// What is wrong, in one sentence.
    pub message: String,
}

impl fmt::Display for DialectProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pointer = if self.pointer.is_empty() { "(definition)" } else { &self.pointer };
        write!(f, "{pointer}: {} ({})", self.message, self.code)
    }
}

/// Collects problems, under a pointer prefix.
#[derive(Debug, Default)]
pub(crate) struct Problems(pub Vec<DialectProblem>);

impl Problems {
    pub fn push(&mut self, pointer: &str, code: ProblemCode, message: impl Into<String>) {
        // One report per place and kind is enough.
        if !self.0.iter().any(|p| p.pointer == pointer && p.code == code) {
            self.0.push(DialectProblem { pointer: pointer.to_owned(), code, message: message.into() });
        }
    }
}

/// A JSON Schema document that describes a whole tool: its root's `title` names the tool and
/// its `description` says what the tool does. A definition carries those two beside the
/// arguments' schema (as for a derived tool), so [`SchemaDocument::split`] takes them out of
/// it; `tool-input schema` and the Python module's `tool_definition` read a schema file so.
///
/// ```
/// use tool_input::dialect::{self, SchemaDocument};
/// use tool_input::Dialect;
/// use serde_json::json;
///
/// let document = SchemaDocument::split(json!({
///     "title": "get_weather",
///     "description": "Get the weather.",
///     "type": "object",
///     "properties": {"city": {"type": "string"}}
/// })).unwrap();
/// assert_eq!(document.title.as_deref(), Some("get_weather"));
/// assert!(document.schema.get("title").is_none());
/// let name = document.title.as_deref().unwrap_or("weather");
/// let tool = dialect::tool_definition(name, document.description.as_deref(), &document.schema, Dialect::Anthropic);
/// assert_eq!(tool["description"], "Get the weather.");
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct SchemaDocument {
    /// The schema, without the root's `title` and `description`.
    pub schema: Value,
    /// The root's `title`, when it is a string: the tool's name, unless one is given.
    pub title: Option<String>,
    /// The root's `description`, when it is a string.
    pub description: Option<String>,
}

impl SchemaDocument {
    /// Take the root's `title` and `description` out of `schema` (whatever their type: a
    /// definition never carries them in its schema); `None` when `schema` is not an object.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::dialect::SchemaDocument;
    ///
    /// let document = SchemaDocument::split(json!({"title": 3, "description": "Get the weather.", "type": "object"})).unwrap();
    /// assert_eq!(document.title, None); // not a string: dropped, never a name
    /// assert_eq!(document.description.as_deref(), Some("Get the weather."));
    /// assert_eq!(document.schema, json!({"type": "object"}));
    /// assert_eq!(SchemaDocument::split(json!(true)), None);
    /// ```
    pub fn split(mut schema: Value) -> Option<Self> {
        let root = schema.as_object_mut()?;
        let text = |value: Option<Value>| match value {
            Some(Value::String(text)) => Some(text),
            _ => None,
        };
        let title = text(root.remove("title"));
        let description = text(root.remove("description"));
        Some(SchemaDocument { schema, title, description })
    }
}

/// The tool definition for a plain JSON Schema, in `dialect`.
///
/// ```
/// use tool_input::{dialect, Dialect};
/// use serde_json::json;
///
/// let schema = json!({"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}, "required": ["city"]});
/// let tool = dialect::tool_definition("get_weather", Some("Get the weather."), &schema, Dialect::OpenAiStrict);
/// assert_eq!(tool["function"]["strict"], true);
/// assert_eq!(tool["function"]["parameters"]["required"], json!(["city", "days"]));
/// assert_eq!(tool["function"]["parameters"]["properties"]["days"]["type"], json!(["integer", "null"]));
/// assert!(dialect::check_tool("get_weather", Some("Get the weather."), &schema, Dialect::OpenAiStrict).is_empty());
/// ```
pub fn tool_definition(name: &str, description: Option<&str>, schema: &Value, dialect: Dialect) -> Value {
    export(name, description, schema, dialect).0
}

/// Only the arguments' schema, as `dialect` wants it (`None` for a Gemini tool without
/// properties, which takes no `parameters`).
///
/// ```
/// use tool_input::{dialect, Dialect};
/// use serde_json::json;
///
/// let schema = json!({"type": "object", "properties": {
///     "n": {"type": ["integer", "null"], "format": "uint32", "exclusiveMinimum": 0}}});
/// assert_eq!(dialect::transform_schema(&schema, Dialect::Gemini), Some(json!({
///     "type": "OBJECT",
///     "properties": {"n": {"type": "INTEGER", "nullable": true}}
/// })));
/// ```
pub fn transform_schema(schema: &Value, dialect: Dialect) -> Option<Value> {
    let schema = prepared(schema);
    let mut problems = Problems::default();
    match dialect {
        Dialect::OpenAiStrict | Dialect::ResponsesStrict => {
            Some(openai::strict_schema(&schema, "", &mut problems))
        }
        Dialect::Gemini => gemini::schema(&schema, "", &mut problems),
        Dialect::OpenAi | Dialect::Responses | Dialect::Anthropic | Dialect::Mcp => {
            let mut schema = if dialect == Dialect::Mcp { mcp::input_schema(schema) } else { schema };
            root_union::one_object(&mut schema, "", &mut problems);
            Some(schema)
        }
    }
}

/// What `dialect`'s documented limits would reject in a definition you send as is (for
/// example one written by hand): names, keywords, formats, enum values, sizes, nesting.
///
/// ```
/// use tool_input::{dialect, Dialect};
/// use serde_json::json;
///
/// let declaration = json!({"name": "f", "parameters": {"type": "OBJECT", "properties": {
///     "n": {"type": "INTEGER", "exclusiveMinimum": 0}}}});
/// let problems = dialect::check_definition(&declaration, Dialect::Gemini);
/// assert_eq!(problems[0].code.code(), "unsupported_keyword");
/// assert_eq!(problems[0].pointer, "/parameters/properties/n/exclusiveMinimum");
/// ```
pub fn check_definition(definition: &Value, dialect: Dialect) -> Vec<DialectProblem> {
    let mut problems = Problems::default();
    match dialect {
        Dialect::OpenAi | Dialect::OpenAiStrict => {
            openai::check_chat(definition, dialect.is_strict(), &mut problems)
        }
        Dialect::Responses | Dialect::ResponsesStrict => {
            openai::check_responses(definition, dialect.is_strict(), &mut problems)
        }
        Dialect::Anthropic => anthropic::check(definition, &mut problems),
        Dialect::Gemini => gemini::check(definition, &mut problems),
        Dialect::Mcp => mcp::check(definition, &mut problems),
    }
    problems.0
}

/// What `dialect` would reject in the definition [`tool_definition`] exports for this tool:
/// what its transform could not express, and what the exported definition breaks of the
/// provider's limits. Empty when the provider would accept it.
///
/// ```
/// use serde_json::json;
/// use tool_input::{dialect, Dialect};
///
/// let schema = json!({"type": "object", "properties": {"city": {"type": "string"}}});
/// assert!(dialect::check_tool("get_weather", Some("Get the weather."), &schema, Dialect::OpenAiStrict).is_empty());
/// // A schema the engine refuses is reported whatever the dialect.
/// let broken = json!({"type": "object", "properties": {"city": {"$ref": "#/$defs/City"}}});
/// let problems = dialect::check_tool("get_weather", None, &broken, Dialect::Anthropic);
/// assert_eq!(problems[0].code.code(), "invalid_schema");
/// assert_eq!(problems[0].pointer, "/input_schema/properties/city");
/// ```
pub fn check_tool(
    name: &str,
    description: Option<&str>,
    schema: &Value,
    dialect: Dialect,
) -> Vec<DialectProblem> {
    let (definition, mut problems) = export(name, description, schema, dialect);
    // What the engine refuses comes first: no provider's limit makes such a schema usable.
    if let Err(error) = crate::plan::Plan::compile(schema) {
        let pointer = format!("{}{}", parameters_pointer(dialect), error.pointer);
        problems
            .0
            .insert(0, DialectProblem { pointer, code: ProblemCode::InvalidSchema, message: error.message });
    }
    // Where the transform already said what it could not express, the provider's complaint
    // about the same place adds nothing.
    let explained: Vec<String> = problems.0.iter().map(|p| p.pointer.clone()).collect();
    for problem in check_definition(&definition, dialect) {
        let under = |at: &String| problem.pointer == *at || problem.pointer.starts_with(&format!("{at}/"));
        if !explained.iter().any(under) {
            problems.0.push(problem);
        }
    }
    problems.0
}

/// Where the parameters' schema sits in the definition `dialect` exports.
fn parameters_pointer(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::OpenAi | Dialect::OpenAiStrict => "/function/parameters",
        Dialect::Responses | Dialect::ResponsesStrict | Dialect::Gemini => "/parameters",
        Dialect::Anthropic => "/input_schema",
        Dialect::Mcp => "/inputSchema",
    }
}

/// The schema every dialect starts from: no `$schema`, an explicit object type at the root
/// when properties are declared without one, and no definitions nothing refers to.
fn prepared(schema: &Value) -> Value {
    let mut schema = schema.clone();
    if let Value::Object(root) = &mut schema {
        root.remove("$schema");
        if !root.contains_key("type") && root.contains_key("properties") {
            root.insert("type".to_owned(), Value::String("object".to_owned()));
        }
    }
    prune::prune_definitions(&mut schema);
    schema
}

/// The definition and the transform's problems.
fn export(name: &str, description: Option<&str>, schema: &Value, dialect: Dialect) -> (Value, Problems) {
    let schema = prepared(schema);
    let mut problems = Problems::default();
    let description = description.filter(|text| !text.is_empty());
    let mut definition = Map::new();
    match dialect {
        Dialect::OpenAi | Dialect::OpenAiStrict => {
            let strict = dialect.is_strict();
            let parameters = if strict {
                openai::strict_schema(&schema, "/function/parameters", &mut problems)
            } else {
                // OpenAI refuses a root `oneOf`/`anyOf`/`allOf` without strict mode too (400,
                // "schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/
                // 'not' at the top level"): a struct that flattens an enum has one.
                let mut schema = schema;
                root_union::one_object(&mut schema, "/function/parameters", &mut problems);
                schema
            };
            let mut function = Map::new();
            function.insert("name".to_owned(), Value::from(name));
            if let Some(description) = description {
                function.insert("description".to_owned(), Value::from(description));
            }
            function.insert("parameters".to_owned(), parameters);
            if strict {
                function.insert("strict".to_owned(), Value::Bool(true));
            }
            definition.insert("type".to_owned(), Value::from("function"));
            definition.insert("function".to_owned(), Value::Object(function));
        }
        Dialect::Responses | Dialect::ResponsesStrict => {
            let strict = dialect.is_strict();
            let parameters = if strict {
                openai::strict_schema(&schema, "/parameters", &mut problems)
            } else {
                // Refused at the top level as for Chat Completions (above).
                let mut schema = schema;
                root_union::one_object(&mut schema, "/parameters", &mut problems);
                schema
            };
            definition.insert("type".to_owned(), Value::from("function"));
            definition.insert("name".to_owned(), Value::from(name));
            if let Some(description) = description {
                definition.insert("description".to_owned(), Value::from(description));
            }
            definition.insert("parameters".to_owned(), parameters);
            // The Responses API makes function tools strict unless told otherwise.
            definition.insert("strict".to_owned(), Value::Bool(strict));
        }
        Dialect::Anthropic => {
            definition.insert("name".to_owned(), Value::from(name));
            if let Some(description) = description {
                definition.insert("description".to_owned(), Value::from(description));
            }
            let mut schema = schema;
            root_union::one_object(&mut schema, "/input_schema", &mut problems);
            definition.insert("input_schema".to_owned(), schema);
        }
        Dialect::Gemini => {
            definition.insert("name".to_owned(), Value::from(name));
            if let Some(description) = description {
                definition.insert("description".to_owned(), Value::from(description));
            }
            if let Some(parameters) = gemini::schema(&schema, "/parameters", &mut problems) {
                definition.insert("parameters".to_owned(), parameters);
            }
        }
        Dialect::Mcp => {
            definition.insert("name".to_owned(), Value::from(name));
            if let Some(description) = description {
                definition.insert("description".to_owned(), Value::from(description));
            }
            let mut schema = mcp::input_schema(schema);
            root_union::one_object(&mut schema, "/inputSchema", &mut problems);
            definition.insert("inputSchema".to_owned(), schema);
        }
    }
    (Value::Object(definition), problems)
}

/// The tool names a provider accepts: `^[A-Za-z0-9_-]{1,max}$` plus `extra` characters,
/// and for Gemini a letter or `_` first.
#[derive(Debug, Clone, Copy)]
pub(crate) struct NameRule {
    max: usize,
    extra: &'static [char],
    letter_first: bool,
}

impl NameRule {
    /// The rule of `dialect`'s provider.
    pub(crate) fn of(dialect: Dialect) -> NameRule {
        match dialect {
            Dialect::OpenAi
            | Dialect::OpenAiStrict
            | Dialect::Responses
            | Dialect::ResponsesStrict
            | Dialect::Anthropic => NameRule { max: 64, extra: &[], letter_first: false },
            Dialect::Gemini => NameRule { max: 128, extra: &['.', ':'], letter_first: true },
            Dialect::Mcp => NameRule { max: 128, extra: &['.'], letter_first: false },
        }
    }

    fn allows_char(self, c: char) -> bool {
        c.is_ascii_alphanumeric() || c == '_' || c == '-' || self.extra.contains(&c)
    }

    /// Does the provider accept `name`?
    pub(crate) fn allows(self, name: &str) -> bool {
        let starts_well =
            !self.letter_first || name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
        !name.is_empty()
            && starts_well
            && name.chars().count() <= self.max
            && name.chars().all(|c| self.allows_char(c))
    }
}

/// The name a tool's definition is sent under in `dialect`: its own name when the provider
/// accepts it; otherwise the name fitted to the provider's pattern, each character the
/// pattern does not allow written as `_` (`get.weather` → `get_weather` for OpenAI and
/// Anthropic, whose names must match `^[a-zA-Z0-9_-]{1,64}$`), a `_` put first where Gemini
/// wants a letter, and cut to the longest name allowed. An empty name stays empty (there
/// is nothing to fit; [`check_tool`] reports it).
///
/// The [`Toolbox`](crate::Toolbox) sends its definitions under these names and maps a call
/// to one back to the registered tool ([`crate::calls::MatchedBy::SentName`]). The free
/// [`tool_definition`] writes the name as given, so [`check_tool`] can report it.
///
/// ```
/// use tool_input::{dialect, Dialect};
/// assert_eq!(dialect::sent_name("get.weather", Dialect::OpenAi), "get_weather");
/// assert_eq!(dialect::sent_name("get.weather", Dialect::Mcp), "get.weather");
/// assert_eq!(dialect::sent_name("1st tool", Dialect::Gemini), "_1st_tool");
/// assert_eq!(dialect::sent_name(&"x".repeat(70), Dialect::Anthropic).len(), 64);
/// ```
pub fn sent_name(name: &str, dialect: Dialect) -> std::borrow::Cow<'_, str> {
    let rule = NameRule::of(dialect);
    if name.is_empty() || rule.allows(name) {
        return std::borrow::Cow::Borrowed(name);
    }
    let mut fitted = String::with_capacity(name.len() + 1);
    if rule.letter_first && !name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        fitted.push('_');
    }
    fitted.extend(name.chars().map(|c| if rule.allows_char(c) { c } else { '_' }));
    fitted.truncate(rule.max); // every character is ASCII now
    std::borrow::Cow::Owned(fitted)
}

/// Does the node describe an object (its type says so, or it declares properties)?
pub(crate) fn is_object_schema(node: &Map<String, Value>) -> bool {
    let typed = match node.get("type") {
        Some(Value::String(name)) => name.eq_ignore_ascii_case("object"),
        Some(Value::Array(names)) => {
            names.iter().any(|n| n.as_str().is_some_and(|n| n.eq_ignore_ascii_case("object")))
        }
        _ => false,
    };
    typed || node.contains_key("properties")
}
