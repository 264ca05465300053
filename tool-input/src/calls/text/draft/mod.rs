//! The calls of a text stream still being written, as far as they arrived: each one's name
//! as soon as it is complete, and its arguments as they grow, with the same events as a
//! JSON stream's calls ([`StreamEvent`]).
//!
//! The reader ([`super::incremental`]) tells where a call block starts, feeds the settled
//! text after it (never reasoning), and says when the block closes and when its calls are
//! read final. Each block has a reader of its own kind, fed each byte once:
//! - a JSON body (`<tool_call>{"name": …, "arguments": {…}}`, Mistral's and Granite's
//!   lists, Llama's `<|python_tag|>`, …): the incremental JSON parser ([`json`]);
//! - parameters written as tags (qwen3-coder, GLM, MiniMax M2, DSML, Step 3, …): a
//!   parameter is added when its value is complete, converted as the final reading
//!   converts it, and a value that is text whatever it says grows as a string ([`params`]);
//! - any other format: the block's text only.
//!
//! The calls shown are those of the latest block: once its calls are read final, they
//! leave; a block whose calls are final only at the end (the format detected rather than
//! named, or a format without a closing marker) stays until the next one starts.

mod args;
mod gemma;
mod harmony;
mod json;
mod kimi3;
mod minimax3;
mod named;
mod params;
mod python;

use std::collections::HashMap;

use serde_json::Value;

use super::markers::Marker;
use crate::calls::CallOptions;
use crate::parse::{ParseOptions, StreamEvent};

/// An event of a call's arguments in a text stream.
#[derive(Debug)]
pub(crate) struct TextEvent {
    pub position: usize,
    pub id: Option<String>,
    pub name: Option<String>,
    pub event: StreamEvent<'static>,
}

/// What is shown of one call still being written.
#[derive(Debug)]
pub(crate) struct DraftView<'a> {
    pub position: usize,
    pub id: Option<&'a str>,
    pub name: Option<&'a str>,
    /// Its text, from its marker, as far as it is settled.
    pub text: &'a str,
    pub arguments: Option<&'a Value>,
}

#[derive(Debug)]
enum Body {
    /// Its kind is told by its first characters (`<tool_call>`: JSON, qwen3-coder or GLM).
    Pending,
    Json(Box<json::JsonBody>),
    Params(params::Params),
    Named(named::Named),
    Python(python::Python),
    Gemma(gemma::Gemma),
    KimiK3(kimi3::KimiK3),
    Harmony(harmony::Harmony),
    MiniMaxM3(minimax3::MiniMaxM3),
    /// A format read only whole: the block's text is shown.
    Text,
}

/// One call block.
#[derive(Debug)]
struct Region {
    /// Where its marker starts in the visible text.
    start: usize,
    pattern: &'static str,
    marker: Marker,
    /// Read up to here.
    pos: usize,
    body: Body,
    /// Its closing marker arrived: nothing more is read into it.
    closed: bool,
    /// Its calls have no closing marker: after its body, the next call is the same marker
    /// again.
    open_ended: bool,
    /// An event of it was reported.
    reported: bool,
}

/// The open calls of a text stream.
#[derive(Debug, Default)]
pub(crate) struct Drafts {
    region: Option<Region>,
    /// Calls of earlier blocks that left without being read final (their positions count).
    retired: usize,
    /// The events, when they are collected.
    pub events: Option<Vec<TextEvent>>,
    /// The calls whose arguments a typed partial follows ([`Drafts::follow`]), by position:
    /// the events of their arguments since they were last taken.
    followed: HashMap<usize, Vec<StreamEvent<'static>>>,
    /// The last position followed: the calls before the open block's are no longer read,
    /// so the events are wanted only while it is in the open block or after it.
    last_followed: Option<usize>,
}

/// What the arguments of a call hold when a typed partial starts to follow them: the value
/// so far, and the pointer of the value in it still being read (see
/// [`crate::partial::seed`]).
#[derive(Debug)]
pub(crate) struct Followed {
    pub arguments: Option<Value>,
    pub open: Option<String>,
}

/// What reading needs besides the text.
pub(crate) struct Context<'a> {
    pub options: &'a CallOptions,
    /// Calls and errors read final so far.
    pub collected: usize,
}

impl Drafts {
    pub fn new(events: bool) -> Drafts {
        Drafts {
            region: None,
            retired: 0,
            events: events.then(Vec::new),
            followed: HashMap::new(),
            last_followed: None,
        }
    }

