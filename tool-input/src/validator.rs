//! The engine for any JSON Schema: raw arguments in, a checked value or a rejection out.

use std::collections::HashMap;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::alias::Aliases;
use crate::check::fast::Fast;
use crate::check::skim::Skim;
use crate::check::{FieldOverride, Walker};
use crate::error::{ErrorCode, FieldError, Options, Rejection, RejectionKind};
use crate::key_order::KeyOrder;
use crate::limits::Limits;
use crate::members::{self, Finding, Repeat};
use crate::parse::{self, ParseMode, Repair};
use crate::parsed_text::ParsedText;
use crate::plan::{Plan, Resources};
use crate::policy::Policy;
use crate::probe::Fields;
use crate::raw::RawArguments;
use crate::report::{Checked, Coercion, CoercionKind, Report};
use crate::schema_error::SchemaError;
use crate::serde_facts::Within;
use defaults::{defaults_coerced, defaults_exact, refused_default};
use typed::Defaults;

mod blame;
mod defaults;
mod sensitive;
mod typed;

/// Per-call options: override the validator's policy or limits for one check.
///
/// ```
/// use tool_input::{CheckOptions, Policy};
/// use tool_input::Validator;
/// use serde_json::json;
///
/// let validator = Validator::new(&json!({"type": "object", "properties": {"n": {"type": "integer"}}}))?;
/// let exact = CheckOptions::new().with_policy(Policy::Strict);
/// assert!(validator.check(r#"{"n": "3"}"#).is_ok());
/// assert!(validator.check_with(r#"{"n": "3"}"#.into(), &exact).is_err());
/// # Ok::<(), tool_input::SchemaError>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct CheckOptions {
    /// The policy for this call, instead of the validator's (per-field policies still win).
    pub policy: Option<Policy>,
    /// The limits for this call, instead of the validator's.
    pub limits: Option<Limits>,
}

impl CheckOptions {
    /// The validator's own policy and limits.
    ///
    /// ```
    /// use tool_input::CheckOptions;
    ///
    /// let options = CheckOptions::new();
    /// assert_eq!((options.policy, options.limits), (None, None));
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Check this call under `policy` instead of the validator's.
    ///
    /// ```
    /// use tool_input::{CheckOptions, Policy, Validator};
    /// use serde_json::json;
    ///
    /// let validator = Validator::new(&json!({"type": "object", "properties": {"tags": {"type": "array"}}}))?;
    /// let lenient = CheckOptions::new().with_policy(Policy::Lenient);
    /// // One value where a list belongs: a one-item list, under the lenient policy only.
    /// assert!(validator.check(r#"{"tags": "urgent"}"#).is_err());
    /// let checked = validator.check_with(r#"{"tags": "urgent"}"#.into(), &lenient).unwrap();
    /// assert_eq!(checked.value, json!({"tags": ["urgent"]}));
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn with_policy(mut self, policy: Policy) -> Self {
        self.policy = Some(policy);
        self
    }

    /// Check this call within `limits` instead of the validator's.
    ///
    /// ```
    /// use tool_input::{CheckOptions, Limits, RejectionKind, Validator};
    /// use serde_json::json;
    ///
    /// let validator = Validator::new(&json!({"type": "object"}))?;
    /// let small = CheckOptions::new().with_limits(Limits::default().with_max_bytes(8));
    /// let rejection = validator.check_with(r#"{"note": "too long"}"#.into(), &small).unwrap_err();
    /// assert_eq!(rejection.kind(), RejectionKind::TooLarge);
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = Some(limits);
        self
    }
}

/// A JSON Schema compiled once into a coercion and validation plan.
///
/// Cheap to clone (the plan is shared). Every keyword of drafts 2020-12 and 2019-09, and
/// drafts 7, 6 and 4 each in their own meaning (chosen by `$schema`; 2020-12 when it names
/// none), `format` asserted. A `$ref` leads inside the schema, to a draft's bundled
/// metaschema or to a document given with [`ValidatorBuilder::resource`]; it is never
/// fetched, and one that leads nowhere is a [`SchemaError`] that names it.
///
/// ```
/// use tool_input::{Validator, Policy};
/// use serde_json::json;
///
/// let schema = json!({
///     "type": "object",
///     "properties": {"tags": {"type": "array", "items": {"type": "string"}}},
///     "required": ["tags"]
/// });
/// let validator = Validator::new(&schema).unwrap();
/// let checked = validator.check(r#"{"tags": "[\"a\", \"b\"]"}"#).unwrap();
/// assert_eq!(checked.value, json!({"tags": ["a", "b"]}));
///
/// let strict = Validator::builder(&schema).policy(Policy::Strict).build().unwrap();
/// assert!(strict.check(r#"{"tags": "[\"a\", \"b\"]"}"#).is_err());
/// ```
#[derive(Debug, Clone)]
pub struct Validator {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    schema: Value,
    plan: Plan,
    policy: Policy,
    limits: Limits,
    overrides: HashMap<String, FieldOverride>,
    aliases: Aliases,
}

/// Configures a [`Validator`]: policy, limits and per-field options.
///
/// ```
/// use tool_input::{Limits, Policy, Validator};
/// use serde_json::json;
///
/// let schema = json!({"type": "object", "properties": {"token": {"type": "string"}}});
/// let validator = Validator::builder(&schema)
///     .policy(Policy::Strict)
///     .limits(Limits::default().with_max_bytes(1024))
///     .field("token", None, true)
///     .build()?;
/// let rejection = validator.check(r#"{"token": 12345}"#).unwrap_err();
/// assert!(!rejection.to_string().contains("12345")); // a sensitive value is never echoed
/// # Ok::<(), tool_input::SchemaError>(())
/// ```
#[derive(Debug, Clone)]
pub struct ValidatorBuilder {
    schema: Value,
    policy: Policy,
    limits: Limits,
    overrides: HashMap<String, FieldOverride>,
    aliases: Aliases,
    formats: bool,
    defaults: bool,
    order: Option<KeyOrder>,
    resources: Resources,
}

