//! `contentEncoding` and `contentMediaType`, asserted where draft 7 lets a validator assert
//! them (from 2019-09 on they are annotations only, and the compiler keeps them out): a
//! string said to be `base64` decodes, and a string said to be `application/json` (or any
//! `+json` type), decoded first when it names an encoding, is one JSON document. An encoding
//! or media type the engine does not know is an annotation; so is the keyword on anything
//! but a string.

use base64::Engine as _;

use super::{Explain, Instance, Place};
use crate::error::ErrorCode;

/// The content a string must hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Content {
    /// The encoding the string is written in, when it names one the engine decodes.
    encoding: Option<Encoding>,
    /// Whether what the string holds (decoded) must be a JSON document.
    json: bool,
}

/// The encodings of `contentEncoding` the engine decodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Encoding {
    /// RFC 4648's base64, with its padding.
    Base64,
}

/// Why a string does not hold its content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Miss {
    NotEncoded,
    NotJson,
}

impl Content {
    /// What `contentEncoding` and `contentMediaType` (either may be absent) assert; `None`
    /// when they assert nothing the engine knows.
    pub fn named(encoding: Option<&str>, media_type: Option<&str>) -> Option<Content> {
        // RFC 2045 names encodings in any case.
        let encoding = encoding.filter(|name| name.eq_ignore_ascii_case("base64")).map(|_| Encoding::Base64);
        let json = media_type.is_some_and(is_json_media_type);
        (encoding.is_some() || json).then_some(Content { encoding, json })
    }

    /// What is wrong with `text`, if anything.
    fn miss(self, text: &str) -> Option<Miss> {
        let decoded = match self.encoding {
            Some(Encoding::Base64) => match base64::engine::general_purpose::STANDARD.decode(text) {
                Ok(bytes) => Some(bytes),
                Err(_) => return Some(Miss::NotEncoded),
            },
            None => None,
        };
        let content = decoded.as_deref().unwrap_or(text.as_bytes());
        let is_json = || serde_json::from_slice::<serde::de::IgnoredAny>(content).is_ok();
        (self.json && !is_json()).then_some(Miss::NotJson)
    }

    pub fn is_valid<'v, I: Instance<'v>>(&self, instance: I) -> bool {
        instance.as_str().is_none_or(|text| self.miss(text).is_none())
    }

    pub fn validate<'v, I: Instance<'v>>(&self, schema: &mut impl Explain<'v, I>, instance: I) {
        let Some(miss) = instance.as_str().and_then(|text| self.miss(text)) else { return };
        let expected = match (miss, self.encoding) {
            (Miss::NotEncoded, _) => "base64-encoded content (RFC 4648, with its padding)",
            (Miss::NotJson, Some(Encoding::Base64)) => "a base64-encoded JSON document",
            (Miss::NotJson, None) => "a JSON document",
        };
        schema.fail(Place::Here, ErrorCode::Content, Some(instance), &|named| {
            format!("expected {expected}, got {named}")
        });
    }
}

/// Is `media_type` JSON: `application/json`, or a type with RFC 6839's `+json` suffix,
/// in any case and with any parameters (`application/json; charset=utf-8`)?
fn is_json_media_type(media_type: &str) -> bool {
    let essence = media_type.split(';').next().unwrap_or_default().trim();
    let Some((kind, subtype)) = essence.split_once('/') else { return false };
    !kind.is_empty()
        && (essence.eq_ignore_ascii_case("application/json")
            || subtype.len() > 5
                && subtype.get(subtype.len() - 5..).is_some_and(|end| end.eq_ignore_ascii_case("+json")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_known_encodings_and_json_media_types_assert() {
        assert_eq!(Content::named(None, None), None);
        assert_eq!(Content::named(Some("quoted-printable"), Some("image/png")), None);
        assert_eq!(
            Content::named(Some("BASE64"), None),
            Some(Content { encoding: Some(Encoding::Base64), json: false })
        );
        for json in ["application/json", "Application/JSON; charset=utf-8", "application/vnd.api+json"] {
            assert_eq!(
                Content::named(None, Some(json)),
                Some(Content { encoding: None, json: true }),
                "{json}"
            );
        }
        for other in ["text/plain", "application/jsonx", "+json", "application/+json", "json"] {
            assert_eq!(Content::named(None, Some(other)), None, "{other}");
        }
    }

    #[test]
    fn a_string_holds_what_it_says() {
        let json = Content::named(None, Some("application/json")).unwrap();
        assert_eq!(json.miss(r#"{"foo": "bar"}"#), None);
        assert_eq!(json.miss("{:}"), Some(Miss::NotJson));
        let base64 = Content::named(Some("base64"), None).unwrap();
        assert_eq!(base64.miss("eyJmb28iOiAiYmFyIn0K"), None);
        assert_eq!(base64.miss("eyJmb28iOi%iYmFyIn0K"), Some(Miss::NotEncoded));
        assert_eq!(base64.miss("YQ"), Some(Miss::NotEncoded), "padding is required");
        let both = Content::named(Some("base64"), Some("application/json")).unwrap();
        assert_eq!(both.miss("eyJmb28iOiAiYmFyIn0K"), None);
        assert_eq!(both.miss("ezp9Cg=="), Some(Miss::NotJson));
        assert_eq!(both.miss("{}"), Some(Miss::NotEncoded));
    }
}
