//! What the text of a call says beyond its value: the order the model wrote the members in,
//! and the keys it gave twice. A parsed [`Value`] keeps neither (its objects are sorted, and
//! a repeated key keeps its last value), so the text is read again only when it matters: a
//! rejection with several errors (strict JSON with `serde_json`, skipping what no error is
//! about; other text from the tape its lenient parse writes, or with the incremental parser's
//! member events where a key is given twice), or a parse that saw a repeated key.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use serde_json::Value;

use serde::de::DeserializeSeed;

use crate::error::{ErrorCode, FieldError};
use crate::key_walk::{self, Gather, Reading, Scalar, Step};
use crate::parse::one_shot::parse_to_tape;
use crate::parse::strict::serde_json_first;
use crate::parse::tape_de::TapeDeserializer;
use crate::parse::{IncrementalParser, ParseMode, ParseOptions, StreamEvent};
use crate::report::{Coercion, CoercionKind};

/// A key given twice or more in one object.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Repeat {
    /// JSON Pointer of the member.
    pub path: String,
    /// Every value the key was given, in the order given (at least two).
    pub values: Vec<Value>,
}

/// What a key given twice comes to ([`Repeat::finding`]).
pub(crate) enum Finding {
    /// One value each time: recorded.
    Record(Coercion),
    /// Two values or more: an error.
    Error(FieldError),
}

/// Most values of a key given many times that its error quotes each as given; past it, each
/// value is quoted once (at most this many, the rest counted).
const MOST_QUOTED: usize = 8;

impl Repeat {
    /// The first value, and the first given after it that differs from it: `None` when the
    /// key was given one value each time.
    pub(crate) fn differing(&self) -> Option<(&Value, &Value)> {
        let (first, rest) = self.values.split_first()?;
        rest.iter().find(|value| !crate::check::json_equal(first, value)).map(|other| (first, other))
    }

    /// What the key given twice (or more) comes to: with one value each time, a
    /// `duplicate_key` record; with two values or more, one error naming them (a choice made
    /// twice is not ours to settle). `at` is the pointer of the value the text was read as
    /// (`""` for the arguments themselves); `hidden` leaves the values out (a sensitive
    /// field).
    pub(crate) fn finding(&self, at: &str, hidden: bool, max_echo: usize) -> Finding {
        let path = format!("{at}{}", self.path);
        let echo = |value: &Value| (!hidden).then(|| crate::check::echo(value, max_echo));
        let last = self.values.last().unwrap_or(&Value::Null);
        if self.differing().is_none() {
            return Finding::Record(Coercion {
                path,
                kind: CoercionKind::DuplicateKey,
                from: echo(last),
                to: None,
            });
        }
        let key = self.path.rsplit('/').next().map(crate::pointer::unescape_token).unwrap_or_default();
        let times = match self.values.len() {
            2 => "twice".to_owned(),
            n => format!("{n} times"),
        };
        // The options: each value given, once, in the order first given.
        let mut options: Vec<Value> = Vec::new();
        let mut more = false;
        for value in &self.values {
            if !options.iter().any(|option| crate::check::json_equal(option, value)) {
                if options.len() == crate::check::MAX_OPTIONS {
                    more = true;
                    break;
                }
                options.push(value.clone());
            }
        }
        let message = if hidden {
            options.clear();
            format!("the key `{key}` is given {times}, with different values; send it once, with the value you mean")
        } else if self.values.len() <= MOST_QUOTED {
            // Few: each as given, in order.
            let given: Vec<String> =
                self.values.iter().map(|value| echo(value).unwrap_or_default()).collect();
            let list = given.join(", then ");
            format!("the key `{key}` is given {times}, with different values: {list}; send it once, with the value you mean")
        } else {
            // Many: each value once.
            let shown = options.get(..MOST_QUOTED).unwrap_or(&options);
            let (list, kinds) = if more {
                // Not counted past the options kept: a count would compare every pair.
                let list = crate::message::quoted_first(shown, shown.len(), max_echo);
                (format!("{list}, …"), format!("more than {}", options.len()))
            } else {
                (crate::message::quoted_first(shown, options.len(), max_echo), options.len().to_string())
            };
            format!("the key `{key}` is given {times}, with {kinds} different values: {list}; send it once, with the value you mean")
        };
        Finding::Error(FieldError {
            path,
            code: ErrorCode::DuplicateKey,
            message,
            value: echo(last),
            options: options.into(),
            suggestion: None,
        })
    }
}

