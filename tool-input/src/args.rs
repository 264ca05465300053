//! `Args<T>`: the whole pipeline behind a plain `Deserialize`, for frameworks that deserialize
//! a tool's arguments themselves.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use crate::raw::RawArguments;
use crate::tool::ToolInput;

/// A [`ToolInput`] type as the arguments of any framework whose tool trait takes
/// `type Args: Deserialize` and deserializes them itself (rig, swiftide, hand-written
/// servers): its `Deserialize` runs this crate's whole pipeline, not serde's alone.
///
/// Whatever serde hands it is taken as the call's raw arguments, as
/// [`ToolInput::from_arguments`] takes them:
///
/// | serde gives | read as |
/// |---|---|
/// | a map (a JSON object) | the arguments object, coerced and validated |
/// | a string, or bytes | the arguments' text: parsed leniently (code fences, prose, single quotes, Python literals, trailing commas …), then coerced and validated |
/// | a unit, `null`, an absent option | `{}` |
/// | anything else | rejected: the arguments must be an object |
///
/// so an object with a list sent as a string, or a JSON string holding mangled arguments,
/// gives `T`, with `T`'s own rules (`#[tool_input(validate = ...)]`) run too. When it is
/// refused, the serde error's text is the [`Rejection`](crate::Rejection)'s message for the
/// model, naming the tool and every error with its path. (serde_json's `from_str` adds its
/// own ` at line L column C` to every error; `from_value` adds nothing.)
///
/// What it cannot do is read text the *framework's* deserializer refused first: with
/// `serde_json::from_str(text)`, text that is not JSON (`{'a': 1}`) fails inside serde_json
/// before `Args` sees anything, so the repairs apply to arguments that arrive as a JSON
/// string or a parsed value. A non-JSON deserializer (TOML, YAML, a query string) gives
/// its own data model's values: maps, sequences, strings and numbers are read as their
/// JSON counterparts, bytes as UTF-8 text, and an enum or a non-self-describing format
/// (bincode) is refused.
///
/// Its [`JsonSchema`] is `T`'s tool schema ([`ToolInput::schema`]), so a framework that
/// asks the type for its schema publishes the one the checks enforce.
///
/// A map costs more than text: it is read into a `Value` (every member kept until the keys
/// are known to differ) and checked as one, where text is read straight into `T` (about 2.8
/// times the instructions on the benchmark's calls; BENCHMARKS.md). Where the framework
/// hands over the arguments' text, give that to [`ToolInput::from_arguments`] instead.
///
/// ```
/// use schemars::JsonSchema;
/// use serde::Deserialize;
/// use tool_input::{Args, ToolInput};
///
/// /// Create an order.
/// #[derive(Debug, Deserialize, JsonSchema, ToolInput)]
/// struct CreateOrder {
///     sku: String,
///     quantity: u32,
///     tags: Vec<String>,
/// }
///
/// // A framework's `serde_json::from_str::<Self::Args>(arguments)`:
/// let Args(order) = serde_json::from_str::<Args<CreateOrder>>(
///     r#"{"sku": "A-1", "quantity": "2", "tags": "[\"gift\"]"}"#,
/// ).unwrap();
/// assert_eq!((order.quantity, order.tags.len()), (2, 1));
///
/// // Arguments double-encoded as a JSON string, mangled inside: still read.
/// let text = serde_json::json!("```json\n{'sku': 'A-1', 'quantity': 2, 'tags': [],}\n```");
/// let Args(order) = serde_json::from_value::<Args<CreateOrder>>(text).unwrap();
/// assert_eq!(order.sku, "A-1");
///
/// // Refused: the error's text is the message for the model, every error with its path.
/// let error = serde_json::from_value::<Args<CreateOrder>>(serde_json::json!({"sku": 7})).unwrap_err();
/// let text = error.to_string();
/// assert!(text.starts_with("The arguments for tool `create_order` were rejected (3 errors)"));
/// assert!(text.contains("- /quantity: ") && text.contains("- /tags: "));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Args<T>(pub T);