impl ValidatorBuilder {
    /// The policy for every field without its own.
    ///
    /// ```
    /// use tool_input::{Policy, Validator};
    /// # use serde_json::json;
    /// # let schema = json!({
    /// #     "type": "object",
    /// #     "properties": {"count": {"type": "integer"}, "city": {"type": "string"}},
    /// #     "additionalProperties": false
    /// # });
    /// let strict = Validator::builder(&schema).policy(Policy::Strict).build()?;
    /// assert_eq!(strict.policy(), Policy::Strict);
    /// assert!(strict.check(r#"{"count": "3"}"#).is_err());
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn policy(mut self, policy: Policy) -> Self {
        self.policy = policy;
        self
    }

    /// The limits every check of this validator works within (a call may set its own with
    /// [`CheckOptions::with_limits`]).
    ///
    /// ```
    /// use tool_input::{Limits, Validator};
    /// # use serde_json::json;
    /// # let schema = json!({
    /// #     "type": "object",
    /// #     "properties": {"count": {"type": "integer"}, "city": {"type": "string"}},
    /// #     "additionalProperties": false
    /// # });
    /// let validator = Validator::builder(&schema).limits(Limits::default().with_max_depth(4)).build()?;
    /// assert_eq!(validator.limits().max_depth, 4);
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Options of one top-level property: its own policy (for its whole value), and whether
    /// its value is sensitive (never shown in errors and reports).
    ///
    /// ```
    /// use tool_input::{Policy, Validator};
    /// # use serde_json::json;
    /// # let schema = json!({
    /// #     "type": "object",
    /// #     "properties": {"count": {"type": "integer"}, "city": {"type": "string"}},
    /// #     "additionalProperties": false
    /// # });
    /// let validator = Validator::builder(&schema).field("count", Some(Policy::Strict), false).build()?;
    /// assert!(validator.check(r#"{"count": "3"}"#).is_err()); // strict for `count`
    /// assert!(validator.check(r#"{"count": 3, "city": "Paris"}"#).is_ok());
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn field(mut self, name: impl Into<String>, policy: Option<Policy>, sensitive: bool) -> Self {
        self.overrides.insert(name.into(), FieldOverride { policy, sensitive });
        self
    }

    /// Another name the top-level property `name` is read under, as serde reads a field
    /// with `#[serde(alias = "...")]` (the derive adds each one). The schema still shows
    /// only `name`; arguments that send the alias are read as `name`, recorded as a
    /// [`CoercionKind::Alias`], and an alias sent beside `name` with another value is a
    /// `duplicate_key` error.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::{CoercionKind, Validator};
    ///
    /// let schema = json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]});
    /// let validator = Validator::builder(&schema).alias("nm", "name").build()?;
    /// let checked = validator.check(r#"{"nm": "Ada"}"#).unwrap();
    /// assert_eq!(checked.value, json!({"name": "Ada"}));
    /// assert_eq!(checked.report.coercions[0].kind, CoercionKind::Alias);
    /// assert!(validator.check(r#"{"nm": "Ada", "name": "Bob"}"#).is_err());
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn alias(mut self, alias: impl Into<String>, name: impl Into<String>) -> Self {
        self.aliases.add(alias.into(), name.into());
        self
    }

    /// What serde reads inside the arguments' nested types (the derive gathers them).
    pub(crate) fn nested_facts(mut self, facts: crate::serde_facts::SerdeFacts) -> Self {
        self.aliases.add_nested(facts);
        self
    }

    /// Assert `format` (the default: `true`), or read it as an annotation only (`false`).
    ///
    /// Asserted, a string that is not written in its format's grammar (`date-time`, `uuid`,
    /// `ipv4`, `email`, `uri`...) is a `format` error, and a number outside its numeric
    /// format's range (`int32`, `uint8`, `float`...) a `range` error. Unknown formats are
    /// always annotations.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::Validator;
    ///
    /// let schema = json!({"type": "string", "format": "uuid"});
    /// assert!(!Validator::new(&schema)?.is_valid(&json!("not-a-uuid")));
    /// let annotation = Validator::builder(&schema).formats(false).build()?;
    /// assert!(annotation.is_valid(&json!("not-a-uuid")));
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn formats(mut self, assert: bool) -> Self {
        self.formats = assert;
        self
    }

