//! The one-shot readings of a whole input, through the one driver ([`super::driver`]) with
//! the retry after prose ([`super::retry`]): into a `Value` ([`parse_outcome`], and
//! [`parse_slow`] without the `serde_json` fast path), onto a tape ([`parse_to_tape`]), or
//! for the float literals ([`float_literals`]); then the decoding of a double-encoded payload
//! ([`decode_double`]), and the public error of a failure ([`to_error`]).

use std::borrow::Cow;

use serde_json::Value;

use super::driver::{Driver, Input, Outcome};
use super::framed::{Framing, Mends, Reader, TextFrame};
use super::lexer::numbers::{beyond_floats, in_literal};
use super::lexer::{describe_char, Fail, Failure};
use super::output::float_text::{write_json, FloatTexts};
use super::output::tape::{strict_tape_reader, strict_to_tape, Event, Tape, TapeOut, TapeRoom};
use super::output::value::ValueOut;
use super::retry::read_with_retry;
use super::{coalesce_repairs, ParseError, ParseMode, ParseOptions, Parsed, Repair, RepairKind};

/// How many levels of JSON-in-a-string are decoded.
pub(crate) const MAX_DOUBLE_ENCODING: usize = 2;

/// Parse a whole input with our own parser (no fast path), retrying later candidates after
/// prose, then decoding a double-encoded payload (lenient mode).
pub(crate) fn parse_slow(input: Input<'_>, options: &ParseOptions) -> Result<Parsed, ParseError> {
    parse_slow_noting_repeats(input, options).map(|(parsed, _)| parsed)
}

/// [`parse_slow`], and whether an object of the value repeated a key (the last value is kept).
pub(crate) fn parse_slow_noting_repeats(
    input: Input<'_>,
    options: &ParseOptions,
) -> Result<(Parsed, bool), ParseError> {
    let outcome =
        parse_outcome(input, options).map_err(|failure| to_error(failure, input.as_bytes(), options))?;
    Ok(decode_double(outcome, options))
}

/// The text of the string `text` reads as, before [`decode_double`] decodes it; `None` when
/// it does not read as a string.
pub(crate) fn top_level_string(text: &str, options: &ParseOptions) -> Option<String> {
    match parse_outcome(Input::text(text), options).ok()?.value {
        Value::String(text) => Some(text),
        _ => None,
    }
}

/// Where the floats of `text` land: the JSON Pointer of each, with its text as sent
/// (`0.99999999999999999` where an integer may be expected, `12345678901234567890123`,
/// `1.50`). Read again only when a check needs a float's text (an integral float where an
/// integer is declared or beyond 2^53, a number made a string); empty when the text does
/// not parse.
pub(crate) fn float_literals(text: &str, options: &ParseOptions) -> Vec<(String, String)> {
    let read =
        read_with_retry(Input::text(text), options, ValueOut::new, Driver::track_floats, |_, driver| {
            driver.take_floats()
        });
    read.unwrap_or_default()
}

/// [`parse`](super::parse)'s reading of a whole text, written back as JSON text with each
/// float as the text wrote it (see `output::float_text`), with the repairs: the reading of
/// [`super::parse_to_json`]. A number beyond the floats (`1e400`) is written as it was read,
/// where a `Value` cannot hold it. In lenient mode a double-encoded payload is decoded as
/// [`decode_double`] decodes it, and its own floats are written as it wrote them.
pub(crate) fn parse_to_json(
    text: &str,
    options: &ParseOptions,
) -> Result<(String, Vec<Repair>, FloatTexts), ParseError> {
    let (outcome, float_texts) =
        keeping_float_texts(text, options).map_err(|failure| to_error(failure, text.as_bytes(), options))?;
    let payload = match &outcome.value {
        Value::String(string) if options.mode == ParseMode::Lenient => {
            double_encoded_payload(string, options)
        }
        _ => None,
    };
    let Some(payload) = payload else {
        let json = write_json(&outcome.value, &float_texts, text.len());
        let mut repairs = outcome.repairs;
        coalesce_repairs(&mut repairs);
        return Ok((json, repairs, float_texts));
    };
    // The repairs as `parse` records them (the payload's placed at the string); the value
    // read again from the payload, keeping its floats' texts.
    let (parsed, _) = decode_double(outcome, options);
    let inner_options = ParseOptions { complete_truncated: false, ..options.clone() };
    let (inner, float_texts) = keeping_float_texts(&payload, &inner_options)
        .map_err(|failure| to_error(failure, payload.as_bytes(), &inner_options))?;
    let mut repairs = parsed.repairs;
    coalesce_repairs(&mut repairs);
    Ok((write_json(&inner.value, &float_texts, payload.len()), repairs, float_texts))
}

