//! Keywords, each written once, one to a file: what a keyword compiles to, a cheap
//! `is_valid` that only decides, and beside it an explaining `validate` that says why. Both
//! are generic over how the value is held ([`Instance`]) and over the schema they sit in
//! ([`Subschemas`], [`Explain`]): a keyword never knows whether it runs in the walk, in one
//! pass over a tape, or on serde's stream.
//!
//! The keywords of this folder are the ones the engine routes here today (conditionals,
//! `contains`, `propertyNames`, dependencies, `unevaluated*`, `format`, draft 7's `content*`,
//! draft 4's `integer`); `check::keywords` holds
//! the older ones until they move here (see the crate's plan in `check`).

mod conditional;
mod contains;
mod content;
mod dependent_required;
mod dependent_schemas;
pub(crate) mod format;
pub(crate) mod instance;
mod property_names;
mod unevaluated;
mod written_integer;

pub(crate) use conditional::Conditional;
pub(crate) use contains::Contains;
pub(crate) use content::Content;
pub(crate) use dependent_required::DependentRequired;
pub(crate) use dependent_schemas::DependentSchemas;
pub(crate) use format::{Format, NumberFormat};
pub(crate) use instance::{Instance, Kind};
pub(crate) use property_names::PropertyNames;
pub(crate) use unevaluated::{UnevaluatedItems, UnevaluatedProperties};
pub(crate) use written_integer::WrittenInteger;

use crate::error::ErrorCode;

/// A compiled subschema, by its index in the plan.
pub(crate) type SchemaId = usize;

/// Where, relative to the value a keyword checks, an error or a subschema's value sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Place<'k> {
    /// The value itself.
    Here,
    /// One member of the object.
    Key(&'k str),
    /// One item of the array.
    Index(usize),
}

/// What a keyword may ask of the schema it sits in, to decide.
pub(crate) trait Subschemas<'v, I: Instance<'v>> {
    /// Does `instance` pass `schema` exactly (no coercion), and would the walk take it as it
    /// is (no number refused as inexact)? What a subschema that applies to the value asks.
    fn accepts(&self, schema: SchemaId, instance: I) -> bool;
    /// Does `instance` pass `schema` exactly, as JSON Schema reads it (`1e20` is an
    /// integer)? What a subschema that is only asked about asks: `if`, `contains`. Refusing
    /// more there would turn into accepting more (an `else` taken, a `maxContains` met).
    fn holds(&self, schema: SchemaId, instance: I) -> bool;
    /// Does a member's name, read as a string value, pass `schema` (`propertyNames`)?
    fn accepts_name(&self, schema: SchemaId, name: &str) -> bool;
    /// Which members of an object (by their position in [`Instance::members`]) or items of an
    /// array the keywords of `schema` evaluated, as JSON Schema's annotations say
    /// (`unevaluatedProperties`/`unevaluatedItems` need them). `schema`'s own `unevaluated*`
    /// keywords are left out: they are what asks.
    fn evaluated(&self, schema: SchemaId, instance: I) -> Vec<bool>;
}