    /// Fill the `default` of a property a call leaves out (the default: `true`), or read
    /// `default` as an annotation only (`false`), as plain JSON Schema validation does.
    ///
    /// Filled, each default is checked against its property's own schema when the validator
    /// is built, and one the schema refuses is a [`SchemaError`] at that `default`: filled in,
    /// it would be refused as if the model had sent it. As an annotation, nothing is filled
    /// and nothing is checked.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::Validator;
    ///
    /// let schema = json!({"type": "object", "properties": {"n": {"type": "integer", "default": "ten"}}});
    /// let error = Validator::new(&schema).unwrap_err();
    /// assert_eq!(error.pointer, "/properties/n/default");
    /// let annotation = Validator::builder(&schema).defaults(false).build()?;
    /// assert_eq!(annotation.check("{}")?.value, json!({}));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn defaults(mut self, fill: bool) -> Self {
        self.defaults = fill;
        self
    }

    /// A schema document the schema's `$ref`s may lead to, at `uri`: shared definitions a
    /// tool's schema refers to by URI (`{"$ref": "https://example.com/defs.json#/$defs/id"}`).
    ///
    /// References are never fetched: a `$ref` leads inside the schema, to a draft's bundled
    /// metaschema, or to a document given here, and anywhere else is a [`SchemaError`]
    /// that names it. A `$ref` reaches `document` at `uri` resolved as it resolves its own
    /// (against the `$id`s around it); an `$id` inside `document` names its parts as in
    /// any schema. A document that names no `$schema` is read in the draft of the schema that
    /// refers to it. Only the documents a reference reaches are compiled.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::Validator;
    ///
    /// let schema = json!({
    ///     "type": "object",
    ///     "properties": {"id": {"$ref": "https://example.com/defs.json#/$defs/order_id"}}
    /// });
    /// let defs = json!({"$defs": {"order_id": {"type": "string", "pattern": "^ord_"}}});
    /// assert!(Validator::new(&schema).is_err(), "never fetched");
    /// let validator =
    ///     Validator::builder(&schema).resource("https://example.com/defs.json", defs).build()?;
    /// assert!(validator.check(r#"{"id": "ord_1"}"#).is_ok());
    /// assert_eq!(validator.check(r#"{"id": "1"}"#).unwrap_err().errors()[0].path(), "/id");
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn resource(mut self, uri: impl AsRef<str>, document: Value) -> Self {
        self.resources.add(uri.as_ref(), document, None);
        self
    }

    /// [`resource`](ValidatorBuilder::resource) of a document given as JSON text: messages
    /// that list its properties follow the order the text wrote them in, in every build (as
    /// [`Validator::builder_from_text`] does for the schema). Text that is not JSON is a
    /// [`SchemaError`] that names the URI.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::Validator;
    ///
    /// let schema = json!({"properties": {"place": {"$ref": "https://example.com/place.json"}}});
    /// let place = r#"{"properties": {"zone": {}, "area": {}}, "additionalProperties": false}"#;
    /// let validator =
    ///     Validator::builder(&schema).resource_from_text("https://example.com/place.json", place)?.build()?;
    /// let rejection = validator.check(r#"{"place": {"zoen": 1}}"#).unwrap_err();
    /// assert!(rejection.to_string().contains(r#"allowed: "zone", "area""#));
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn resource_from_text(mut self, uri: impl AsRef<str>, document: &str) -> Result<Self, SchemaError> {
        let uri = uri.as_ref();
        let value: Value = serde_json::from_str(document)
            .map_err(|error| SchemaError::new("", format!("the resource at {uri} is not JSON: {error}")))?;
        self.resources.add(uri, value, KeyOrder::of_text(document));
        Ok(self)
    }

    /// The order the schema wrote its objects' keys in (the derive's fields, a text's keys).
    pub(crate) fn key_order(mut self, order: KeyOrder) -> Self {
        self.order = Some(order);
        self
    }

    /// Compile the schema: a [`SchemaError`] names what cannot be compiled.
    ///
    /// ```
    /// use tool_input::Validator;
    /// use serde_json::json;
    ///
    /// assert!(Validator::builder(&json!({"type": "object"})).build().is_ok());
    /// let error = Validator::builder(&json!({"$ref": "#/$defs/missing"})).build().unwrap_err();
    /// assert_eq!(error.pointer, "");
    /// assert!(error.message.contains("#/$defs/missing"), "{error}");
    /// ```
    pub fn build(self) -> Result<Validator, SchemaError> {
        let mut plan =
            Plan::compile_ordered(&self.schema, self.formats, self.order.as_ref(), Some(&self.resources))?;
        if !self.defaults {
            plan.nodes.iter_mut().for_each(|node| node.defaults.clear());
        }
        plan.defaults_entangled = plan.entangles_defaults();
        plan.defaults_exact = defaults_exact(&plan, &self.overrides, &self.limits);
        if !plan.defaults_exact {
            if let Some(error) = refused_default(&plan, &self.overrides, &self.limits) {
                return Err(error);
            }
        }
        Ok(Validator {
            inner: Arc::new(Inner {
                schema: self.schema,
                plan,
                policy: self.policy,
                limits: self.limits,
                overrides: self.overrides,
                aliases: self.aliases,
            }),
        })
    }
}

impl Validator {
    /// Compile a schema with the default policy and limits.
    ///
    /// ```
    /// use tool_input::{Policy, Validator};
    /// use serde_json::json;
    ///
    /// let validator = Validator::new(&json!({"type": "object", "required": ["city"]}))?;
    /// assert_eq!(validator.policy(), Policy::Default);
    /// assert!(validator.check(r#"{"city": "Paris"}"#).is_ok());
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn new(schema: &Value) -> Result<Self, SchemaError> {
        Self::builder(schema).build()
    }

    /// Start configuring a validator for a schema.
    ///
    /// ```
    /// use tool_input::{Policy, Validator};
    /// use serde_json::json;
    ///
    /// let validator = Validator::builder(&json!({"type": "object"})).policy(Policy::Lenient).build()?;
    /// assert_eq!(validator.policy(), Policy::Lenient);
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn builder(schema: &Value) -> ValidatorBuilder {
        ValidatorBuilder {
            schema: schema.clone(),
            policy: Policy::Default,
            limits: Limits::default(),
            overrides: HashMap::new(),
            aliases: Aliases::default(),
            formats: true,
            defaults: true,
            order: None,
            resources: Resources::default(),
        }
    }

    /// A builder for a schema given as JSON text. Messages that list the schema's properties
    /// ("allowed: ...", a did-you-mean's candidates) follow the order the text wrote them in,
    /// in every build. [`Validator::builder`] and [`Validator::new`] take a `Value`, which
    /// keeps that order only when serde_json's `preserve_order` feature is on somewhere in
    /// the build (any crate can turn it on: rig-core does); otherwise its keys, and those
    /// lists, are sorted. Give the text when you have it.
    ///
    /// ```
    /// use tool_input::Validator;
    ///
    /// let schema = r#"{"type": "object", "properties": {"zone": {}, "area": {}},
    ///                  "additionalProperties": false}"#;
    /// let validator = Validator::builder_from_text(schema)?.build()?;
    /// let rejection = validator.check(r#"{"zoen": 1}"#).unwrap_err();
    /// assert!(rejection.to_string().contains(r#"allowed: "zone", "area""#));
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn builder_from_text(schema: &str) -> Result<ValidatorBuilder, SchemaError> {
        let value: Value = serde_json::from_str(schema)
            .map_err(|error| SchemaError::new("", format!("the schema is not JSON: {error}")))?;
        let builder = Self::builder(&value);
        Ok(match KeyOrder::of_text(schema) {
            Some(order) => builder.key_order(order),
            None => builder,
        })
    }

