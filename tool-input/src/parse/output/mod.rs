//! What the one driver ([`super::driver`], generic over these as its `Output`) and the grammar
//! write a parse into, one form per
//! reader: `value`, the [`serde_json::Value`] builder (the one-shot parse's output, and the
//! store of the other two); `tape`, the flat list of events a typed read deserializes from
//! (`tape_de`, its serde `Deserializer`), without a `Value` in between; `incremental`, the
//! incremental parser's events, string in progress and partial value. `float_text` writes a
//! `Value` read with stand-ins for its floats back as JSON, each float as the text wrote it
//! (`parse_to_json`).

pub(crate) mod events;
pub(crate) mod float_text;
pub(crate) mod incremental;
pub(crate) mod tape;
pub(crate) mod tape_de;
pub(crate) mod value;

#[cfg(test)]
mod tape_tests;
