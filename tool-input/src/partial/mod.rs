//! Typed partial values while a call streams: `T::Partial` (the `{Type}Partial` struct
//! `#[derive(ToolInput)]` writes beside a tool, and `#[derive(PartialValue)]` beside the
//! structs its fields use), each field [`FieldState::Absent`],
//! [`Arriving`](FieldState::Arriving) or [`Complete`](FieldState::Complete).
//!
//! What a field shows follows its type:
//! - a string, as far as it has arrived (`Arriving("Hel")`), then `Complete`;
//! - a number, a boolean, an enum value, anything serde reads whole: nothing until the value is
//!   complete (never `1` of `12`, never `"hi"` of `"high"`), then `Complete`;
//! - a list, as the list of its items' partials, `Arriving` until its `]`;
//!   a list or a struct shows from its first member that arrives (a string started, a
//!   value complete), `Absent` before (unless `#[tool_input(stream_not_null)]`);
//! - a nested struct that derives `PartialValue` (or is a tool itself), as its own partial;
//! - `Option<T>`, as `T`, a `null` being `Complete(None)`;
//! - a field marked `#[tool_input(stream_whole)]`, or read by a function
//!   (`#[serde(deserialize_with)]`), as its value whole once complete (`FieldState<T>`).
//!
//! A tool whose field's type has no partial form (and is not marked `stream_whole`) has no
//! partial: the tool is unchanged, and asking for its partial is a compile error naming the
//! type.
//!
//! Completeness is a fact of the stream: a field is complete when the incremental parser says
//! its value is ([`StreamEvent::ValueComplete`]), never a guess from its text. The partial is
//! updated from the parser's events ([`PartialValue::apply`]), so building it costs the
//! length of what arrived, however often it is read.

mod reader;

pub use reader::PartialReader;

use std::borrow::Cow;

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::parse::StreamEvent;

/// Where a value of a partial stands: not arrived, arriving (the part that has), or complete.
///
/// ```
/// use tool_input::partial::FieldState;
///
/// let title = FieldState::Arriving("Disk fu".to_owned());
/// assert_eq!(title.value().map(String::as_str), Some("Disk fu"));
/// assert_eq!(title.complete(), None);
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub enum FieldState<P> {
    /// Nothing of it has arrived (or, for a value shown only whole, it is not complete yet).
    #[default]
    Absent,
    /// Part of it has arrived: the string so far, the list or object so far.
    Arriving(P),
    /// It is complete: the stream has closed it.
    Complete(P),
}

impl<P> FieldState<P> {
    /// What has arrived, complete or not.
    ///
    /// ```
    /// use tool_input::partial::FieldState;
    /// assert_eq!(FieldState::Arriving("Par".to_owned()).value().map(String::as_str), Some("Par"));
    /// assert_eq!(FieldState::Complete(3).value(), Some(&3));
    /// assert_eq!(FieldState::<u32>::Absent.value(), None);
    /// ```
    pub fn value(&self) -> Option<&P> {
        match self {
            FieldState::Absent => None,
            FieldState::Arriving(value) | FieldState::Complete(value) => Some(value),
        }
    }

    /// The value, once it is complete.
    ///
    /// ```
    /// use tool_input::partial::PartialReader;
    /// let mut reader = PartialReader::<Vec<String>>::new();
    /// reader.feed(r#"["a.md", "b.m"#);
    /// let files = reader.partial().value().unwrap();
    /// assert_eq!(files[0].complete().map(String::as_str), Some("a.md"));
    /// assert_eq!(files[1].complete(), None); // still arriving
    /// ```
    pub fn complete(&self) -> Option<&P> {
        match self {
            FieldState::Complete(value) => Some(value),
            _ => None,
        }
    }

