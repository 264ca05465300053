//! `format`: asserted by default (the validator's builder, the derive's attribute, the CLI
//! and the Python module each have one switch to make it an annotation only).
//!
//! - String formats (only strings are checked): the dates and times of RFC 3339, durations,
//!   email addresses, host names, IP addresses, URIs and IRIs, UUIDs, URI templates, JSON
//!   Pointers and regular expressions. A miss is a `format` error that names the format and
//!   gives a valid example.
//! - Numeric formats (only numbers are checked), as schemars and OpenAPI write them: `int8`
//!   to `uint64`, `int`/`uint`, `float` and `double`, as the range of their type. A miss is a
//!   `range` error (an `f32` field refuses `1e39`).
//! - Any other format is an annotation: it checks nothing.

mod dates;
mod idna;
mod network;
mod text;

use serde_json::Number;

use super::{Explain, Instance, Place};
use crate::error::ErrorCode;

/// A string format the checker asserts (numeric formats are bounds: [`NumberFormat`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    String(StringFormat),
}

/// The string formats, each with its grammar's name for messages and a valid example.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StringFormat {
    DateTime,
    Date,
    Time,
    Duration,
    Email,
    IdnEmail,
    Hostname,
    /// `hostname` in drafts 4 and 6: RFC 1123's labels alone ([`Format::as_drafts_4_and_6_mean_it`]).
    LdhHostname,
    IdnHostname,
    Ipv4,
    Ipv6,
    Uri,
    UriReference,
    Iri,
    IriReference,
    Uuid,
    UriTemplate,
    JsonPointer,
    RelativeJsonPointer,
    Regex,
}

/// The numeric formats, as the range of their type: the compiler reads them as `minimum`
/// and `maximum` (tightening those written beside them), so a number out of range is a
/// `range` error, said as any bound's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NumberFormat {
    /// An integer type's range, lowest and highest.
    Integer(i128, i128),
    /// `float`: within the finite range of an `f32`.
    Float,
    /// `double`: within the finite range of an `f64` (every JSON number serde reads).
    Double,
}

impl Format {
    /// The string format named `name`, or `None` for a numeric format or one that is only
    /// an annotation.
    pub fn named(name: &str) -> Option<Format> {
        use StringFormat as S;
        let string = match name {
            "date-time" => S::DateTime,
            "date" => S::Date,
            "time" => S::Time,
            "duration" => S::Duration,
            "email" => S::Email,
            "idn-email" => S::IdnEmail,
            "hostname" => S::Hostname,
            "idn-hostname" => S::IdnHostname,
            "ipv4" => S::Ipv4,
            "ipv6" => S::Ipv6,
            "uri" => S::Uri,
            "uri-reference" => S::UriReference,
            "iri" => S::Iri,
            "iri-reference" => S::IriReference,
            "uuid" => S::Uuid,
            "uri-template" => S::UriTemplate,
            "json-pointer" => S::JsonPointer,
            "relative-json-pointer" => S::RelativeJsonPointer,
            "regex" => S::Regex,
            _ => return None,
        };
        Some(Format::String(string))
    }

    /// The format as drafts 4 and 6 mean it: their `hostname` is RFC 1123's, written before
    /// IDNA2008 (`ab--cd.example` is one). Every other format reads alike in every draft.
    pub fn as_drafts_4_and_6_mean_it(self) -> Format {
        match self {
            Format::String(StringFormat::Hostname) => Format::String(StringFormat::LdhHostname),
            other => other,
        }
    }

    pub fn is_valid<'v, I: Instance<'v>>(&self, instance: I) -> bool {
        let Format::String(format) = self;
        instance.as_str().is_none_or(|text| format.accepts(text))
    }

    pub fn validate<'v, I: Instance<'v>>(&self, schema: &mut impl Explain<'v, I>, instance: I) {
        if self.is_valid(instance) {
            return;
        }
        let Format::String(format) = self;
        let (grammar, example) = (format.grammar(), format.example());
        schema.fail(Place::Here, ErrorCode::Format, Some(instance), &|named| {
            format!("expected {grammar} such as {example}, got {named}")
        });
    }
}