/// What a keyword may ask of the schema it sits in, to explain.
pub(crate) trait Explain<'v, I: Instance<'v>>: Subschemas<'v, I> {
    /// Check `instance` (at `at`, under the keyword's value) against `schema`, its errors
    /// recorded as the schema's own.
    fn explain(&mut self, schema: SchemaId, instance: I, at: Place<'_>);
    /// Record one error at `at`: `named` is how the message names the value (its echo, or
    /// "the value" where it is sensitive).
    fn fail(&mut self, at: Place<'_>, code: ErrorCode, value: Option<I>, message: &dyn Fn(&str) -> String);
    /// Record that the member `name`'s name, read as a string, fails `schema`
    /// (`propertyNames`), at that member, saying why as the schema's first error on that
    /// string does (built only when the error is).
    fn refuse_name(&mut self, schema: SchemaId, name: &str);
    /// Record that the members of `instance` (an object) that `evaluated` leaves unmarked
    /// are unknown to `schema` (`unevaluatedProperties: false`), except those a subschema
    /// the explanation already answers for declares (the branch it blamed), each naming
    /// the properties the object takes.
    fn refuse_unevaluated(&mut self, schema: SchemaId, instance: I, evaluated: &[bool]);
}

/// A keyword of this folder, compiled. The order of a node's list is the order they are
/// checked and explained in (`unevaluated*` last: they read what the others evaluated).
#[derive(Debug, Clone)]
pub(crate) enum Keyword {
    Format(Format),
    WrittenInteger(WrittenInteger),
    Content(Content),
    Conditional(Conditional),
    Contains(Contains),
    PropertyNames(PropertyNames),
    DependentRequired(DependentRequired),
    DependentSchemas(DependentSchemas),
    UnevaluatedProperties(UnevaluatedProperties),
    UnevaluatedItems(UnevaluatedItems),
}

impl Keyword {
    /// Does `instance` keep the keyword?
    pub fn is_valid<'v, I: Instance<'v>>(&self, schema: &impl Subschemas<'v, I>, instance: I) -> bool {
        match self {
            Keyword::Format(k) => k.is_valid(instance),
            Keyword::WrittenInteger(k) => k.is_valid(instance),
            Keyword::Content(k) => k.is_valid(instance),
            Keyword::Conditional(k) => k.is_valid(schema, instance),
            Keyword::Contains(k) => k.is_valid(schema, instance),
            Keyword::PropertyNames(k) => k.is_valid(schema, instance),
            Keyword::DependentRequired(k) => k.is_valid(instance),
            Keyword::DependentSchemas(k) => k.is_valid(schema, instance),
            Keyword::UnevaluatedProperties(k) => k.is_valid(schema, instance),
            Keyword::UnevaluatedItems(k) => k.is_valid(schema, instance),
        }
    }

    /// Record why `instance` breaks the keyword, if it does.
    pub fn validate<'v, I: Instance<'v>>(&self, schema: &mut impl Explain<'v, I>, instance: I) {
        match self {
            Keyword::Format(k) => k.validate(schema, instance),
            Keyword::WrittenInteger(k) => k.validate(schema, instance),
            Keyword::Content(k) => k.validate(schema, instance),
            Keyword::Conditional(k) => k.validate(schema, instance),
            Keyword::Contains(k) => k.validate(schema, instance),
            Keyword::PropertyNames(k) => k.validate(schema, instance),
            Keyword::DependentRequired(k) => k.validate(schema, instance),
            Keyword::DependentSchemas(k) => k.validate(schema, instance),
            Keyword::UnevaluatedProperties(k) => k.validate(schema, instance),
            Keyword::UnevaluatedItems(k) => k.validate(schema, instance),
        }
    }

    /// Does a scalar keep the keyword, when the keyword reads a scalar alone (`format`)?
    /// `None` for a keyword that needs its schema (the one pass leaves those to the walk).
    #[inline]
    pub fn scalar_admits(&self, value: &serde_json::Value) -> Option<bool> {
        match self {
            Keyword::Format(format) => Some(format.is_valid(value)),
            Keyword::WrittenInteger(integer) => Some(integer.is_valid(value)),
            _ => None,
        }
    }

    /// Does a string keep the keyword (see [`Keyword::scalar_admits`])?
    #[inline]
    pub fn str_admits(&self, text: &str) -> Option<bool> {
        match self {
            Keyword::Format(Format::String(format)) => Some(format.accepts(text)),
            // A string is no number: nothing to check.
            Keyword::WrittenInteger(_) => Some(true),
            _ => None,
        }
    }

    /// The subschemas the keyword applies to the value itself (not to a member or an item):
    /// a cycle through them alone never descends, which the compiler refuses.
    pub fn same_value_schemas(&self) -> Vec<SchemaId> {
        match self {
            Keyword::Conditional(k) => {
                [Some(k.condition), k.then, k.otherwise].into_iter().flatten().collect()
            }
            Keyword::DependentSchemas(k) => k.schemas.iter().map(|(_, id)| *id).collect(),
            _ => Vec::new(),
        }
    }
}