/// `text` as [`parse`](super::parse) reads it (not double-encoded: repair mode), with a
/// stand-in for each float, its repairs, and the floats' texts; `None` where `parse` fails.
pub(crate) fn keeping_float_texts_of(
    text: &str,
    options: &ParseOptions,
) -> Option<(Value, Vec<Repair>, FloatTexts)> {
    if text.len() > options.max_bytes || options.mode == ParseMode::Lenient {
        return None;
    }
    let (outcome, float_texts) = keeping_float_texts(text, options).ok()?;
    let mut repairs = outcome.repairs;
    coalesce_repairs(&mut repairs);
    Some((outcome.value, repairs, float_texts))
}

/// A whole text read into a `Value` with a stand-in for each float, and the floats' texts.
/// JSON is read as JSON in every mode, as [`parse`](super::parse) has `serde_json` read it
/// first: by the strict grammar, whose reading is `serde_json`'s (repair mode's guesses may
/// read some valid JSON otherwise); anything else in `options`' mode.
fn keeping_float_texts(text: &str, options: &ParseOptions) -> Result<(Outcome, FloatTexts), Failure> {
    let strict = ParseOptions { mode: ParseMode::Strict, complete_truncated: false, ..options.clone() };
    match keeping_float_texts_in_mode(text, &strict) {
        Ok(read) => Ok(read),
        Err(_) => keeping_float_texts_in_mode(text, options),
    }
}

/// [`keeping_float_texts`] in `options`' mode alone.
fn keeping_float_texts_in_mode(text: &str, options: &ParseOptions) -> Result<(Outcome, FloatTexts), Failure> {
    read_with_retry(Input::text(text), options, ValueOut::new, Driver::keep_float_texts, |outcome, driver| {
        (outcome, driver.take_float_texts())
    })
}

/// The payload [`decode_double`] decodes from the top-level string `string` (its content):
/// the text of the object or array it holds, at the level it is decoded; `None` when it
/// decodes none.
fn double_encoded_payload(string: &str, options: &ParseOptions) -> Option<String> {
    let outcome = Outcome {
        value: Value::String(string.to_owned()),
        repairs: Vec::new(),
        value_at: 0,
        repeated_keys: false,
    };
    let (parsed, _) = decode_double(outcome, options);
    if !(parsed.value.is_object() || parsed.value.is_array()) {
        return None;
    }
    let inner_options = ParseOptions { complete_truncated: false, ..options.clone() };
    let mut text = Cow::Borrowed(string);
    for level in 0..MAX_DOUBLE_ENCODING {
        let trimmed = payload_at(&text, level)?;
        if !trimmed.starts_with('"') {
            return Some(trimmed.to_owned());
        }
        text = Cow::Owned(top_level_string(trimmed, &inner_options)?);
    }
    None
}

/// Parse a whole input into a `Value`: a first attempt, then (lenient) later candidates
/// after prose.
pub(crate) fn parse_outcome(input: Input<'_>, options: &ParseOptions) -> Result<Outcome, Failure> {
    read_with_retry(input, options, ValueOut::new, |_| {}, |outcome, _| outcome)
}

