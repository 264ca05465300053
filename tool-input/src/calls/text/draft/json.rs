//! The open calls of a block whose body is a JSON call object or a list of them
//! (`{"name": …, "arguments": {…}}`): read as the text arrives by the incremental parser the
//! JSON formats' streams use, fed each byte once. Its events, moved from the call's path to
//! its arguments', are the events of the calls' arguments.

use std::borrow::Cow;

use serde_json::Value;

use crate::parse::lexer::spans::ValueEnd;
use crate::parse::{IncrementalParser, ParseOptions, StreamEvent};
use crate::pointer::unescape_token;

/// The keys a call object names its tool by, and gives its arguments and id under (the
/// readers of whole text take the same ones).
const NAME_KEYS: &[&str] = &["name", "tool_name"];
const ARGUMENT_KEYS: &[&str] = &["arguments", "parameters", "args"];
const ID_KEYS: &[&str] = &["id", "tool_call_id"];

/// What comes before the value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Blanks, a code fence, InternLM's `<|plugin|>`.
    Before,
    Reading,
    /// The value ended; what follows is not the calls'.
    Done,
    /// Not JSON.
    Lost,
}

/// The JSON reader of one block.
#[derive(Debug)]
pub(super) struct JsonBody {
    parser: IncrementalParser,
    /// Where the top-level value ends.
    depth: ValueEnd,
    stage: Stage,
    /// The body is a list of calls (else one call object).
    list: bool,
    /// Each call is `{"NAME": {arguments}}` (Apertus).
    keyed: bool,
    /// The value is one call's arguments, not calls.
    arguments_only: bool,
    /// Each call's name and id, once complete.
    names: Vec<Option<String>>,
    ids: Vec<Option<String>>,
    /// An event was reported (a restart must take it back).
    reported: bool,
}

/// Where an event of the body's parser belongs.
enum Route<'p> {
    Name(usize),
    Id(usize),
    /// The call's arguments, at this path inside them.
    Arguments(usize, &'p str),
    /// Apertus: the call's name (escaped), and the path inside its arguments.
    Keyed(usize, &'p str, &'p str),
    Other,
}

impl<'p> Route<'p> {
    /// The call and the path inside its arguments, for a member of them (not the whole).
    fn arguments(self) -> Option<(usize, &'p str)> {
        match self {
            Route::Arguments(index, inner) | Route::Keyed(index, _, inner) if !inner.is_empty() => {
                Some((index, inner))
            }
            _ => None,
        }
    }
}

impl JsonBody {
    /// A reader whose list was opened by its marker (`functools[`) when `opened_list`.
    pub fn new(options: ParseOptions, keyed: bool, opened_list: bool) -> JsonBody {
        let mut body = JsonBody {
            parser: IncrementalParser::new(options),
            depth: ValueEnd::json_container(),
            stage: Stage::Before,
            list: opened_list,
            keyed,
            arguments_only: false,
            names: Vec::new(),
            ids: Vec::new(),
            reported: false,
        };
        if opened_list {
            body.stage = Stage::Reading;
            body.depth.end(b"[");
            let _ = body.parser.feed("[");
        }
        body
    }

    /// A reader of one call's arguments (the name was written before them).
    pub fn arguments(options: ParseOptions) -> JsonBody {
        JsonBody { arguments_only: true, ..JsonBody::new(options, false, false) }
    }

    /// The value ended (or is not JSON): nothing more is read.
    pub fn done(&self) -> bool {
        matches!(self.stage, Stage::Done | Stage::Lost)
    }