    /// [`Validator::new`] of a schema given as JSON text, its properties listed in the
    /// text's order in every build (see [`Validator::builder_from_text`]).
    ///
    /// ```
    /// use tool_input::Validator;
    ///
    /// let validator = Validator::from_text(r#"{"type": "object", "required": ["city"]}"#)?;
    /// assert!(validator.check("{}").is_err());
    /// assert!(Validator::from_text("{not json").is_err());
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn from_text(schema: &str) -> Result<Self, SchemaError> {
        Self::builder_from_text(schema)?.build()
    }

    /// The schema this validator was compiled from.
    ///
    /// ```
    /// use tool_input::Validator;
    /// use serde_json::json;
    ///
    /// let schema = json!({"type": "object", "properties": {"city": {"type": "string"}}});
    /// assert_eq!(Validator::new(&schema)?.schema(), &schema);
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn schema(&self) -> &Value {
        &self.inner.schema
    }

    /// The validator's policy.
    ///
    /// ```
    /// use tool_input::{Policy, Validator};
    /// use serde_json::json;
    ///
    /// let validator = Validator::builder(&json!({})).policy(Policy::Strict).build()?;
    /// assert_eq!(validator.policy(), Policy::Strict);
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn policy(&self) -> Policy {
        self.inner.policy
    }

    /// The validator's limits.
    ///
    /// ```
    /// use tool_input::{Limits, Validator};
    /// use serde_json::json;
    ///
    /// assert_eq!(Validator::new(&json!({}))?.limits(), Limits::default());
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn limits(&self) -> Limits {
        self.inner.limits
    }

    /// The top-level properties marked sensitive: their values never appear in errors,
    /// reports or logs.
    ///
    /// ```
    /// use tool_input::Validator;
    /// use serde_json::json;
    ///
    /// let validator = Validator::builder(&json!({"type": "object"})).field("api_key", None, true).build()?;
    /// assert_eq!(validator.sensitive_fields().collect::<Vec<_>>(), ["api_key"]);
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn sensitive_fields(&self) -> impl Iterator<Item = &str> {
        self.inner.overrides.iter().filter(|(_, field)| field.sensitive).map(|(name, _)| name.as_str())
    }

