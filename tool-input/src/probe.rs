//! Every field's own refusal. When serde refuses a value the schema accepted (a newtype with
//! rules of its own, a `try_from`, a foreign type), serde stops at the first field it refuses;
//! the model should hear of every one, each at its path. So on that rare path each top-level
//! field's value is read again alone, by its own type: the derive lists one probe per field
//! (a function pointer to [`probe`], monomorphised for the field's type), and the runtime runs
//! them all.

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::field_options::FieldOptions;

/// One field's probe: its name (as the model sends it) and a reading of its value alone.
#[derive(Debug, Clone, Copy)]
pub struct FieldProbe {
    pub(crate) name: &'static str,
    pub(crate) read: fn(&Value) -> Option<Refusal>,
}

impl FieldProbe {
    /// The probe of the field `name`, of type `T`.
    pub const fn of<T: DeserializeOwned>(name: &'static str) -> Self {
        FieldProbe { name, read: probe::<T> }
    }
}

/// serde's refusal of one value: where inside it (a JSON Pointer relative to the value) and
/// serde's message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub(crate) pointer: String,
    pub(crate) message: String,
}

/// Read `value` as `T`, alone: `None` when serde accepts it.
pub fn probe<T: DeserializeOwned>(value: &Value) -> Option<Refusal> {
    match serde_path_to_error::deserialize::<_, T>(value) {
        Ok(_) => None,
        Err(error) => {
            let (pointer, message) =
                crate::pointer::refusal_in(error.path(), Some(value), error.inner().to_string());
            Some(Refusal { pointer, message })
        }
    }
}

/// The names and options of a typed reading's fields, and their probes.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Fields<'a> {
    pub options: &'a [FieldOptions],
    pub probes: &'a [FieldProbe],
}

impl<'a> Fields<'a> {
    pub fn of<T: crate::ToolInput>() -> Fields<'static> {
        Fields { options: T::FIELDS, probes: T::__FIELD_PROBES }
    }

    /// Every field of `object` its own type refuses, as `(pointer, message)`; empty when
    /// none does (serde refused the value as a whole, or a field without a probe).
    pub fn refusals(&self, object: &Value) -> Vec<(String, Refusal)> {
        let Value::Object(object) = object else { return Vec::new() };
        let mut found = Vec::new();
        for probe in self.probes {
            let Some(value) = object.get(probe.name) else { continue };
            if let Some(refusal) = (probe.read)(value) {
                let mut pointer = String::new();
                crate::pointer::push_token(&mut pointer, probe.name);
                found.push((pointer, refusal));
            }
        }
        found
    }

    pub fn is_sensitive(&self, name: &str) -> bool {
        self.options.iter().any(|field| field.sensitive && field.name == name)
    }
}