/// Each completed member and item of `text`, in the order it completes (members of an
/// object before the object): its path, and its value when `values`. Those of a value that
/// only the end of the text settles (after prose, past a candidate the end refused) come
/// from `finish`.
fn completions(text: &str, options: &ParseOptions, values: bool) -> Vec<(String, Option<Value>)> {
    let mut seen = Vec::new();
    let mut on_event = |event: StreamEvent<'_>| match event {
        StreamEvent::ValueComplete { path, value } => {
            seen.push((path.into_owned(), values.then(|| value.into_owned())));
        }
        // What came before was prose: start again.
        StreamEvent::Restart => seen.clear(),
        StreamEvent::StringGrew { .. } => {}
    };
    let mut parser = IncrementalParser::new(options.clone());
    let _ = parser.feed_with(text, &mut on_event);
    let _ = parser.finish_with(&mut on_event);
    seen
}

/// The keys `text` gives twice, outermost only (the members of a repeated object are not
/// listed again), in the order of their second occurrence.
pub(crate) fn repeats(text: &str, options: &ParseOptions) -> Vec<Repeat> {
    repeats_within(text, options, crate::parse::one_shot::MAX_DOUBLE_ENCODING)
}

/// [`repeats`], reading a top-level string that holds the payload (lenient mode decodes it,
/// so its keys are the value's) up to `strings_left` strings deep.
///
/// The text's tape is walked with the pointer of the place kept as one buffer, and a
/// repeat's path written only when a key comes again. The members the incremental parser
/// reports are the fallback, where the parse writes no tape: each of them has its own path,
/// which under a long key is a copy of the key per member (quadratic: a 128 KB call with a
/// key given twice beside a 64 KB key over `1` items took 6 s and 2 GB).
fn repeats_within(text: &str, options: &ParseOptions, strings_left: usize) -> Vec<Repeat> {
    if let Some(tape) = crate::parse::one_shot::tape_keeping_repeats(text, options) {
        let mut walk = RepeatWalk::default();
        if key_walk::walk(&mut walk).deserialize(&mut TapeDeserializer::of(&tape)).is_ok() {
            return outermost(walk.found);
        }
    }
    let completed = completions(text, options, true);
    if completed.is_empty() && options.mode == ParseMode::Lenient && strings_left > 0 {
        // No member: the text may be a string holding the payload.
        if let Some(inner) = crate::parse::one_shot::top_level_string(text, options) {
            let inner_options = ParseOptions { complete_truncated: false, ..options.clone() };
            return repeats_within(inner.trim(), &inner_options, strings_left - 1);
        }
    }
    // Each path's first value, until it comes again; then where its `Repeat` is.
    let mut seen: HashMap<String, Result<usize, Value>> = HashMap::new();
    let mut repeats: Vec<Repeat> = Vec::new();
    for (path, value) in completed {
        let value = value.unwrap_or_default();
        match seen.get_mut(&path) {
            Some(Ok(at)) => repeats[*at].values.push(value),
            Some(slot @ Err(_)) => {
                let Err(first) = std::mem::replace(slot, Ok(repeats.len())) else { continue };
                repeats.push(Repeat { path, values: vec![first, value] });
            }
            None => {
                seen.insert(path, Err(value));
            }
        }
    }
    outermost(repeats)
}

/// A walk that finds the keys each object gives twice, building the values it needs to
/// quote them (each repeat's, in the order given).
#[derive(Default)]
struct RepeatWalk {
    /// Where the walk is.
    at: key_walk::PointerStack,
    /// The repeats, in the order of their second occurrence.
    found: Vec<Repeat>,
}

