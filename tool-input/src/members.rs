//! What the text of a call says beyond its value: the order the model wrote the members in,
//! and the keys it gave twice. A parsed [`Value`] keeps neither (its objects are sorted, and
//! a repeated key keeps its last value), so the text is read again only when it matters: a
//! rejection with several errors (strict JSON with `serde_json`, skipping what no error is
//! about; other text with the incremental parser's member events), or a parse that saw a
//! repeated key.

use std::collections::HashMap;
use std::fmt::Write;

use serde_json::Value;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::error::FieldError;
use crate::parse::{IncrementalParser, ParseMode, ParseOptions, StreamEvent};

/// A key given twice in one object.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Repeat {
    /// JSON Pointer of the member.
    pub path: String,
    pub first: Value,
    pub second: Value,
}

/// Each completed member and item of `text`, in the order it completes (members of an
/// object before the object): its path, and its value when `values`.
fn completions(text: &str, options: &ParseOptions, values: bool) -> Vec<(String, Option<Value>)> {
    let mut seen = Vec::new();
    let mut parser = IncrementalParser::new(options.clone());
    let _ = parser.feed_with(text, |event| match event {
        StreamEvent::ValueComplete { path, value } => {
            seen.push((path.into_owned(), values.then(|| value.into_owned())));
        }
        // What came before was prose: start again.
        StreamEvent::Restart => seen.clear(),
        StreamEvent::StringGrew { .. } => {}
    });
    seen
}

/// The keys `text` gives twice, outermost only (the members of a repeated object are not
/// listed again), in the order of their second occurrence.
pub(crate) fn repeats(text: &str, options: &ParseOptions) -> Vec<Repeat> {
    let mut first: HashMap<String, Value> = HashMap::new();
    let mut repeats: Vec<Repeat> = Vec::new();
    for (path, value) in completions(text, options, true) {
        let value = value.unwrap_or_default();
        match first.get_mut(&path) {
            Some(earlier) => {
                let earlier = std::mem::replace(earlier, value.clone());
                repeats.push(Repeat { path, first: earlier, second: value });
            }
            None => {
                first.insert(path, value);
            }
        }
    }
    let repeated: Vec<String> = repeats.iter().map(|repeat| repeat.path.clone()).collect();
    repeats.retain(|repeat| {
        !repeated.iter().any(|outer| {
            repeat.path.len() > outer.len()
                && repeat.path.starts_with(outer.as_str())
                && repeat.path.as_bytes()[outer.len()] == b'/'
        })
    });
    repeats
}

/// Sort `errors` in the order the model wrote what they are about: an error at a member it
/// sent where that member is, one about a member it left out (a missing property) after
/// what it sent of the enclosing object. Errors at the same place keep their order.
///
/// Only the errors' paths and their ancestors are looked for. Strict JSON (the common case:
/// step one of the typed path read it and refused it) is read with `serde_json`, skipping
/// every subtree no error is about; other text with the incremental parser's member events.
pub(crate) fn in_document_order(errors: &mut [FieldError], text: &str, options: &ParseOptions) {
    // The repair mode reports no member events: its guesses can restructure what was read.
    if errors.len() < 2 || options.mode == ParseMode::Repair {
        return;
    }
    let mut order = Order::for_paths(errors.iter().map(|error| error.path.as_str()));
    let read = {
        let mut deserializer = serde_json::Deserializer::from_str(text);
        Wanted { order: &mut order, path: &mut String::new(), slot: None }
            .deserialize(&mut deserializer)
            .and_then(|()| deserializer.end())
            .is_ok()
    };
    if !read {
        order.reset();
        for (index, (path, _)) in completions(text, options, false).iter().enumerate() {
            order.completed_at(path, index);
            order.count = index + 1;
        }
    }
    // No member at all: the errors keep the walk's order.
    if order.count == 0 {
        return;
    }
    errors.sort_by_cached_key(|error| order.rank(&error.path));
}