    /// Nothing has arrived.
    ///
    /// ```
    /// use tool_input::partial::PartialReader;
    /// let mut reader = PartialReader::<bool>::new();
    /// reader.feed("tr");
    /// assert!(reader.partial().is_absent()); // a boolean shows only whole
    /// reader.feed("ue");
    /// assert!(!reader.finish().unwrap().is_absent());
    /// ```
    pub fn is_absent(&self) -> bool {
        matches!(self, FieldState::Absent)
    }

    /// The value is complete.
    ///
    /// ```
    /// use tool_input::partial::PartialReader;
    /// let mut reader = PartialReader::<Vec<String>>::new();
    /// reader.feed(r#"["a.md", "b.m"#);
    /// let files = reader.partial().value().unwrap();
    /// assert!(files[0].is_complete());
    /// assert!(!files[1].is_complete());
    /// assert!(!reader.partial().is_complete()); // the list is still open
    /// ```
    pub fn is_complete(&self) -> bool {
        matches!(self, FieldState::Complete(_))
    }

    fn take(&mut self) -> FieldState<P> {
        std::mem::replace(self, FieldState::Absent)
    }

    fn map<Q>(self, f: impl FnOnce(P) -> Q) -> FieldState<Q> {
        match self {
            FieldState::Absent => FieldState::Absent,
            FieldState::Arriving(value) => FieldState::Arriving(f(value)),
            FieldState::Complete(value) => FieldState::Complete(f(value)),
        }
    }
}

/// What the stream said about the place an event addresses.
///
/// ```
/// use serde_json::json;
/// use tool_input::partial::{FieldState, Step};
/// use tool_input::PartialValue;
///
/// let mut title = FieldState::Absent;
/// String::apply(&mut title, &[], Step::Grew("Disk "));
/// String::apply(&mut title, &[], Step::Grew("full"));
/// assert_eq!(title, FieldState::Arriving("Disk full".to_owned()));
/// String::apply(&mut title, &[], Step::Complete(&json!("Disk full")));
/// assert_eq!(title, FieldState::Complete("Disk full".to_owned()));
/// ```
#[derive(Debug, Clone, Copy)]
pub enum Step<'a> {
    /// The string there grew by this text.
    Grew(&'a str),
    /// The value there is complete.
    Complete(&'a Value),
}

/// A type that has a partial form while a call streams. Implemented here for strings,
/// numbers, booleans, `Option`, `Vec`, `Box`, `Cow` and `serde_json::Value`; `#[derive(ToolInput)]`
/// implements it for a tool's struct (a `{Type}Partial` struct of field states); derive it
/// (`#[derive(PartialValue)]`) for the structs (a `…Partial` struct) and enums (shown only
/// whole) a tool's fields use.
///
/// ```
/// use serde::Deserialize;
/// use schemars::JsonSchema;
/// use tool_input::partial::{FieldState, PartialReader};
/// use tool_input::{PartialValue, ToolInput};
///
/// /// Write a file.
/// #[derive(Deserialize, JsonSchema, ToolInput)]
/// struct WriteFile { path: String, mode: Mode, lines: u32 }
///
/// #[derive(Debug, Clone, Deserialize, JsonSchema, PartialValue)]
/// #[serde(rename_all = "snake_case")]
/// enum Mode { Create, Append }
///
/// let mut reader = PartialReader::<WriteFile>::new();
/// reader.feed(r#"{"path": "notes/to"#);
/// let partial = reader.partial().value().unwrap();
/// assert_eq!(partial.path, FieldState::Arriving("notes/to".to_owned()));
/// reader.feed(r#"day.md", "mode": "app"#);
/// let partial = reader.partial().value().unwrap();
/// assert!(partial.path.is_complete());
/// assert!(partial.mode.is_absent()); // "app" is not a value yet
/// reader.feed(r#"end", "lines": 1"#);
/// let partial = reader.partial().value().unwrap();
/// assert!(matches!(partial.mode, FieldState::Complete(Mode::Append)));
/// assert!(partial.lines.is_absent()); // 1 may be the start of 12
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no partial form while a call streams",
    label = "`{Self}` does not implement `PartialValue`",
    note = "derive it: `#[derive(PartialValue)]` on a struct or enum a tool's field uses (a tool's own `#[derive(ToolInput)]` writes it), or mark the field `#[tool_input(stream_whole)]` to show its value only whole, once complete"
)]
pub trait PartialValue {
    /// The partial form.
    type Partial;

