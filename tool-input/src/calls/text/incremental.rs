//! Text read as it arrives: the reasoning taken out, the call markers found, and each call
//! read when its closing marker arrives, once it is certain that the call is not reasoning.
//!
//! The whole text is still read once when the stream ends ([`super::extract`]), and that
//! reading is the answer; this reader only shows earlier what the end will give:
//! - a call is final at its block's closing marker (`</tool_call>`, DeepSeek's
//!   `tool▁calls▁end`, …; the calls of a section are final when the section closes), only
//!   when the format is named: with detection, markers of a second format later make the
//!   whole text an error;
//! - where a lone `</think>` ends reasoning (see [`lone_closes_end_reasoning`]), nothing
//!   is final before the first one: a later one would make the calls before it reasoning;
//! - formats whose calls have no closing marker (Mistral's `[TOOL_CALLS]`, Llama's
//!   `<|python_tag|>`, harmony, …) are final only at the end.
//!
//! Every byte is looked at a bounded number of times: linear in the text.

use std::mem;
use std::sync::OnceLock;

use serde_json::Value;

use super::arguments::InArguments;
use super::draft::{Context, DraftView, Drafts, Followed, TextEvent};
use super::markers::{Marker, CLOSING_MARKERS, MARKERS};
use super::reasoning::{self, lone_closes_end_reasoning, LONE_CLOSES};
use super::{read_marker, Read, TextFormat};
use crate::calls::{CallErrorKind, CallOptions, Collected, Collector, ToolCall};
use crate::error::RejectionKind;
use crate::parse::StreamEvent;

/// Longer than every marker: a position this far from the end of what arrived is settled.
const WINDOW: usize = 48;

/// Where the reasoning splitter is.
#[derive(Debug, Clone, Copy)]
enum Split {
    /// Outside reasoning; `skip_blank` while the blank after a block is dropped.
    Outside { skip_blank: bool },
    /// In harmony's analysis header, before its `<|message|>`.
    Header { which: usize },
    /// Inside the reasoning block `which`, `depth` of its own opening markers deep.
    Inside { which: usize, depth: usize },
}

/// A call block whose closing marker has not arrived.
#[derive(Debug, Clone, Copy)]
struct Block {
    start: usize,
    pattern: &'static str,
    marker: Marker,
    closes: &'static [&'static str],
}

/// The incremental reader of a text stream.
#[derive(Debug)]
pub(crate) struct TextReader {
    format: Option<TextFormat>,
    lone_closes: bool,
    /// The first lone closing marker arrived: what came before it was reasoning.
    lone_seen: bool,
    /// Position in the raw text up to which the splitter has read.
    raw: usize,
    /// Raw text from here to `raw` is visible, not yet copied.
    raw_visible: usize,
    split: Split,
    /// The text without its reasoning, as far as it is settled.
    visible: String,
    /// Position in `visible` up to which markers were looked for.
    scan: usize,
    block: Option<Block>,
    /// A marker whose calls have no closing marker: nothing more is final before the end.
    stopped: bool,
    /// Whether a reasoning marker outside reasoning sits inside a call's arguments (as the
    /// one-shot splitter reads them).
    arguments: InArguments,
    collected: Collected,
    /// The calls being written, shown before they are final.
    drafts: Drafts,
}

impl TextReader {
    /// A reader; `events`: the events of the calls' arguments are collected.
    pub(crate) fn new(options: &CallOptions, events: bool) -> Self {
        TextReader {
            format: options.text_format,
            lone_closes: lone_closes_end_reasoning(options.text_format),
            lone_seen: false,
            raw: 0,
            raw_visible: 0,
            split: Split::Outside { skip_blank: false },
            visible: String::new(),
            scan: 0,
            block: None,
            stopped: false,
            arguments: InArguments::after_markers(0),
            collected: Collected::default(),
            drafts: Drafts::new(events),
        }
    }

    /// The calls final so far.
    pub(crate) fn calls(&self) -> &[ToolCall] {
        &self.collected.calls
    }

