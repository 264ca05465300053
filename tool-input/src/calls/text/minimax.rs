//! MiniMax M3: every tag prefixed with the namespace token `]<]minimax[>[`:
//! `<tool_call><invoke name="NAME"><KEY>VALUE</KEY>…</invoke>…</tool_call>`. A parameter is
//! a tag of its own name; an object's members are nested tags, an array's items repeated
//! tags (or `<item>` tags). `<parameter name="KEY">` is read too. The `<tool_call>` inside
//! these markers is M3's, never a Hermes call.

use serde_json::{Map, Value};

use super::keywords::Keywords;
use super::{find_first, push_cut_off, push_malformed, text_parts, xml};
use crate::calls::{Collector, OriginalArguments};
use crate::dialect::walk::{property_schema, resolve};

pub(super) const NAMESPACES: [&str; 2] = ["]<]minimax[>[", "<]minimax[>["];
const CLOSES: [&str; 2] = ["]<]minimax[>[</tool_call>", "<]minimax[>[</tool_call>"];

/// Read the block at `start`; returns where it ends.
pub(super) fn read_m3(text: &str, start: usize, out: &mut Collector<'_>) -> usize {
    let (end, closed) = match find_first(text, start + 1, &CLOSES) {
        Some((at, which)) => (at + CLOSES[which].len(), true),
        None => (text.len(), false),
    };
    let span = &text[start..end];
    // The namespace token carries nothing: the block is plain tags without it.
    let plain = Plain::of(span);
    let trimmed = plain.text.trim_start();
    let mut body_start = plain.text.len() - trimmed.len();
    let mut body = trimmed.trim_end();
    if let Some(rest) = body.strip_prefix("<tool_call>") {
        body_start += "<tool_call>".len();
        body = rest;
    }
    let body = body.strip_suffix("</tool_call>").unwrap_or(body);
    // Each call records its own text as written (its namespace tokens too), not the
    // block's: a block of many calls keeps each of its bytes once, not once a call.
    let own =
        |from: usize, to: usize| &span[plain.written(body_start + from)..plain.written(body_start + to)];
    let mut pos = 0;
    let mut read_any = false;
    while let Some((at, _)) = find_first(body, pos, &["<invoke name="]) {
        if out.is_full() {
            break;
        }
        read_any = true;
        pos = read_invoke(body, at, closed, &own, out);
    }
    if !read_any {
        if closed {
            push_malformed(out, span, "no `<invoke name=…>` in the block");
        } else {
            let detail = format!("the tool call was cut off after {} bytes", span.len());
            push_cut_off(out, text_parts(None, OriginalArguments::Text(span.to_owned()), span), detail);
        }
    }
    end
}

/// A block's text without its namespace tokens, and where each of its bytes was written.
struct Plain {
    text: String,
    /// Where each token was taken out: the position in `text`, and the position after the
    /// token in the text as written. In order.
    cuts: Vec<(usize, usize)>,
}

impl Plain {
    /// `written` without its namespace tokens. One pass.
    fn of(written: &str) -> Plain {
        let mut text = String::with_capacity(written.len());
        let mut cuts = Vec::new();
        let mut pos = 0;
        while let Some((at, which)) = find_first(written, pos, &NAMESPACES) {
            text.push_str(&written[pos..at]);
            pos = at + NAMESPACES[which].len();
            cuts.push((text.len(), pos));
        }
        text.push_str(&written[pos..]);
        Plain { text, cuts }
    }

    /// Where the position `at` of the plain text is in the text as written: before the
    /// tokens taken out right there, so a call's text starts with its own namespace token
    /// and ends before the next call's.
    fn written(&self, at: usize) -> usize {
        let before = self.cuts.partition_point(|&(cut, _)| cut < at);
        match before.checked_sub(1).map(|last| self.cuts[last]) {
            Some((cut, written)) => written + (at - cut),
            None => at,
        }
    }
}

/// One `<invoke name="…">` at `start`; returns the index after it. `own` gives the text
/// as written of a part of `body`.
fn read_invoke<'s>(
    body: &str,
    start: usize,
    closed: bool,
    own: &impl Fn(usize, usize) -> &'s str,
    out: &mut Collector<'_>,
) -> usize {
    let name_start = start + "<invoke name=".len();
    let Some(header_end) = body[name_start..].find('>').map(|at| at + name_start) else {
        let span = own(start, body.len());
        let detail = format!("the tool call was cut off after {} bytes, inside the call's name", span.len());
        push_cut_off(out, text_parts(None, OriginalArguments::Text(span.to_owned()), span), detail);
        return body.len();
    };
    let name = body[name_start..header_end].trim().trim_matches(['"', '\'']).to_owned();
    let (inner_end, end, invoke_closed) =
        match find_first(body, header_end + 1, &["</invoke>", "<invoke name="]) {
            Some((at, 0)) => (at, at + "</invoke>".len(), true),
            Some((at, _)) => (at, at, closed),
            None => (body.len(), body.len(), closed),
        };
    let span = own(start, end);
    if !invoke_closed {
        let detail = format!("the tool call was cut off after {} bytes, inside its parameters", span.len());
        push_cut_off(out, text_parts(Some(name), OriginalArguments::Text(span.to_owned()), span), detail);
        return end;
    }
    if name.is_empty() {
        push_malformed(out, span, "the call has no name");
        return end;
    }
    let Some(children) = elements(&body[header_end + 1..inner_end]) else {
        push_malformed(out, span, "a parameter's tag is not closed");
        return end;
    };
    let schema = out.options.schema_of(&name);
    let mut params = Keywords::default();
    for (key, node) in group(children) {
        let property = schema.and_then(|root| Some((root, property_schema(root, &key)?)));
        params.insert(key, node.into_value(property));
    }
    params.push(out, name, None, span);
    end
}