impl StringFormat {
    /// Is `text` written in the format's grammar?
    pub fn accepts(self, text: &str) -> bool {
        use StringFormat as S;
        match self {
            S::DateTime => dates::is_date_time(text),
            S::Date => dates::is_date(text),
            S::Time => dates::is_time(text),
            S::Duration => dates::is_duration(text),
            S::Email => network::is_email(text, false),
            S::IdnEmail => network::is_email(text, true),
            S::Hostname => network::is_hostname(text, false),
            S::LdhHostname => network::is_ldh_hostname(text),
            S::IdnHostname => network::is_hostname(text, true),
            S::Ipv4 => network::is_ipv4(text),
            S::Ipv6 => network::is_ipv6(text),
            S::Uri => fluent_uri::Uri::parse(text).is_ok(),
            S::UriReference => fluent_uri::UriRef::parse(text).is_ok(),
            S::Iri => fluent_uri::Iri::parse(text).is_ok(),
            S::IriReference => fluent_uri::IriRef::parse(text).is_ok(),
            S::Uuid => text::is_uuid(text),
            S::UriTemplate => text::is_uri_template(text),
            S::JsonPointer => text::is_json_pointer(text),
            S::RelativeJsonPointer => text::is_relative_json_pointer(text),
            S::Regex => crate::pattern::is_unicode_ecma_regex(text),
        }
    }

    /// The one valid value `text` (which the format refuses) spells another common way, if
    /// it is one: an RFC 3339 date-time with a space between date and time (written with
    /// `T`, and a `z` offset as `Z`), a UUID in braces or after `urn:uuid:` (the bare UUID,
    /// its hex digits as sent). Nothing else: no offset is invented, no date guessed, and a
    /// value the format accepts as sent (a lower-case `t` or `z`, upper-case hex, which RFC
    /// 3339 and RFC 9562 allow) is never rewritten.
    pub fn respell(self, text: &str) -> Option<String> {
        let candidate = match self {
            StringFormat::DateTime => dates::date_time_respelled(text)?,
            StringFormat::Uuid => text::uuid_respelled(text)?.to_owned(),
            _ => return None,
        };
        (!self.accepts(text) && self.accepts(&candidate)).then_some(candidate)
    }

    /// The grammar, as a message names it: "an RFC 3339 date-time".
    pub fn grammar(self) -> &'static str {
        use StringFormat as S;
        match self {
            S::DateTime => "an RFC 3339 date-time",
            S::Date => "an RFC 3339 date",
            S::Time => "an RFC 3339 time with its offset",
            S::Duration => "an ISO 8601 duration",
            S::Email => "an email address",
            S::IdnEmail => "an internationalized email address",
            S::Hostname | S::LdhHostname => "a host name",
            S::IdnHostname => "an internationalized host name",
            S::Ipv4 => "an IPv4 address",
            S::Ipv6 => "an IPv6 address",
            S::Uri => "an absolute URI",
            S::UriReference => "a URI reference",
            S::Iri => "an absolute IRI",
            S::IriReference => "an IRI reference",
            S::Uuid => "a UUID",
            S::UriTemplate => "an RFC 6570 URI template",
            S::JsonPointer => "a JSON Pointer",
            S::RelativeJsonPointer => "a relative JSON Pointer",
            S::Regex => "a regular expression",
        }
    }

    /// A valid value, for messages.
    pub fn example(self) -> &'static str {
        use StringFormat as S;
        match self {
            S::DateTime => "2026-12-01T10:00:00Z",
            S::Date => "2026-12-01",
            S::Time => "10:00:00Z",
            S::Duration => "P1DT2H",
            S::Email | S::IdnEmail => "name@example.com",
            S::Hostname | S::LdhHostname | S::IdnHostname => "example.com",
            S::Ipv4 => "192.0.2.1",
            S::Ipv6 => "2001:db8::1",
            S::Uri | S::Iri => "https://example.com/path",
            S::UriReference | S::IriReference => "/path?query",
            S::Uuid => "123e4567-e89b-12d3-a456-426614174000",
            S::UriTemplate => "https://example.com/{id}",
            S::JsonPointer => "/items/0",
            S::RelativeJsonPointer => "1/items/0",
            S::Regex => "^[a-z]+$",
        }
    }
}

impl NumberFormat {
    pub fn named(name: &str) -> Option<NumberFormat> {
        let range = |low: i128, high: i128| Some(NumberFormat::Integer(low, high));
        match name {
            "int8" => range(i8::MIN.into(), i8::MAX.into()),
            "int16" => range(i16::MIN.into(), i16::MAX.into()),
            "int32" => range(i32::MIN.into(), i32::MAX.into()),
            "int64" | "int" => range(i64::MIN.into(), i64::MAX.into()),
            "uint8" => range(0, u8::MAX.into()),
            "uint16" => range(0, u16::MAX.into()),
            "uint32" => range(0, u32::MAX.into()),
            "uint64" | "uint" => range(0, u64::MAX.into()),
            "float" => Some(NumberFormat::Float),
            "double" => Some(NumberFormat::Double),
            _ => None,
        }
    }