    /// The calls being written, as far as they are settled (see [`super::draft`]).
    pub(crate) fn open_calls(&self) -> Vec<DraftView<'_>> {
        self.drafts.views(&self.visible, self.read_count())
    }

    /// Follow the arguments of the call at `position` for a typed partial (see
    /// [`Drafts::follow`]): what they hold now. A call read final holds its arguments whole;
    /// `None` when no call is at `position`.
    pub(crate) fn follow(&mut self, position: usize) -> Option<Followed> {
        let read = self.read_count();
        if let Some(followed) = self.drafts.follow(position, read) {
            return Some(followed);
        }
        // Read final: its arguments are applied whole (`final_arguments`).
        self.final_arguments(position).map(|_| Followed { arguments: None, open: None })
    }

    /// The arguments of the call at `position` once it is read final.
    pub(crate) fn final_arguments(&self, position: usize) -> Option<&serde_json::Map<String, Value>> {
        if self.drafts.name(position, self.read_count()).is_some() {
            return None;
        }
        self.final_call(position).map(|call| &call.arguments)
    }

    /// The call read final at `position` (a call read final since calls left without being
    /// read final has that many fewer before it among those read).
    fn final_call(&self, position: usize) -> Option<&ToolCall> {
        let index = position.checked_sub(self.drafts.retired())?;
        // In the order read, so in the order of their indices.
        let calls = &self.collected.calls;
        calls.binary_search_by_key(&index, |call| call.index).ok().map(|at| &calls[at])
    }

    /// The events of the arguments of the followed call at `position` since the last take.
    pub(crate) fn take_followed(&mut self, position: usize) -> Vec<StreamEvent<'static>> {
        let read = self.read_count();
        self.drafts.take_followed(position, read)
    }

    /// The name of the call at `position`: being written (once its name is complete), or read
    /// final.
    pub(crate) fn name_at(&self, position: usize) -> Option<&str> {
        if let Some(name) = self.drafts.name(position, self.read_count()) {
            return name;
        }
        self.final_call(position).map(|call| call.name.as_str())
    }

    /// The events of the calls' arguments since the last take.
    pub(crate) fn take_events(&mut self) -> Vec<TextEvent> {
        self.drafts.events.as_mut().map(mem::take).unwrap_or_default()
    }

    /// Calls and errors read final.
    fn read_count(&self) -> usize {
        self.collected.calls.len() + self.collected.errors.len()
    }

    /// Can what is read now be shown? Not before the first lone closing marker, where one
    /// ends reasoning: all before it may be reasoning.
    fn shows(&self) -> bool {
        !self.lone_closes || self.lone_seen
    }

    /// Read what `text` (the whole text so far) settles.
    pub(crate) fn advance(&mut self, text: &str, options: &CallOptions) {
        self.split_to(text, text.len());
        self.scan_to(self.visible.len(), options);
    }

    /// Take the reasoning out of `text` up to `limit`, copying the visible text.
    fn split_to(&mut self, text: &str, limit: usize) {
        let bytes = text.as_bytes();
        let mut i = self.raw;
        while i < limit {
            if waits(&bytes[i..]) {
                break;
            }
            match self.split {
                Split::Outside { skip_blank } => {
                    if skip_blank {
                        match text[i..].chars().next() {
                            Some(c) if c.is_whitespace() => {
                                i += c.len_utf8();
                                self.raw_visible = i;
                                continue;
                            }
                            _ => self.split = Split::Outside { skip_blank: false },
                        }
                    }
                    if !starts_a_token(bytes[i]) {
                        i += 1;
                        continue;
                    }
                    let rest = &bytes[i..];
                    let opens = reasoning::block_opens().position(|open| rest.starts_with(open.as_bytes()));
                    let lone = (self.lone_closes && !self.lone_seen)
                        .then(|| LONE_CLOSES.iter().find(|close| rest.starts_with(close.as_bytes())))
                        .flatten();
                    if (opens.is_some() || lone.is_some()) && self.arguments.inside(text, i) {
                        // Written inside a call's arguments: their text (as the end reads it).
                        i += 1;
                        continue;
                    }
                    if let Some(which) = opens {
                        self.visible.push_str(&text[self.raw_visible..i]);
                        let (open, _) = reasoning::block(which);
                        if open == "<|channel|>analysis" {
                            if let Some(header) = reasoning::harmony_header(&self.visible) {
                                // Harmony's calls are final only at the end: nothing read from it.
                                self.visible.truncate(header);
                                self.scan = self.scan.min(header);
                                self.block = self.block.filter(|block| block.start < header);
                                let read = self.read_count();
                                self.drafts.take_back(header, read);
                            }
                        }
                        i += open.len();
                        self.split = if open.ends_with("analysis") {
                            Split::Header { which }
                        } else {
                            Split::Inside { which, depth: 0 }
                        };
                        continue;
                    }
                    if let Some(close) = lone {
                        // Everything before it was reasoning: nothing read so far stands.
                        self.lone_seen = true;
                        self.visible.clear();
                        self.scan = 0;
                        self.block = None;
                        self.stopped = false;
                        self.collected = Collected::default();
                        self.drafts.clear();
                        i += close.len();
                        self.raw_visible = i;
                        self.split = Split::Outside { skip_blank: true };
                        self.arguments = InArguments::after_markers(i);
                        continue;
                    }
                    i += 1;
                }
                Split::Header { which } => {
                    if bytes[i..].starts_with(b"<|message|>") {
                        i += "<|message|>".len();
                        self.split = Split::Inside { which, depth: 0 };
                    } else {
                        i += 1;
                    }
                }
                Split::Inside { .. } if !starts_a_token(bytes[i]) => i += 1,
                Split::Inside { which, depth } => {
                    let (open, closes) = reasoning::block(which);
                    let rest = &bytes[i..];
                    if let Some(close) = closes.iter().find(|close| rest.starts_with(close.as_bytes())) {
                        if depth == 0 {
                            // A harmony message after the analysis starts with its own `<|start|>`.
                            i += if *close == "<|start|>" { 0 } else { close.len() };
                            self.raw_visible = i;
                            self.split = Split::Outside { skip_blank: true };
                            self.arguments = InArguments::after_markers(i);
                        } else {
                            self.split = Split::Inside { which, depth: depth - 1 };
                            i += close.len();
                        }
                    } else if rest.starts_with(open.as_bytes()) {
                        self.split = Split::Inside { which, depth: depth + 1 };
                        i += open.len();
                    } else {
                        i += 1;
                    }
                }
            }
        }
        self.raw = i.max(self.raw);
        if let Split::Outside { .. } = self.split {
            let to = settled(text, self.raw);
            if to > self.raw_visible {
                self.visible.push_str(&text[self.raw_visible..to]);
                self.raw_visible = to;
            }
        }
    }

    /// Look for markers in the visible text up to `limit`; read each block that closed.
    fn scan_to(&mut self, limit: usize, options: &CallOptions) {
        let mut j = self.scan;
        while j < limit && !self.stopped {
            let rest = &self.visible.as_bytes()[j..];
            if !starts_a_token(rest[0]) {
                j += 1;
                continue;
            }
            if waits(rest) {
                break;
            }
            let format = self.format;
            match self.block {
                None => {
                    let found = MARKERS.iter().find(|(pattern, marker)| {
                        rest.starts_with(pattern.as_bytes())
                            && format.is_none_or(|format| marker.formats().contains(&format))
                    });
                    match found {
                        // Inkling's message and block markers frame text, not calls, and Kimi
                        // K3's response channel markers are not content.
                        Some(&(pattern, Marker::InklingFrame | Marker::KimiK3Response)) => j += pattern.len(),
                        Some(&(pattern, marker)) => {
                            let closes = closes(pattern, marker);
                            if self.shows() {
                                self.drafts.begin(j, pattern, marker, closes.is_empty());
                            }
                            if closes.is_empty() {
                                self.stopped = true;
                            } else {
                                self.block = Some(Block { start: j, pattern, marker, closes });
                            }
                            j += pattern.len();
                        }
                        None => j += 1,
                    }
                }
                Some(block) => match block.closes.iter().find(|close| rest.starts_with(close.as_bytes())) {
                    Some(close) => {
                        let end = j + close.len();
                        self.block = None;
                        self.feed_drafts(j, options);
                        self.drafts.close(&self.visible, j);
                        j = end;
                        if self.format.is_some() && self.shows() {
                            j = self.read(block, end, options);
                            if j == block.start + block.pattern.len() {
                                // Not a call after all.
                                let read = self.read_count();
                                self.drafts.take_back(block.start, read);
                            } else if !self.stopped {
                                self.drafts.read_final();
                            }
                        }
                    }
                    None => j += 1,
                },
            }
        }
        self.scan = j.max(self.scan);
        if self.block.is_some() {
            self.feed_drafts(self.scan, options);
        } else if self.stopped {
            // Calls without a closing marker: their text goes on to the end.
            self.feed_drafts(self.visible.len(), options);
        }
    }

    /// Read the visible text up to `upto` into the calls being written.
    fn feed_drafts(&mut self, upto: usize, options: &CallOptions) {
        let context = Context { options, collected: self.read_count() };
        self.drafts.feed(&self.visible, upto, &context);
    }

    /// Read the block that closed at `end`; return where reading goes on.
    fn read(&mut self, block: Block, end: usize, options: &CallOptions) -> usize {
        let mut out = Collector::resume(options, mem::take(&mut self.collected));
        let mark = out.mark();
        let read = read_marker(&self.visible[..end], block.start, block.pattern, block.marker, &mut out);
        // A call cut off by its closing marker may not be cut off in the whole text: the
        // marker can sit inside one of its strings, and the call go on past it. The end's
        // reading decides. So it does for any block whose closing marker is inside a string
        // its value opened (`[{}"x]<|tools_suffix|>...`), whatever was read before the string:
        // the whole text's reading runs that string on past the marker, and neither this
        // block nor the ones after it are the ones read here. (A block whose value closed
        // before its marker, as every well-formed one does, is read as before.)
        let cut = out
            .errors_since(mark)
            .any(|error| error.kind == CallErrorKind::Arguments(RejectionKind::Truncated))
            || self.closes_inside_a_string(block, end);
        if cut {
            out.rollback(mark);
        }
        self.collected = out.suspend();
        if cut {
            self.stopped = true;
            return end;
        }
        match read {
            Read::To(to) if to == end => end,
            Read::NotACall => block.start + block.pattern.len(),
            Read::To(_) | Read::Content { .. } => {
                // Read otherwise than its closing marker says: the end's reading decides.
                self.stopped = true;
                end
            }
        }
    }

    /// Does the closing marker that ends `block` at `end` sit inside a string of the
    /// block's value, as the whole text's reading finds its markers (`find_outside_values`)?
    fn closes_inside_a_string(&self, block: Block, end: usize) -> bool {
        let text = self.visible.get(..end).unwrap_or_default();
        let Some(close) = block.closes.iter().find(|close| text.ends_with(**close)) else { return false };
        let marker_at = end - close.len();
        super::find_outside_values(text, block.start + block.pattern.len(), block.closes).map(|(at, _)| at)
            != Some(marker_at)
    }
}