impl<T> Args<T> {
    /// The typed arguments.
    ///
    /// ```
    /// # use schemars::JsonSchema;
    /// # use serde::Deserialize;
    /// use tool_input::{Args, ToolInput};
    ///
    /// /// Get the weather for a city.
    /// #[derive(Deserialize, JsonSchema, ToolInput)]
    /// struct GetWeather { city: String, days: u8 }
    ///
    /// let args: Args<GetWeather> = serde_json::from_str(r#"{"city": "Paris", "days": "3"}"#)?;
    /// let call = args.into_inner();
    /// assert_eq!((call.city.as_str(), call.days), ("Paris", 3));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> std::ops::Deref for Args<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> std::ops::DerefMut for Args<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.0
    }
}

impl<'de, T: ToolInput> Deserialize<'de> for Args<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let captured = deserializer.deserialize_any(Capture(PhantomData))?;
        let raw = match &captured {
            Captured::Absent => RawArguments::Absent,
            Captured::Text(text) => RawArguments::Text(text),
            Captured::Bytes(bytes) => RawArguments::Bytes(bytes),
            Captured::Value(value) => RawArguments::Value(value),
        };
        T::from_arguments(raw).map(Args).map_err(de::Error::custom)
    }
}

impl<T: ToolInput> JsonSchema for Args<T> {
    fn schema_name() -> Cow<'static, str> {
        T::schema_name()
    }

    fn schema_id() -> Cow<'static, str> {
        Cow::Owned(format!("tool_input::Args<{}>", T::schema_id()))
    }

    // The schema carries its own `$defs`, resolved from its root: it must not be moved under
    // another document's definitions.
    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        // A tool schema is always an object; the default (`true`) only keeps the type honest.
        Schema::try_from(T::schema().clone()).unwrap_or_default()
    }
}

/// What serde handed over, kept as close to the input as the data model allows: text and
/// bytes as they are (borrowed when the deserializer lends them), anything else as JSON.
enum Captured<'de> {
    Absent,
    Text(Cow<'de, str>),
    Bytes(Cow<'de, [u8]>),
    Value(Value),
}

struct Capture<'de>(PhantomData<&'de ()>);