/// Where the paths that errors are about (and their ancestors) are in the text: the first
/// member completed at or below each, and each one's own completion (its last, for a key
/// given twice). Completions are counted in the order they end, as the incremental parser
/// reports them; only their order matters, so a subtree no error is about counts as one.
struct Order {
    /// Each wanted path (an error's, or an ancestor of one), and its slot.
    slots: HashMap<String, usize>,
    first: Vec<Option<usize>>,
    own: Vec<Option<usize>>,
    /// Wanted paths entered whose first completion has not come yet.
    pending: Vec<usize>,
    /// Completions so far.
    count: usize,
}

impl Order {
    fn for_paths<'p>(paths: impl Iterator<Item = &'p str>) -> Self {
        let mut slots = HashMap::new();
        for path in paths {
            let mut end = path.len();
            while end > 0 {
                if !slots.contains_key(&path[..end]) {
                    slots.insert(path[..end].to_owned(), slots.len());
                }
                match path[..end].rfind('/') {
                    Some(slash) => end = slash,
                    None => break,
                }
            }
        }
        let wanted = slots.len();
        Order { slots, first: vec![None; wanted], own: vec![None; wanted], pending: Vec::new(), count: 0 }
    }

    fn reset(&mut self) {
        self.first.fill(None);
        self.own.fill(None);
        self.pending.clear();
        self.count = 0;
    }

    fn slot(&self, path: &str) -> Option<usize> {
        self.slots.get(path).copied()
    }

    /// A wanted path's value starts: its first completion is the next one.
    fn entered(&mut self, slot: usize) {
        if self.first[slot].is_none() && !self.pending.contains(&slot) {
            self.pending.push(slot);
        }
    }

    /// A value ends: a wanted one's own completion (`Some`), or a whole subtree skipped.
    fn completed(&mut self, slot: Option<usize>) {
        for waiting in self.pending.drain(..) {
            self.first[waiting] = Some(self.count);
        }
        if let Some(slot) = slot {
            self.own[slot] = Some(self.count);
        }
        self.count += 1;
    }

    /// The incremental parser's completion number `index`, at `path`.
    fn completed_at(&mut self, path: &str, index: usize) {
        let mut end = path.len();
        while end > 0 {
            if let Some(slot) = self.slot(&path[..end]) {
                self.first[slot].get_or_insert(index);
            }
            match path[..end].rfind('/') {
                Some(slash) => end = slash,
                None => break,
            }
        }
        if let Some(slot) = self.slot(path) {
            self.own[slot] = Some(index);
        }
    }

    /// Where an error at `path` goes: at the first completion at or below what it is about;
    /// for what was not sent, just after the enclosing value that was; else last.
    fn rank(&self, path: &str) -> (usize, usize) {
        if path.is_empty() {
            return (0, 0);
        }
        if let Some(at) = self.slot(path).and_then(|slot| self.first[slot]) {
            return (at, 0);
        }
        let mut end = path.len();
        while let Some(slash) = path[..end].rfind('/') {
            if slash == 0 {
                break;
            }
            if let Some(at) = self.slot(&path[..slash]).and_then(|slot| self.own[slot]) {
                return (at, 1);
            }
            end = slash;
        }
        (usize::MAX, 0)
    }
}

/// A value whose path is wanted (or the top-level value), read for its members' order.
struct Wanted<'a> {
    order: &'a mut Order,
    /// The value's JSON Pointer; members push their token and take it off again.
    path: &'a mut String,
    /// The value's slot (`None` at the top level).
    slot: Option<usize>,
}

impl<'de> DeserializeSeed<'de> for Wanted<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        // Called only for a member or item that is there.
        if let Some(slot) = self.slot {
            self.order.entered(slot);
        }
        deserializer.deserialize_any(Members { order: &mut *self.order, path: &mut *self.path })?;
        if let Some(slot) = self.slot {
            self.order.completed(Some(slot));
        }
        Ok(())
    }
}

/// The visitor of a wanted value: its members and items, each read if wanted, else skipped
/// as one completion.
struct Members<'a> {
    order: &'a mut Order,
    path: &'a mut String,
}

