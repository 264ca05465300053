//! Support for the code `#[derive(ToolInput)]` generates. Not public API: only
//! `tool-input-derive` of the same version may use it, and it changes without notice.

pub use core::clone::Clone;
pub use core::cmp::PartialEq;
pub use core::default::Default;
pub use core::fmt;
pub use core::marker::PhantomData;
pub use core::option::Option;
pub use core::result::Result;
pub use core::{concat, unreachable};
pub use schemars::JsonSchema;
pub use serde::de::DeserializeOwned;
pub use serde_json::Value;
pub use std::borrow::Cow;
pub use std::sync::OnceLock;
pub use std::vec::Vec;

pub use crate::error::FieldError;
pub use crate::field_options::FieldOptions;
pub use crate::policy::Policy;
pub use crate::probe::FieldProbe;
pub use crate::serde_facts::SerdeFacts;
pub use crate::tool::{ToolDefinition, ToolInput};

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::RwLock;

/// The options of one field, in the `FIELDS` constant (`FieldOptions` is non-exhaustive, so the
/// generated code cannot write it as a struct literal).
pub const fn field_options(name: &'static str, policy: Option<Policy>, sensitive: bool) -> FieldOptions {
    FieldOptions { name, policy, sensitive }
}

/// The description in a doc comment only the compiler can read (`#[doc = include_str!(..)]`),
/// in a constant, read as schemars reads the schema's `description`: trimmed, and without a
/// first line that starts with `#` (schemars makes that the schema's title).
pub const fn doc_description(doc: &'static str) -> Option<&'static str> {
    let mut bytes = doc.as_bytes().trim_ascii();
    if let [b'#', ..] = bytes {
        let mut end = 0;
        while end < bytes.len() && bytes[end] != b'\n' {
            end += 1;
        }
        bytes = bytes.split_at(end).1.trim_ascii();
    }
    if bytes.is_empty() {
        return None;
    }
    // Cut at ASCII bytes only, so still UTF-8.
    match core::str::from_utf8(bytes) {
        Ok(text) => Some(text),
        Err(_) => None,
    }
}

/// The full path of `ToolInput::from_arguments_with`: parse, coerce, validate, deserialize;
/// by the walk alone, without any one-pass path (which must agree with it: tests and the
/// fuzz targets compare them).
pub fn from_arguments_full<T: ToolInput>(
    raw: crate::RawArguments<'_>,
    options: &crate::CheckOptions,
) -> Result<crate::Checked<T>, crate::Rejection> {
    let definition = T::definition();
    let by_walk = || {
        definition
            .validator()
            .check_by_walk(raw, options)
            .map_err(|r| r.with_tool_named(definition.shared_name()))
    };
    let crate::Checked { value, report } = by_walk()?;
    match <T as serde::Deserialize>::deserialize(value) {
        Ok(value) => crate::tool::apply_rules(crate::Checked { value, report })
            .map_err(|rejection| rejection.with_tool_named(definition.shared_name())),
        // Rare (serde refused what the schema allows): check again, and deserialize with
        // path tracking, which costs too much to pay on every call.
        Err(_) => by_walk().and_then(crate::tool::typed::<T>),
    }
}

/// [`Validator::check_with`](crate::Validator::check_with) by the walk alone, without the
/// one pass over the parsed value (for tests and fuzzing, which compare the two).
pub fn check_by_walk(
    validator: &crate::Validator,
    raw: crate::RawArguments<'_>,
    options: &crate::CheckOptions,
) -> Result<crate::Checked<serde_json::Value>, crate::Rejection> {
    validator.check_by_walk(raw, options)
}

/// The one-pass path alone (for tests): `Some` for strict JSON that is valid as it is or
/// after the coercions that path makes itself.
pub fn from_arguments_exact<T: ToolInput>(
    raw: crate::RawArguments<'_>,
    options: &crate::CheckOptions,
) -> Option<crate::Checked<T>> {
    T::definition().validator().check_typed_exact::<T>(raw, options)
}

/// The typed path's one-pass steps alone (for tests): `Some` when they decide the call
/// (strict JSON read straight into `T`, or a lenient parse read from its tape), `None` when
/// it takes the walk. Custom rules are not applied.
pub fn from_arguments_one_pass<T: ToolInput>(
    raw: crate::RawArguments<'_>,
    options: &crate::CheckOptions,
) -> Option<crate::Checked<T>> {
    T::definition().validator().check_typed_one_pass::<T>(raw, options)
}

/// A mangled call's tape, as the typed path's second step parses it (for benchmarks of the
/// tape reader alone, with [`read_prepared_tape`]). `None` when the text does not parse, or
/// repeats a key.
#[derive(Debug, Clone)]
pub struct PreparedTape {
    /// The text parsed: the tape's strings point into it.
    text: String,
    events: Vec<u8>,
    kept: String,
}

impl Drop for PreparedTape {
    /// Its lists go back for the next parse on this thread, as a tape's do when the typed
    /// path drops it.
    fn drop(&mut self) {
        crate::parse::tape::give_back(std::mem::take(&mut self.events), std::mem::take(&mut self.kept));
    }
}

/// The tape of `text`, for `T`'s validator (see [`PreparedTape`]).
pub fn prepare_tape<T: ToolInput>(text: &str) -> Option<PreparedTape> {
    let (events, kept) = T::definition().validator().prepare_tape(text)?;
    Some(PreparedTape { text: text.to_owned(), events, kept })
}

/// The typed path's tape reading alone: `T` from a prepared tape, checked against its plan
/// on the way; `None` when the walk would decide. The tape is left as it was.
pub fn read_prepared_tape<T: ToolInput>(tape: &PreparedTape) -> Option<T> {
    T::definition().validator().read_prepared_tape::<T>(&tape.text, &tape.events, &tape.kept)
}

/// Build the definition of a derived type: its schemars schema, made the schema the model
/// sees, compiled with the type's field options.
pub fn build_definition<T: ToolInput>() -> ToolDefinition {
    let schema = crate::schema::schema_for::<T>();
    let mut nested = SerdeFacts::default();
    (T::__NESTED_FACTS)(&mut nested);
    // The properties in the order the structs declare their fields, in every build.
    let order = crate::field_order::of::<T>(&schema);
    crate::schema::definition_from_parts(
        T::NAME,
        T::DESCRIPTION,
        schema,
        T::POLICY,
        T::FORMATS,
        T::FIELDS,
        T::__ALIASES,
        nested,
        order,
    )
}

/// The definition of a generic derived type, built once per instantiation: a `static`
/// inside a generic function is shared by every instantiation, so these are kept by
/// `TypeId` instead.
pub fn generic_definition<T: ToolInput + Any>() -> &'static ToolDefinition {
    static DEFINITIONS: OnceLock<RwLock<HashMap<TypeId, &'static ToolDefinition>>> = OnceLock::new();
    let map = DEFINITIONS.get_or_init(Default::default);
    let id = TypeId::of::<T>();
    if let Some(found) = map.read().unwrap_or_else(|poison| poison.into_inner()).get(&id) {
        return found;
    }
    // Built outside the lock: building may need the definitions of other generic types.
    let built: &'static ToolDefinition = Box::leak(Box::new(build_definition::<T>()));
    map.write().unwrap_or_else(|poison| poison.into_inner()).entry(id).or_insert(built)
}