    /// The range, lowest and highest, as JSON numbers; `None` for `double`, which every
    /// number serde reads keeps.
    pub fn bounds(self) -> Option<(Number, Number)> {
        match self {
            NumberFormat::Integer(low, high) => Some((bound(low), bound(high))),
            NumberFormat::Float => {
                // `3.4028235e38`, the shortest decimal that reads as `f32::MAX` (how serde_json
                // and Rust write it), is a little above its exact value; it and every other
                // spelling of `f32::MAX` an `f32` field reads (`3.40282347e+38`, C's
                // `3.402823466e+38`) are kept, and the bound is said as written.
                let max = Number::from_f64(F32_MAX_WRITTEN)?;
                let min = Number::from_f64(-F32_MAX_WRITTEN)?;
                Some((min, max))
            }
            NumberFormat::Double => None,
        }
    }
}

/// The highest `float`: `f32::MAX` as Rust and serde_json write it. Every number up to it
/// reads as a finite `f32`; the least number that reads as infinity is `f32::MAX` plus half
/// its step, `3.4028235677973366e38`, above it.
const F32_MAX_WRITTEN: f64 = 3.4028235e38;

/// An integer bound as a JSON number (every bound fits 64 bits, signed or not).
fn bound(value: i128) -> Number {
    match (i64::try_from(value), u64::try_from(value)) {
        (Ok(signed), _) => Number::from(signed),
        (_, Ok(unsigned)) => Number::from(unsigned),
        _ => Number::from(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn valid(format: &str, value: serde_json::Value) -> bool {
        Format::named(format).expect("a known format").is_valid(&value)
    }

    #[test]
    fn string_formats_check_strings_only() {
        assert!(valid("date-time", json!("2026-12-01T10:00:00Z")));
        assert!(!valid("date-time", json!("2026-13-45T99:00:00Z")));
        assert!(!valid("uuid", json!("not-a-uuid")));
        assert!(!valid("ipv4", json!("999.1.1.1")));
        assert!(valid("ipv4", json!(999)));
        assert!(Format::named("no-such-format").is_none());
        assert!(valid("uuid", json!(7)));
        for format in [
            StringFormat::DateTime,
            StringFormat::Date,
            StringFormat::Time,
            StringFormat::Duration,
            StringFormat::Email,
            StringFormat::IdnEmail,
            StringFormat::Hostname,
            StringFormat::IdnHostname,
            StringFormat::Ipv4,
            StringFormat::Ipv6,
            StringFormat::Uri,
            StringFormat::UriReference,
            StringFormat::Iri,
            StringFormat::IriReference,
            StringFormat::Uuid,
            StringFormat::UriTemplate,
            StringFormat::JsonPointer,
            StringFormat::RelativeJsonPointer,
            StringFormat::Regex,
        ] {
            assert!(format.accepts(format.example()), "{format:?}'s example");
        }
    }

    #[test]
    fn a_regex_is_read_in_ecma_262_unicode_mode() {
        assert!(valid("regex", json!("^[a-z]+\\d{2}$")));
        assert!(valid("regex", json!("\\p{Letter}+")));
        // Identity escapes of letters, and a lone `{` or `]`, are the legacy dialect's only.
        for legacy in ["\\a", "\\q", "a{", "]"] {
            assert!(!valid("regex", json!(legacy)), "{legacy}");
        }
        assert!(!valid("regex", json!("(unclosed")));
    }

    #[test]
    fn numeric_formats_are_their_types_ranges() {
        let range = |name: &str| NumberFormat::named(name).and_then(NumberFormat::bounds);
        assert_eq!(range("int8"), Some((Number::from(-128), Number::from(127))));
        assert_eq!(range("uint64"), Some((Number::from(0), Number::from(u64::MAX))));
        assert_eq!(range("int"), Some((Number::from(i64::MIN), Number::from(i64::MAX))));
        let (low, high) = range("float").expect("a range");
        assert!(high.as_f64() < Some(1e39) && low.as_f64() == high.as_f64().map(|f| -f));
        // Every spelling of `f32::MAX` is within, as `f32` reads it; what reads as infinity
        // is not.
        let high = high.as_f64().expect("a float");
        for spelling in ["3.4028235e38", "3.40282347e+38", "3.402823466e+38", "3.4028234663852886e38"] {
            let read: f64 = spelling.parse().expect("a number");
            assert!(read <= high && spelling.parse::<f32>() == Ok(f32::MAX), "{spelling}");
        }
        let infinite = f64::from(f32::MAX) + 2f64.powi(103);
        assert!(infinite > high && (infinite as f32).is_infinite());
        // As serde_json writes an `f32` field's highest value.
        let written = serde_json::to_string(&f32::MAX).expect("written");
        assert_eq!(written.parse::<f64>(), Ok(high), "{written}");
        assert_eq!(range("double"), None);
        assert!(NumberFormat::named("uuid").is_none() && Format::named("int32").is_none());
    }
}
