//! The typed checks: raw arguments read straight into a Rust type, by the one pass when they
//! are exactly valid strict JSON, else checked as a value first (see [`super`]).

use serde::de::DeserializeOwned;

use serde_json::de::StrRead;
use serde_json::error::Category;
use serde_json::Value;

use super::{
    deserialize_checked, in_document_order, object_end, opens_object, read_arguments, read_of, text_of,
    CheckOptions, Miss, ObjectEnd, OnePass, Read, Validator,
};
use crate::check::fast::Fast;
use crate::error::{FieldError, Rejection};
use crate::limits::Limits;
use crate::parse;
use crate::parse::framed::{Framing, Mends, Reader, TextFrame};
use crate::parse::one_shot::TapeParsed;
use crate::parse::strict::Strict;
use crate::parse::tape::{Event, Events, Sources};
use crate::parse::tape_de::TapeDeserializer;
use crate::parsed_text::ParsedText;
use crate::policy::Policy;
use crate::probe::Fields;
use crate::raw::RawArguments;
use crate::report::{Checked, Coercion, Report};

/// What a typed reading does with the defaults of absent properties: recorded either way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Defaults {
    /// Left to `T`: a derived type's own serde defaults stand for the schema's.
    Left,
    /// Handed to `T` as members after the sent ones, as the walk's value holds them.
    Given,
    /// Left to `T`, and recorded nowhere: the caller keeps the value only, and the report's
    /// coercions, which the one pass would write only to be dropped, are counted instead
    /// (its repairs are kept: a refusal by `T`'s own rules shows them).
    LeftUnrecorded,
}

