//! A string read through serde, borrowed from the input when the input spells it as it reads
//! (no escapes), copied otherwise: the keys the key walk reads, and the first key and number
//! text of `arbitrary_precision`'s number maps.

use std::borrow::Cow;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, Visitor};

/// The seed (and visitor) of a [`Cow`] string: `Borrowed` when the deserializer lends it.
pub(crate) struct LentStr;

impl<'de> DeserializeSeed<'de> for LentStr {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Cow<'de, str>, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for LentStr {
    type Value = Cow<'de, str>;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a string")
    }

    fn visit_borrowed_str<E>(self, text: &'de str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Borrowed(text))
    }

    fn visit_str<E>(self, text: &str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(text.to_owned()))
    }

    fn visit_string<E>(self, text: String) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(text))
    }
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use serde::de::DeserializeSeed;

    use super::LentStr;

    #[test]
    fn a_string_without_escapes_is_lent_and_one_with_escapes_copied() {
        let mut plain = serde_json::Deserializer::from_str(r#""key""#);
        assert!(matches!(LentStr.deserialize(&mut plain).unwrap(), Cow::Borrowed("key")));
        let mut escaped = serde_json::Deserializer::from_str(r#""k\u0065y""#);
        assert!(matches!(LentStr.deserialize(&mut escaped).unwrap(), Cow::Owned(key) if key == "key"));
    }
}
