//! UUIDs (RFC 9562's hyphenated hex form), JSON Pointers (RFC 6901), relative JSON Pointers
//! (draft-handrews-relative-json-pointer-01) and URI templates (RFC 6570, levels 1 to 4).

/// The UUID inside `{...}` or after `urn:uuid:` (the scheme and namespace in any case): the
/// caller checks it is one.
pub(super) fn uuid_respelled(text: &str) -> Option<&str> {
    if let Some(inner) = text.strip_prefix('{').and_then(|rest| rest.strip_suffix('}')) {
        return Some(inner);
    }
    let prefix = text.get(..9)?;
    prefix.eq_ignore_ascii_case("urn:uuid:").then(|| &text[9..])
}

pub(super) fn is_uuid(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 36
        && bytes.iter().enumerate().all(|(index, byte)| match index {
            8 | 13 | 18 | 23 => *byte == b'-',
            _ => byte.is_ascii_hexdigit(),
        })
}

/// Empty, or `/`-led tokens in which `~` is only ever `~0` or `~1`.
pub(super) fn is_json_pointer(text: &str) -> bool {
    if text.is_empty() {
        return true;
    }
    if !text.starts_with('/') {
        return false;
    }
    let bytes = text.as_bytes();
    bytes
        .iter()
        .enumerate()
        .all(|(index, &byte)| byte != b'~' || matches!(bytes.get(index + 1), Some(b'0' | b'1')))
}

/// A non-negative integer without leading zeros, an optional `+n`/`-n` index manipulation,
/// then `#` or a JSON Pointer.
pub(super) fn is_relative_json_pointer(text: &str) -> bool {
    let count = text.bytes().take_while(u8::is_ascii_digit).count();
    if count == 0 || (count > 1 && text.starts_with('0')) {
        return false;
    }
    let mut rest = &text[count..];
    if let Some(sign) = rest.strip_prefix(['+', '-']) {
        let count = sign.bytes().take_while(u8::is_ascii_digit).count();
        if count == 0 || (count > 1 && sign.starts_with('0')) {
            return false;
        }
        rest = &sign[count..];
    }
    rest == "#" || is_json_pointer(rest)
}

/// Literals (no controls, spaces, double quotes, `<>\^`|` or braces), `%XX` escapes, and
/// expressions `{op? varspec(,varspec)*}` with `varspec = name (:max | *)?`.
pub(super) fn is_uri_template(text: &str) -> bool {
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        match c {
            '{' => {
                let Some(end) = rest.find('}') else { return false };
                if !expression(&rest[1..end]) {
                    return false;
                }
                rest = &rest[end + 1..];
            }
            '%' => {
                let hex = rest.as_bytes().get(1..3);
                if !hex.is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) {
                    return false;
                }
                rest = &rest[3..];
            }
            '}' | '"' | '<' | '>' | '\\' | '^' | '`' | '|' | ' ' => return false,
            c if c.is_control() => return false,
            c => rest = &rest[c.len_utf8()..],
        }
    }
    true
}

fn expression(body: &str) -> bool {
    let body = body.strip_prefix(['+', '#', '.', '/', ';', '?', '&']).unwrap_or(body);
    !body.is_empty()
        && body.split(',').all(|spec| {
            let (name, modifier) = match spec.find([':', '*']) {
                Some(at) => (&spec[..at], &spec[at..]),
                None => (spec, ""),
            };
            let name_ok = !name.is_empty()
                && !name.starts_with('.')
                && !name.ends_with('.')
                && !name.contains("..")
                && is_varname(name);
            let modifier_ok = match modifier.strip_prefix(':') {
                Some(max) => {
                    (1..=4).contains(&max.len())
                        && !max.starts_with('0')
                        && max.bytes().all(|b| b.is_ascii_digit())
                }
                None => modifier.is_empty() || modifier == "*",
            };
            name_ok && modifier_ok
        })
}

/// RFC 6570's `varchar`s and dots: ASCII letters, digits, `_`, `.`, and `%` only as the
/// start of a `pct-encoded` (`%` and two hex digits: `{a%2}` and `{%}` are no names).
fn is_varname(name: &str) -> bool {
    let bytes = name.as_bytes();
    let mut at = 0;
    while let Some(&byte) = bytes.get(at) {
        at += match byte {
            b'%' if bytes.get(at + 1..at + 3).is_some_and(|hex| hex.iter().all(u8::is_ascii_hexdigit)) => 3,
            b'_' | b'.' => 1,
            _ if byte.is_ascii_alphanumeric() => 1,
            _ => return false,
        };
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuids_pointers_and_templates() {
        assert!(
            is_uuid("2EB8AA08-AA98-11EA-B4AA-73B441D16380")
                && !is_uuid("2eb8aa08-aa98-11ea-b4aa-73b441d1638")
        );
        assert!(!is_uuid("{2eb8aa08-aa98-11ea-b4aa-73b441d16380}"));
        assert!(is_json_pointer("/foo/0/~0~1") && !is_json_pointer("foo") && !is_json_pointer("/~2"));
        assert!(
            is_relative_json_pointer("0#")
                && is_relative_json_pointer("1/a")
                && is_relative_json_pointer("0-1/a")
        );
        assert!(
            !is_relative_json_pointer("01/a")
                && !is_relative_json_pointer("/a")
                && !is_relative_json_pointer("")
        );
        assert!(is_uri_template("http://example.com/dictionary/{term:1}/{term}"));
        assert!(is_uri_template("{+path}/x{?q,lang*}") && !is_uri_template("http://example.com/{term"));
        assert!(!is_uri_template("{}") && !is_uri_template("{a:0}"));
    }
}