    /// Read `text[pos..upto]`; return how far it was read. `events`: the argument events are
    /// wanted, sent to `emit` with the call's index among the block's.
    pub fn feed(
        &mut self,
        text: &str,
        mut pos: usize,
        upto: usize,
        events: bool,
        emit: &mut dyn FnMut(usize, StreamEvent<'static>),
    ) -> usize {
        if self.stage == Stage::Before {
            while pos < upto {
                let rest = &text[pos..upto];
                let blank = rest.len() - rest.trim_start().len();
                pos += blank;
                let rest = &text[pos..upto];
                let Some(&first) = rest.as_bytes().first() else { return pos };
                if first == b'{' || first == b'[' {
                    self.list = first == b'[';
                    self.stage = Stage::Reading;
                    break;
                }
                let mut waits = false;
                let mut skipped = false;
                for lead in ["```json", "```", "<|plugin|>"] {
                    if rest.starts_with(lead) {
                        pos += lead.len();
                        skipped = true;
                        break;
                    }
                    waits |= lead.starts_with(rest);
                }
                if skipped {
                    continue;
                }
                if !waits {
                    self.stage = Stage::Lost;
                }
                return if waits { pos } else { upto };
            }
        }
        if self.stage != Stage::Reading || pos >= upto {
            return upto.max(pos);
        }
        let end = match self.depth.end(&text.as_bytes()[pos..upto]) {
            Some(end) => {
                self.stage = Stage::Done;
                pos + end
            }
            None => upto,
        };
        self.read_chunk(&text[pos..end], events, emit);
        end
    }

    /// Read JSON text that another syntax was read as (see [`super::args`]): no lead, and
    /// its end is told by that syntax.
    pub fn feed_raw(&mut self, chunk: &str, events: bool, emit: &mut dyn FnMut(usize, StreamEvent<'static>)) {
        self.stage = Stage::Reading;
        self.read_chunk(chunk, events, emit);
    }

    /// Feed `chunk` to the parser; report its events.
    fn read_chunk(&mut self, chunk: &str, events: bool, emit: &mut dyn FnMut(usize, StreamEvent<'static>)) {
        let (list, keyed) = (self.list && !self.arguments_only, self.keyed);
        let arguments_only = self.arguments_only;
        let (names, ids) = (&mut self.names, &mut self.ids);
        let mut found: Vec<StreamEvent<'static>> = Vec::new();
        let _ = self.parser.feed_with(chunk, |event| {
            match (&event, route(event.path().unwrap_or(""), list, keyed, arguments_only)) {
                (StreamEvent::ValueComplete { value, .. }, Route::Name(index)) => {
                    set(names, index, value.as_str());
                }
                (StreamEvent::ValueComplete { value, .. }, Route::Id(index)) => {
                    set(ids, index, value.as_str())
                }
                (_, Route::Keyed(index, name, _)) if names.get(index).is_none_or(Option::is_none) => {
                    set(names, index, Some(&unescape_token(name)));
                }
                _ => {}
            }
            // A restart forgets the calls' names whether or not events are reported.
            if events || matches!(event, StreamEvent::Restart) {
                found.push(event.into_owned());
            }
        });
        for event in found {
            self.take(event, emit);
        }
    }

    /// Report one event of the parser as an event of a call's arguments.
    fn take(&mut self, event: StreamEvent<'static>, emit: &mut dyn FnMut(usize, StreamEvent<'static>)) {
        let (list, keyed, only) = (self.list, self.keyed, self.arguments_only);
        let moved = match &event {
            StreamEvent::Restart => {
                // What was read was prose: forget the calls.
                if self.reported {
                    for index in 0..self.names.len().max(1) {
                        emit(index, StreamEvent::Restart);
                    }
                }
                self.names.clear();
                self.ids.clear();
                return;
            }
            StreamEvent::ValueComplete { path, value } => {
                route(path, list, keyed, only).arguments().map(|(index, inner)| {
                    (
                        index,
                        StreamEvent::ValueComplete {
                            path: Cow::Owned(inner.to_owned()),
                            value: value.clone(),
                        },
                    )
                })
            }
            StreamEvent::StringGrew { path, appended } => {
                route(path, list, keyed, only).arguments().map(|(index, inner)| {
                    (
                        index,
                        StreamEvent::StringGrew {
                            path: Cow::Owned(inner.to_owned()),
                            appended: appended.clone(),
                        },
                    )
                })
            }
        };
        if let Some((index, event)) = moved {
            self.reported = true;
            emit(index, event);
        }
    }

    /// The JSON Pointer, inside the arguments of the call at `index`, of the innermost value
    /// still being read (`""`: the arguments object itself); `None` when none of its
    /// arguments is being read (they are complete, or not begun).
    pub fn open_path(&self, index: usize) -> Option<String> {
        let path = self.parser.open_path()?;
        match route(&path, self.list && !self.arguments_only, self.keyed, self.arguments_only) {
            Route::Arguments(at, inner) | Route::Keyed(at, _, inner) if at == index => Some(inner.to_owned()),
            _ => None,
        }
    }

    /// What it read is shown (a typed partial follows its calls from here): a restart must
    /// take it back, whether or not an event was reported.
    pub fn mark_shown(&mut self) {
        self.reported = true;
    }

    /// The name and id of the call at `index`, once complete.
    pub fn names(&self, index: usize) -> (Option<&str>, Option<&str>) {
        (self.names.get(index).and_then(Option::as_deref), self.ids.get(index).and_then(Option::as_deref))
    }

    /// How many calls the body shows so far.
    pub fn count(&self) -> usize {
        match self.parser.partial() {
            Value::Object(_) if self.arguments_only => 1,
            Value::Array(items) if self.list => items.len(),
            Value::Object(_) if !self.list => 1,
            _ => 0,
        }
    }

    /// The call at `index`: its name, id and arguments so far.
    pub fn call(&self, index: usize) -> (Option<&str>, Option<&str>, Option<&Value>) {
        let partial = self.parser.partial();
        if self.arguments_only {
            return (None, None, Some(partial).filter(|partial| partial.is_object()));
        }
        let object = if self.list { partial.get(index) } else { Some(partial) };
        let object = object.and_then(Value::as_object);
        let (name, id) = self.names(index);
        if self.keyed {
            // The arguments show from their first member: before it, the key's value is the
            // parser's placeholder (`null`), not arguments.
            let first = object.and_then(|object| object.iter().next());
            let arguments = first.map(|(_, arguments)| arguments).filter(|arguments| arguments.is_object());
            return (first.map(|(name, _)| name.as_str()), id, arguments);
        }
        let arguments = object
            .and_then(|object| ARGUMENT_KEYS.iter().find_map(|key| object.get(*key)))
            .filter(|arguments| arguments.is_object());
        (name, id, arguments)
    }
}

/// Set the name or id of the call at `index`.
fn set(items: &mut Vec<Option<String>>, index: usize, value: Option<&str>) {
    if items.len() <= index {
        items.resize(index + 1, None);
    }
    items[index] = value.map(str::to_owned);
}

/// Where the event at `path` belongs: which call, and what of it.
fn route(path: &str, list: bool, keyed: bool, arguments_only: bool) -> Route<'_> {
    if arguments_only {
        return Route::Arguments(0, path);
    }
    let (index, rest) = if list {
        let Some(rest) = path.strip_prefix('/') else { return Route::Other };
        let (first, rest) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
        let Ok(index) = first.parse::<usize>() else { return Route::Other };
        (index, rest)
    } else {
        (0, path)
    };
    let Some(member) = rest.strip_prefix('/') else { return Route::Other };
    let (key, inner) = member.split_at(member.find('/').unwrap_or(member.len()));
    if keyed {
        return Route::Keyed(index, key, inner);
    }
    let key = unescape_token(key);
    if NAME_KEYS.contains(&key.as_ref()) && inner.is_empty() {
        Route::Name(index)
    } else if ID_KEYS.contains(&key.as_ref()) && inner.is_empty() {
        Route::Id(index)
    } else if ARGUMENT_KEYS.contains(&key.as_ref()) {
        Route::Arguments(index, inner)
    } else {
        Route::Other
    }
}