    /// The position of the first call of the open block.
    fn base(&self, collected: usize) -> usize {
        collected + self.retired
    }

    /// How many calls left without being read final: a call read final since has this many
    /// fewer before it among those read than its position counts.
    pub fn retired(&self) -> usize {
        self.retired
    }

    /// Follow the arguments of the open call at `position` (`collected`: calls and errors
    /// read final): what they hold now, and from now on their events, for
    /// [`Drafts::take_followed`]. `None` when no open call is there.
    pub fn follow(&mut self, position: usize, collected: usize) -> Option<Followed> {
        let index = position.checked_sub(self.base(collected))?;
        let region = self.region.as_mut()?;
        if index >= region.count() {
            return None;
        }
        let call = region.call(index)?;
        let followed = Followed { arguments: call.arguments.cloned(), open: region.open_path(index) };
        // Shown now: if the block turns out to be reasoning, or its JSON prose, the partial
        // is taken back.
        region.reported = true;
        region.mark_shown(index);
        self.followed.insert(position, Vec::new());
        self.last_followed = self.last_followed.max(Some(position));
        Some(followed)
    }

    /// The name of the open call at `position`: `Some(None)` while it is not complete,
    /// `None` when no open call is there. (Its view would build its arguments.)
    pub fn name(&self, position: usize, collected: usize) -> Option<Option<&str>> {
        let index = position.checked_sub(self.base(collected))?;
        let region = self.region.as_ref()?;
        (index < region.count()).then(|| region.name(index))
    }