/// The facts of a field's type: a tool's own (its fields' aliases and their types' facts,
/// whether or not all of them have a partial form), else those `PartialValue` writes, else
/// none. The derive calls `(&&&FactsOf::<T>::new()).facts()`, which method resolution sends
/// to [`FactsOfTool`] when `T: ToolInput`, to [`FactsOfPartial`] when `T: PartialValue` and
/// to [`FactsOfAny`] otherwise.
pub struct FactsOf<T: ?Sized>(std::marker::PhantomData<T>);

impl<T: ?Sized> FactsOf<T> {
    pub const fn new() -> Self {
        FactsOf(std::marker::PhantomData)
    }
}

impl<T: ?Sized> Default for FactsOf<T> {
    fn default() -> Self {
        FactsOf::new()
    }
}

pub trait FactsOfTool {
    fn facts(&self) -> fn(&mut SerdeFacts);
}

impl<T: ToolInput> FactsOfTool for &&FactsOf<T> {
    fn facts(&self) -> fn(&mut SerdeFacts) {
        tool_facts::<T>
    }
}

/// What serde reads inside a tool's arguments that the schema does not say: its fields'
/// aliases, and the facts of their types.
pub fn tool_facts<T: ToolInput>(facts: &mut SerdeFacts) {
    for (alias, name) in T::__ALIASES {
        facts.key_alias(alias, name);
    }
    (T::__NESTED_FACTS)(facts)
}

pub trait FactsOfPartial {
    fn facts(&self) -> fn(&mut SerdeFacts);
}

impl<T: crate::partial::PartialValue> FactsOfPartial for &FactsOf<T> {
    fn facts(&self) -> fn(&mut SerdeFacts) {
        T::__serde_facts
    }
}

pub trait FactsOfAny {
    fn facts(&self) -> fn(&mut SerdeFacts);
}

impl<T: ?Sized> FactsOfAny for FactsOf<T> {
    fn facts(&self) -> fn(&mut SerdeFacts) {
        |_| {}
    }
}
