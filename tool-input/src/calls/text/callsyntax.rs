//! Gemma's call syntax: `call:NAME{key:VALUE,…}`, strings between a delimiter token, other
//! values bare (numbers, `true`, `false`, `null`, nested `{…}` and `[…]`).
//!
//! - FunctionGemma: `<start_function_call>call:NAME{city:<escape>Paris<escape>}<end_function_call>`;
//! - Gemma 4: `<|tool_call>call:NAME{city:<|"|>Paris<|"|>}<tool_call|>`.
//!
//! A delimited value is text, converted by the tool's schema when it is known (a number
//! the schema declares as one is read as a number); a bare one is read as JSON, or kept as
//! text.

use serde_json::{Map, Value};

use super::keywords::Keywords;
use super::{block, find_first, push_cut_off, push_malformed, text_parts, xml, Ending};
use crate::calls::{Collector, OriginalArguments};
use crate::parse::{self, ParseOptions};

/// How deep values may nest.
pub(super) const MAX_DEPTH: usize = 64;

/// A bare value (`12`, `true`, `0.1`), read as strict JSON, or kept as the text it is. Read
/// as every other value is (`serde_json` first where its reading is the parser's own), so a
/// float `serde_json` may round wrongly is read correctly rounded.
pub(super) fn bare_value(token: &str) -> Value {
    match parse::parse(token, &ParseOptions::strict()) {
        Ok(parsed) => parsed.value,
        Err(_) => Value::String(token.to_owned()),
    }
}

/// Read the block at `start` (its marker is `open`); returns where it ends.
pub(super) fn read(text: &str, start: usize, open: &str, out: &mut Collector<'_>) -> usize {
    let (close, quote) = if open == "<start_function_call>" {
        ("<end_function_call>", "<escape>")
    } else {
        ("<tool_call|>", "<|\"|>")
    };
    let body_start = start + open.len();
    let (body_end, end, ending) = block(text, body_start, close, &[open]);
    let closed = ending == Ending::Closed;
    let span = &text[start..end];
    let body = &text[body_start..body_end];
    let mut pos = 0;
    let mut read_any = false;
    while let Some((at, _)) = find_first(body, pos, &["call:"]) {
        if out.is_full() {
            break;
        }
        read_any = true;
        let name_start = at + "call:".len();
        let Some(brace) = body[name_start..].find('{').map(|b| b + name_start) else {
            cut_or_malformed(out, span, closed, None);
            return end;
        };
        let name = body[name_start..brace].trim().to_owned();
        let mut reader = Reader { text: body, pos: brace, quote };
        match reader.object(0) {
            Ok(members) => {
                let schema = out.options.schema_of(&name);
                let mut params = Keywords::default();
                for (key, value, delimited) in members {
                    let value = match value {
                        Value::String(text) if delimited => xml::convert_delimited(&text, schema, &key),
                        other => other,
                    };
                    params.insert(key, value);
                }
                if name.is_empty() {
                    push_malformed(out, span, "the call has no name");
                } else {
                    params.push(out, name, None, span);
                }
                pos = reader.pos;
            }
            Err(Stop::End) => {
                cut_or_malformed(out, span, closed, (!name.is_empty()).then_some(name));
                return end;
            }
            Err(Stop::Bad(what)) => {
                push_malformed(out, span, what);
                return end;
            }
        }
    }
    if !read_any {
        cut_or_malformed(out, span, closed, None);
    }
    end
}

fn cut_or_malformed(out: &mut Collector<'_>, span: &str, closed: bool, name: Option<String>) {
    if closed {
        push_malformed(out, span, "expected `call:NAME{…}`");
    } else {
        let detail = format!("the tool call was cut off after {} bytes", span.len());
        push_cut_off(out, text_parts(name, OriginalArguments::Text(span.to_owned()), span), detail);
    }
}

/// Why a value could not be read.
enum Stop {
    /// The text ended inside it.
    End,
    /// It is not of the syntax.
    Bad(&'static str),
}

struct Reader<'a> {
    text: &'a str,
    pos: usize,
    quote: &'a str,
}

impl Reader<'_> {
    fn skip_ws(&mut self) {
        let rest = &self.text[self.pos..];
        self.pos += rest.len() - rest.trim_start().len();
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    /// `{key:value,…}` at `pos`: each member, and whether its value was delimited.
    fn object(&mut self, depth: usize) -> Result<Vec<(String, Value, bool)>, Stop> {
        if depth > MAX_DEPTH {
            return Err(Stop::Bad("the arguments nest too deep"));
        }
        self.pos += 1;
        let mut members = Vec::new();
        loop {
            self.skip_ws();
            match self.peek() {
                None => return Err(Stop::End),
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(members);
                }
                Some(b',') => {
                    self.pos += 1;
                    continue;
                }
                _ => {}
            }
            let key = if self.text[self.pos..].starts_with(self.quote) {
                self.delimited()?
            } else {
                let Some(colon) = self.text[self.pos..].find(':') else { return Err(Stop::End) };
                let key = self.text[self.pos..self.pos + colon].trim().trim_matches('"').to_owned();
                self.pos += colon;
                key
            };
            self.skip_ws();
            match self.peek() {
                Some(b':') => self.pos += 1,
                None => return Err(Stop::End),
                _ => return Err(Stop::Bad("a key is not followed by `:`")),
            }
            self.skip_ws();
            let delimited = self.text[self.pos..].starts_with(self.quote);
            let value = self.value(depth)?;
            members.push((key, value, delimited));
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, Stop> {
        self.skip_ws();
        if self.text[self.pos..].starts_with(self.quote) {
            return self.delimited().map(Value::String);
        }
        match self.peek() {
            None => Err(Stop::End),
            Some(b'{') => {
                let members = self.object(depth + 1)?;
                let mut map = Map::new();
                for (key, value, _) in members {
                    map.insert(key, value);
                }
                Ok(Value::Object(map))
            }
            Some(b'[') => {
                if depth > MAX_DEPTH {
                    return Err(Stop::Bad("the arguments nest too deep"));
                }
                self.pos += 1;
                let mut items = Vec::new();
                loop {
                    self.skip_ws();
                    match self.peek() {
                        None => return Err(Stop::End),
                        Some(b']') => {
                            self.pos += 1;
                            return Ok(Value::Array(items));
                        }
                        Some(b',') => self.pos += 1,
                        _ => items.push(self.value(depth + 1)?),
                    }
                }
            }
            Some(_) => {
                let rest = &self.text[self.pos..];
                let Some(end) = rest.find([',', '}', ']']) else { return Err(Stop::End) };
                let token = rest[..end].trim();
                if token.is_empty() {
                    // `[a}`: nothing to read here, and reading nothing would not move on.
                    return Err(Stop::Bad("a value is missing"));
                }
                self.pos += end;
                Ok(bare_value(token))
            }
        }
    }

    /// The text between two delimiters at `pos`.
    fn delimited(&mut self) -> Result<String, Stop> {
        let start = self.pos + self.quote.len();
        let Some(close) = self.text[start..].find(self.quote) else { return Err(Stop::End) };
        self.pos = start + close + self.quote.len();
        Ok(self.text[start..start + close].to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_closed_by_a_brace_is_an_error_not_a_loop() {
        let mut reader = Reader { text: "{tags:[a}}", pos: 0, quote: "<escape>" };
        assert!(matches!(reader.object(0), Err(Stop::Bad(_))));
        let mut reader = Reader { text: "{k:}", pos: 0, quote: "<escape>" };
        assert!(matches!(reader.object(0), Err(Stop::Bad(_))));
    }
}