/// Lenient mode: a top-level string holding a JSON object or array is decoded (up to
/// [`MAX_DOUBLE_ENCODING`] levels: a string holding a JSON string holding the object). The
/// string is kept as it is unless its content parses on its own, without prose, code
/// fence or completion, to an object or array.
///
/// With the value, whether an object of it repeated a key: of the decoded payload when it
/// is decoded (a key given twice inside the string is as much a repeat as one outside).
pub(crate) fn decode_double(outcome: Outcome, options: &ParseOptions) -> (Parsed, bool) {
    let Outcome { value, mut repairs, value_at, repeated_keys } = outcome;
    if options.mode != ParseMode::Lenient || !value.is_string() {
        return (Parsed { value, repairs }, repeated_keys);
    }
    let inner_options = ParseOptions { complete_truncated: false, ..options.clone() };
    let mut decoded: Option<Value> = None;
    let mut added: Vec<Repair> = Vec::new();
    let mut decoded_repeats = false;
    for level in 0..MAX_DOUBLE_ENCODING {
        let Value::String(text) = decoded.as_ref().unwrap_or(&value) else { break };
        let Some(trimmed) = payload_at(text, level) else { break };
        // The payload is held to the caller's depth limit, as the text around it is:
        // `serde_json` reads it first only where its own limit is not the tighter one.
        let inner = match super::repeats::strict_noting_repeats(trimmed, options.max_depth) {
            Some((value, repeated_keys)) => {
                Outcome { value, repairs: Vec::new(), value_at: 0, repeated_keys }
            }
            None => match parse_outcome(Input::text(trimmed), &inner_options) {
                Ok(outcome) => outcome,
                Err(_) => break,
            },
        };
        let framed = inner.repairs.iter().any(|r| {
            matches!(
                r.kind,
                RepairKind::ProseBefore
                    | RepairKind::ProseAfter
                    | RepairKind::CodeFence
                    | RepairKind::CompletedTruncated
            )
        });
        if framed {
            break;
        }
        added.push(Repair::new(RepairKind::DoubleEncoded, value_at));
        // Offsets inside the decoded text do not map back to the input: use the string's.
        added.extend(inner.repairs.iter().map(|r| r.at(value_at)));
        decoded_repeats |= inner.repeated_keys;
        decoded = Some(inner.value);
    }
    match decoded {
        Some(inner) if inner.is_object() || inner.is_array() => {
            repairs.extend(added);
            repairs.sort_by_key(|r| r.offset);
            (Parsed { value: inner, repairs }, decoded_repeats)
        }
        _ => (Parsed { value, repairs }, repeated_keys),
    }
}

/// The content of a string read as a payload at `level` of [`decode_double`] (trimmed):
/// `None` unless it opens an object or an array, or (below the last level) another string.
fn payload_at(text: &str, level: usize) -> Option<&str> {
    let trimmed = text.trim();
    let nested_string = level + 1 < MAX_DOUBLE_ENCODING && trimmed.starts_with('"');
    (trimmed.starts_with(['{', '[']) || nested_string).then_some(trimmed)
}

/// Where a number beyond the floats (`1e400`) stands inside a payload sent as a JSON string
/// (`"{\"a\": 1e400}"`), as a JSON Pointer from the payload's root: what kept
/// [`decode_double`] from decoding `text` (the string's content). `None` when the payload
/// fails for any other reason, or decodes, or `options` is not lenient (no payload is
/// decoded then). The string stays the parsed value, as valid JSON must; the arguments'
/// reader asks this only to say why a string is not the object it holds.
pub(crate) fn beyond_floats_in_payload(text: &str, options: &ParseOptions) -> Option<String> {
    if options.mode != ParseMode::Lenient {
        return None;
    }
    let inner_options = ParseOptions { complete_truncated: false, ..options.clone() };
    let mut text = Cow::Borrowed(text);
    for level in 0..MAX_DOUBLE_ENCODING {
        let trimmed = payload_at(&text, level)?;
        match parse_outcome(Input::text(trimmed), &inner_options) {
            Ok(Outcome { value: Value::String(inner), .. }) => text = Cow::Owned(inner),
            Ok(_) => return None,
            Err(failure) => {
                return match failure.into_kind() {
                    Fail::BeyondFloats { offset } => {
                        beyond_floats_path(trimmed.as_bytes(), offset, &inner_options)
                    }
                    _ => None,
                }
            }
        }
    }
    None
}