/// Harmony's message markers, which the reasoning splitter looks for.
const HARMONY_TOKENS: [&str; 3] = ["<|message|>", "<|end|>", "<|start|>"];

/// Everything the reader looks for: the calls' markers, their closing markers, reasoning's
/// and harmony's.
fn tokens() -> impl Iterator<Item = &'static str> {
    MARKERS
        .iter()
        .map(|(pattern, _)| *pattern)
        .chain(CLOSING_MARKERS.iter().copied())
        .chain(LONE_CLOSES.iter().copied())
        .chain(reasoning::block_opens())
        .chain(reasoning::block_closes())
        .chain(HARMONY_TOKENS)
}

/// Can one of [`tokens`] start with this byte? Every other byte is passed with one look at
/// a table, instead of matching each token there.
fn starts_a_token(byte: u8) -> bool {
    static FIRST_BYTES: OnceLock<[bool; 256]> = OnceLock::new();
    let table = FIRST_BYTES.get_or_init(|| {
        let mut table = [false; 256];
        for token in tokens() {
            if let Some(&first) = token.as_bytes().first() {
                table[usize::from(first)] = true;
            }
        }
        table
    });
    table[usize::from(byte)]
}

/// Could the text from here, which ends the text so far, be the start of a token? Then
/// it is read when more arrives.
fn waits(rest: &[u8]) -> bool {
    let prefix = |pattern: &str| pattern.len() > rest.len() && pattern.as_bytes().starts_with(rest);
    rest.len() < WINDOW && rest.first().is_some_and(|&first| starts_a_token(first)) && tokens().any(prefix)
}

