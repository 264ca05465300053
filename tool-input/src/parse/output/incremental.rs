//! The incremental parser's output: the `Value` builder ([`ValueOut`]), plus what a stream
//! needs on top of it: the events ([`StreamEvent`]) with their JSON Pointer paths, the
//! string being read at the end of a fragment, and the partial value, built only when it is
//! asked for ([`StreamOut::partial`]).
//!
//! The value is built as in a one-shot parse, on a stack of open containers, never walked
//! into: a member costs what it costs there, plus its event when someone listens. The
//! partial value is the stack closed at this moment (each open container with what it has,
//! the string being read as far as it arrived). Built from nothing it is a copy of the value
//! read so far; asked again, the last one is brought up to date instead
//! ([`StreamOut::partial_from`]): the values that landed since in the containers it showed
//! open are copied in (a log of where they landed is kept once a partial has been asked for),
//! and the string still being read grows by what arrived. So a caller that asks after every
//! fragment pays for what arrived, not for all that was read.

use std::borrow::Cow;

use serde_json::Value;

use super::value::{Node, ValueOut};
use crate::parse::grammar::{Grammar, Kind, Out};
use crate::parse::incremental::event::StreamEvent;
use crate::parse::lexer::{Lexer, Str};
use crate::pointer::push_token;

/// Where events go while a fragment is read: nowhere, or a caller's callback.
pub(crate) type On<'a, 'f> = Option<&'a mut (dyn FnMut(StreamEvent<'_>) + 'f)>;

/// Where a value landed in its container: a member's key, or an item's index.
#[derive(Debug)]
enum Place {
    Key(String),
    Index(usize),
}

/// Where values landed since the last partial value was built, in the containers open then
/// (see [`StreamOut::partial_from`]).
#[derive(Debug, Default)]
struct Landings {
    /// Each landing: the depth of its container (1 for the outermost) and its place there.
    entries: Vec<(usize, Place)>,
    /// Landings before `entries[0]` (taken by earlier partial values): `Shown::mark`s count
    /// from the first landing ever.
    before: usize,
}

/// What a partial value was built from: the containers it shows open and the string it shows
/// still being read, so the next one can start from it ([`StreamOut::partial_from`]).
#[derive(Debug, Default)]
pub(crate) struct PartialShape {
    /// The [`StreamOut`] it came from (`0`: none).
    out: u64,
    /// The serial of each open container it shows, outermost first.
    containers: Vec<u64>,
    /// The string being read it shows: its serial, and how many bytes of it.
    string: Option<(u64, usize)>,
}

/// Numbers every [`StreamOut`]: a partial value is only brought up to date by the output
/// that built it.
static OUTPUTS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// How an open container shows, beside its content in the [`ValueOut`].
#[derive(Debug)]
struct Shown {
    /// Tells this container from any other that was open at the same place.
    serial: u64,
    /// How many landings there had been when it opened ([`Landings`]): those after are
    /// inside it, and are superseded by its own landing when it closes.
    mark: usize,
    /// Length of [`StreamOut::pointer`] before this container's own step.
    pointer_len: usize,
    /// Inside a `(`: its items are not reported (its result is, when it closes).
    quiet: bool,
    /// Until its first `:`, a lenient object inside the value may turn out to be a Python
    /// set (`{'a', 'b'}`): it shows as not started (`null`), so the partial value stays a
    /// prefix of the final one. The top-level value shows as `{}` from its `{` on
    /// (arguments are objects; a set there shows as `{}` until its first comma).
    shown: bool,
}