    /// Check raw arguments under the validator's policy. They may come in any shape a
    /// backend delivers (see [`RawArguments`]): text, bytes, a parsed `Value`, nothing.
    ///
    /// ```
    /// use tool_input::Validator;
    /// # use serde_json::json;
    /// # let schema = json!({
    /// #     "type": "object",
    /// #     "properties": {"count": {"type": "integer"}, "city": {"type": "string"}},
    /// #     "additionalProperties": false
    /// # });
    /// let validator = Validator::new(&schema)?;
    /// let checked = validator.check("{'count': '3', 'city': 'Paris',}").unwrap();
    /// assert_eq!(checked.value, json!({"count": 3, "city": "Paris"}));
    /// assert_eq!(validator.check(&json!({"count": 3})).unwrap().value, json!({"count": 3}));
    /// assert!(validator.check(r#"{"count": 3, "colour": "red"}"#).is_err());
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn check<'a>(&self, raw: impl Into<RawArguments<'a>>) -> Result<Checked<Value>, Rejection> {
        self.check_with(raw.into(), &CheckOptions::default())
    }

    /// Check raw arguments with per-call options.
    ///
    /// ```
    /// use tool_input::{CheckOptions, Policy, Validator};
    /// # use serde_json::json;
    /// # let schema = json!({
    /// #     "type": "object",
    /// #     "properties": {"count": {"type": "integer"}, "city": {"type": "string"}},
    /// #     "additionalProperties": false
    /// # });
    /// let validator = Validator::new(&schema)?;
    /// let strict = CheckOptions::new().with_policy(Policy::Strict);
    /// assert!(validator.check_with(r#"{"count": 3}"#.into(), &strict).is_ok());
    /// assert!(validator.check_with(r#"{"count": "3"}"#.into(), &strict).is_err());
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn check_with(
        &self,
        raw: RawArguments<'_>,
        options: &CheckOptions,
    ) -> Result<Checked<Value>, Rejection> {
        self.keys_masked(self.check_reading(raw, options, true))
    }

    /// [`check_with`](Validator::check_with) by the walk alone, without the one pass over
    /// the parsed value: the reference the one-pass paths are compared with (tests, fuzzing).
    pub(crate) fn check_by_walk(
        &self,
        raw: RawArguments<'_>,
        options: &CheckOptions,
    ) -> Result<Checked<Value>, Rejection> {
        self.keys_masked(self.check_reading(raw, options, false))
    }

    fn check_reading(
        &self,
        raw: RawArguments<'_>,
        options: &CheckOptions,
        one_pass: bool,
    ) -> Result<Checked<Value>, Rejection> {
        let policy = options.policy.unwrap_or(self.inner.policy);
        let limits = options.limits.unwrap_or(self.inner.limits);
        // An alias is mapped by the walk alone (`check_parsed`), the one place that reads it.
        let (read, pass_first) =
            if one_pass && text_of(raw).is_some() && !self.inner.aliases.may_occur_in(raw) {
                // Text is read as a typed call's is, into its `Value`: strict JSON through the one
                // pass as `serde_json` parses it, other text onto a tape and then through it. The
                // pass makes the representation coercions and hands over the defaults of absent
                // properties on the way, so the value is built once; the walk runs only where
                // the pass refuses.
                match self.one_pass::<Value>(raw, options, policy, &limits, Defaults::Given)? {
                    OnePass::Decided(checked) => return Ok(checked),
                    // The pass refused the tape: the walk reads its value.
                    OnePass::Read(read) => (read, false),
                    // The pass refused strict JSON: the walk reads its parse.
                    OnePass::Unread(Miss::Inexact) => {
                        (read_arguments(raw, policy, &limits, false).map_err(|r| self.guard(r))?, false)
                    }
                    OnePass::Unread(miss) => {
                        let read = read_arguments(raw, policy, &limits, miss.not_json())
                            .map_err(|r| self.guard(r))?;
                        (read, true)
                    }
                }
            } else {
                (read_arguments(raw, policy, &limits, false).map_err(|r| self.guard(r))?, false)
            };
        self.check_read(read, raw, policy, &limits, pass_first)
    }

    /// A parsed text's check, as `check_with` makes it once the text is read: with
    /// `pass_first`, the one pass over its value (`accepts_parsed_exactly`), which decides
    /// when the value is exactly valid; else, or where it does not decide, the walk, with a
    /// rejection's errors in the order the text wrote them. The caller passes `pass_first`
    /// only where no alias may occur: the walk alone maps aliases.
    fn check_read(
        &self,
        read: Read,
        raw: RawArguments<'_>,
        policy: Policy,
        limits: &Limits,
        pass_first: bool,
    ) -> Result<Checked<Value>, Rejection> {
        let read = if pass_first {
            match self.accepts_parsed_exactly(read, raw, policy, limits) {
                Ok(checked) => return Ok(checked),
                Err(read) => read,
            }
        } else {
            read
        };
        self.check_parsed(read, policy, limits, raw)
            .map_err(|rejection| in_document_order(rejection, raw, policy, limits))
    }

    /// [`check_with`](Validator::check_with) of `raw` once `transform` has changed its
    /// parsed value (undoing what a dialect rewrote): the text is read once, as `check_with`
    /// reads it (its repairs, and the keys it gives twice, are the text's own), then changed,
    /// then walked. The transform's records (and a count of those past
    /// `Limits::max_coercions`) come before the walk's. Where it changes nothing,
    /// the value read is checked as `check_with` checks a parsed text (no second reading);
    /// where the text does not parse, this is `check_with` itself.
    pub(crate) fn check_transformed(
        &self,
        raw: RawArguments<'_>,
        options: &CheckOptions,
        transform: impl FnOnce(&mut Value) -> (Vec<Coercion>, usize),
    ) -> Result<Checked<Value>, Rejection> {
        let policy = options.policy.unwrap_or(self.inner.policy);
        let limits = options.limits.unwrap_or(self.inner.limits);
        let Ok(mut read) = read_arguments(raw, policy, &limits, false) else {
            return self.check_with(raw, options);
        };
        let (mut coercions, omitted) = transform(&mut read.value);
        if coercions.is_empty() && omitted == 0 {
            // The text as `check_with` reads it, already read: checked as `check_with` checks
            // it after a parse.
            return self.check_read(read, raw, policy, &limits, !self.inner.aliases.may_occur_in(raw));
        }
        let mut checked = self.check_read(read, raw, policy, &limits, false)?;
        coercions.append(&mut checked.report.coercions);
        let repairs = std::mem::take(&mut checked.report.repairs);
        let report = Report::new(repairs, coercions)
            .limited(omitted + checked.report.omitted_coercions, limits.max_coercions);
        Ok(Checked { report, ..checked })
    }

    /// The one-pass check (`check::fast`) over arguments parsed from text: `Some` with the
    /// value and its report when the value is exactly valid, but for the defaults of absent
    /// properties (filled here, as the walk fills them) and no key was given twice. Then the
    /// walk would change and record nothing more, and is skipped. Only for text, whose parse
    /// has already held the value to the depth limit the walk counts (a value passed in is
    /// walked).
    fn accepts_parsed_exactly(
        &self,
        read: Read,
        raw: RawArguments<'_>,
        policy: Policy,
        limits: &Limits,
    ) -> Result<Checked<Value>, Read> {
        if !read.repeats.is_empty()
            || !read.value.is_object()
            || text_of(raw).is_none()
            || !parse::strict::depth_allows(limits.max_depth)
        {
            return Err(read);
        }
        let fast = Fast::new(&self.inner.plan, &self.inner.overrides, limits, policy)
            .under_own_limits(*limits == self.inner.limits)
            .keeping_defaults();
        if fast.run::<Skim, _>(&read.value).is_err() {
            return Err(read);
        }
        let (coercions, defaults) = fast.into_coercions_and_defaults();
        if coercions.iter().any(|coercion| coercion.kind != CoercionKind::DefaultFilled) {
            return Err(read);
        }
        self.fill_defaults(read, coercions, defaults, limits)
    }

    /// The end of an accepting one pass over `read`, whose only records are `coercions`, the
    /// defaults filled for absent properties (`defaults`, one each): fill them in, as the walk
    /// would. `Err` (the value untouched) where the walk must fill them.
    fn fill_defaults(
        &self,
        read: Read,
        coercions: Vec<Coercion>,
        defaults: Vec<&Value>,
        limits: &Limits,
    ) -> Result<Checked<Value>, Read> {
        if !defaults.is_empty() && *limits != self.inner.limits {
            return Err(read);
        }
        let Read { mut value, repairs, .. } = read;
        // The records come in the walk's order (`check::order`), each default with its own.
        let mut filled = Vec::with_capacity(coercions.len());
        for (coercion, default) in coercions.into_iter().zip(defaults) {
            let (parent, key) = coercion.path.rsplit_once('/').unwrap_or_default();
            let object = value.pointer_mut(parent).and_then(Value::as_object_mut);
            let Some(object) = object else {
                // Not where the record says: unreachable for a record of this value, and
                // the walk decides (the value is untouched but for defaults, which it fills
                // again, finding them sent).
                return Err(Read { value, repairs, repeats: Vec::new() });
            };
            object.insert(crate::pointer::unescape_token(key).into_owned(), default.clone());
            filled.push(coercion);
        }
        Ok(Checked { value, report: Report::new(repairs, filled) })
    }

    /// The walk over parsed arguments: coerce, validate, explain. A key given twice is
    /// recorded (the same value) or rejected (two values) here, beside the walk's findings.
    fn check_parsed(
        &self,
        read: Read,
        policy: Policy,
        limits: &Limits,
        raw: RawArguments<'_>,
    ) -> Result<Checked<Value>, Rejection> {
        let Read { mut value, repairs, repeats } = read;
        if !value.is_object() {
            return Err(crate::raw::not_object(&value, repairs, &limits.parse_options(policy)));
        }
        // The text the numbers were read from, to tell an integer from a float that only
        // rounds to one.
        let text = match raw {
            RawArguments::Text(text) => Some(text),
            RawArguments::Value(Value::String(text)) => Some(text.as_str()),
            RawArguments::Bytes(bytes) => std::str::from_utf8(bytes).ok(),
            RawArguments::Value(_) | RawArguments::Absent => None,
        };
        let coerces = |name: &str| {
            let field = self.inner.overrides.get(name).and_then(|field| field.policy);
            field.unwrap_or(policy) != Policy::Strict
        };
        let mut aliased = self.inner.aliases.map(
            &mut value,
            |name| self.is_sensitive(name),
            coerces,
            limits.max_echo_chars,
        );
        let mut walker = self.walker(limits);
        walker.raw_text = text;
        if !aliased.within.is_empty() {
            let places = std::mem::take(&mut aliased.within);
            walker.within = Some(std::rc::Rc::new(Within::new(self.inner.aliases.nested(), places)));
        }
        let mut outcome = walker.run(&mut value, policy);
        // The value as sent, under the aliases (their findings are those recorded above),
        // read as serde reads them where the policy coerces (`aliased`) or not at all.
        let reread = |aliased: bool| {
            let mut sent = read_arguments(raw, policy, limits, false).ok()?.value;
            let _ = self.inner.aliases.map(
                &mut sent,
                |name| self.is_sensitive(name),
                |name| aliased && coerces(name),
                limits.max_echo_chars,
            );
            Some(sent)
        };
        let sent = || reread(false);
        if defaults_coerced(&walker, &outcome) {
            // A default is not the model's doing: where a keyword other than its property's
            // schema coerced it, the call is checked as sent, and no default is filled. (The
            // aliases are read as the first walk's were: their records are the ones kept.)
            if let Some(as_sent) = reread(true) {
                value = as_sent;
                walker.fill_defaults = false;
                outcome = walker.run(&mut value, policy);
            }
        }
        blame::settle(&mut walker, &mut value, &mut outcome, sent);
        if walker.fill_defaults
            && self.inner.plan.defaults_entangled
            && !outcome.out_of_steps
            // (Past the records kept, a default may have been filled unrecorded.)
            && (outcome.coercions_omitted > 0
                || outcome.coercions.iter().any(|coercion| coercion.kind == CoercionKind::DefaultFilled))
            && !(outcome.errors.is_empty() && blame::defaults_hold(&walker, &value))
        {
            // Nor may a default fail the call, or pass one the schema refuses with it in (a
            // `not`, a dependency, a `oneOf` or `propertyNames` that reads which members are
            // present, an `enum` of whole objects, `uniqueItems` over items it filled, a
            // branch's default another branch's property refuses, a `maxProperties` the
            // members sent keep and the defaults break): the call is then checked as
            // sent, and no default is filled. Where it fails with the defaults only as it
            // fails without them, the errors are the model's own, and the defaults (which
            // the model need not send) do not add their absence to them.
            if let Some(mut as_sent) = reread(true) {
                walker.fill_defaults = false;
                walker.refused = None;
                let mut bare = walker.run(&mut as_sent, policy);
                blame::settle(&mut walker, &mut as_sent, &mut bare, sent);
                if bare.errors.is_empty()
                    || outcome.errors.is_empty()
                    || !blame::each_found_in(&outcome.errors, &bare.errors)
                {
                    value = as_sent;
                    outcome = bare;
                }
            }
        }
        walker.long_strings_undescribed(&value, &mut outcome);
        let coercions_omitted = outcome.coercions_omitted;
        let (mut errors, mut coercions) = (outcome.errors, outcome.coercions);
        // The aliases' findings come first: they were made before the walk saw the value.
        self.inner.aliases.nested().note_catch_alls(&value, &mut errors);
        errors.splice(0..0, aliased.errors);
        coercions.splice(0..0, aliased.coercions);
        if !repeats.is_empty() {
            // The repeated keys' findings come first.
            let (repeated_errors, repeated_coercions) = self.repeated_keys(&repeats, limits);
            errors.splice(0..0, repeated_errors);
            coercions.splice(0..0, repeated_coercions);
        }
        if errors.is_empty() {
            // The aliases' and repeated keys' records first, then the walk's: the first
            // `max_coercions` of them.
            let report = Report::new(repairs, coercions).limited(coercions_omitted, limits.max_coercions);
            Ok(Checked { value, report })
        } else {
            // The repeated keys' errors count toward `Limits::max_errors` too.
            let max_errors = limits.max_errors.max(1);
            let mut omitted_errors = outcome.omitted;
            if errors.len() > max_errors {
                omitted_errors += errors.len() - max_errors;
                errors.truncate(max_errors);
            }
            Err(Rejection { kind: RejectionKind::Invalid, errors, omitted_errors, repairs, tool: None })
        }
    }

    /// Is the top-level property `name` sensitive?
    fn is_sensitive(&self, name: &str) -> bool {
        self.inner.overrides.get(name).is_some_and(|field| field.sensitive)
    }

    /// Keys given twice: with the same value, a record; with two values, an error (a choice
    /// made twice is not ours to settle), naming the key and both values.
    fn repeated_keys(&self, repeats: &[Repeat], limits: &Limits) -> (Vec<FieldError>, Vec<Coercion>) {
        let (mut errors, mut coercions) = (Vec::new(), Vec::new());
        for repeat in repeats {
            let top = repeat.path.split('/').nth(1).map(crate::pointer::unescape_token);
            let hidden =
                top.is_some_and(|top| self.inner.overrides.get(top.as_ref()).is_some_and(|f| f.sensitive));
            match repeat.finding("", hidden, limits.max_echo_chars) {
                Finding::Record(coercion) => coercions.push(coercion),
                Finding::Error(error) => errors.push(error),
            }
        }
        (errors, coercions)
    }

    /// Is `value` valid against the schema exactly as it is (no coercion, no defaults)?
    /// This is plain JSON Schema validation, for any JSON value, not only objects.
    ///
    /// ```
    /// use tool_input::Validator;
    /// use serde_json::json;
    ///
    /// let validator = Validator::new(&json!({"type": "array", "items": {"type": "integer"}}))?;
    /// assert!(validator.is_valid(&json!([1, 2])));
    /// assert!(!validator.is_valid(&json!([1, "2"]))); // no coercion here
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn is_valid(&self, value: &Value) -> bool {
        let limits = self.inner.limits;
        let mut walker = self.walker(&limits);
        walker.exact_integers = false;
        walker.accepts_exact(self.inner.plan.root, value, &crate::check::Path::Root, 0)
    }

    /// Validate any JSON value exactly (no coercion, no defaults), returning its errors (at
    /// most [`Limits::max_errors`]).
    ///
    /// ```
    /// use tool_input::Validator;
    /// use serde_json::json;
    ///
    /// let validator = Validator::new(&json!({"type": "array", "items": {"type": "integer"}}))?;
    /// assert!(validator.validate(&json!([1, 2])).is_ok());
    /// let errors = validator.validate(&json!([1, "2", 3.5])).unwrap_err();
    /// let paths: Vec<&str> = errors.iter().map(|e| e.path()).collect();
    /// assert_eq!(paths, ["/1", "/2"]);
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn validate(&self, value: &Value) -> Result<(), Vec<FieldError>> {
        let mut copy = value.clone();
        let limits = self.inner.limits;
        // No defaults filled, integers read as JSON Schema reads them (`prepare` off).
        let walker = Walker::new(&self.inner.plan, &self.inner.overrides, &limits, false);
        let mut outcome = walker.run(&mut copy, Policy::Strict);
        walker.long_strings_undescribed(&copy, &mut outcome);
        if outcome.errors.is_empty() {
            Ok(())
        } else {
            Err(outcome.errors)
        }
    }

    /// A rejection of the whole input, with nothing quoted from it when the schema has
    /// sensitive fields (a parse error may quote the very value that is secret).
    fn guard(&self, rejection: Rejection) -> Rejection {
        if self.sensitive_fields().next().is_some() {
            rejection.quoting_nothing()
        } else {
            rejection
        }
    }

    /// `rejection` with every message of a field `T` refused (serde's, which may quote the
    /// value) under a sensitive top-level property said without the value.
    fn unquoted_where_sensitive(&self, mut rejection: Rejection) -> Rejection {
        for error in rejection.errors.iter_mut().filter(|error| error.code == ErrorCode::Deserialize) {
            let top = error.path.split('/').nth(1).map(crate::pointer::unescape_token);
            if top.is_some_and(|top| self.inner.overrides.get(top.as_ref()).is_some_and(|f| f.sensitive)) {
                error.message = SENSITIVE_UNREAD.to_owned();
            }
        }
        rejection
    }

    fn walker<'s>(&'s self, limits: &Limits) -> Walker<'s> {
        Walker::new(&self.inner.plan, &self.inner.overrides, limits, true)
    }
}