/// The largest character boundary of `text` at or before `at`.
fn settled(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The markers that close the block a marker opens; empty when its calls have none (they
/// end with the text).
fn closes(pattern: &str, marker: Marker) -> &'static [&'static str] {
    match marker {
        Marker::ToolCall => &["</tool_call>"],
        Marker::Tools => &["</tools>"],
        Marker::Function | Marker::MiniCpm5 => &["</function>"],
        Marker::PythonStart => &["<|python_end|>"],
        Marker::DeepSeek if pattern.contains("calls") => &["<｜tool▁calls▁end｜>", "<|tool▁calls▁end|>"],
        Marker::DeepSeek => &["<｜tool▁call▁end｜>", "<|tool▁call▁end|>"],
        Marker::Kimi if pattern.contains("section") => &["<|tool_calls_section_end|>"],
        Marker::Kimi => &["<|tool_call_end|>"],
        Marker::Dsml => &[
            "</｜DSML｜function_calls>",
            "</｜DSML｜tool_calls>",
            "</|DSML|function_calls>",
            "</|DSML|tool_calls>",
        ],
        Marker::MiniMaxM2 => &["</minimax:tool_call>"],
        Marker::ToolCalls => &["</tool_calls>"],
        Marker::SeedOss => &["</seed:tool_call>"],
        Marker::Step3 => &["<｜tool_calls_end｜>"],
        Marker::Olmo3 => &["</function_calls>"],
        Marker::Lfm2 => &["<|tool_call_end|>"],
        Marker::Solar => &["<|tool_call:end|>"],
        Marker::CohereAction => &["<|END_ACTION|>"],
        Marker::InternLm => &["<|action_end|>"],
        Marker::FunctionGemma => &["<end_function_call>"],
        Marker::Gemma4 => &["<tool_call|>"],
        Marker::Longcat => &["</longcat_tool_call>"],
        Marker::Apertus => &["<|tools_suffix|>"],
        Marker::Inkling => &["<|end_message|>", "<|content_model_end_sampling|>"],

        Marker::Mistral
        | Marker::PythonTag
        | Marker::KimiK3Tools
        | Marker::KimiK3Response
        | Marker::Harmony
        | Marker::MiniMaxM3
        | Marker::GraniteTag
        | Marker::FunctionCall
        | Marker::Functools
        | Marker::CohereFence
        | Marker::GigaChat
        | Marker::InklingFrame => &[],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A block cut off at its closing marker is not final: the marker may be inside one of
    /// the call's strings, and the call go on past it (the end's reading decides).
    #[test]
    fn a_call_cut_off_at_its_closing_marker_is_not_final() {
        let options = CallOptions::new().tools(["get_weather"]).text_format(TextFormat::Apertus);
        let text = "<|tools_prefix|>[{\"get_weather\": {\"city\": \"a<|tools_suffix|>b\"}}]<|tools_suffix|>";
        let first_close = text.find("<|tools_suffix|>").unwrap() + "<|tools_suffix|>".len();
        let mut reader = TextReader::new(&options, false);
        // Past the window that settles what arrived.
        let padded = format!("{} and on{}", &text[..first_close], " ".repeat(WINDOW));
        reader.advance(&padded, &options);
        assert!(
            reader.calls().is_empty() && reader.collected.errors.is_empty(),
            "{:?}",
            reader.collected.errors
        );
        let mut reader = TextReader::new(&options, false);
        let padded = format!("{text}{}", " ".repeat(WINDOW));
        reader.advance(&padded, &options);
        assert!(reader.calls().is_empty() && reader.collected.errors.is_empty());
    }

    /// So is a block whose closing marker sits inside a string its value opened, whether
    /// or not what came before the string read as a call: the whole text's reading runs the
    /// string on past the marker, and a block after it is not one there (found by the
    /// `text_calls` fuzz target).
    #[test]
    fn a_block_closed_inside_one_of_its_strings_is_not_final() {
        let options = CallOptions::new().tools(["get_weather"]).text_format(TextFormat::Apertus);
        for first in ["[{}\"x]", "[{\"get_we~ather\": {}}\"x]", "[{\"get_weather\": {}}\"x]"] {
            let text = format!(
                "<|tools_prefix|>{first}<|tools_suffix|><|tools_prefix|>[{{\"get_weather\": {{\"city\": \"\"}}}}]<|tools_suffix|>"
            );
            let mut reader = TextReader::new(&options, false);
            reader.advance(&format!("{text}{}", " ".repeat(WINDOW)), &options);
            assert!(reader.calls().is_empty(), "{text}: {:?}", reader.calls());
            // The end's reading: the first block's string runs on past the marker, and the
            // second block's call is not one.
            let whole = crate::calls::parse_text(&text, &options);
            assert!(
                whole.calls.iter().all(|call| !call.arguments.contains_key("city")),
                "{text}: {:?}",
                whole.calls
            );
        }
        // A block with an error whose marker is outside its strings is final as before.
        let text =
            "<|tools_prefix|>[{}]<|tools_suffix|><|tools_prefix|>[{\"get_weather\": {}}]<|tools_suffix|>";
        let mut reader = TextReader::new(&options, false);
        reader.advance(&format!("{text}{}", " ".repeat(WINDOW)), &options);
        assert_eq!(reader.calls().len(), 1, "{text}");
    }

    #[test]
    fn every_blocks_closing_marker_is_in_the_one_list() {
        for &(pattern, marker) in MARKERS {
            for close in closes(pattern, marker) {
                assert!(
                    CLOSING_MARKERS.contains(close),
                    "{close} (closing {pattern}) is not in CLOSING_MARKERS"
                );
            }
        }
    }

    /// The dictionary of the `text_calls` fuzz target, decoded (`\xHH` and `\"` escapes).
    fn fuzz_dictionary() -> Vec<String> {
        let dictionary = include_str!("../../../../fuzz/text_calls.dict");
        let mut entries = Vec::new();
        for line in dictionary.lines().filter(|line| !line.starts_with('#')) {
            let Some((_, quoted)) = line.split_once('=') else { continue };
            let raw = quoted.trim().trim_matches('"').as_bytes();
            let mut bytes = Vec::new();
            let mut i = 0;
            while i < raw.len() {
                match (raw[i], raw.get(i + 1)) {
                    (b'\\', Some(b'x')) => {
                        let hex = std::str::from_utf8(&raw[i + 2..i + 4]).unwrap();
                        bytes.push(u8::from_str_radix(hex, 16).unwrap());
                        i += 4;
                    }
                    (b'\\', Some(&escaped)) => {
                        bytes.push(escaped);
                        i += 2;
                    }
                    (byte, _) => {
                        bytes.push(byte);
                        i += 1;
                    }
                }
            }
            entries.push(String::from_utf8(bytes).unwrap());
        }
        entries
    }

    #[test]
    fn the_fuzz_dictionary_has_every_marker() {
        let dictionary = fuzz_dictionary();
        for token in tokens() {
            assert!(
                dictionary.iter().any(|entry| entry == token),
                "{token:?} is not in fuzz/text_calls.dict"
            );
        }
    }
}