/// The incremental parser's output (see the module documentation).
#[derive(Debug)]
pub(crate) struct StreamOut {
    values: ValueOut,
    /// One per open container of `values`, outermost first.
    frames: Vec<Shown>,
    lenient: bool,
    /// JSON Pointer of the innermost open container, followed, while `slot` says so, by the
    /// reference token of its next item or awaited member.
    pointer: String,
    /// Where `pointer` ends without the slot's token appended to it for an event
    /// ([`StreamOut::slot_path`]). An event's path is the container's path with one token
    /// more: appended in place and cut off again, so a member under a long key or a deep
    /// path costs its own token, never a copy of the path (an item per copy of a 1 MB key
    /// was quadratic).
    slot: Option<usize>,
    /// The string value being read was shown (reported, and part of the partial value): it
    /// holds what was read of it in `open_text`: all that the lexer had in its decoded text
    /// (moved out), and this many bytes of its raw buffer.
    open: Option<usize>,
    /// The shown string's text so far. Kept from string to string (cleared, not dropped):
    /// its capacity is that of the longest string so far, and the value is a copy.
    open_text: String,
    /// Whether `pointer` holds (with `slot`) the path of the string value being read
    /// (`Some(true)`), or that string's events are not reported (`Some(false)`); `None`
    /// until one of its events asks. The slot of an open string stays where it is until the string ends, so
    /// its path is made once per string, not once per fragment (while a long string
    /// streams in, each fragment is one `StringGrew`).
    open_path: Option<bool>,
    /// This output's number ([`OUTPUTS`]).
    id: u64,
    /// The last serial given to a container or a shown string.
    serials: u64,
    /// The serial of the string being read, while it is shown.
    open_serial: u64,
    /// Where values landed since the last partial value was built; `None` until one is
    /// asked for (nothing is logged for a caller that never asks).
    landings: Option<Landings>,
}