/// An object being walked: its members as `Value` keeps them (the last value of a key), and
/// where in `found` each key it gave twice is.
#[derive(Default)]
struct Members {
    values: serde_json::Map<String, Value>,
    repeated: HashMap<String, usize>,
}

impl<'de> Gather<'de> for RepeatWalk {
    type Value = Value;
    type Object = Members;
    type Array = Vec<Value>;

    fn enter(&mut self, step: Step<'_>) -> Reading {
        self.at.enter(step);
        Reading::Walk
    }

    fn leave(&mut self) {
        self.at.leave();
    }

    fn scalar(&mut self, scalar: Scalar<'_>) -> Value {
        scalar.to_value()
    }

    fn member(&mut self, members: &mut Members, key: Cow<'de, str>, value: Value) {
        if let Some(first) = members.values.get(key.as_ref()) {
            match members.repeated.get(key.as_ref()) {
                Some(&at) => self.found[at].values.push(value.clone()),
                None => {
                    // Written once per key an object repeats; the walk is at the object.
                    let path = format!("{}/{}", self.at.as_str(), crate::pointer::escape_token(&key));
                    members.repeated.insert(key.clone().into_owned(), self.found.len());
                    self.found.push(Repeat { path, values: vec![first.clone(), value.clone()] });
                }
            }
        }
        members.values.insert(key.into_owned(), value);
    }

    fn object_end(&mut self, members: Members) -> Value {
        Value::Object(members.values)
    }

    fn item(&mut self, items: &mut Vec<Value>, item: Value) {
        items.push(item);
    }

    fn array_end(&mut self, items: Vec<Value>) -> Value {
        Value::Array(items)
    }
}

/// The repeats not inside the value of another: a key given twice inside a repeated value
/// is that value's affair. Each repeat looks its ancestors up in a set of the repeated
/// paths (one look-up per `/` of its path), rather than being compared with every other
/// repeat: thousands of objects each giving a key twice were a quadratic filter (1 MB of
/// them took 5 s).
fn outermost(repeats: Vec<Repeat>) -> Vec<Repeat> {
    let repeated: HashSet<&str> = repeats.iter().map(|repeat| repeat.path.as_str()).collect();
    let nested: Vec<bool> = repeats
        .iter()
        .map(|repeat| {
            let path = repeat.path.as_str();
            path.match_indices('/').any(|(at, _)| repeated.contains(&path[..at]))
        })
        .collect();
    repeats.into_iter().zip(nested).filter_map(|(repeat, nested)| (!nested).then_some(repeat)).collect()
}

/// Sort `errors` in the order the model wrote what they are about: an error at a member it
/// sent where that member is, one about a member it left out (a missing property) after
/// what it sent of the enclosing object. Errors at the same place keep their order.
///
/// Only the errors' paths and their ancestors are looked for. Strict JSON (the common case:
/// step one of the typed path read it and refused it) is read with `serde_json` where it
/// reads first (`serde_json_first`), skipping every subtree no error is about; other text
/// by the same walk over the tape its lenient parse writes, or, where it gives a key twice,
/// with the incremental parser's member events.
pub(crate) fn in_document_order(errors: &mut [FieldError], text: &str, options: &ParseOptions) {
    // The repair mode reports no member events: its guesses can restructure what was read.
    if errors.len() < 2 || options.mode == ParseMode::Repair {
        return;
    }
    let mut order = Order::for_paths(errors.iter().map(|error| error.path.as_str()));
    let mut places = Places { order: &mut order, entered: Vec::new() };
    // Only the members' order is read, which no float's rounding changes: no scan for one.
    let walk = |d: &mut _| key_walk::walk(&mut places).deserialize(d).map(|value| (value, false));
    let read = serde_json_first(text, options.max_depth, false, walk);
    if read.read().is_none() {
        order.reset();
        // Other text: the same walk over the tape its parse writes (the incremental parser's
        // events name no member of a value found by a retry after prose), or, where a key is
        // given twice (no tape), the members those events name.
        match parse_to_tape(text, options, true) {
            Ok(Some(parsed)) => {
                let mut places = Places { order: &mut order, entered: Vec::new() };
                let _ = key_walk::walk(&mut places).deserialize(&mut TapeDeserializer::of(&parsed.tape));
            }
            _ => {
                for (index, (path, _)) in completions(text, options, false).iter().enumerate() {
                    order.completed_at(path, index);
                    order.count = index + 1;
                }
            }
        }
    }
    // No member at all: the errors keep the walk's order.
    if order.count == 0 {
        return;
    }
    // Each error's place, its index breaking ties: a stable sort.
    let mut places: Vec<((usize, usize), usize)> =
        errors.iter().enumerate().map(|(at, error)| (order.rank(&error.path), at)).collect();
    if places.is_sorted() {
        return;
    }
    places.sort_unstable();
    permute(errors, places.into_iter().map(|(_, from)| from).collect());
}