    /// The events of the followed call at `position` since the last take. A call no longer
    /// open (read final, or left) is no longer followed once its last events are taken.
    pub fn take_followed(&mut self, position: usize, collected: usize) -> Vec<StreamEvent<'static>> {
        if position < self.base(collected) {
            return self.followed.remove(&position).unwrap_or_default();
        }
        self.followed.get_mut(&position).map(std::mem::take).unwrap_or_default()
    }

    /// Are the events of the calls wanted: collected, or a call of the open block followed?
    /// (Asked at every piece: in constant time, whatever the number of calls followed.)
    fn wants_events(&self, base: usize) -> bool {
        self.events.is_some() || self.last_followed.is_some_and(|position| position >= base)
    }

    /// A call block opens at `start` with `pattern`; `open_ended` when its calls have no
    /// closing marker.
    pub fn begin(&mut self, start: usize, pattern: &'static str, marker: Marker, open_ended: bool) {
        self.retire();
        let pos = match marker {
            // The marker is the call's own opening tag.
            Marker::Function | Marker::MiniCpm5 => start,
            // The namespace token and `<invoke` are read with the rest.
            Marker::MiniMaxM3 => start,
            _ => start + pattern.len(),
        };
        let body = match marker {
            Marker::ToolCall | Marker::Tools | Marker::ToolCalls | Marker::Mistral => Body::Pending,
            Marker::Function | Marker::SeedOss => params(&params::QWEN, pos),
            Marker::MiniCpm5 => params(&params::MINICPM, pos),
            Marker::MiniMaxM2 => params(&params::MINIMAX, pos),
            Marker::Dsml if pattern.starts_with("<｜") => params(&params::DSML, pos),
            Marker::Dsml => params(&params::DSML_ASCII, pos),
            Marker::Step3 => params(&params::STEP3, pos),
            Marker::Solar => params(&params::SOLAR, pos),
            Marker::DeepSeek => named(named::Dialect::DeepSeek, pos, !pattern.contains("calls")),
            Marker::Kimi => named(named::Dialect::Kimi, pos, !pattern.contains("section")),
            Marker::PythonTag
            | Marker::GraniteTag
            | Marker::FunctionCall
            | Marker::CohereAction
            | Marker::CohereFence
            | Marker::InternLm
            | Marker::Longcat
            | Marker::GigaChat
            | Marker::Inkling => json_body(false, false),
            Marker::Apertus => json_body(true, false),
            Marker::PythonStart | Marker::Olmo3 | Marker::Lfm2 => Body::Python(python::Python::new()),
            Marker::FunctionGemma => Body::Gemma(gemma::Gemma::new("<escape>")),
            Marker::Gemma4 => Body::Gemma(gemma::Gemma::new("<|\"|>")),
            Marker::KimiK3Tools => Body::KimiK3(kimi3::KimiK3::new()),
            Marker::Harmony => Body::Harmony(harmony::Harmony::new(start)),
            Marker::MiniMaxM3 => Body::MiniMaxM3(minimax3::MiniMaxM3::new(start)),
            Marker::Functools => json_body(false, true),
            _ => Body::Text,
        };
        self.region =
            Some(Region { start, pattern, marker, pos, body, closed: false, open_ended, reported: false });
    }

    /// The calls of the block leave without being read final.
    fn retire(&mut self) {
        if let Some(region) = self.region.take() {
            self.retired += region.count();
        }
    }

    /// Read the visible text up to `upto` into the open block.
    pub fn feed(&mut self, visible: &str, upto: usize, context: &Context<'_>) {
        loop {
            let base = self.base(context.collected);
            let wants = self.wants_events(base);
            let Some(region) = self.region.as_mut().filter(|region| !region.closed) else { return };
            if upto <= region.pos {
                return;
            }
            // A body that ended reads nothing more: what follows is the next call's.
            if !(region.open_ended && region.body_done()) {
                let mut raw: Vec<(usize, StreamEvent<'static>)> = Vec::new();
                region.read(visible, upto, context.options, wants, &mut |index, event| {
                    raw.push((index, event))
                });
                region.reported |= !raw.is_empty();
                for (index, event) in raw {
                    let names = || region.names(index);
                    report(&mut self.followed, &mut self.events, base + index, names, event);
                }
                // A reader of every call to the end (harmony's messages, MiniMax M3's
                // invokes, Kimi K3's channel) shows the latest call only, as the formats
                // whose every call has its own marker do: what it shows stays a call's worth.
                if region.open_ended {
                    self.retired += region.body.shed();
                }
                // A format without closing markers: after the body, the next call is the
                // marker again.
                if !(region.open_ended && region.body_done()) {
                    return;
                }
            }
            let (pattern, marker) = (region.pattern, region.marker);
            // Llama's calls after one `<|python_tag|>` are separated by `;` (or `,`).
            if marker == Marker::PythonTag {
                match next_value(visible, region.pos, upto) {
                    Some(Ok(at)) => {
                        self.begin(at, pattern, marker, true);
                        if let Some(region) = self.region.as_mut() {
                            region.pos = at;
                        }
                        continue;
                    }
                    Some(Err(resume)) => {
                        region.pos = resume;
                        return;
                    }
                    None => {}
                }
            }
            match find_again(visible, region.pos, upto, pattern) {
                Ok(at) => self.begin(at, pattern, marker, true),
                Err(resume) => {
                    region.pos = resume;
                    return;
                }
            }
        }
    }

    /// The block's closing marker starts at `at` (all before it was fed).
    pub fn close(&mut self, visible: &str, at: usize) {
        if let Some(region) = self.region.as_mut() {
            if let Body::Params(params) = &mut region.body {
                params.close(visible, at);
            }
            region.closed = true;
        }
    }

    /// The block's calls were read final: they leave.
    pub fn read_final(&mut self) {
        self.region = None;
    }

    /// The visible text from `at` on was taken back (it turned out to be reasoning): a block
    /// that started there never was one.
    pub fn take_back(&mut self, at: usize, collected: usize) {
        if let Some(region) = self.region.as_mut().filter(|region| region.start < at) {
            // Harmony's messages are one block: the calls from `at` on leave.
            if let Body::Harmony(harmony) = &mut region.body {
                let kept = harmony.calls.len();
                let left = harmony.take_back(at);
                region.pos = region.pos.min(at);
                if region.reported {
                    let base = collected + self.retired;
                    for index in kept - left..kept {
                        let event = StreamEvent::Restart;
                        report(&mut self.followed, &mut self.events, base + index, || (None, None), event);
                    }
                }
            }
            return;
        }
        let Some(region) = self.region.as_ref().filter(|region| region.start >= at) else { return };
        if region.reported {
            let base = collected + self.retired;
            for index in 0..region.count().max(1) {
                let event = StreamEvent::Restart;
                report(&mut self.followed, &mut self.events, base + index, || (None, None), event);
            }
        }
        self.region = None;
    }

    /// Forget everything (what was read was reasoning, before any of it was shown).
    pub fn clear(&mut self) {
        self.region = None;
        self.retired = 0;
        // Positions count from the start again: a typed partial that followed one starts over.
        for log in self.followed.values_mut() {
            log.push(StreamEvent::Restart);
        }
    }

    /// The calls being written, in order.
    pub fn views<'a>(&'a self, visible: &'a str, collected: usize) -> Vec<DraftView<'a>> {
        let Some(region) = &self.region else { return Vec::new() };
        let base = collected + self.retired;
        let end = region.pos.min(visible.len()).max(region.start);
        let text = |from: usize| visible.get(from.min(end)..end).unwrap_or("");
        if let Body::Pending | Body::Text = region.body {
            // A format read only whole: the block's text, while it is open.
            if region.open_ended {
                return Vec::new();
            }
            let view =
                DraftView { position: base, id: None, name: None, text: text(region.start), arguments: None };
            return vec![view];
        }
        (0..region.count())
            .filter_map(|index| {
                let call = region.call(index)?;
                Some(DraftView {
                    position: base + index,
                    id: call.id,
                    name: call.name,
                    text: text(call.start),
                    arguments: call.arguments,
                })
            })
            .collect()
    }
}