/// A parameter's content: text, or tags.
#[derive(Debug)]
pub(super) enum Node {
    Text(String),
    Children(Vec<(String, Node)>),
    /// Repeated tags of one name.
    List(Vec<Node>),
}

impl Node {
    /// The value, its leaves converted by `schema` (the value's own schema, with the
    /// tool's for `$ref`s) as a top-level parameter's text is; text without one.
    pub(super) fn into_value(self, schema: Option<(&Value, &Value)>) -> Value {
        let items = schema.and_then(|(root, schema)| Some((root, resolve(root, schema.get("items")?))));
        let list = |items_schema, nodes: Vec<Node>| {
            Value::Array(nodes.into_iter().map(|node| node.into_value(items_schema)).collect())
        };
        match self {
            Node::Text(text) => xml::convert_by(&text, schema),
            Node::List(nodes) => list(items, nodes),
            Node::Children(children) => {
                let grouped = group(children);
                if grouped.len() == 1 && grouped[0].0 == "item" {
                    return match grouped.into_iter().next().map(|(_, node)| node) {
                        Some(Node::List(nodes)) => list(items, nodes),
                        Some(node) => Value::Array(vec![node.into_value(items)]),
                        None => Value::Array(Vec::new()),
                    };
                }
                let mut map = Map::new();
                for (key, node) in grouped {
                    let property = schema.and_then(|(root, schema)| {
                        Some((root, resolve(root, resolve(root, schema).get("properties")?.get(&key)?)))
                    });
                    map.insert(key, node.into_value(property));
                }
                Value::Object(map)
            }
        }
    }
}

/// Siblings of one name made one list, in the order each name first came.
pub(super) fn group(children: Vec<(String, Node)>) -> Vec<(String, Node)> {
    let mut grouped: Vec<(String, Vec<Node>)> = Vec::new();
    for (key, node) in children {
        match grouped.iter_mut().find(|(seen, _)| *seen == key) {
            Some((_, nodes)) => nodes.push(node),
            None => grouped.push((key, vec![node])),
        }
    }
    grouped
        .into_iter()
        .map(|(key, mut nodes)| {
            let node = if nodes.len() == 1 {
                nodes.pop().unwrap_or(Node::Text(String::new()))
            } else {
                Node::List(nodes)
            };
            (key, node)
        })
        .collect()
}

/// One open element: the name its end tag has, the key it gives, where its content
/// starts, and its children so far.
struct Open {
    tag: String,
    key: String,
    content_start: usize,
    children: Vec<(String, Node)>,
}

/// The elements of `text`, nested; `None` when a tag does not close. One pass, a stack
/// for the nesting.
pub(super) fn elements(text: &str) -> Option<Vec<(String, Node)>> {
    let mut stack: Vec<Open> = Vec::new();
    let mut top: Vec<(String, Node)> = Vec::new();
    let mut pos = 0;
    while let Some(at) = text[pos..].find('<').map(|at| at + pos) {
        let Some(close) = text[at..].find('>').map(|end| end + at) else { break };
        let tag = &text[at + 1..close];
        pos = close + 1;
        let (key, node) = if let Some(closing) = tag.strip_prefix('/') {
            let open = stack.pop()?;
            if open.tag != closing.trim() {
                return None;
            }
            let node = if open.children.is_empty() {
                Node::Text(text[open.content_start..at].to_owned())
            } else {
                Node::Children(open.children)
            };
            (open.key, node)
        } else {
            let (tag, empty) = match tag.strip_suffix('/') {
                Some(tag) => (tag.trim(), true),
                None => (tag.trim(), false),
            };
            // `<parameter name="KEY">` names its key in an attribute.
            let (tag_name, key) = match tag.strip_prefix("parameter name=") {
                Some(attribute) => ("parameter", attribute.trim().trim_matches(['"', '\'']).to_owned()),
                None => (tag, tag.to_owned()),
            };
            if !empty {
                stack.push(Open { tag: tag_name.to_owned(), key, content_start: pos, children: Vec::new() });
                continue;
            }
            (key, Node::Text(String::new()))
        };
        match stack.last_mut() {
            Some(parent) => parent.children.push((key, node)),
            None => top.push((key, node)),
        }
    }
    stack.is_empty().then_some(top)
}