impl Members<'_> {
    /// The member or item whose token was just pushed onto the path: `read` is given the
    /// seed for a wanted one, `None` to skip it, and says whether there was one.
    fn member<E>(&mut self, read: impl FnOnce(Option<Wanted<'_>>) -> Result<bool, E>) -> Result<bool, E> {
        match self.order.slot(self.path) {
            Some(slot) => {
                read(Some(Wanted { order: &mut *self.order, path: &mut *self.path, slot: Some(slot) }))
            }
            None => {
                let there = read(None)?;
                if there {
                    self.order.completed(None);
                }
                Ok(there)
            }
        }
    }
}

impl<'de> Visitor<'de> for Members<'_> {
    type Value = ();

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("a JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<(), A::Error> {
        let len = self.path.len();
        while map.next_key_seed(Key { path: &mut *self.path })?.is_some() {
            self.member(|wanted| match wanted {
                Some(wanted) => map.next_value_seed(wanted).map(|()| true),
                None => map.next_value::<IgnoredAny>().map(|_| true),
            })?;
            self.path.truncate(len);
        }
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<(), A::Error> {
        let len = self.path.len();
        for index in 0.. {
            // Writing to a `String` cannot fail.
            let _ = write!(self.path, "/{index}");
            let there = self.member(|wanted| match wanted {
                Some(wanted) => seq.next_element_seed(wanted).map(|item| item.is_some()),
                None => seq.next_element::<IgnoredAny>().map(|item| item.is_some()),
            })?;
            self.path.truncate(len);
            if !there {
                break;
            }
        }
        Ok(())
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
}

/// A member's key, pushed onto the path as an escaped reference token.
struct Key<'a> {
    path: &'a mut String,
}