/// Keep `event` of the call at `position` for whoever wants it: the events collected, and a
/// typed partial that follows the call (`followed`). `names`: the call's id and name, for the
/// events collected.
fn report(
    followed: &mut HashMap<usize, Vec<StreamEvent<'static>>>,
    events: &mut Option<Vec<TextEvent>>,
    position: usize,
    names: impl FnOnce() -> (Option<String>, Option<String>),
    event: StreamEvent<'static>,
) {
    match (followed.get_mut(&position), events.as_mut()) {
        (Some(log), Some(events)) => {
            log.push(event.clone());
            let (id, name) = names();
            events.push(TextEvent { position, id, name, event });
        }
        (Some(log), None) => log.push(event),
        (None, Some(events)) => {
            let (id, name) = names();
            events.push(TextEvent { position, id, name, event });
        }
        (None, None) => {}
    }
}

/// What a body shows of one of its calls.
struct CallView<'a> {
    /// Where its text starts.
    start: usize,
    id: Option<&'a str>,
    name: Option<&'a str>,
    arguments: Option<&'a Value>,
}

impl Body {
    /// Let the calls before the latest one leave (they are final only at the end); how
    /// many left.
    fn shed(&mut self) -> usize {
        fn shed<T>(calls: &mut Vec<T>) -> usize {
            let before = calls.len().saturating_sub(1);
            calls.drain(..before);
            before
        }
        match self {
            Body::Harmony(harmony) => shed(&mut harmony.calls),
            Body::MiniMaxM3(minimax) => shed(&mut minimax.calls),
            Body::KimiK3(kimi) => shed(&mut kimi.calls),
            _ => 0,
        }
    }

    /// The calls of a body read through [`args::JsonArguments`].
    fn own_calls(&self) -> &[args::ArgCall] {
        match self {
            Body::Python(python) => &python.calls,
            Body::Gemma(gemma) => &gemma.calls,
            Body::KimiK3(kimi) => &kimi.calls,
            _ => &[],
        }
    }

    /// [`Body::own_calls`], to change.
    fn own_calls_mut(&mut self) -> &mut [args::ArgCall] {
        match self {
            Body::Python(python) => &mut python.calls,
            Body::Gemma(gemma) => &mut gemma.calls,
            Body::KimiK3(kimi) => &mut kimi.calls,
            _ => &mut [],
        }
    }
}

impl Region {
    /// How many calls it shows.
    fn count(&self) -> usize {
        match &self.body {
            Body::Json(body) => body.count(),
            Body::Params(params) => params.calls.len(),
            Body::Named(named) => named.calls.len(),
            Body::Python(_) | Body::Gemma(_) | Body::KimiK3(_) => self.body.own_calls().len(),
            Body::Harmony(harmony) => harmony.calls.len(),
            Body::MiniMaxM3(minimax) => minimax.calls.len(),
            Body::Pending | Body::Text => usize::from(!self.open_ended),
        }
    }

    fn body_done(&self) -> bool {
        match &self.body {
            Body::Json(body) => body.done(),
            Body::Named(named) => named.done(),
            _ => false,
        }
    }