/// Turn a machine failure into the public error, computing line and column.
pub(crate) fn to_error(failure: Failure, input: &[u8], options: &ParseOptions) -> ParseError {
    match failure.into_kind() {
        Fail::Syntax { message, offset } => {
            let (line, column) = line_column(input, offset);
            ParseError::Syntax { message, offset, line, column }
        }
        Fail::Char { offset, at, prefix, suffix } => {
            let (line, column) = line_column(input, offset);
            let message = format!("{prefix}{}{suffix}", describe_char(input, at));
            ParseError::Syntax { message, offset, line, column }
        }
        Fail::BeyondFloats { offset } => {
            let (line, column) = line_column(input, offset);
            match beyond_floats_path(input, offset, options) {
                Some(path) => ParseError::NumberOutOfRange { path, offset, line, column },
                None => {
                    ParseError::Syntax { message: "number out of range".to_owned(), offset, line, column }
                }
            }
        }
        Fail::Truncated { inside } => ParseError::Truncated { bytes: input.len(), inside },
        Fail::TooDeep => ParseError::TooDeep { limit: options.max_depth },
        Fail::InvalidUtf8 { offset } => ParseError::InvalidUtf8 { offset },
    }
}

/// Where the number beyond the floats (`1e400`) at byte `offset` of `input` stands, as a
/// JSON Pointer: the text up to the number's end read again, completed as cut-off text is,
/// with the number as a stand-in float whose literal is tracked. Only the text before it
/// decides where it stands, so the incremental parser, failing as the number ends, places
/// it as the one-shot parse does whatever follows. `None` when it stands where no value
/// does (a set's first item, read as a key) or the text is not UTF-8.
fn beyond_floats_path(input: &[u8], offset: usize, options: &ParseOptions) -> Option<String> {
    let end = input.get(offset..)?.iter().position(|&b| !in_literal(b));
    let text = std::str::from_utf8(input.get(..end.map_or(input.len(), |n| offset + n))?).ok()?;
    let completed = ParseOptions { complete_truncated: true, ..options.clone() };
    let literals = read_with_retry(
        Input::text(text),
        &completed,
        ValueOut::new,
        Driver::track_floats_and_beyond,
        |_, driver| driver.take_floats(),
    )
    .ok()?;
    let (path, literal) = literals.into_iter().next_back()?;
    beyond_floats(&literal).then_some(path)
}

/// 1-based line and column (in characters) of byte `offset`.
pub(crate) fn line_column(input: &[u8], offset: usize) -> (usize, usize) {
    let before = input.get(..offset).unwrap_or(input);
    let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |k| k + 1);
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let column =
        1 + before.get(line_start..).unwrap_or_default().iter().filter(|&&b| b & 0xC0 != 0x80).count();
    (line, column)
}

/// A lenient parse read onto a tape: what [`parse`](super::parse) gives, without the value.
#[derive(Debug)]
pub(crate) struct TapeParsed<'t> {
    pub(crate) tape: Tape<'t>,
    pub(crate) repairs: Vec<Repair>,
}

/// Parses tool arguments onto a [`Tape`]: the same reading, repairs and errors as
/// `parse_noting_repeats`, written straight onto the tape by the grammar (no `Value`), or
/// for strict JSON by `serde_json`. `Ok(None)`: the text repeats a key (the value path
/// decides what that means), or it is read in [`ParseMode::Repair`] (whose guesses rebuild
/// what they built: that needs a `Value`); the caller takes the value path. A
/// double-encoded payload (a top-level string holding the object) is decoded as a value,
/// then written onto the tape. A text past 4 GiB, where a tape's
/// [`Text`](super::output::tape::Text) does not reach, is
/// left to the value path as well (`Ok(None)`).
pub(crate) fn parse_to_tape<'t>(
    input: &'t str,
    options: &ParseOptions,
    not_strict_json: bool,
) -> Result<Option<TapeParsed<'t>>, ParseError> {
    parse_to_tape_framed(input, options, not_strict_json, Framing::Unknown)
}

