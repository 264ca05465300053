//! gpt-oss's harmony messages (vLLM's `openai` parser). A message is a header, then
//! `<|message|>`, its text, and an end marker (`<|call|>` for a call, `<|end|>`, or
//! `<|return|>` at the end of the response). A call names its recipient with
//! `to=functions.NAME`, in the channel (`<|channel|>commentary to=functions.NAME
//! <|constrain|>json<|message|>{…}<|call|>`) or in the header (`<|start|>assistant
//! to=functions.NAME<|channel|>commentary json<|message|>{…}<|call|>`). A message without a
//! recipient (the `final` channel) is content. The `analysis` channel is reasoning, taken
//! out before (see [`reasoning`](super::reasoning)), but for a message on it sent
//! `to=functions.NAME` and ended by `<|call|>`: gpt-oss calls functions there too, and waits
//! for the result, so vLLM's parser reads it as a call, and so does this one. Such a message
//! the response cut off before any end marker is a call cut off, as on `commentary`: never
//! run, and never reasoning left unanswered.
//!
//! A server that generates with harmony's stop tokens (vLLM, raw completions keeping the
//! special tokens) stops on `<|call|>` and strips it from the text. So when the response
//! says the turn ended on a stop token (`finish_reason: "stop"`, Ollama's `done_reason:
//! "stop"`, a `completed` Responses status, Anthropic's `end_turn`, Gemini's `STOP`; see
//! [`Collector::ended_turn`]), a message to a function that the text ends inside of, after
//! its `<|message|>`, is read as ended by `<|call|>`, on either channel: its arguments are
//! checked as any call's are (JSON cut short is still an error). Without such a reason (raw
//! text, a length stop, no reason, a stream whose text went on after it) it is a call cut
//! off.

use super::{find_first, find_outside_values, push_truncated, text_parts, Read};
use crate::calls::{Collector, OriginalArguments};

pub(super) const ENDS: [&str; 5] = ["<|call|>", "<|end|>", "<|return|>", "<|start|>", "<|channel|>"];

/// Read the message whose header starts at `start`.
pub(super) fn read(text: &str, start: usize, out: &mut Collector<'_>) -> Read {
    // The header runs to `<|message|>`; a `<|channel|>` in it belongs to it.
    let Some(header_end) = text[start..].find("<|message|>").map(|at| at + start) else {
        // Cut off inside a header: a call if it named its recipient, or was naming a function
        // when it was cut (`to=`, `to=functions.`: no name yet).
        let header = &text[start..];
        match recipient(header) {
            Some(name) => push_truncated(out, header, Some(name)),
            None if cut_calling_a_function(header) => push_truncated(out, header, None),
            None => {}
        }
        return Read::To(text.len());
    };
    let header = &text[start..header_end];
    let body_start = header_end + "<|message|>".len();
    // A call's JSON arguments may hold any marker in their strings; a message's text is prose.
    let find = if recipient(header).is_some() { find_outside_values } else { find_first };
    let (body_end, end, closed) = match find(text, body_start, &ENDS) {
        Some((at, which)) if which < 3 => (at, at + ENDS[which].len(), true),
        Some((at, _)) => (at, at, true),
        None => (text.len(), text.len(), false),
    };
    // A server that generates with harmony's stop tokens stops on `<|call|>` and strips it:
    // when the response says the turn ended on a stop token, a message to a function that
    // the text ends inside of was ended by `<|call|>`.
    let stripped_call = !closed && out.turn_ended() && calls_a_function(header);
    // An analysis message to a function is a call when `<|call|>` ends it, and one cut off
    // when the text ends first: the model was writing it.
    let ends_a_call = !closed || text[body_end..].starts_with(ENDS[0]);
    if channel(header) == Some("analysis") && !(calls_a_function(header) && ends_a_call) {
        // Reasoning (taken out before, header and all, when the header came first): never
        // a call, never content.
        return Read::To(end);
    }
    let Some(name) = recipient(header) else {
        return Read::Content { body: body_start..body_end, end };
    };
    let span = &text[start..end];
    let arguments = text[body_start..body_end].trim();
    if !closed && !stripped_call {
        push_truncated(out, span, Some(name));
        return Read::To(end);
    }
    let arguments = if arguments.is_empty() {
        OriginalArguments::Absent
    } else {
        OriginalArguments::Text(arguments.to_owned())
    };
    out.push(text_parts(Some(name), arguments, span));
    Read::To(end)
}

/// The tool a header sends to: `to=functions.NAME` gives `NAME`; a built-in tool's
/// recipient (`to=browser.search`) is kept whole.
pub(super) fn recipient(header: &str) -> Option<String> {
    let at = header.find("to=")? + "to=".len();
    let rest = &header[at..];
    let end = rest.find(|c: char| c.is_whitespace() || c == '<').unwrap_or(rest.len());
    let recipient = &rest[..end];
    let name = recipient.strip_prefix("functions.").unwrap_or(recipient);
    (!name.is_empty()).then(|| name.to_owned())
}

/// Does a header send its message to a function (`to=functions.NAME`), not to a built-in
/// tool or no one?
pub(super) fn calls_a_function(header: &str) -> bool {
    header.split("to=").skip(1).any(|recipient| recipient.starts_with("functions."))
}

/// Does a header that the text's end cut off address a function as far as it arrived:
/// `to=functions.NAME`, or a recipient cut inside `functions.` (`to=`, `to=func`)?
pub(super) fn cut_calling_a_function(header: &str) -> bool {
    calls_a_function(header)
        || header.split("to=").skip(1).any(|recipient| "functions.".starts_with(recipient))
}

/// The channel a header names.
fn channel(header: &str) -> Option<&str> {
    let at = header.find("<|channel|>")? + "<|channel|>".len();
    let rest = &header[at..];
    let end = rest.find(|c: char| c.is_whitespace() || c == '<').unwrap_or(rest.len());
    Some(&rest[..end])
}