/// Parsed arguments.
struct Read {
    value: Value,
    /// The syntax repairs made.
    repairs: Vec<Repair>,
    /// Keys the text gives twice (not looked for under [`Policy::Strict`], which reads JSON
    /// as `serde_json` does: the last value wins).
    repeats: Vec<Repeat>,
}

#[cfg(test)]
thread_local! {
    /// Argument texts the validator parsed leniently on this thread (the parse-once tests).
    pub(crate) static TEXTS_READ: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// Typed rejections the one pass explained on this thread (see `check::fast::explain`).
    pub(crate) static EXPLAINED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// A text's parse as [`read_arguments`] gives it under `policy` (not strict) and `limits`:
/// the keys given twice are read from the text, as it does, when the parse saw one.
fn read_of(parsed: &ParsedText<'_>, policy: Policy, limits: &Limits) -> Read {
    let repeats = if parsed.repeated {
        members::repeats(parsed.text, &limits.parse_options(policy))
    } else {
        Vec::new()
    };
    Read { value: Value::Object(parsed.value.clone()), repairs: parsed.repairs.to_vec(), repeats }
}

/// Read raw arguments of any shape ([`crate::raw::read_arguments`]) as the engine reads them
/// under `policy`, with the keys the text gives twice (not looked for under
/// [`Policy::Strict`], which reads JSON as `serde_json` does).
///
/// `not_strict_json`: `serde_json` has already refused the text (so it is not read as strict
/// JSON a second time).
fn read_arguments(
    raw: RawArguments<'_>,
    policy: Policy,
    limits: &Limits,
    not_strict_json: bool,
) -> Result<Read, Rejection> {
    let options = limits.parse_options(policy);
    #[cfg(test)]
    if text_of(raw).is_some_and(|text| !text.trim().is_empty()) {
        TEXTS_READ.with(|read| read.set(read.get() + 1));
    }
    let read = crate::raw::read_arguments(raw, &options, not_strict_json).map_err(Rejection::from_parse)?;
    let repeats = match text_of(raw) {
        Some(text) if read.repeated == Some(true) && options.mode != ParseMode::Strict => {
            members::repeats(text, &options)
        }
        _ => Vec::new(),
    };
    Ok(Read { value: read.value, repairs: read.repairs, repeats })
}

/// The rejection's errors in the order the model wrote the keys, when the arguments came as
/// text (a value's objects have no order but their sorted keys).
fn in_document_order(
    mut rejection: Rejection,
    raw: RawArguments<'_>,
    policy: Policy,
    limits: &Limits,
) -> Rejection {
    if rejection.errors.len() < 2 {
        return rejection;
    }
    let Some(text) = text_of(raw) else { return rejection };
    members::in_document_order(&mut rejection.errors, text, &limits.parse_options(policy));
    rejection
}

/// Why the one-pass attempt did not give the typed value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Miss {
    /// It does not apply (not text starting with `{`, a depth limit below serde_json's).
    NotTried,
    /// The text is not strict JSON.
    NotJson,
    /// The text is not strict JSON, and the first thing wrong with it is one the lenient
    /// grammar mends (`parse::lexer::mends`: a trailing comma, a key without quotes), from
    /// `from` on: it may be strict JSON mended.
    Mendable { from: usize },
    /// Strict JSON, but not exactly valid: it needs coercion, or has errors.
    Inexact,
}