/// [`parse_to_tape`], told what the caller knows of the text's frame (see
/// [`Framing`]): strict JSON in a frame is read onto the tape by `serde_json`, with the
/// frame's repairs.
pub(crate) fn parse_to_tape_framed<'t>(
    input: &'t str,
    options: &ParseOptions,
    not_strict_json: bool,
    framing: Framing<'_>,
) -> Result<Option<TapeParsed<'t>>, ParseError> {
    if input.len() > options.max_bytes {
        return Err(ParseError::TooLarge { bytes: input.len(), limit: options.max_bytes });
    }
    if options.mode == ParseMode::Repair || u32::try_from(input.len()).is_err() {
        return Ok(None);
    }
    // The readings of this text below write their tapes into one block (see `TapeRoom`).
    let mut room = TapeRoom::default();
    if let Some((tape, repeated)) = strict_to_tape(input, options.max_depth, not_strict_json, &mut room) {
        if repeated || tape.overflow() {
            return Ok(None);
        }
        if let (Some(Event::Str(_)), ParseMode::Lenient) = (tape.events().only(), options.mode) {
            // A double-encoded payload: as `parse` reads it; a key repeated inside it is
            // read as any repeated key is (by the walk).
            let (parsed, repeated) = crate::parse::parse_noting_repeats(input, options, false)?;
            return Ok(if repeated { None } else { kept_tape(&parsed.value, parsed.repairs) });
        }
        return Ok(Some(TapeParsed { tape, repairs: Vec::new() }));
    }
    let found;
    let frame = match framing {
        Framing::Unknown => {
            found = TextFrame::of(input, options, Mends::Unknown, Reader::Borrowing);
            found.as_ref()
        }
        Framing::Absent => None,
        Framing::Known(frame) => Some(frame),
    };
    if let Some(frame) = frame {
        if let Some(out) = frame.offer(input, options.max_depth, strict_tape_reader(input, &mut room)).read()
        {
            // Strict JSON in a frame (prose, a code fence): an object or array, never a string.
            let (tape, repeated) = out.into_written();
            if repeated || tape.overflow() {
                return Ok(None);
            }
            return Ok(Some(TapeParsed { tape, repairs: frame.repairs.clone() }));
        }
    }
    let out = || TapeOut::for_text(input, &mut room);
    let read = read_with_retry(Input::text(input), options, out, |_| {}, |outcome, _| outcome);
    let Outcome { value: tape, mut repairs, value_at, repeated_keys: repeated } =
        read.map_err(|failure| to_error(failure, input.as_bytes(), options))?;
    if repeated || tape.overflow() {
        return Ok(None);
    }
    if let Some(Event::Str(text)) = tape.events().only() {
        if options.mode == ParseMode::Lenient {
            let text = tape.sources().string(text).map(Cow::into_owned).unwrap_or_default();
            let outcome = Outcome { value: Value::String(text), repairs, value_at, repeated_keys: false };
            let (mut parsed, repeated) = decode_double(outcome, options);
            if repeated {
                return Ok(None);
            }
            coalesce_repairs(&mut parsed.repairs);
            return Ok(kept_tape(&parsed.value, parsed.repairs));
        }
    }
    coalesce_repairs(&mut repairs);
    Ok(Some(TapeParsed { tape, repairs }))
}

/// The tape of `input` as [`parse_to_tape`] reads it, every member kept where an object
/// gives a key twice: for finding those keys (`members::repeats`). `None` where a tape is
/// not the reading: the repair mode, a text past the byte limit or 4 GiB, a text that does
/// not parse, and a top-level string (lenient mode decodes the payload inside it).
pub(crate) fn tape_keeping_repeats<'t>(input: &'t str, options: &ParseOptions) -> Option<Tape<'t>> {
    if input.len() > options.max_bytes
        || options.mode == ParseMode::Repair
        || u32::try_from(input.len()).is_err()
    {
        return None;
    }
    let mut room = TapeRoom::default();
    let tape = match strict_to_tape(input, options.max_depth, false, &mut room) {
        Some((tape, _)) => tape,
        None => {
            let out = || TapeOut::for_text(input, &mut room);
            read_with_retry(Input::text(input), options, out, |_| {}, |outcome, _| outcome).ok()?.value
        }
    };
    let a_string = matches!(tape.events().only(), Some(Event::Str(_)));
    (!tape.overflow() && !a_string).then_some(tape)
}

/// The tape of a value decoded from the text (every string kept), with its repairs; `None`
/// past 4 GiB.
fn kept_tape(value: &Value, repairs: Vec<Repair>) -> Option<TapeParsed<'static>> {
    let tape = Tape::from_value(value);
    (!tape.overflow()).then_some(TapeParsed { tape, repairs })
}