impl<'de> DeserializeSeed<'de> for Key<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key<'_> {
    type Value = ();

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("a key")
    }

    fn visit_str<E>(self, key: &str) -> Result<(), E> {
        crate::pointer::push_token(self.path, key);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorCode;
    use proptest::prelude::*;
    use serde_json::json;

    fn error(path: &str) -> FieldError {
        FieldError {
            path: path.to_owned(),
            code: ErrorCode::Type,
            message: String::new(),
            value: None,
            options: Vec::new(),
            suggestion: None,
        }
    }

    #[test]
    fn errors_follow_the_text() {
        let text = r#"{"z": 1, "b": {"y": 2, "a": 3}, "a": [4, 5]}"#;
        let mut errors: Vec<FieldError> =
            ["/a/1", "/b/a", "/b/missing", "/b/y", "/missing", "/z", "/b"].map(error).into();
        in_document_order(&mut errors, text, &ParseOptions::default());
        let paths: Vec<&str> = errors.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(paths, ["/z", "/b/y", "/b", "/b/a", "/b/missing", "/a/1", "/missing"]);
    }

    /// The order as it was first written: every completion's path and prefixes, from the
    /// incremental parser's events. The reference the reading above must equal.
    fn reference_order(errors: &mut [FieldError], text: &str, options: &ParseOptions) {
        if errors.len() < 2 {
            return;
        }
        let mut first: HashMap<String, usize> = HashMap::new();
        let mut own: HashMap<String, usize> = HashMap::new();
        for (index, (path, _)) in completions(text, options, false).into_iter().enumerate() {
            let mut end = path.len();
            loop {
                first.entry(path[..end].to_owned()).or_insert(index);
                match path[..end].rfind('/') {
                    Some(slash) if slash > 0 => end = slash,
                    _ => break,
                }
            }
            own.insert(path, index);
        }
        if first.is_empty() {
            return;
        }
        let rank = |path: &str| -> (usize, usize) {
            if path.is_empty() {
                return (0, 0);
            }
            if let Some(&at) = first.get(path) {
                return (at, 0);
            }
            let mut end = path.len();
            while let Some(slash) = path[..end].rfind('/') {
                if slash == 0 {
                    break;
                }
                if let Some(&at) = own.get(&path[..slash]) {
                    return (at, 1);
                }
                end = slash;
            }
            (usize::MAX, 0)
        };
        errors.sort_by_cached_key(|error| rank(&error.path));
    }

    /// Every path in `value`, and some that are not there (a member left out, an item past
    /// the end).
    fn paths_of(value: &Value, at: &str, into: &mut Vec<String>) {
        into.push(format!("{at}/missing"));
        match value {
            Value::Object(map) => {
                for (key, member) in map {
                    let path = format!("{at}/{}", crate::pointer::escape_token(key));
                    into.push(path.clone());
                    paths_of(member, &path, into);
                }
            }
            Value::Array(items) => {
                into.push(format!("{at}/{}", items.len()));
                for (index, item) in items.iter().enumerate() {
                    let path = format!("{at}/{index}");
                    into.push(path.clone());
                    paths_of(item, &path, into);
                }
            }
            _ => {}
        }
    }

    fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i32>().prop_map(|n| json!(n)),
            "[a-c~/ ]{0,3}".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 40, 5, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
                prop::collection::btree_map("[a-d~/]{1,2}", inner, 0..5)
                    .prop_map(|map| Value::Object(map.into_iter().collect())),
            ]
        })
    }

    proptest! {
        /// Strict text (read with serde_json, skipping what no error is about) and text with
        /// repairs (read with the member events) are ordered as the reference orders them,
        /// keys given twice included.
        #[test]
        fn document_order_equals_the_reference(
            members in prop::collection::vec(("[a-d~/]{1,2}", json_value()), 0..6),
            picks in prop::collection::vec(any::<prop::sample::Index>(), 2..8),
            lenient in any::<bool>(),
        ) {
            let mut text = String::from("{");
            let mut all = Vec::new();
            for (index, (key, value)) in members.iter().enumerate() {
                if index > 0 {
                    text.push_str(", ");
                }
                text.push_str(&format!("{}: {value}", json!(key)));
                let path = format!("/{}", crate::pointer::escape_token(key));
                all.push(path.clone());
                paths_of(value, &path, &mut all);
            }
            if lenient {
                // A trailing comma: the text is no longer strict JSON.
                text.push(',');
            }
            text.push('}');
            all.push("/missing".to_owned());
            all.push(String::new());
            let mut errors: Vec<FieldError> =
                picks.iter().map(|pick| error(&all[pick.index(all.len())])).collect();
            let mut expected = errors.clone();
            reference_order(&mut expected, &text, &ParseOptions::default());
            in_document_order(&mut errors, &text, &ParseOptions::default());
            let got: Vec<&str> = errors.iter().map(|e| e.path.as_str()).collect();
            let want: Vec<&str> = expected.iter().map(|e| e.path.as_str()).collect();
            prop_assert_eq!(got, want, "text {}", text);
        }
    }

    #[test]
    fn prose_before_the_value_orders_as_the_reference() {
        let text = "Here you go: {'b': {'y': 1, 'x': 2}, 'a': [1, 2], 'b': 3}";
        let mut errors: Vec<FieldError> = ["/a/1", "/b/x", "/b", "/c", "/a", "/b/y"].map(error).into();
        let mut expected = errors.clone();
        reference_order(&mut expected, text, &ParseOptions::default());
        in_document_order(&mut errors, text, &ParseOptions::default());
        let got: Vec<&str> = errors.iter().map(|e| e.path.as_str()).collect();
        let want: Vec<&str> = expected.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn repeated_keys_are_found_outermost() {
        let text = r#"{"a": 1, "b": {"c": [1], "c": [1]}, "a": 2, "d": {"e": 1}, "d": {"e": 1}}"#;
        let found = repeats(text, &ParseOptions::default());
        let found: Vec<(&str, &Value, &Value)> =
            found.iter().map(|r| (r.path.as_str(), &r.first, &r.second)).collect();
        assert_eq!(
            found,
            [
                ("/b/c", &json!([1]), &json!([1])),
                ("/a", &json!(1), &json!(2)),
                ("/d", &json!({"e": 1}), &json!({"e": 1}))
            ]
        );
        assert!(repeats(r#"{"a": [{"b": 1}, {"b": 2}]}"#, &ParseOptions::default()).is_empty());
    }
}