    /// The form shown for a field marked `#[tool_input(stream_not_null)]` before anything of
    /// it arrived: an empty string, list or struct; `None` for a value shown only whole.
    fn empty() -> Option<Self::Partial> {
        None
    }

    /// The partial of a complete value; `None` when serde refuses it (the final check says
    /// why).
    fn complete(value: &Value) -> Option<Self::Partial>;

    /// Apply what the stream said (`step`) about the place `path` addresses inside this value
    /// (the JSON Pointer's tokens, `[]` for the value itself).
    fn apply(state: &mut FieldState<Self::Partial>, path: &[Cow<'_, str>], step: Step<'_>) {
        if let ([], Step::Complete(value)) = (path, step) {
            if let Some(partial) = Self::complete(value) {
                *state = FieldState::Complete(partial);
            }
        }
    }

    /// What serde reads in this type that its schema does not say (aliases, a catch-all
    /// variant), told to `facts` (the derive writes it; the tool's derive gathers it).
    #[doc(hidden)]
    fn __serde_facts(_facts: &mut crate::serde_facts::SerdeFacts) {}
}

/// A value shown only whole: read by serde once the stream says it is complete. A number or
/// boolean the model sent in another representation (`"12"`, `"true"`, `3.0` for an integer)
/// is shown as the check will read it under the default policy, so a field the call will
/// pass with does not stay absent while the call streams; the final check decides.
///
/// ```
/// use serde_json::json;
/// use tool_input::partial::complete_leaf;
/// assert_eq!(complete_leaf::<u8>(&json!(12)), Some(12));
/// assert_eq!(complete_leaf::<u8>(&json!(300)), None); // serde refuses it: no partial
/// assert_eq!(complete_leaf::<u8>(&json!("12")), Some(12));
/// assert_eq!(complete_leaf::<f64>(&json!("2.5")), Some(2.5));
/// assert_eq!(complete_leaf::<bool>(&json!("True")), Some(true));
/// assert_eq!(complete_leaf::<u8>(&json!("twelve")), None);
/// assert_eq!(complete_leaf::<String>(&json!("12")), Some("12".to_owned()));
/// ```
pub fn complete_leaf<T: DeserializeOwned>(value: &Value) -> Option<T> {
    T::deserialize(value).ok().or_else(|| {
        crate::check::scalar_readings(value).iter().find_map(|reading| T::deserialize(reading).ok())
    })
}

macro_rules! leaves {
    ($($ty:ty),* $(,)?) => {$(
        impl PartialValue for $ty {
            type Partial = $ty;
            fn complete(value: &Value) -> Option<$ty> {
                complete_leaf(value)
            }
        }
    )*};
}

leaves!(bool, u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize, f32, f64, char, Value);

impl PartialValue for String {
    type Partial = String;

    fn empty() -> Option<String> {
        Some(String::new())
    }

    fn complete(value: &Value) -> Option<String> {
        value.as_str().map(str::to_owned)
    }