/// Reorder `items` in place so that `items[i]` becomes what was `items[from[i]]` (`from` is
/// a permutation), by following its cycles.
fn permute<T>(items: &mut [T], mut from: Vec<usize>) {
    for start in 0..items.len() {
        let mut current = start;
        while from[current] != start && from[current] != current {
            let next = from[current];
            items.swap(current, next);
            from[current] = current;
            current = next;
        }
        from[current] = current;
    }
}

/// Where the paths that errors are about (and their ancestors) are in the text: the first
/// member completed at or below each, and each one's own completion (its last, for a key
/// given twice). Completions are counted in the order they end, as the incremental parser
/// reports them; only their order matters, so a subtree no error is about counts as one.
///
/// A rejection has a few errors, so the wanted paths are a short list searched in order
/// (no hashing, no path copied), and a member is matched by its key against its parent's
/// wanted children (no path written per member read).
struct Order<'e> {
    /// Each wanted path (an error's, or an ancestor of one; never the root), at its slot.
    slots: Vec<Slot<'e>>,
    /// Wanted paths entered whose first completion has not come yet.
    pending: usize,
    /// Completions so far.
    count: usize,
}

/// One wanted path.
struct Slot<'e> {
    /// The JSON Pointer.
    path: &'e str,
    /// Where its last reference token starts in `path` (0 for a path that does not start
    /// with `/`, which names no member).
    token: usize,
    /// The slot of the path it is under (`None`: under the root).
    parent: Option<usize>,
    /// The last token as an array index, when it is one as the pointer writes indices
    /// (digits, no leading zero).
    index: Option<usize>,
    /// The first completion at or below it.
    first: Option<usize>,
    /// Its own (last) completion.
    own: Option<usize>,
    /// Entered, waiting for its first completion.
    pending: bool,
}

impl<'e> Order<'e> {
    fn for_paths(paths: impl Iterator<Item = &'e str>) -> Self {
        let mut slots: Vec<Slot<'e>> = Vec::new();
        for path in paths {
            // The path's prefixes, longest first; each slot's parent is the next one.
            let mut child: Option<usize> = None;
            let mut end = path.len();
            while end > 0 {
                let prefix = &path[..end];
                let token = prefix.rfind('/').map_or(0, |slash| slash + 1);
                let (at, known) = match slots.iter().position(|slot| slot.path == prefix) {
                    Some(at) => (at, true),
                    None => {
                        slots.push(Slot {
                            path: prefix,
                            token,
                            parent: None,
                            index: index_token(&prefix[token..]),
                            first: None,
                            own: None,
                            pending: false,
                        });
                        (slots.len() - 1, false)
                    }
                };
                if let Some(child) = child {
                    slots[child].parent = Some(at);
                }
                if known {
                    // Its own prefixes are in already.
                    break;
                }
                child = Some(at);
                end = token.saturating_sub(1);
            }
        }
        Order { slots, pending: 0, count: 0 }
    }