    /// What it shows of its call `index`.
    fn call(&self, index: usize) -> Option<CallView<'_>> {
        let view = |start, id, name, arguments| Some(CallView { start, id, name, arguments });
        match &self.body {
            Body::Json(body) => {
                let (name, id, arguments) = body.call(index);
                view(self.start, id, name, arguments)
            }
            Body::Params(params) => {
                let call = params.calls.get(index)?;
                view(call.start, None, call.name.as_deref(), call.name.as_ref().map(|_| &call.arguments))
            }
            Body::Named(named) => {
                let call = named.calls.get(index)?;
                view(call.start, call.id.as_deref(), call.name.as_deref(), named.arguments(index))
            }
            Body::Python(_) | Body::Gemma(_) | Body::KimiK3(_) => {
                let call = self.body.own_calls().get(index)?;
                view(call.start, None, Some(&call.name), call.arguments.partial())
            }
            Body::Harmony(harmony) => {
                let call = harmony.calls.get(index)?;
                view(call.start, None, Some(&call.name), call.arguments.call(0).2)
            }
            Body::MiniMaxM3(minimax) => {
                let call = minimax.calls.get(index)?;
                view(call.start, None, Some(&call.name), Some(&call.arguments))
            }
            Body::Pending | Body::Text => None,
        }
    }

    /// The pointer, inside the arguments of its call `index`, of the value still being read
    /// (`""`: the arguments object); `None` when none is.
    fn open_path(&self, index: usize) -> Option<String> {
        match &self.body {
            Body::Json(body) => body.open_path(index),
            Body::Params(params) => params.open_path(index),
            Body::Named(named) => named.calls.get(index)?.arguments.as_ref()?.open_path(0),
            Body::Python(_) | Body::Gemma(_) | Body::KimiK3(_) => {
                self.body.own_calls().get(index)?.arguments.open_path()
            }
            Body::Harmony(harmony) => harmony.calls.get(index)?.arguments.open_path(0),
            Body::MiniMaxM3(minimax) => minimax.open_path(index),
            Body::Pending | Body::Text => None,
        }
    }

    /// What it read of its call `index` is shown: a restart of the JSON reading it must take
    /// it back (see [`json::JsonBody::mark_shown`]).
    fn mark_shown(&mut self, index: usize) {
        match &mut self.body {
            Body::Json(body) => body.mark_shown(),
            Body::Named(named) => {
                if let Some(body) = named.calls.get_mut(index).and_then(|call| call.arguments.as_mut()) {
                    body.mark_shown();
                }
            }
            Body::Harmony(harmony) => {
                if let Some(call) = harmony.calls.get_mut(index) {
                    call.arguments.mark_shown();
                }
            }
            Body::Python(_) | Body::Gemma(_) | Body::KimiK3(_) => {
                if let Some(call) = self.body.own_calls_mut().get_mut(index) {
                    call.arguments.mark_shown();
                }
            }
            Body::Params(_) | Body::MiniMaxM3(_) | Body::Pending | Body::Text => {}
        }
    }

    /// The name of its call `index`, once complete.
    fn name(&self, index: usize) -> Option<&str> {
        match &self.body {
            Body::Json(body) => body.names(index).0,
            Body::Params(params) => params.calls.get(index)?.name.as_deref(),
            Body::Named(named) => named.calls.get(index)?.name.as_deref(),
            Body::Python(_) | Body::Gemma(_) | Body::KimiK3(_) => {
                self.body.own_calls().get(index).map(|call| call.name.as_str())
            }
            Body::Harmony(harmony) => harmony.calls.get(index).map(|call| call.name.as_str()),
            Body::MiniMaxM3(minimax) => minimax.calls.get(index).map(|call| call.name.as_str()),
            Body::Pending | Body::Text => None,
        }
    }

    /// The id and name of its call `index`, for an event.
    fn names(&self, index: usize) -> (Option<String>, Option<String>) {
        if let Body::Json(body) = &self.body {
            let (name, id) = body.names(index);
            return (id.map(str::to_owned), name.map(str::to_owned));
        }
        match self.call(index) {
            Some(call) => (call.id.map(str::to_owned), call.name.map(str::to_owned)),
            None => (None, None),
        }
    }

    fn read(
        &mut self,
        visible: &str,
        upto: usize,
        options: &CallOptions,
        events: bool,
        emit: &mut dyn FnMut(usize, StreamEvent<'static>),
    ) {
        if let Body::Pending = self.body {
            match decide(visible, self.pos, upto, self.marker) {
                Decided::Wait(pos) => {
                    self.pos = pos;
                    return;
                }
                Decided::Body(pos, body) => {
                    self.pos = pos;
                    self.body = body;
                }
            }
        }
        self.pos = match &mut self.body {
            Body::Json(body) => body.feed(visible, self.pos, upto, events, emit),
            Body::Params(params) => params.feed(visible, self.pos, upto, options, emit),
            Body::Named(named) => named.feed(visible, self.pos, upto, events, emit),
            Body::Python(python) => python.feed(visible, self.pos, upto, events, emit),
            Body::Gemma(gemma) => gemma.feed(visible, self.pos, upto, options, events, emit),
            Body::KimiK3(kimi) => kimi.feed(visible, self.pos, upto, events, emit),
            Body::Harmony(harmony) => harmony.feed(visible, self.pos, upto, events, emit),
            Body::MiniMaxM3(minimax) => minimax.feed(visible, self.pos, upto, options, emit),
            Body::Pending | Body::Text => upto,
        };
    }
}