impl<'de> Visitor<'de> for Capture<'de> {
    type Value = Captured<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("tool-call arguments: an object, or a string holding one")
    }

    fn visit_borrowed_str<E>(self, text: &'de str) -> Result<Self::Value, E> {
        Ok(Captured::Text(Cow::Borrowed(text)))
    }

    fn visit_str<E>(self, text: &str) -> Result<Self::Value, E> {
        Ok(Captured::Text(Cow::Owned(text.to_owned())))
    }

    fn visit_string<E>(self, text: String) -> Result<Self::Value, E> {
        Ok(Captured::Text(Cow::Owned(text)))
    }

    fn visit_borrowed_bytes<E>(self, bytes: &'de [u8]) -> Result<Self::Value, E> {
        Ok(Captured::Bytes(Cow::Borrowed(bytes)))
    }

    fn visit_bytes<E>(self, bytes: &[u8]) -> Result<Self::Value, E> {
        Ok(Captured::Bytes(Cow::Owned(bytes.to_owned())))
    }

    fn visit_byte_buf<E>(self, bytes: Vec<u8>) -> Result<Self::Value, E> {
        Ok(Captured::Bytes(Cow::Owned(bytes)))
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(Captured::Absent)
    }

    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(Captured::Absent)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        let node = Node::deserialize(de::value::MapAccessDeserializer::new(map))?;
        Ok(if node.repeats_a_key() {
            // A `Value` keeps only a repeated key's last value, settling a choice the model
            // made twice: as JSON text, with every member, the pipeline records one value
            // given twice and refuses two (`duplicate_key`), as for any call's text.
            let mut text = String::new();
            node.write_json(&mut text);
            Captured::Text(Cow::Owned(text))
        } else {
            Captured::Value(node.into_value())
        })
    }

    // Not arguments, but captured so the pipeline refuses them with its own message.
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        Value::deserialize(de::value::SeqAccessDeserializer::new(seq)).map(Captured::Value)
    }

    fn visit_bool<E>(self, value: bool) -> Result<Self::Value, E> {
        Ok(Captured::Value(Value::Bool(value)))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Self::Value, E> {
        Ok(Captured::Value(Value::from(value)))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Self::Value, E> {
        Ok(Captured::Value(Value::from(value)))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Self::Value, E> {
        // Not `Value::from`, which makes NaN and infinities `null`, read as no arguments.
        Ok(Captured::Value(match serde_json::Number::from_f64(value) {
            Some(number) => Value::Number(number),
            None => Value::String(value.to_string()),
        }))
    }
}

/// A JSON value as serde hands it over, an object's members in the order given and a key
/// given twice kept twice (where [`Value`] keeps only the last).
enum Node {
    Null,
    Bool(bool),
    Number(serde_json::Number),
    String(String),
    Array(Vec<Node>),
    Object(Vec<(String, Node)>),
}

impl Node {
    /// Does some object in it give a key twice?
    fn repeats_a_key(&self) -> bool {
        match self {
            Node::Array(items) => items.iter().any(Node::repeats_a_key),
            Node::Object(members) => {
                let mut keys = std::collections::HashSet::with_capacity(members.len());
                members.iter().any(|(key, _)| !keys.insert(key.as_str()))
                    || members.iter().any(|(_, value)| value.repeats_a_key())
            }
            _ => false,
        }
    }

    /// The value, as [`Value`] reads it (for a node that repeats no key, every member).
    fn into_value(self) -> Value {
        match self {
            Node::Null => Value::Null,
            Node::Bool(flag) => Value::Bool(flag),
            Node::Number(number) => Value::Number(number),
            Node::String(text) => Value::String(text),
            Node::Array(items) => Value::Array(items.into_iter().map(Node::into_value).collect()),
            Node::Object(members) => {
                Value::Object(members.into_iter().map(|(key, value)| (key, value.into_value())).collect())
            }
        }
    }

    /// The value as compact JSON text, every member of every object kept.
    fn write_json(&self, out: &mut String) {
        match self {
            Node::Null => out.push_str("null"),
            Node::Bool(flag) => out.push_str(if *flag { "true" } else { "false" }),
            // A number's own text: a float as its shortest round-trip form, read back exactly.
            Node::Number(number) => out.push_str(&number.to_string()),
            Node::String(text) => out.push_str(&Value::String(text.clone()).to_string()),
            Node::Array(items) => {
                out.push('[');
                for (index, item) in items.iter().enumerate() {
                    if index > 0 {
                        out.push(',');
                    }
                    item.write_json(out);
                }
                out.push(']');
            }
            Node::Object(members) => {
                out.push('{');
                for (index, (key, value)) in members.iter().enumerate() {
                    if index > 0 {
                        out.push(',');
                    }
                    out.push_str(&Value::String(key.clone()).to_string());
                    out.push(':');
                    value.write_json(out);
                }
                out.push('}');
            }
        }
    }
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(NodeVisitor)
    }
}

/// Reads a [`Node`] from what serde gives, as [`Value`]'s own `Deserialize` reads a value.
struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Node, E> {
        Ok(Node::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Node, E> {
        Ok(Node::Number(value.into()))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Node, E> {
        Ok(Node::Number(value.into()))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Node, E> {
        // As `Capture` reads a float: NaN and the infinities as their text, not `null`.
        Ok(match serde_json::Number::from_f64(value) {
            Some(number) => Node::Number(number),
            None => Node::String(value.to_string()),
        })
    }

    fn visit_str<E>(self, text: &str) -> Result<Node, E> {
        Ok(Node::String(text.to_owned()))
    }

    fn visit_string<E>(self, text: String) -> Result<Node, E> {
        Ok(Node::String(text))
    }

    fn visit_unit<E>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }

    fn visit_none<E>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Node, D::Error> {
        Node::deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Node::Array(items))
    }

    // Past 64 bits (from a `Value`, with serde_json's `arbitrary_precision` on): the float
    // serde_json reads without the feature.
    fn visit_i128<E: de::Error>(self, value: i128) -> Result<Node, E> {
        self.visit_f64(value as f64)
    }

    fn visit_u128<E: de::Error>(self, value: u128) -> Result<Node, E> {
        self.visit_f64(value as f64)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Node, A::Error> {
        // A number written as a map (`arbitrary_precision`) is read as its float.
        crate::arbitrary_precision::visit_map(self, map)
    }
}

impl<'de> crate::arbitrary_precision::ReadMap<'de> for NodeVisitor {
    fn read_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let mut members = Vec::with_capacity(map.size_hint().unwrap_or(0).min(4096));
        while let Some((key, value)) = map.next_entry::<String, Node>()? {
            members.push((key, value));
        }
        Ok(Node::Object(members))
    }
}