    fn reset(&mut self) {
        for slot in &mut self.slots {
            (slot.first, slot.own, slot.pending) = (None, None, false);
        }
        self.pending = 0;
        self.count = 0;
    }

    fn slot(&self, path: &str) -> Option<usize> {
        self.slots.iter().position(|slot| slot.path == path)
    }

    /// The slot of the member `key` of the value at `parent`, when it is wanted.
    fn member(&self, parent: Option<usize>, key: &str) -> Option<usize> {
        self.slots.iter().position(|slot| {
            slot.parent == parent && slot.token > 0 && is_token_of(&slot.path[slot.token..], key)
        })
    }

    /// The slot of item `index` of the value at `parent`, when it is wanted.
    fn item(&self, parent: Option<usize>, index: usize) -> Option<usize> {
        self.slots
            .iter()
            .position(|slot| slot.parent == parent && slot.token > 0 && slot.index == Some(index))
    }

    /// A wanted path's value starts: its first completion is the next one.
    fn entered(&mut self, slot: usize) {
        let slot = &mut self.slots[slot];
        if slot.first.is_none() && !slot.pending {
            slot.pending = true;
            self.pending += 1;
        }
    }

    /// A value ends: a wanted one's own completion (`Some`), or a whole subtree skipped.
    fn completed(&mut self, slot: Option<usize>) {
        if self.pending > 0 {
            for waiting in self.slots.iter_mut().filter(|waiting| waiting.pending) {
                (waiting.first, waiting.pending) = (Some(self.count), false);
            }
            self.pending = 0;
        }
        if let Some(slot) = slot {
            self.slots[slot].own = Some(self.count);
        }
        self.count += 1;
    }

    /// The incremental parser's completion number `index`, at `path`.
    fn completed_at(&mut self, path: &str, index: usize) {
        let mut end = path.len();
        while end > 0 {
            if let Some(slot) = self.slot(&path[..end]) {
                self.slots[slot].first.get_or_insert(index);
            }
            match path[..end].rfind('/') {
                Some(slash) => end = slash,
                None => break,
            }
        }
        if let Some(slot) = self.slot(path) {
            self.slots[slot].own = Some(index);
        }
    }

    /// Where an error at `path` goes: at the first completion at or below what it is about;
    /// for what was not sent, just after the enclosing value that was; else last.
    fn rank(&self, path: &str) -> (usize, usize) {
        if path.is_empty() {
            return (0, 0);
        }
        if let Some(at) = self.slot(path).and_then(|slot| self.slots[slot].first) {
            return (at, 0);
        }
        let mut end = path.len();
        while let Some(slash) = path[..end].rfind('/') {
            if slash == 0 {
                break;
            }
            if let Some(at) = self.slot(&path[..slash]).and_then(|slot| self.slots[slot].own) {
                return (at, 1);
            }
            end = slash;
        }
        (usize::MAX, 0)
    }
}

/// Is `token` the reference token of `key` (`~` written `~0`, `/` written `~1`)? Compared
/// as written, with nothing allocated.
fn is_token_of(token: &str, key: &str) -> bool {
    let mut written = token.bytes();
    key.bytes().all(|byte| match byte {
        b'~' => written.next() == Some(b'~') && written.next() == Some(b'0'),
        b'/' => written.next() == Some(b'~') && written.next() == Some(b'1'),
        _ => written.next() == Some(byte),
    }) && written.next().is_none()
}

/// `token` as the array index a pointer writes as it (`0`, `12`; not `012`).
fn index_token(token: &str) -> Option<usize> {
    let canonical = !token.is_empty()
        && token.bytes().all(|byte| byte.is_ascii_digit())
        && (token == "0" || !token.starts_with('0'));
    canonical.then(|| token.parse().ok()).flatten()
}

/// A walk over the text for the places of the wanted paths: a member or item that is wanted
/// is walked into (its first and own completions noted), any other is skipped as one
/// completion.
struct Places<'a, 'e> {
    order: &'a mut Order<'e>,
    /// The slot of each value entered, innermost last (`None`: not wanted, skipped).
    entered: Vec<Option<usize>>,
}