impl Miss {
    /// The text is not strict JSON (`serde_json` has refused it: no second strict attempt).
    fn not_json(self) -> bool {
        matches!(self, Miss::NotJson | Miss::Mendable { .. })
    }
}

/// What the typed path's one-pass steps came to.
enum OnePass<T> {
    /// They decided: the typed value and its report.
    Decided(Checked<T>),
    /// The arguments, parsed, for the walk.
    Read(Read),
    /// The arguments are still to be read (the first step's miss says how).
    Unread(Miss),
}

/// Does `text` start with `{` after white space (`str::trim_start`'s)? Read byte by byte:
/// the one-pass attempts ask once per call, and the general trim is much more code than the
/// ASCII loop that settles almost every call.
#[inline]
fn opens_object(text: &str) -> bool {
    match text.bytes().find(|byte| !matches!(byte, b' ' | b'\t'..=b'\r')) {
        Some(b'{') => true,
        Some(byte) if !byte.is_ascii() => opens_object_after_unicode_space(text),
        _ => false,
    }
}

#[cold]
#[inline(never)]
fn opens_object_after_unicode_space(text: &str) -> bool {
    text.trim_start().starts_with('{')
}

/// How `text` ends, for a text that [`opens_object`]: is it as strict JSON ends that, `}`
/// before white space with no comma before it? A text that does not (prose after the
/// object, a closing fence, a cut-off call, a trailing comma) is refused by `serde_json`
/// only once it has read the whole object, so the one-pass attempt asks first. (A form feed
/// or vertical tab counts as white space here and not for `serde_json`, which then refuses
/// the text as before.)
#[inline]
fn object_end(text: &str) -> ObjectEnd {
    let mut before = text.bytes().rev().filter(|byte| !matches!(byte, b' ' | b'\t'..=b'\r'));
    match (before.next(), before.next()) {
        (Some(b'}'), Some(b',')) => ObjectEnd::TrailingComma,
        (Some(b'}'), _) => ObjectEnd::Closed,
        _ => ObjectEnd::Other,
    }
}