#[cfg(test)]
thread_local! {
    /// Bytes written into event paths on this thread: the tests bound them by the text's
    /// length (a path copied per event is not).
    pub(crate) static PATH_BYTES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Count `bytes` written into an event path (tests only).
fn note_path_bytes(bytes: usize) {
    #[cfg(test)]
    PATH_BYTES.with(|written| written.set(written.get() + bytes));
    let _ = bytes;
}

/// Append `/index` to a JSON Pointer. With `itoa`: `write!` goes through the formatting
/// machinery, which cost more than the rest of an item's event.
fn push_index(pointer: &mut String, index: usize) {
    pointer.push('/');
    pointer.push_str(itoa::Buffer::new().format(index));
}

impl StreamOut {
    pub(crate) fn new(lenient: bool) -> StreamOut {
        StreamOut {
            values: ValueOut::new(),
            frames: Vec::new(),
            lenient,
            pointer: String::new(),
            open: None,
            open_text: String::new(),
            slot: None,
            open_path: None,
            id: OUTPUTS.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            serials: 0,
            open_serial: 0,
            landings: None,
        }
    }

    /// A partial value was built from what was read so far: log where values land from now
    /// on, for the next one ([`StreamOut::partial_from`]).
    pub(crate) fn partial_taken(&mut self) {
        let landings = self.landings.get_or_insert_with(Landings::default);
        landings.before += landings.entries.len();
        landings.entries.clear();
    }

    /// A complete value lands in the innermost container (or is the top-level value).
    fn land(&mut self, value: Value) {
        if let Some(landings) = &mut self.landings {
            let depth = self.values.stack().len();
            match self.values.stack().last() {
                Some(Node::Object(_, Some(key))) => landings.entries.push((depth, Place::Key(key.clone()))),
                Some(Node::Array(items)) => landings.entries.push((depth, Place::Index(items.len()))),
                _ => {}
            }
        }
        self.values.insert(value);
    }

    fn next_serial(&mut self) -> u64 {
        self.serials += 1;
        self.serials
    }

    /// Whether a string value being read is shown (its content may skip the lexer's states,
    /// see `Lexer::string_run`).
    pub(crate) fn string_open(&self) -> bool {
        self.open.is_some()
    }

    /// A whole value was read: its last token arrived.
    pub(crate) fn holds_value(&self) -> bool {
        self.values.result().is_some()
    }

    /// The complete value, taken, and whether an object repeated a key.
    pub(crate) fn take(&mut self) -> (Option<Value>, bool) {
        (self.values.take(), self.values.repeated_keys())
    }

    /// The value read so far: complete members and items, the string being read as far as
    /// it arrived, open containers closed (a lenient object inside the value before its
    /// first `:` as `null`).
    pub(crate) fn partial(&self) -> Value {
        match self.values.result() {
            Some(value) => value.clone(),
            None => self.closed_from(0),
        }
    }

    /// [`StreamOut::partial`], brought up to date from `previous`, the partial value built
    /// from `shape` (when this output built it, and has logged the landings since): the
    /// containers it showed open that are still open get the values that landed in them
    /// since, the string it showed grows, and what opened since is built. Returns the shape
    /// of the new one.
    pub(crate) fn partial_from(
        &self,
        previous: Option<Value>,
        shape: &PartialShape,
    ) -> (Value, PartialShape) {
        let mut now = PartialShape { out: self.id, containers: Vec::new(), string: None };
        if let Some(value) = self.values.result() {
            return (value.clone(), now);
        }
        let (Some(mut value), Some(landings), true) = (previous, &self.landings, shape.out == self.id) else {
            let value = self.closed_from(0);
            self.shape_into(&mut now, 0);
            return (value, now);
        };
        let stack = self.values.stack();
        let mut slot = &mut value;
        for (depth, (node, frame)) in stack.iter().zip(&self.frames).enumerate() {
            let same = frame.shown
                && shape.containers.get(depth) == Some(&frame.serial)
                && matches!(
                    (&*slot, node),
                    (Value::Object(_), Node::Object(..)) | (Value::Array(_), Node::Array(_))
                );
            // The values that landed in it since, in order (a key given again shows its
            // later value, as in the stack).
            let landed = same
                && landings
                    .entries
                    .iter()
                    .filter(|(at, _)| *at == depth + 1)
                    .all(|(_, place)| land_copy(slot, node, place));
            let landed = landed && fits(slot, node);
            let innermost = depth + 1 == stack.len();
            if landed && innermost && self.open.is_none() {
                // Nothing open in it: it shows what it holds.
                clear_open_place(slot, node);
                now.containers.push(frame.serial);
                return (value, now);
            }
            if !landed || !awaits_child(node) {
                // Opened (or shown) since, or not as it was: built whole, as all below it.
                *slot = self.closed_from(depth);
                self.shape_into(&mut now, depth);
                return (value, now);
            }
            now.containers.push(frame.serial);
            let child = open_child(slot, node);
            if innermost {
                // Its open child is the string being read.
                self.grow_string(child, shape);
                now.string = Some((self.open_serial, self.open_text.len()));
                return (value, now);
            }
            slot = child;
        }
        // No container is open: a top-level string being read, or nothing begun.
        if self.open.is_some() {
            self.grow_string(&mut value, shape);
            now.string = Some((self.open_serial, self.open_text.len()));
        } else {
            value = Value::Null;
        }
        (value, now)
    }

    /// Make `shown` the string being read: what a partial value of `shape` showed of it, grown
    /// by what arrived since, or a copy.
    fn grow_string(&self, shown: &mut Value, shape: &PartialShape) {
        // Within one serial the text only grows (`open_text` is cleared only when a string
        // ends or a new one is shown).
        if let (Value::String(text), Some((serial, length))) = (&mut *shown, shape.string) {
            if serial == self.open_serial && text.len() == length {
                text.push_str(self.open_text.get(length..).unwrap_or_default());
                return;
            }
        }
        *shown = Value::String(self.open_text.clone());
    }

    /// The containers from `depth` in, closed, as [`StreamOut::partial`] shows them (at
    /// `depth` 0, the whole value).
    fn closed_from(&self, depth: usize) -> Value {
        let mut child = self.open.map(|_| Value::String(self.open_text.clone()));
        let levels = self.values.stack().iter().zip(&self.frames).skip(depth);
        for (node, frame) in levels.rev() {
            let value = match node {
                _ if !frame.shown => Value::Null,
                Node::Array(items) => {
                    let mut items = items.clone();
                    items.extend(child.take());
                    Value::Array(items)
                }
                Node::Object(map, key) => {
                    let mut map = map.clone();
                    if let (Some(child), Some(key)) = (child.take(), key) {
                        map.insert(key.clone(), child);
                    }
                    Value::Object(map)
                }
            };
            child = Some(value);
        }
        child.unwrap_or(Value::Null)
    }

    /// Record in `shape` the containers from `depth` in, and the string being read, as
    /// [`StreamOut::closed_from`] shows them.
    fn shape_into(&self, shape: &mut PartialShape, depth: usize) {
        for frame in self.frames.iter().skip(depth) {
            if !frame.shown {
                return;
            }
            shape.containers.push(frame.serial);
        }
        if self.open.is_some() {
            shape.string = Some((self.open_serial, self.open_text.len()));
        }
    }

    /// The JSON Pointer of the innermost value still being read, as [`StreamOut::partial`]
    /// shows it: the string being read while it is shown, else the innermost open container;
    /// `None` when nothing is open (the value is complete, or not begun). Every other value
    /// the partial value holds is complete: a value is shown only once it is, but for the
    /// containers and the string on this path.
    pub(crate) fn open_value_path(&self) -> Option<String> {
        if self.values.result().is_some() {
            return None;
        }
        let mut path = self.container_path().to_owned();
        if self.open.is_some() {
            match self.values.stack().last() {
                Some(Node::Object(_, Some(key))) => push_token(&mut path, key),
                Some(Node::Array(items)) => push_index(&mut path, items.len()),
                _ => {}
            }
            return Some(path);
        }
        (!self.frames.is_empty()).then_some(path)
    }

    /// The path of the innermost container's next item or awaited member: its token appended
    /// to `pointer` until the slot is forgotten (`""` at the top level); or `None` when it is
    /// not reported (inside a `(`, or an object without a key).
    fn slot_path(&mut self) -> Option<&str> {
        self.forget_slot();
        let Some(frame) = self.frames.last() else { return Some("") };
        if frame.quiet {
            return None;
        }
        let base = self.pointer.len();
        match self.values.stack().last() {
            Some(Node::Object(_, key)) => push_token(&mut self.pointer, key.as_deref()?),
            Some(Node::Array(items)) => push_index(&mut self.pointer, items.len()),
            None => {}
        }
        note_path_bytes(self.pointer.len() - base);
        self.slot = Some(base);
        Some(&self.pointer)
    }

    /// The slot's path is no longer wanted (its value ended, or a container opens or
    /// closes): `pointer` is the innermost container's path again, and the open string's
    /// path is made anew when next asked.
    fn forget_slot(&mut self) {
        self.open_path = None;
        if let Some(base) = self.slot.take() {
            self.pointer.truncate(base);
        }
    }

    /// The innermost open container's path, without a slot's token appended.
    fn container_path(&self) -> &str {
        self.pointer.get(..self.slot.unwrap_or(self.pointer.len())).unwrap_or_default()
    }

    /// [`StreamOut::slot_path`] for the string value being read, made on its first event
    /// and kept until it ends (see `open_path`).
    fn open_slot_path(&mut self) -> Option<&str> {
        self.open_path_reported().then_some(self.pointer.as_str())
    }

    /// Whether the string value being read is reported; its path is then `pointer`
    /// ([`StreamOut::open_slot_path`]).
    #[inline]
    fn open_path_reported(&mut self) -> bool {
        match self.open_path {
            Some(reported) => reported,
            None => {
                let reported = self.slot_path().is_some();
                self.open_path = Some(reported);
                reported
            }
        }
    }

    /// Read the content at the start of `chunk` of the string value being read (it is shown,
    /// and the lexer holds none of its text) straight to where it is shown, with
    /// `Lexer::string_run`, and report it as [`sync_string`] would: one piece. Returns how
    /// many bytes of `chunk` that was. `fed`: the text read so far, which ends with `chunk`.
    ///
    /// Generic over the callback: the streaming parser's entry calls it with the caller's
    /// own (this is the commonest fragment, and its event is then a direct call), the rest
    /// with `dyn FnMut`.
    #[inline]
    pub(crate) fn read_open<F: FnMut(StreamEvent<'_>) + ?Sized>(
        &mut self,
        lexer: &mut Lexer,
        chunk: &str,
        fed: &str,
        on: &mut Option<&mut F>,
    ) -> usize {
        let start = self.open_text.len();
        let read = lexer.string_run(chunk, fed, &mut self.open_text);
        // An escape cut off by the end of `chunk` is read, not yet shown: nothing may be new.
        if let (Some(on), true) = (on.as_mut(), self.open_text.len() > start) {
            if self.open_path_reported() {
                let appended = self.open_text.get(start..).unwrap_or_default();
                on(StreamEvent::StringGrew {
                    path: Cow::Borrowed(&self.pointer),
                    appended: Cow::Borrowed(appended),
                });
            }
        }
        read
    }

    /// A complete string that was shown: `text` is what came after the text moved into
    /// `open_text` (its first `open` bytes are there already): the rest is reported and
    /// appended.
    fn complete_open_string(&mut self, reported: usize, text: &str, on: &mut On<'_, '_>) -> Value {
        let rest = text.get(reported..).unwrap_or_default();
        if let (Some(on), false) = (on.as_mut(), rest.is_empty()) {
            if let Some(path) = self.open_slot_path() {
                on(StreamEvent::StringGrew { path: Cow::Borrowed(path), appended: Cow::Borrowed(rest) });
            }
        }
        self.open_text.push_str(rest);
        self.open = None;
        // A copy of exactly its length: `open_text` keeps its capacity for the next string,
        // so a string that streams in grows no buffer of its own (each regrowth was a
        // `realloc` and a copy).
        let value = Value::String(self.open_text.as_str().to_owned());
        self.open_text.clear();
        if let Some(on) = on.as_mut() {
            if let Some(path) = self.open_slot_path() {
                on(StreamEvent::ValueComplete { path: Cow::Borrowed(path), value: Cow::Borrowed(&value) });
            }
        }
        // The string ends: its slot moves on.
        self.forget_slot();
        value
    }
}

/// A [`StreamOut`] while one fragment is read, with where its events go: the [`Out`] the
/// grammar writes to.
pub(crate) struct Reporting<'a, 'f> {
    pub(crate) out: &'a mut StreamOut,
    pub(crate) on: On<'a, 'f>,
}

impl Out for Reporting<'_, '_> {
    /// Held across fragments: a copy of its own.
    type Key = String;

    fn hold_key(&mut self, key: Str<'_>, at: usize) -> String {
        self.out.values.hold_key(key, at)
    }

    fn key_text<'k>(&'k self, key: &'k String) -> &'k str {
        key
    }

    fn key(&mut self, key: String) {
        self.out.forget_slot();
        self.out.values.key(key);
    }

    fn open(&mut self, kind: Kind) {
        let out = &mut *self.out;
        // The container's own token goes after its parent's path, not after a slot's.
        out.forget_slot();
        let pointer_len = out.pointer.len();
        let (quiet, shown) = match out.frames.last() {
            None => (kind == Kind::Paren, true),
            Some(parent) => {
                match out.values.stack().last() {
                    Some(Node::Array(items)) => push_index(&mut out.pointer, items.len()),
                    Some(Node::Object(_, Some(key))) => push_token(&mut out.pointer, key),
                    _ => {}
                }
                note_path_bytes(out.pointer.len() - pointer_len);
                (parent.quiet || kind == Kind::Paren, !(kind == Kind::Object && out.lenient))
            }
        };
        out.values.open(kind);
        let serial = out.next_serial();
        let mark = out.landings.as_ref().map_or(0, |landings| landings.before + landings.entries.len());
        out.frames.push(Shown { serial, mark, pointer_len, quiet, shown });
    }

    fn string_at(&mut self, text: Str<'_>, _at: usize) {
        match self.out.open {
            // Shown as it streamed in: the value is made from what was shown, and the rest.
            Some(reported) => {
                let value = self.out.complete_open_string(reported, text.as_str(), &mut self.on);
                self.out.land(value);
            }
            None => self.scalar(Value::String(text.into_string())),
        }
    }

    fn scalar(&mut self, value: Value) {
        let out = &mut *self.out;
        let value = match (out.open, value) {
            (Some(reported), Value::String(text)) => out.complete_open_string(reported, &text, &mut self.on),
            (_, value) => {
                if let (Some(on), false) = (self.on.as_mut(), out.frames.is_empty()) {
                    if let Some(path) = out.slot_path() {
                        on(StreamEvent::ValueComplete {
                            path: Cow::Borrowed(path),
                            value: Cow::Borrowed(&value),
                        });
                    }
                }
                value
            }
        };
        out.land(value);
    }

    fn close(&mut self, unwrap: bool) {
        let out = &mut *self.out;
        out.forget_slot();
        // What landed inside it is in the value it lands as.
        if let (Some(landings), Some(frame)) = (&mut out.landings, out.frames.last()) {
            landings.entries.truncate(frame.mark.saturating_sub(landings.before));
        }
        let Some(value) = out.values.pop(unwrap) else { return };
        let depth = out.frames.len();
        let reported = depth >= 2 && out.frames.get(depth - 2).is_some_and(|parent| !parent.quiet);
        if let (true, Some(on)) = (reported, self.on.as_mut()) {
            on(StreamEvent::ValueComplete {
                path: Cow::Borrowed(&out.pointer),
                value: Cow::Borrowed(&value),
            });
        }
        if let Some(frame) = out.frames.pop() {
            out.pointer.truncate(frame.pointer_len);
        }
        out.land(value);
    }

    fn object_as_set(&mut self) {
        self.out.values.object_as_set();
        self.colon();
    }

    fn colon(&mut self) {
        if let Some(frame) = self.out.frames.last_mut() {
            frame.shown = true;
        }
    }

    fn has_key(&self, key: &str) -> bool {
        self.out.values.has_key(key)
    }

    fn reset(&mut self) {
        let out = &mut *self.out;
        out.values.reset();
        out.frames.clear();
        out.pointer.clear();
        out.slot = None;
        out.open = None;
        out.open_path = None;
        out.open_text.clear();
        if let Some(landings) = &mut out.landings {
            // What was shown is taken back: the serials tell the next partial value so.
            landings.before += landings.entries.len();
            landings.entries.clear();
        }
    }
}

/// After a fragment: move what arrived of the string value being read out of the lexer
/// (showing it first), and report it.
#[inline]
pub(crate) fn sync_string(
    grammar: &mut Grammar,
    out: &mut StreamOut,
    lexer: &mut Lexer,
    on: &mut On<'_, '_>,
) {
    // Most fragments end between tokens: nothing to do, and no call.
    if lexer.in_string() {
        sync_open_string(grammar, out, lexer, on);
    }
}

/// [`sync_string`] when the fragment ended inside a string.
fn sync_open_string(grammar: &mut Grammar, out: &mut StreamOut, lexer: &mut Lexer, on: &mut On<'_, '_>) {
    let Some((head, tail)) = lexer.open_string() else { return };
    let reported = out.open.unwrap_or(0);
    if head.len() + tail.len() <= reported {
        return; // nothing new
    }
    if !grammar.expects_value() {
        return; // a key, or a string where none belongs (an error when it ends)
    }
    // Up to the last whole character of `buf`: the rest of one comes with the next
    // fragment.
    let rest = tail.get(reported..).unwrap_or_default();
    // Most fragments leave nothing new in `buf`: no UTF-8 check then.
    let new_tail = match rest {
        [] => "",
        rest => match std::str::from_utf8(rest) {
            Ok(text) => text,
            Err(error) => {
                rest.get(..error.valid_up_to()).and_then(|r| std::str::from_utf8(r).ok()).unwrap_or("")
            }
        },
    };
    if head.is_empty() && new_tail.is_empty() && out.open.is_some() {
        return;
    }
    if out.open.is_none() {
        if !grammar.has_slot() {
            return; // nowhere to show it (the one-shot builder drops it too)
        }
        grammar.begin_value(&mut Reporting { out: &mut *out, on: None });
        out.forget_slot();
        out.open_text.clear();
        out.open_serial = out.next_serial();
    }
    out.open_text.push_str(head);
    out.open_text.push_str(new_tail);
    out.open = Some(reported + new_tail.len());
    if let Some(on) = on.as_mut() {
        if let Some(path) = out.open_slot_path() {
            for piece in [head.as_str(), new_tail] {
                if !piece.is_empty() {
                    on(StreamEvent::StringGrew { path: Cow::Borrowed(path), appended: Cow::Borrowed(piece) });
                }
            }
        }
    }
    head.clear();
}

/// Copy into `shown` (a partial value's container) the value that landed at `place` of
/// `node` (the container as read). False when `shown` does not hold what it should (the
/// caller then builds the container again).
fn land_copy(shown: &mut Value, node: &Node, place: &Place) -> bool {
    match (shown, node, place) {
        (Value::Object(shown), Node::Object(map, _), Place::Key(key)) => match map.get(key) {
            Some(value) => {
                shown.insert(key.clone(), value.clone());
                true
            }
            None => false,
        },
        (Value::Array(shown), Node::Array(items), &Place::Index(index)) => match items.get(index) {
            Some(value) if index < shown.len() => {
                shown[index] = value.clone();
                true
            }
            Some(value) if index == shown.len() => {
                shown.push(value.clone());
                true
            }
            _ => false,
        },
        _ => false,
    }
}

/// Does `node` await a value: an object with its key read, or an array?
fn awaits_child(node: &Node) -> bool {
    matches!(node, Node::Object(_, Some(_)) | Node::Array(_))
}

/// Is `shown` (a partial value's container, the values landed since copied in) `node` as a
/// partial value shows it: of its kind, an array with its items and at most the one being
/// read?
fn fits(shown: &Value, node: &Node) -> bool {
    match (shown, node) {
        (Value::Object(_), Node::Object(..)) => true,
        (Value::Array(shown), Node::Array(items)) => {
            shown.len() == items.len() || shown.len() == items.len() + 1
        }
        _ => false,
    }
}

/// The place in `shown` (a partial value's container, of `node`'s kind, see
/// [`awaits_child`]) of `node`'s open child: the member of its awaited key, or its next item,
/// made `null` if the partial value lacks it. `shown` itself if it is not that container.
fn open_child<'v>(shown: &'v mut Value, node: &Node) -> &'v mut Value {
    match (shown, node) {
        (Value::Object(shown), Node::Object(_, Some(key))) => shown.entry(key.clone()).or_insert(Value::Null),
        (Value::Array(shown), Node::Array(items)) => {
            // The item being read stays (the container or string to bring up to date).
            if shown.len() <= items.len() {
                shown.truncate(items.len());
                shown.push(Value::Null);
            }
            let last = shown.len() - 1;
            &mut shown[last]
        }
        (shown, _) => shown,
    }
}

/// In `shown` (a partial value's innermost container), the place of a value being read
/// shows nothing, as [`StreamOut::partial`] shows it when no string is shown there: a key
/// given before shows its earlier value.
fn clear_open_place(shown: &mut Value, node: &Node) {
    match (shown, node) {
        (Value::Object(shown), Node::Object(map, Some(key))) => {
            match map.get(key) {
                Some(earlier) => shown.insert(key.clone(), earlier.clone()),
                None => shown.remove(key),
            };
        }
        (Value::Array(shown), Node::Array(items)) => shown.truncate(items.len()),
        _ => {}
    }
}