impl<'de> Gather<'de> for Places<'_, '_> {
    type Value = ();
    type Object = ();
    type Array = ();

    fn enter(&mut self, step: Step<'_>) -> Reading {
        // The value the walk is in: the top level, or a wanted one (an unwanted one is
        // skipped whole, so nothing is entered inside it).
        let parent = self.entered.last().copied().flatten();
        let wanted = match step {
            Step::Member(key) => self.order.member(parent, key),
            Step::Item(index) => self.order.item(parent, index),
        };
        self.entered.push(wanted);
        match wanted {
            Some(slot) => {
                self.order.entered(slot);
                Reading::Walk
            }
            None => Reading::Skip,
        }
    }

    fn leave(&mut self) {
        let slot = self.entered.pop().flatten();
        self.order.completed(slot);
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
            options: crate::error::Options::None,
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
    /// The paths of errors at `paths`, put in `text`'s order by [`in_document_order`] and by
    /// the reference.
    fn both_orders(text: &str, paths: &[&str]) -> (Vec<String>, Vec<String>) {
        let mut errors: Vec<FieldError> = paths.iter().map(|path| error(path)).collect();
        let mut expected = errors.clone();
        reference_order(&mut expected, text, &ParseOptions::default());
        in_document_order(&mut errors, text, &ParseOptions::default());
        let paths_of = |errors: &[FieldError]| errors.iter().map(|e| e.path.clone()).collect();
        (paths_of(&errors), paths_of(&expected))
    }

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

    proptest! {
        /// A value with repairs (fenced, in single quotes) orders its errors as the same
        /// value written as strict JSON does: the same walk, over the tape instead of the text.
        #[test]
        fn a_repaired_text_orders_as_the_strict_one(
            value in json_value(),
            picks in prop::collection::vec(any::<prop::sample::Index>(), 2..8),
        ) {
            let strict = format!("{{\"v\": {value}}}");
            let repaired = format!("```json\n{{'v': {}}}\n```", value.to_string().replace('"', "'"));
            let mut all = vec!["/v".to_owned(), "/missing".to_owned(), String::new()];
            paths_of(&value, "/v", &mut all);
            let picked: Vec<FieldError> = picks.iter().map(|pick| error(&all[pick.index(all.len())])).collect();
            let order = |text: &str| {
                let mut errors = picked.clone();
                in_document_order(&mut errors, text, &ParseOptions::default());
                errors.into_iter().map(|e| e.path).collect::<Vec<String>>()
            };
            prop_assert_eq!(order(&repaired), order(&strict), "text {}", repaired);
        }
    }

    #[test]
    fn a_value_found_by_a_retry_after_prose_orders_its_members_as_written() {
        // The first candidate fails; the parse finds the value after it. The incremental
        // parser reads the same value but names none of its members.
        let text =
            "iftr{6''r{customer6e\",6}, {\"sku\": \"WLJ\", \"quantity\": 16, \"a\": [1, {\"k\": 2}]} '";
        let order = |text: &str| {
            let mut errors: Vec<FieldError> =
                ["/quantity", "/a/1/k", "/a", "/sku", "/missing"].map(error).into_iter().collect();
            in_document_order(&mut errors, text, &ParseOptions::default());
            errors.into_iter().map(|e| e.path).collect::<Vec<String>>()
        };
        // As the value alone, strict JSON, is ordered.
        let strict = order(r#"{"sku": "WLJ", "quantity": 16, "a": [1, {"k": 2}]}"#);
        assert_eq!(strict, ["/sku", "/quantity", "/a", "/a/1/k", "/missing"]);
        assert_eq!(order(text), strict);
    }

    #[test]
    fn prose_before_the_value_orders_as_the_reference() {
        let text = "Here you go: {'b': {'y': 1, 'x': 2}, 'a': [1, 2], 'b': 3}";
        let (got, want) = both_orders(text, &["/a/1", "/b/x", "/b", "/c", "/a", "/b/y"]);
        assert_eq!(got, want);
    }

    #[test]
    fn keys_match_their_escaped_tokens_and_items_their_written_index() {
        // `~` and `/` in keys; an object whose keys look like indices; an index written
        // with a leading zero (which names no item); a path not starting with `/`.
        let text = r#"{"a/b": 1, "~0": 2, "o": {"2": 3, "02": 4}, "l": [5, 6, 7], "z": 8}"#;
        let paths = ["/z", "/l/02", "/~00", "/a~1b", "/o/02", "/l/2", "/o/2", "z", "/l/0", "/a~1b/x"];
        let (got, want) = both_orders(text, &paths);
        assert_eq!(got, want);
        assert_eq!(got[..4], ["/a~1b", "/a~1b/x", "/~00", "/o/2"]);
    }

    proptest! {
        /// The permutation puts each item where it is asked to go.
        #[test]
        fn permute_moves_each_item_to_its_place(order in Just((0..12usize).collect::<Vec<_>>()).prop_shuffle()) {
            let mut items: Vec<usize> = (0..order.len()).map(|at| at * 10).collect();
            permute(&mut items, order.clone());
            let want: Vec<usize> = order.iter().map(|from| from * 10).collect();
            prop_assert_eq!(items, want);
        }
    }

    /// Texts a model sends around a value: prose, a candidate that fails (at once, or only
    /// when the text ends), the value (an object whose keys may repeat, at any depth), and
    /// what follows it.
    fn text_around_a_value() -> impl Strategy<Value = String> {
        let member = prop_oneof![
            Just(r#""a": 1"#),
            Just(r#""a": 2"#),
            Just(r#""b": "x""#),
            Just(r#""b": {"a": 1, "a": 1}"#),
            Just("'a': True"),
            Just("a: 2"),
            Just(r#""c": [1, {"a": 1}]"#),
        ];
        let value =
            proptest::collection::vec(member, 0..5).prop_map(|members| format!("{{{}}}", members.join(", ")));
        let prose = prop_oneof![Just(""), Just("Sure: "), Just("x "), Just("```json\n")];
        let junk =
            prop_oneof![Just(""), Just("{6''"), Just("{'"), Just("{\"a\": \""), Just("[1, {"), Just("{'a' ")];
        let after = prop_oneof![Just(""), Just(" '"), Just("'"), Just(" and more"), Just("}"), Just("\n```")];
        (prose, junk, value, after)
            .prop_map(|(prose, junk, value, after)| format!("{prose}{junk}{value}{after}"))
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]
        /// The keys given twice that `repeats` finds in a text are there exactly when the
        /// parse of the text says an object repeated a key, whatever prose and failed
        /// candidates come before the value.
        #[test]
        fn repeats_are_found_where_the_parse_notes_them(text in text_around_a_value()) {
            let options = ParseOptions::default();
            if let Ok((_, repeated)) = crate::parse::parse_noting_repeats(&text, &options, false) {
                prop_assert_eq!(!repeats(&text, &options).is_empty(), repeated, "{:?}", text);
            }
        }
    }

    #[test]
    fn repeated_keys_are_found_outermost() {
        let text = r#"{"a": 1, "b": {"c": [1], "c": [1]}, "a": 2, "d": {"e": 1}, "d": {"e": 1}}"#;
        let found = repeats(text, &ParseOptions::default());
        let found: Vec<(&str, &[Value])> = found.iter().map(|r| (r.path.as_str(), &r.values[..])).collect();
        assert_eq!(
            found,
            [
                ("/b/c", &[json!([1]), json!([1])][..]),
                ("/a", &[json!(1), json!(2)][..]),
                ("/d", &[json!({"e": 1}), json!({"e": 1})][..])
            ]
        );
        assert!(repeats(r#"{"a": [{"b": 1}, {"b": 2}]}"#, &ParseOptions::default()).is_empty());
    }
}