/// How a text ends ([`object_end`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ObjectEnd {
    /// `}`, as strict JSON may end.
    Closed,
    /// `,}`: a trailing comma.
    TrailingComma,
    /// Anything else.
    Other,
}

/// Where the text is in arguments sent as text (a string, or bytes that are UTF-8).
fn text_of<'r>(raw: RawArguments<'r>) -> Option<&'r str> {
    match raw {
        RawArguments::Text(text) => Some(text),
        RawArguments::Value(Value::String(text)) => Some(text.as_str()),
        RawArguments::Bytes(bytes) => std::str::from_utf8(bytes).ok(),
        RawArguments::Value(_) | RawArguments::Absent => None,
    }
}

/// What a field its type refused says when its value is sensitive (serde's own message may
/// quote the value).
const SENSITIVE_UNREAD: &str = "the value could not be read as the expected type";

/// Deserialize a checked value into `T`; a residual serde error still gets a path.
/// The message of an error at a sensitive field is replaced, since serde's own messages
/// quote the value.
pub(crate) fn deserialize_checked<T: DeserializeOwned>(
    checked: Checked<Value>,
    fields: Fields<'_>,
) -> Result<Checked<T>, Rejection> {
    let Checked { value, report } = checked;
    // Kept for the field probes, only when there are some (serde consumes the value).
    let kept = (!fields.probes.is_empty()).then(|| value.clone());
    match serde_path_to_error::deserialize::<_, T>(value) {
        Ok(value) => Ok(Checked { value, report }),
        Err(error) => {
            let refusals = kept.as_ref().map(|value| fields.refusals(value)).unwrap_or_default();
            let refused = |pointer: String, top: Option<&str>, message: String| {
                let sensitive = top.is_some_and(|name| fields.is_sensitive(name));
                let message = if sensitive { SENSITIVE_UNREAD.to_owned() } else { message };
                FieldError {
                    path: pointer,
                    code: ErrorCode::Deserialize,
                    message,
                    value: None,
                    options: Options::None,
                    suggestion: None,
                }
            };
            let errors: Vec<FieldError> = if refusals.is_empty() {
                let top = match error.path().iter().next() {
                    Some(serde_path_to_error::Segment::Map { key }) => Some(key.as_str()),
                    _ => None,
                };
                let (pointer, message) =
                    crate::pointer::refusal_in(error.path(), kept.as_ref(), error.inner().to_string());
                vec![refused(pointer, top, message)]
            } else {
                // Every field its own type refuses, each at its path.
                refusals
                    .into_iter()
                    .map(|(field, refusal)| {
                        let top = crate::pointer::unescape_token(&field[1..]).into_owned();
                        refused(format!("{field}{}", refusal.pointer), Some(&top), refusal.message)
                    })
                    .collect()
            };
            let mut rejection =
                Rejection::whole(RejectionKind::Invalid, ErrorCode::Deserialize, String::new());
            rejection.errors = errors;
            rejection.repairs = report.repairs;
            Err(rejection)
        }
    }
}

#[cfg(test)]
mod tests;