impl Validator {
    /// Check raw arguments straight into any `T` serde can read, with per-call options: the
    /// value [`check_with`](Validator::check_with) accepts, with the same report, read into
    /// `T`, or the same rejection. A `Value` is built only when the one-pass check cannot
    /// decide: exactly valid strict JSON, and text whose repairs and representation
    /// coercions that pass makes, are read into `T` as they are parsed, the defaults of
    /// absent properties handed to `T` as the members the walk would add.
    ///
    /// This is the typed path of a derived [`ToolInput`](crate::ToolInput) for a schema known
    /// only at run time, into a type of your own (or a leaner form of a JSON value than
    /// `serde_json::Value`). A value the schema accepts that `T` refuses is a rejection with
    /// one [`ErrorCode::Deserialize`](crate::ErrorCode::Deserialize) error at its path (its
    /// message quoting nothing under a sensitive field).
    ///
    /// ```
    /// use serde::Deserialize;
    /// use serde_json::json;
    /// use tool_input::{CheckOptions, CoercionKind, Validator};
    ///
    /// #[derive(Debug, Deserialize, PartialEq)]
    /// struct Forecast {
    ///     city: String,
    ///     days: u8,
    /// }
    ///
    /// let validator = Validator::new(&json!({
    ///     "type": "object",
    ///     "properties": {"city": {"type": "string"}, "days": {"type": "integer", "default": 1}},
    ///     "required": ["city"]
    /// }))?;
    /// let options = CheckOptions::default();
    /// // Repaired (single quotes), and the default of `days` filled, as `check` fills it.
    /// let checked = validator.check_into::<Forecast>("{'city': 'Oslo'}", &options)?;
    /// assert_eq!(checked.value, Forecast { city: "Oslo".into(), days: 1 });
    /// assert_eq!(checked.report.coercions[0].kind, CoercionKind::DefaultFilled);
    /// // The schema allows 300 days; `u8` does not: a rejection at the field.
    /// let refused = validator.check_into::<Forecast>(r#"{"city": "Oslo", "days": 300}"#, &options);
    /// assert_eq!(refused.unwrap_err().errors()[0].path(), "/days");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn check_into<'a, T: DeserializeOwned>(
        &self,
        raw: impl Into<RawArguments<'a>>,
        options: &CheckOptions,
    ) -> Result<Checked<T>, Rejection> {
        self.check_typed_with::<T>(raw.into(), options, Fields::default(), Defaults::Given)
            .map_err(|rejection| self.unquoted_where_sensitive(rejection))
    }

    /// The one-pass reader under `limits` and `policy`, doing as `defaults` says. (Inlined,
    /// with the settings it makes, so that the reader is built in its caller's frame rather
    /// than copied there.)
    #[inline(always)]
    fn fast(&self, limits: &Limits, policy: Policy, defaults: Defaults) -> Fast<'_> {
        // The plan's defaults were found exact under the validator's own limits.
        let fast = Fast::new(&self.inner.plan, &self.inner.overrides, limits, policy)
            .under_own_limits(*limits == self.inner.limits);
        match defaults {
            Defaults::Left => fast,
            Defaults::Given => fast.giving_defaults(),
            Defaults::LeftUnrecorded => fast.unrecorded(),
        }
    }

    /// The one-pass path for a typed call (see `check::fast`): `Some` when the arguments are
    /// strict JSON that is exactly valid, `None` when they need the full check.
    pub(crate) fn check_typed_exact<T: DeserializeOwned>(
        &self,
        raw: RawArguments<'_>,
        options: &CheckOptions,
    ) -> Option<Checked<T>> {
        if self.inner.aliases.may_occur_in(raw) {
            return None;
        }
        self.attempt_exact(raw, options, Defaults::Left, false).ok()
    }

    /// The one-pass attempt, saying why it failed. `explain`: a strict JSON text it refuses
    /// is read on to its end and explained (see `check::fast::explain`), and the rejection is the
    /// answer when every refusal was.
    fn attempt_exact<T: DeserializeOwned>(
        &self,
        raw: RawArguments<'_>,
        options: &CheckOptions,
        defaults: Defaults,
        explain: bool,
    ) -> Result<Checked<T>, Missed> {
        let limits = options.limits.unwrap_or(self.inner.limits);
        // serde_json refuses nesting deeper than 128 on its own; with a lower limit, the full
        // path must count.
        if !parse::strict::depth_allows(limits.max_depth) {
            return Err(Missed::Miss(Miss::NotTried));
        }
        let policy = options.policy.unwrap_or(self.inner.policy);
        let text = match raw {
            RawArguments::Text(text) => text,
            RawArguments::Value(Value::String(text)) => text,
            RawArguments::Bytes(bytes) => match std::str::from_utf8(bytes) {
                Ok(text) => text,
                Err(_) => return Err(Missed::Miss(Miss::NotTried)),
            },
            RawArguments::Value(value @ Value::Object(_)) => {
                if crate::raw::value_within(value, &limits.parse_options(policy)).is_err() {
                    // The full path reads it, and refuses it as its text would be.
                    return Err(Missed::Miss(Miss::NotTried));
                }
                let fast = self.fast(&limits, policy, defaults);
                let value = fast.run::<T, _>(value).map_err(|_| Missed::Miss(Miss::Inexact))?;
                return Ok(Checked { value, report: Report::new(Vec::new(), fast.into_coercions()) });
            }
            RawArguments::Value(_) | RawArguments::Absent => return Err(Missed::Miss(Miss::NotTried)),
        };
        let mut fast = self.fast(&limits, policy, defaults);
        if explain {
            fast.explaining(text);
        }
        let (read, rest_is_blank) = self.fast_from_text(&fast, text, &limits);
        match read {
            Ok(value) => Ok(Checked { value, report: Report::new(Vec::new(), fast.into_coercions()) }),
            Err(Miss::Inexact) if explain => match fast.explained(rest_is_blank) {
                Some((errors, in_order)) => {
                    #[cfg(test)]
                    super::EXPLAINED.with(|explained| explained.set(explained.get() + 1));
                    let rejection = Rejection::invalid(errors);
                    Err(Missed::Explained(if in_order {
                        rejection
                    } else {
                        in_document_order(rejection, raw, policy, &limits)
                    }))
                }
                None => Err(Missed::Miss(Miss::Inexact)),
            },
            Err(miss) => Err(Missed::Miss(miss)),
        }
    }

    /// The one-pass reading of `text`, and (after a refusal the reading explained) whether
    /// nothing but white space followed the value.
    pub(super) fn fast_from_text<T: DeserializeOwned>(
        &self,
        fast: &Fast<'_>,
        text: &str,
        limits: &Limits,
    ) -> (Result<T, Miss>, bool) {
        if text.len() > limits.max_bytes || !opens_object(text) {
            return (Err(Miss::NotTried), false);
        }
        match object_end(text) {
            ObjectEnd::Closed => {}
            // Not strict JSON (prose after the object, a fence, a cut-off call, a trailing
            // comma): refused without reading the whole object into `T` first.
            ObjectEnd::TrailingComma => return (Err(Miss::Mendable { from: 0 }), false),
            ObjectEnd::Other => return (Err(Miss::NotJson), false),
        }
        // A first key `serde_json` would refuse at once (`{'a'`, `{a`): what its refusal
        // would say, without the reading.
        if let Some(mends) = Mends::at_first_key(text) {
            return (Err(Miss::after(mends)), false);
        }
        // The one pass notes whether it read a float: only then is the text scanned for one
        // serde_json may round wrongly (most calls have none, and the scan cost a clean call
        // a fifth of its instructions).
        let mut rest_is_blank = false;
        let read = |d: &mut serde_json::Deserializer<_>| {
            let read = fast.run::<T, _>(&mut *d);
            if read.is_err() && fast.explains() {
                rest_is_blank = d.end().is_ok();
            }
            read.map(|value| (value, fast.read_a_float()))
        };
        let read = match parse::strict::serde_json_first(text, limits.max_depth, false, read) {
            Strict::Read(value) => Ok(value),
            // The callers have held the depth limit to serde_json's: a float it might round
            // wrongly, which the lexer reads instead (as it reads JSON that is not strict),
            // correctly rounded.
            Strict::NotTried => Err(Miss::NotJson),
            Strict::Refused(error) => Err(match error.classify() {
                // Not strict JSON: the lenient parser reads it, with no second strict attempt
                // of the text as it is.
                serde_json::error::Category::Syntax => Miss::after(Mends::after_refusal(text, &error)),
                serde_json::error::Category::Eof => Miss::NotJson,
                serde_json::error::Category::Data | serde_json::error::Category::Io => Miss::Inexact,
            }),
        };
        (read, rest_is_blank)
    }

    /// The typed path (`ToolInput::from_arguments_with`). Three steps, each taken only when
    /// the one before cannot decide:
    ///
    /// 1. the one-pass attempt on the text: exact strict JSON becomes `T` directly;
    /// 2. when the text is not strict JSON: strict JSON in a frame (prose around it, a code
    ///    fence: `parse::framed`) read into `T` by the same pass, with the frame's repairs;
    ///    else one lenient parse onto a tape, read straight into
    ///    `T` by the same one-pass check: a mangled call (code fences, prose, quotes, Python
    ///    literals, comments, trailing commas, arrays and objects sent as strings, enum values
    ///    in other case, numbers and booleans as strings) becomes `T` with its repairs and
    ///    coercions recorded, and no `Value` built;
    /// 3. the walk (coerce, validate, explain every error), then serde.
    ///
    /// Each step accepts only what the next would accept unchanged (tests compare this path
    /// with the full one call by call), so the result never depends on which step decided.
    /// Rejections do not name the tool; the caller adds it.
    pub(crate) fn check_typed<T: DeserializeOwned>(
        &self,
        raw: RawArguments<'_>,
        options: &CheckOptions,
        fields: Fields<'_>,
    ) -> Result<Checked<T>, Rejection> {
        self.check_typed_with::<T>(raw, options, fields, Defaults::Left)
    }

    /// [`check_typed`](Validator::check_typed) for a caller that keeps the value only
    /// (`ToolInput::from_arguments`): the same value, or the same rejection; the report
    /// holds the repairs, and the coercions only where the walk decided.
    pub(crate) fn check_typed_value<T: DeserializeOwned>(
        &self,
        raw: RawArguments<'_>,
        options: &CheckOptions,
        fields: Fields<'_>,
    ) -> Result<Checked<T>, Rejection> {
        self.check_typed_with::<T>(raw, options, fields, Defaults::LeftUnrecorded)
    }

    /// [`check_typed_with_unmasked`](Validator::check_typed_with_unmasked), the keys of sensitive values masked
    /// ([`keys_masked`](Validator::keys_masked)).
    fn check_typed_with<T: DeserializeOwned>(
        &self,
        raw: RawArguments<'_>,
        options: &CheckOptions,
        fields: Fields<'_>,
        defaults: Defaults,
    ) -> Result<Checked<T>, Rejection> {
        self.keys_masked(self.check_typed_with_unmasked::<T>(raw, options, fields, defaults))
    }

    /// [`check_typed`](Validator::check_typed), doing with the defaults of absent properties
    /// as `defaults` says.
    fn check_typed_with_unmasked<T: DeserializeOwned>(
        &self,
        raw: RawArguments<'_>,
        options: &CheckOptions,
        fields: Fields<'_>,
        defaults: Defaults,
    ) -> Result<Checked<T>, Rejection> {
        let policy = options.policy.unwrap_or(self.inner.policy);
        let limits = options.limits.unwrap_or(self.inner.limits);
        let one_pass = if self.inner.aliases.may_occur_in(raw) {
            OnePass::Unread(Miss::NotTried)
        } else {
            // `one_pass`, its first step here: the usual call ends with it, and the value
            // is moved once less.
            match self.attempt_exact::<T>(raw, options, defaults, true) {
                Ok(checked) => return Ok(checked),
                Err(Missed::Explained(rejection)) => return Err(rejection),
                Err(Missed::Miss(miss)) => self.second_step::<T>(raw, miss, policy, &limits, defaults)?,
            }
        };
        self.walk_typed(one_pass, raw, policy, &limits, || {
            deserialize_checked::<T>(self.check_with(raw, options)?, fields)
        })
    }

    /// Step 3 of [`check_typed`](Validator::check_typed), after the steps before it came to
    /// `one_pass`: the walk, then serde. `recheck`: the rare case where serde refuses what
    /// the schema allows (check again, and deserialize with path tracking, which costs too
    /// much to pay on every call).
    fn walk_typed<T: DeserializeOwned>(
        &self,
        one_pass: OnePass<T>,
        raw: RawArguments<'_>,
        policy: Policy,
        limits: &Limits,
        recheck: impl FnOnce() -> Result<Checked<T>, Rejection>,
    ) -> Result<Checked<T>, Rejection> {
        let read = match one_pass {
            OnePass::Decided(checked) => return Ok(checked),
            OnePass::Read(read) => read,
            OnePass::Unread(miss) => {
                read_arguments(raw, policy, limits, miss.not_json()).map_err(|r| self.guard(r))?
            }
        };
        let checked = self
            .check_parsed(read, policy, limits, raw)
            .map_err(|rejection| in_document_order(rejection, raw, policy, limits))?;
        let Checked { value, report } = checked;
        match T::deserialize(value) {
            Ok(value) => Ok(Checked { value, report }),
            Err(_) => recheck(),
        }
    }

    /// Steps 1 and 2 of [`check_typed`](Validator::check_typed) alone (for tests): `Some`
    /// when they decide the call, `None` when it takes the walk.
    pub(crate) fn check_typed_one_pass<T: DeserializeOwned>(
        &self,
        raw: RawArguments<'_>,
        options: &CheckOptions,
    ) -> Option<Checked<T>> {
        let policy = options.policy.unwrap_or(self.inner.policy);
        let limits = options.limits.unwrap_or(self.inner.limits);
        if self.inner.aliases.may_occur_in(raw) {
            return None;
        }
        match self.one_pass::<T>(raw, options, policy, &limits, Defaults::Left) {
            Ok(OnePass::Decided(checked)) => Some(checked),
            _ => None,
        }
    }

    /// Steps 1 and 2 of the typed path. `Err`: the text does not parse (the rejection).
    pub(super) fn one_pass<T: DeserializeOwned>(
        &self,
        raw: RawArguments<'_>,
        options: &CheckOptions,
        policy: Policy,
        limits: &Limits,
        defaults: Defaults,
    ) -> Result<OnePass<T>, Rejection> {
        match self.attempt_exact::<T>(raw, options, defaults, true) {
            Ok(checked) => Ok(OnePass::Decided(checked)),
            Err(Missed::Explained(rejection)) => Err(rejection),
            Err(Missed::Miss(miss)) => self.second_step::<T>(raw, miss, policy, limits, defaults),
        }
    }

    /// Step 2 of the typed path, after the first step's `miss`: the lenient parse onto a
    /// tape, read into `T`. `Err`: the text does not parse (the rejection).
    fn second_step<T: DeserializeOwned>(
        &self,
        raw: RawArguments<'_>,
        miss: Miss,
        policy: Policy,
        limits: &Limits,
        defaults: Defaults,
    ) -> Result<OnePass<T>, Rejection> {
        // After `Inexact`, the text is strict JSON the attempt already read and refused.
        // Below serde_json's depth, only the walk counts depth as the limits say.
        if miss == Miss::Inexact || !parse::strict::depth_allows(limits.max_depth) {
            return Ok(OnePass::Unread(miss));
        }
        let Some(text) = text_of(raw).filter(|text| !text.trim().is_empty()) else {
            return Ok(OnePass::Unread(miss));
        };
        let parse_options = limits.parse_options(policy);
        #[cfg(test)]
        super::TEXTS_READ.with(|read| read.set(read.get() + 1));
        // Strict JSON in a frame (prose, a code fence) first, read into `T` as the first
        // step reads strict JSON; the frame is read once for both readings.
        // Where the first step's strict reading broke tells whether a text without a frame
        // may be strict JSON mended (trailing commas dropped, keys quoted).
        let mends = match miss {
            Miss::Mendable { from } => Mends::From(from),
            Miss::NotJson => Mends::NotFirst,
            Miss::NotTried | Miss::Inexact => Mends::Unknown,
        };
        let mut frame = TextFrame::of(text, &parse_options, mends, Reader::Owning);
        let framing = match &mut frame {
            // Arguments are an object: an array in a frame is read onto the tape, and refused
            // there as it is bare.
            Some(frame) if !frame.holds_object(text) => Framing::Known(frame),
            Some(frame) => match self.framed_typed::<T>(text, frame, policy, limits, defaults) {
                Ok(checked) => return Ok(OnePass::Decided(checked)),
                // The pass refused the value: the tape's reading explains, from the frame.
                Err(Strict::Refused(error)) if error.classify() == Category::Data => Framing::Known(frame),
                // Not strict JSON inside, or not `serde_json`'s to read.
                Err(_) => Framing::Absent,
            },
            None => Framing::Absent,
        };
        let parsed = parse::one_shot::parse_to_tape_framed(text, &parse_options, miss.not_json(), framing)
            .map_err(|error| self.guard(Rejection::from_parse(error)))?;
        // A key given twice: the walk settles it, from the text.
        let Some(TapeParsed { tape, repairs }) = parsed else { return Ok(OnePass::Unread(miss)) };
        if !matches!(tape.events().get(0), Some(Event::Object { .. })) {
            return Ok(OnePass::Read(Read { value: tape.to_value(), repairs, repeats: Vec::new() }));
        }
        match self.read_tape::<T>(TapeDeserializer::of(&tape), policy, limits, defaults, Some(text)) {
            Ok((value, coercions)) => {
                Ok(OnePass::Decided(Checked { value, report: Report::new(repairs, coercions) }))
            }
            // Refused, and every refusal explained as the walk explains it: the rejection, with
            // the parse's repairs, as the walk of the tape's value would give it.
            Err(Some((errors, in_order))) => {
                #[cfg(test)]
                super::EXPLAINED.with(|explained| explained.set(explained.get() + 1));
                let rejection = Rejection { repairs, ..Rejection::invalid(errors) };
                Err(if in_order { rejection } else { in_document_order(rejection, raw, policy, limits) })
            }
            // The reader leaves the tape whole: the walk reads its value, with no second parse.
            Err(None) => Ok(OnePass::Read(Read { value: tape.to_value(), repairs, repeats: Vec::new() })),
        }
    }

    /// The second step's first try: the value in the frame of `text` (`parse::framed`) read
    /// into `T` by the one pass as the first step reads strict JSON, with the frame's
    /// repairs: the value and report the tape's reading gives. `Err`: what `serde_json`'s
    /// offer came to (a refusal by the pass is a data error; the tape's reading then
    /// decides, and explains).
    fn framed_typed<T: DeserializeOwned>(
        &self,
        text: &str,
        frame: &mut TextFrame,
        policy: Policy,
        limits: &Limits,
        defaults: Defaults,
    ) -> Result<Checked<T>, Strict<T>> {
        let fast = self.fast(limits, policy, defaults);
        let read = |d: &mut serde_json::Deserializer<StrRead<'_>>| {
            fast.run::<T, _>(&mut *d).map(|value| (value, fast.read_a_float()))
        };
        match frame.offer_owned(text, limits.max_depth, read) {
            // The frame is not read again: its repairs go to the report.
            Strict::Read(value) => {
                let repairs = std::mem::take(&mut frame.repairs);
                Ok(Checked { value, report: Report::new(repairs, fast.into_coercions()) })
            }
            other => Err(other),
        }
    }

    /// The second step's reading: `T` from a tape's events, checked against the plan on the
    /// way, and the coercions made. With `explain`, the text the tape was parsed from, a
    /// refusal is explained as the walk explains it (see `check::fast::explain`):
    /// `Err(Some(..))` holds the errors, and whether they are in document order already.
    /// `Err(None)`: the walk must decide.
    fn read_tape<T: DeserializeOwned>(
        &self,
        mut deserializer: TapeDeserializer<'_>,
        policy: Policy,
        limits: &Limits,
        defaults: Defaults,
        explain: Option<&str>,
    ) -> Result<(T, Vec<Coercion>), Option<Explained>> {
        let mut fast = self.fast(limits, policy, defaults);
        if let Some(text) = explain {
            fast.explaining(text);
        }
        match fast.run::<T, _>(&mut deserializer) {
            Ok(value) if deserializer.is_done() => Ok((value, fast.into_coercions())),
            Ok(_) => Err(None),
            Err(_) => Err(fast.explained(deserializer.is_done())),
        }
    }

    /// The text's tape, as the second step parses it under the validator's own policy and
    /// limits (for benchmarks of the tape reader alone: see `__private::prepare_tape`).
    /// Its events and kept strings, read over `text` again by
    /// [`read_prepared_tape`](Validator::read_prepared_tape).
    pub(crate) fn prepare_tape(&self, text: &str) -> Option<(Vec<u8>, String)> {
        let options = self.inner.limits.parse_options(self.inner.policy);
        let parsed = parse::one_shot::parse_to_tape(text, &options, true).ok()??;
        Some(parsed.tape.into_parts())
    }

    /// [`read_tape`](Validator::read_tape) under the validator's own policy and limits, of
    /// the events and kept strings [`prepare_tape`](Validator::prepare_tape) gave for `text`.
    pub(crate) fn read_prepared_tape<T: DeserializeOwned>(
        &self,
        text: &str,
        events: &[u8],
        kept: &str,
    ) -> Option<T> {
        let reader = TapeDeserializer::new(Events::new(events), Sources::new(text, kept));
        self.read_tape::<T>(reader, self.inner.policy, &self.inner.limits, Defaults::Left, None)
            .ok()
            .map(|(value, _)| value)
    }

    /// [`check_parsed_text_unmasked`](Validator::check_parsed_text_unmasked), the keys of sensitive values masked
    /// ([`keys_masked`](Validator::keys_masked)).
    pub(crate) fn check_parsed_text(
        &self,
        parsed: &ParsedText<'_>,
        options: &CheckOptions,
    ) -> Result<Checked<Value>, Rejection> {
        self.keys_masked(self.check_parsed_text_unmasked(parsed, options))
    }

    /// [`check_with`](Validator::check_with) of `parsed.text`, given its parse: the same
    /// value and report, or the same rejection, byte for byte. The parse stands in for
    /// `check_with`'s own when it is the one `check_with` would make
    /// ([`Validator::takes_parse`]); otherwise the text is read as `check_with` reads it.
    /// What only the text tells is still read from it, where `check_with` reads it too: the
    /// repeated keys (when the parse saw one), the text of an integral float, the order of
    /// several errors.
    fn check_parsed_text_unmasked(
        &self,
        parsed: &ParsedText<'_>,
        options: &CheckOptions,
    ) -> Result<Checked<Value>, Rejection> {
        let raw = RawArguments::Text(parsed.text);
        let policy = options.policy.unwrap_or(self.inner.policy);
        let limits = options.limits.unwrap_or(self.inner.limits);
        if !(self.takes_parse(parsed, policy, &limits) && parsed.is_current())
            || self.inner.aliases.may_occur_in(raw)
        {
            return self.check_with(raw, options);
        }
        let read = match self.accepts_parsed_exactly(read_of(parsed, policy, &limits), raw, policy, &limits) {
            Ok(checked) => return Ok(checked),
            Err(read) => read,
        };
        self.check_parsed(read, policy, &limits, raw)
            .map_err(|rejection| in_document_order(rejection, raw, policy, &limits))
    }

    /// [`check_typed_parsed_unmasked`](Validator::check_typed_parsed_unmasked), the keys of sensitive values masked
    /// ([`keys_masked`](Validator::keys_masked)).
    pub(crate) fn check_typed_parsed<T: DeserializeOwned>(
        &self,
        parsed: &ParsedText<'_>,
        options: &CheckOptions,
        fields: Fields<'_>,
    ) -> Result<Checked<T>, Rejection> {
        self.keys_masked(self.check_typed_parsed_unmasked::<T>(parsed, options, fields))
    }

    /// [`check_typed`](Validator::check_typed) of `parsed.text`, given its parse: the same
    /// typed value and report, or the same rejection, byte for byte.
    ///
    /// The first step is taken on the text as `check_typed` takes it: strict JSON that is
    /// exactly valid becomes `T` in one pass of `serde_json`, cheaper than anything read
    /// from the parse, and the kind of its miss decides the steps after. The second step
    /// reads `T` from the parsed value instead of parsing the text onto a tape (both put
    /// their records in the walk's order, `check::order`), and the walk reads the parsed
    /// value instead of parsing again.
    fn check_typed_parsed_unmasked<T: DeserializeOwned>(
        &self,
        parsed: &ParsedText<'_>,
        options: &CheckOptions,
        fields: Fields<'_>,
    ) -> Result<Checked<T>, Rejection> {
        let raw = RawArguments::Text(parsed.text);
        let policy = options.policy.unwrap_or(self.inner.policy);
        let limits = options.limits.unwrap_or(self.inner.limits);
        if !self.takes_parse(parsed, policy, &limits) || self.inner.aliases.may_occur_in(raw) {
            return self.check_typed::<T>(raw, options, fields);
        }
        let miss = match self.attempt_exact::<T>(raw, options, Defaults::Left, true) {
            Ok(checked) => return Ok(checked),
            Err(Missed::Explained(rejection)) => return Err(rejection),
            Err(Missed::Miss(miss)) => miss,
        };
        if !parsed.is_current() {
            let one_pass = self.second_step::<T>(raw, miss, policy, &limits, Defaults::Left)?;
            return self.walk_typed(one_pass, raw, policy, &limits, || {
                deserialize_checked::<T>(self.check_with(raw, options)?, fields)
            });
        }
        let one_pass = self.second_step_parsed::<T>(parsed, miss, policy, &limits)?;
        self.walk_typed(one_pass, raw, policy, &limits, || {
            deserialize_checked::<T>(self.check_parsed_text(parsed, options)?, fields)
        })
    }

    /// Is `parsed` the parse this validator makes of its text under `policy` and `limits`?
    /// The call record parses leniently, as every policy but [`Policy::Strict`] does, and
    /// the limits that bear on a lenient parse are the size (which only refuses a text too
    /// long) and the depth.
    fn takes_parse(&self, parsed: &ParsedText<'_>, policy: Policy, limits: &Limits) -> bool {
        policy != Policy::Strict
            && parsed.max_depth == limits.max_depth
            && parsed.text.len() <= limits.max_bytes
    }

    /// [`second_step`](Validator::second_step) with the text's parse: where it would parse the
    /// text (for the walk, or onto a tape), the parse is read instead.
    fn second_step_parsed<T: DeserializeOwned>(
        &self,
        parsed: &ParsedText<'_>,
        miss: Miss,
        policy: Policy,
        limits: &Limits,
    ) -> Result<OnePass<T>, Rejection> {
        // Where the second step does not read `T` (strict JSON the first step refused, a
        // depth limit only the walk counts, a key given twice), the walk reads the parse.
        if miss == Miss::Inexact || !parse::strict::depth_allows(limits.max_depth) || parsed.repeated {
            return Ok(OnePass::Read(read_of(parsed, policy, limits)));
        }
        let fast = self.fast(limits, policy, Defaults::Left);
        let Ok(value) = fast.run::<T, _>(parsed.value) else {
            // The reader gives up on the tape just as it does on the value: the walk decides.
            return Ok(OnePass::Read(read_of(parsed, policy, limits)));
        };
        // In the walk's order, as reading the text gives them (`check::order`).
        let coercions = fast.into_coercions();
        Ok(OnePass::Decided(Checked { value, report: Report::new(parsed.repairs.to_vec(), coercions) }))
    }
}

impl Miss {
    /// The miss of a text a strict reading refused, by what the refusal says of its mends.
    fn after(mends: Mends) -> Miss {
        match mends {
            Mends::From(from) => Miss::Mendable { from },
            Mends::Unknown | Mends::NotFirst => Miss::NotJson,
        }
    }
}

/// The errors of a refused reading that explained every refusal, and whether they are in
/// document order already (see `Fast::explained`).
type Explained = (Vec<FieldError>, bool);

/// Why the one-pass attempt gave no typed value.
enum Missed {
    /// The full path decides, for this reason.
    Miss(Miss),
    /// The call is rejected, every refusal explained as the full path explains it.
    Explained(Rejection),
}