    fn apply(state: &mut FieldState<String>, path: &[Cow<'_, str>], step: Step<'_>) {
        match (path, step) {
            ([], Step::Grew(text)) => match state {
                FieldState::Arriving(so_far) => so_far.push_str(text),
                // A string given again (a key repeated): it starts over.
                _ => *state = FieldState::Arriving(text.to_owned()),
            },
            ([], Step::Complete(value)) => {
                if let Some(text) = value.as_str() {
                    *state = FieldState::Complete(text.to_owned());
                }
            }
            _ => {}
        }
    }
}

/// As its owned form: `Cow<str>` as a `String`, `Cow<[T]>` as a `Vec<T>`.
impl<B> PartialValue for Cow<'_, B>
where
    B: ToOwned + ?Sized,
    B::Owned: PartialValue,
{
    type Partial = <B::Owned as PartialValue>::Partial;

    fn empty() -> Option<Self::Partial> {
        B::Owned::empty()
    }

    fn complete(value: &Value) -> Option<Self::Partial> {
        B::Owned::complete(value)
    }

    fn apply(state: &mut FieldState<Self::Partial>, path: &[Cow<'_, str>], step: Step<'_>) {
        B::Owned::apply(state, path, step);
    }

    fn __serde_facts(facts: &mut crate::serde_facts::SerdeFacts) {
        B::Owned::__serde_facts(facts)
    }
}

/// Boxed as the value is, so that a type holding itself through a `Box` has a partial of a
/// size.
impl<T: PartialValue> PartialValue for Box<T> {
    type Partial = Box<T::Partial>;

    fn empty() -> Option<Box<T::Partial>> {
        T::empty().map(Box::new)
    }

    fn complete(value: &Value) -> Option<Box<T::Partial>> {
        T::complete(value).map(Box::new)
    }

    fn apply(state: &mut FieldState<Box<T::Partial>>, path: &[Cow<'_, str>], step: Step<'_>) {
        let mut inner = state.take().map(|boxed| *boxed);
        T::apply(&mut inner, path, step);
        *state = inner.map(Box::new);
    }

    fn __serde_facts(facts: &mut crate::serde_facts::SerdeFacts) {
        T::__serde_facts(facts)
    }
}

impl<T: PartialValue> PartialValue for Option<T> {
    /// `None` once a `null` is complete.
    type Partial = Option<T::Partial>;

    fn empty() -> Option<Self::Partial> {
        T::empty().map(Some)
    }

    fn complete(value: &Value) -> Option<Self::Partial> {
        match value {
            Value::Null => Some(None),
            value => T::complete(value).map(Some),
        }
    }

    fn apply(state: &mut FieldState<Self::Partial>, path: &[Cow<'_, str>], step: Step<'_>) {
        if let ([], Step::Complete(Value::Null)) = (path, step) {
            *state = FieldState::Complete(None);
            return;
        }
        let mut inner = match state.take() {
            FieldState::Arriving(Some(partial)) => FieldState::Arriving(partial),
            FieldState::Complete(Some(partial)) => FieldState::Complete(partial),
            _ => FieldState::Absent,
        };
        T::apply(&mut inner, path, step);
        *state = inner.map(Some);
    }

    fn __serde_facts(facts: &mut crate::serde_facts::SerdeFacts) {
        T::__serde_facts(facts)
    }
}

impl<T: PartialValue> PartialValue for Vec<T> {
    /// Each item's own state.
    type Partial = Vec<FieldState<T::Partial>>;

    fn empty() -> Option<Self::Partial> {
        Some(Vec::new())
    }

    fn complete(value: &Value) -> Option<Self::Partial> {
        let items =
            |items: &[Value]| items.iter().map(|item| T::complete(item).map(FieldState::Complete)).collect();
        match value {
            Value::Array(list) => items(list),
            // A list sent as JSON text (`"[1, 2]"`), as the check will read it.
            Value::String(text) => match crate::check::list_reading(text)? {
                Value::Array(list) => items(&list),
                _ => None,
            },
            _ => None,
        }
    }

    fn apply(state: &mut FieldState<Self::Partial>, path: &[Cow<'_, str>], step: Step<'_>) {
        let Some((index, rest)) = path.split_first() else {
            if let Step::Complete(value) = step {
                if let Some(partial) = Self::complete(value) {
                    *state = FieldState::Complete(partial);
                }
            }
            return;
        };
        let Ok(index) = index.parse::<usize>() else { return };
        let items = arriving(state, Vec::new);
        // Items arrive in order: the next one starts, an earlier one is given again.
        if index == items.len() {
            items.push(FieldState::Absent);
        }
        if let Some(item) = items.get_mut(index) {
            T::apply(item, rest, step);
        }
    }

    fn __serde_facts(facts: &mut crate::serde_facts::SerdeFacts) {
        facts.items(T::__serde_facts)
    }
}

/// The partial inside `state`, made `Arriving` (from `empty`) if nothing had arrived.
///
/// ```
/// use tool_input::partial::{arriving, FieldState};
/// let mut tags: FieldState<Vec<String>> = FieldState::Absent;
/// arriving(&mut tags, Vec::new).push("urgent".to_owned());
/// assert_eq!(tags, FieldState::Arriving(vec!["urgent".to_owned()]));
/// // A state that had arrived keeps what it has, and its completeness.
/// let mut done = FieldState::Complete(vec![1]);
/// arriving(&mut done, Vec::new).push(2);
/// assert_eq!(done, FieldState::Complete(vec![1, 2]));
/// ```
pub fn arriving<P>(state: &mut FieldState<P>, empty: impl FnOnce() -> P) -> &mut P {
    if state.is_absent() {
        *state = FieldState::Arriving(empty());
    }
    match state {
        FieldState::Arriving(partial) | FieldState::Complete(partial) => partial,
        FieldState::Absent => unreachable!("made arriving above"),
    }
}

/// The tokens of a JSON Pointer, unescaped.
pub(crate) fn tokens(pointer: &str) -> Vec<Cow<'_, str>> {
    pointer.split('/').skip(1).map(crate::pointer::unescape_token).collect()
}

/// Apply one of the parser's events to a partial of `T` (the whole value).
pub(crate) fn apply_event<T: PartialValue>(state: &mut FieldState<T::Partial>, event: &StreamEvent<'_>) {
    match event {
        StreamEvent::ValueComplete { path, value } => T::apply(state, &tokens(path), Step::Complete(value)),
        StreamEvent::StringGrew { path, appended } => T::apply(state, &tokens(path), Step::Grew(appended)),
        StreamEvent::Restart => *state = FieldState::Absent,
    }
}

/// Apply to a partial of `T` that starts to follow a value part-way through what a partial
/// value of it (`snapshot`) holds: every value in it is complete but those on the path
/// `open` points to (the arrays and objects still open, and the string still being read, as
/// the incremental parser's partial shows them: `""` is the value itself), whose members are
/// applied one by one and whose string grows. `open` `None`: nothing is being read, every
/// member is complete. The value itself is left arriving, as its events leave it (the events
/// of a call's arguments never complete the arguments object).
pub(crate) fn seed<T: PartialValue>(
    state: &mut FieldState<T::Partial>,
    snapshot: &Value,
    open: Option<&str>,
) {
    let open = open.map(tokens);
    seed_members::<T>(state, snapshot, &mut Vec::new(), open.as_deref());
}

/// [`seed`] of the members (items) of `value`, at `at`; `open`: the rest of the open path
/// below `value` (`None`: none goes through it).
fn seed_members<'v, T: PartialValue>(
    state: &mut FieldState<T::Partial>,
    value: &'v Value,
    at: &mut Vec<Cow<'v, str>>,
    open: Option<&[Cow<'_, str>]>,
) {
    let next = open.and_then(<[_]>::split_first);
    match value {
        Value::Object(members) => {
            for (key, member) in members {
                let below = next.filter(|(token, _)| token.as_ref() == key.as_str()).map(|(_, rest)| rest);
                at.push(Cow::Borrowed(key.as_str()));
                seed_value::<T>(state, member, at, below);
                at.pop();
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                let below = next.filter(|(token, _)| token.parse() == Ok(index)).map(|(_, rest)| rest);
                at.push(Cow::Owned(index.to_string()));
                seed_value::<T>(state, item, at, below);
                at.pop();
            }
        }
        Value::String(text) if open.is_some_and(<[_]>::is_empty) => T::apply(state, at, Step::Grew(text)),
        _ => {}
    }
}

/// [`seed`] of one member at `at`: complete unless the open path goes through it.
fn seed_value<'v, T: PartialValue>(
    state: &mut FieldState<T::Partial>,
    value: &'v Value,
    at: &mut Vec<Cow<'v, str>>,
    open: Option<&[Cow<'_, str>]>,
) {
    match (open, value) {
        (None, _) => T::apply(state, at, Step::Complete(value)),
        (Some([]), Value::String(text)) => T::apply(state, at, Step::Grew(text)),
        (Some(rest), Value::Object(_) | Value::Array(_)) => seed_members::<T>(state, value, at, Some(rest)),
        // A scalar still being read is never shown.
        (Some(_), _) => {}
    }
}

/// Support for the structs `#[derive(ToolInput)]` and `#[derive(PartialValue)]` write (not
/// public API).
#[doc(hidden)]
pub mod derived {
    use super::*;

    /// A field marked `#[tool_input(stream_whole)]`: its value whole, read by serde once the
    /// stream says it is complete, whatever its type (it needs no partial form of its own).
    pub struct Whole<T>(std::marker::PhantomData<T>);

    impl<T: DeserializeOwned> PartialValue for Whole<T> {
        type Partial = T;

        fn complete(value: &Value) -> Option<T> {
            complete_leaf(value)
        }
    }

    /// An externally tagged enum's `complete`: read by serde, or, for a string that names no
    /// variant as sent but exactly one of `spellings` (its variants' names as the schema lists them) but
    /// for letter case and white space (`"High"` for `high`), that variant, as the check
    /// respells it.
    pub fn complete_variant<T: DeserializeOwned>(value: &Value, spellings: &[&str]) -> Option<T> {
        complete_leaf(value).or_else(|| {
            let text = value.as_str()?;
            let options: Vec<Value> = spellings.iter().map(|name| Value::from(*name)).collect();
            T::deserialize(crate::check::spelling_match(text, &options, false)?).ok()
        })
    }

    /// A struct's `apply`: its own completion, or `field` for the member the path goes into.
    pub fn apply_struct<P: Default>(
        state: &mut FieldState<P>,
        path: &[Cow<'_, str>],
        step: Step<'_>,
        complete: fn(&Value) -> Option<P>,
        field: impl FnOnce(&mut P, &str, &[Cow<'_, str>], Step<'_>),
    ) {
        match path.split_first() {
            None => {
                if let Step::Complete(value) = step {
                    if let Some(partial) = complete(value) {
                        *state = FieldState::Complete(partial);
                    }
                }
            }
            Some((key, rest)) => field(arriving(state, P::default), key, rest, step),
        }
    }

    /// One field's `apply`; `done_only`: the field is shown only once complete.
    pub fn apply_field<T: PartialValue>(
        state: &mut FieldState<T::Partial>,
        path: &[Cow<'_, str>],
        step: Step<'_>,
        done_only: bool,
    ) {
        if done_only {
            if let ([], Step::Complete(value)) = (path, step) {
                if let Some(partial) = T::complete(value) {
                    *state = FieldState::Complete(partial);
                }
            }
            return;
        }
        T::apply(state, path, step);
    }

    /// One field of a complete object: `Complete` when present, else as `initial` says.
    pub fn complete_field<T: PartialValue>(
        object: &serde_json::Map<String, Value>,
        names: &[&str],
        not_null: bool,
    ) -> FieldState<T::Partial> {
        match names.iter().find_map(|name| object.get(*name)) {
            Some(value) => T::complete(value).map_or(FieldState::Absent, FieldState::Complete),
            None => initial::<T>(not_null),
        }
    }

    /// A field's state before anything of it arrived: `Absent`, or for `stream_not_null` its
    /// empty form (when it has one).
    pub fn initial<T: PartialValue>(not_null: bool) -> FieldState<T::Partial> {
        match not_null.then(T::empty).flatten() {
            Some(empty) => FieldState::Arriving(empty),
            None => FieldState::Absent,
        }
    }
}

#[cfg(test)]
mod tests;