fn params(syntax: &'static params::Syntax, pos: usize) -> Body {
    Body::Params(params::Params::new(syntax, pos))
}

/// How a body's JSON is read: as the final reading parses it, without a size limit of its
/// own (the text's limit holds).
fn json_options() -> ParseOptions {
    ParseOptions { max_bytes: usize::MAX, ..ParseOptions::default() }
}

fn json_body(keyed: bool, opened_list: bool) -> Body {
    Body::Json(Box::new(json::JsonBody::new(json_options(), keyed, opened_list)))
}

fn named(dialect: named::Dialect, pos: usize, in_call: bool) -> Body {
    Body::Named(named::Named::new(dialect, json_options(), pos, in_call))
}

enum Decided {
    /// Not told yet: more must arrive (the first blank characters were skipped).
    Wait(usize),
    Body(usize, Body),
}

/// The kind of a block that several formats open (`<tool_call>`: a JSON object, qwen3-coder's
/// `<function=` or GLM's name; `<tool_calls>`: a JSON list or HY V3's `<tool_call>`;
/// `[TOOL_CALLS]`: a JSON list, or Mistral's `NAME[ARGS]{…}`), from its first characters.
fn decide(visible: &str, pos: usize, upto: usize, marker: Marker) -> Decided {
    let rest = &visible[pos..upto];
    let at = pos + (rest.len() - rest.trim_start().len());
    let rest = &visible[at..upto];
    let Some(&first) = rest.as_bytes().first() else { return Decided::Wait(at) };
    let json = matches!(first, b'{' | b'[' | b'`');
    match marker {
        _ if json => Decided::Body(at, json_body(false, false)),
        Marker::ToolCall | Marker::Tools | Marker::ToolCalls if first == b'<' => {
            let tag = if marker == Marker::ToolCalls { "<tool_call>" } else { "<function=" };
            if rest.len() < tag.len() && tag.starts_with(rest) {
                Decided::Wait(at)
            } else if rest.starts_with(tag) {
                let syntax = if marker == Marker::ToolCalls { &params::HY } else { &params::QWEN };
                Decided::Body(at, params(syntax, at))
            } else {
                Decided::Body(at, Body::Text)
            }
        }
        Marker::ToolCall | Marker::Tools => Decided::Body(at, params(&params::GLM, at)),
        Marker::Mistral if first.is_ascii_alphanumeric() || first == b'_' => {
            Decided::Body(at, named(named::Dialect::Mistral, at, true))
        }
        _ => Decided::Body(at, Body::Text),
    }
}

/// After a JSON call, the next one after separators (blanks, `;`, `,`) in
/// `visible[from..upto]`: `Ok(at)` at its bracket, `Err(resume)` while only separators
/// arrived, `None` when something else follows.
fn next_value(visible: &str, from: usize, upto: usize) -> Option<Result<usize, usize>> {
    let bytes = visible.as_bytes();
    let mut i = from;
    while i < upto {
        match bytes[i] {
            b'{' | b'[' => return Some(Ok(i)),
            b';' | b',' => i += 1,
            byte if byte.is_ascii_whitespace() => i += 1,
            _ => return None,
        }
    }
    Some(Err(upto))
}

/// The next `pattern` in `visible[from..upto]`: `Ok(at)`, or `Err(resume)` where the search
/// goes on when more arrives.
fn find_again(visible: &str, from: usize, upto: usize, pattern: &str) -> Result<usize, usize> {
    let Some(first) = pattern.as_bytes().first() else { return Err(upto) };
    let bytes = &visible.as_bytes()[..upto];
    let mut i = from;
    while i < upto {
        if bytes[i] == *first {
            let rest = &bytes[i..];
            if rest.starts_with(pattern.as_bytes()) {
                return Ok(i);
            }
            if pattern.as_bytes().starts_with(rest) {
                return Err(i);
            }
        }
        i += 1;
    }
    Err(upto)
}
