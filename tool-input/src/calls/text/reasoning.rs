//! Reasoning, taken out of the text before any call is read from it: a model drafts calls
//! while it thinks, and a draft is no call.
//!
//! | model | reasoning |
//! |---|---|
//! | Qwen3, DeepSeek-R1, GLM, Kimi, Hunyuan, … | `<think>…</think>` |
//! | Seed-OSS | `<seed:think>…</seed:think>` |
//! | Magistral | `[THINK]…[/THINK]` |
//! | Kimi-VL | `◁think▷…◁/think▷` |
//! | gpt-oss (harmony) | the `analysis` channel: `<\|channel\|>analysis<\|message\|>…<\|end\|>` |
//! | Gemma 4 | the thought channel: `<\|channel>thought…<channel\|>` |
//! | Apertus | the inner monologue: `<\|inner_prefix\|>…<\|inner_suffix\|>` |
//! | Cohere Command A | `<\|START_THINKING\|>…<\|END_THINKING\|>` |
//! | Inkling | a thinking block: `<\|content_thinking\|>…<\|end_message\|>` |
//! | ERNIE, MiniMax M2, Qwen3 thinking (the opening tag is in the prompt) | everything before a lone `</think>` |
//!
//! A reasoning block that never closes runs to the end of the text: a response cut off
//! while thinking has no calls.

use std::borrow::Cow;

use super::arguments::InArguments;
use super::find_first;

/// The blocks of reasoning: how each opens and closes.
const BLOCKS: &[(&str, &[&str])] = &[
    ("<think>", &["</think>"]),
    ("<seed:think>", &["</seed:think>"]),
    ("[THINK]", &["[/THINK]"]),
    ("◁think▷", &["◁/think▷"]),
    ("<|start|>assistant<|channel|>analysis", &["<|end|>", "<|start|>"]),
    ("<|channel|>analysis", &["<|end|>", "<|start|>"]),
    ("<|channel>thought", &["<channel|>"]),
    ("<|inner_prefix|>", &["<|inner_suffix|>"]),
    ("<|START_THINKING|>", &["<|END_THINKING|>"]),
    ("<|content_thinking|>", &["<|end_message|>", "<|content_model_end_sampling|>"]),
];

/// Closing markers that, met before any opening one, end reasoning whose opening marker
/// was in the prompt.
pub(super) const LONE_CLOSES: &[&str] = &["</think>", "</seed:think>", "[/THINK]", "◁/think▷"];

/// The reasoning blocks' opening markers, for the incremental reader.
pub(super) fn block_opens() -> impl Iterator<Item = &'static str> {
    BLOCKS.iter().map(|(open, _)| *open)
}

/// Every reasoning block's closing markers.
pub(super) fn block_closes() -> impl Iterator<Item = &'static str> {
    BLOCKS.iter().flat_map(|(_, closes)| closes.iter().copied())
}

/// The closing markers of the block opened by `BLOCKS[which]`.
pub(super) fn block(which: usize) -> (&'static str, &'static [&'static str]) {
    BLOCKS[which]
}

/// Does a lone closing marker end reasoning whose opening marker was in the prompt, for
/// text read as `format` (`None`: detected)? The models of most formats may be served with
/// the opening tag in their prompt (ERNIE, MiniMax M2, Qwen3 and DeepSeek thinking, …); the
/// formats whose models think in a channel of their own (harmony, Gemma 4, Apertus,
/// Command A) or do not think in text (Llama, Granite, Phi-4-mini, LFM2, InternLM,
/// GigaChat, FunctionGemma) never write a lone `</think>`: there it is text, and a call
/// is final at its closing marker as the text streams.
pub(crate) fn lone_closes_end_reasoning(format: Option<super::TextFormat>) -> bool {
    use super::TextFormat as F;
    !matches!(
        format,
        Some(
            F::Llama
                | F::Pythonic
                | F::Granite
                | F::Granite20bFc
                | F::Phi4MiniJson
                | F::Harmony
                | F::Gemma4
                | F::FunctionGemma
                | F::Apertus
                | F::Cohere
                | F::InternLm
                | F::Lfm2
                | F::GigaChat3
                | F::Inkling
        )
    )
}

/// The text without its reasoning, and the reasoning.
#[derive(Debug)]
pub(crate) struct Split<'a> {
    /// What is left to read calls and content from.
    pub visible: Cow<'a, str>,
    /// The reasoning, blocks joined by newlines; `None` when there was none.
    pub reasoning: Option<String>,
}

/// Take the reasoning out of `text`, a lone closing marker ending reasoning from the prompt.
pub(crate) fn split(text: &str) -> Split<'_> {
    split_with(text, true)
}

/// Take the reasoning out of `text`. One pass. With `lone_closes`, the first closing marker
/// no block opened ends reasoning whose opening marker was in the prompt: everything before
/// it is reasoning (a later one is text, as vLLM's reasoning parsers read it).
pub(crate) fn split_with(text: &str, lone_closes: bool) -> Split<'_> {
    let mut patterns: Vec<&str> = BLOCKS.iter().map(|(open, _)| *open).collect();
    if lone_closes {
        patterns.extend(LONE_CLOSES);
    }
    if find_first(text, 0, &patterns).is_none() {
        return Split { visible: Cow::Borrowed(text), reasoning: None };
    }
    let mut reasoning: Vec<&str> = Vec::new();
    let mut visible = String::new();
    let mut pos = 0;
    // A reasoning marker inside a call's arguments is their text (read from the first call
    // marker outside reasoning, anew after each block, as the streamed splitter reads it).
    let mut arguments = InArguments::after_markers(0);
    while let Some((at, which)) = arguments.next_outside(text, pos, &patterns) {
        if which >= BLOCKS.len() {
            // A closing marker no block opened, after others: everything before it was
            // reasoning, the blocks before it too.
            reasoning = vec![&text[..at]];
            visible.clear();
            pos = skip_blank(text, at + patterns[which].len());
            arguments = InArguments::after_markers(pos);
            patterns.truncate(BLOCKS.len());
            continue;
        }
        visible.push_str(&text[pos..at]);
        let (open, closes) = BLOCKS[which];
        if open.ends_with("analysis") {
            // A call gpt-oss addressed to a function on its analysis channel, ended by
            // `<|call|>`, is a call (vLLM's parser reads it so): the model waits for its
            // result. It stays in the text, for the harmony reader, and so does one the
            // response cut off before its end.
            if let Some(end) = harmony_call_end(text, &visible, at) {
                visible.push_str(&text[at..end]);
                pos = end;
                arguments = InArguments::after_markers(pos);
                continue;
            }
        }
        if open == "<|channel|>analysis" {
            // A header that named a recipient before its channel is the analysis message's.
            if let Some(header) = harmony_header(&visible) {
                visible.truncate(header);
            }
        }
        let mut body = at + open.len();
        if open.ends_with("analysis") {
            // A harmony header runs to its message.
            match text[body..].find("<|message|>") {
                Some(message) => body += message + "<|message|>".len(),
                None => body = text.len(),
            }
        }
        match block_end(text, body, open, closes) {
            Some((close, closer)) => {
                reasoning.push(&text[body..close]);
                // A harmony message after the analysis starts with its own `<|start|>`.
                let end = if closes[closer] == "<|start|>" { close } else { close + closes[closer].len() };
                pos = skip_blank(text, end);
                arguments = InArguments::after_markers(pos);
            }
            None => {
                reasoning.push(&text[body..]);
                pos = text.len();
            }
        }
    }
    if reasoning.is_empty() {
        return Split { visible: Cow::Borrowed(text), reasoning: None };
    }
    visible.push_str(&text[pos..]);
    let reasoning: Vec<&str> = reasoning.into_iter().map(str::trim).filter(|part| !part.is_empty()).collect();
    Split { visible: Cow::Owned(visible), reasoning: (!reasoning.is_empty()).then(|| reasoning.join("\n")) }
}

/// Where the harmony analysis message whose channel starts at `at` ends, when it is a call:
/// its header (`visible`'s last one, when the recipient came before the channel, or its own)
/// sends it `to=functions.NAME`, and `<|call|>` ends it (outside its arguments' strings), or
/// the text ends before any end marker (inside its header too): the model was writing the
/// call when the response was cut, so it is a call cut off (the harmony reader says so),
/// never reasoning no one answers.
fn harmony_call_end(text: &str, visible: &str, at: usize) -> Option<usize> {
    let message = text[at..].find("<|message|>").map(|message| at + message);
    let before = harmony_header(visible).map_or("", |header| &visible[header..]);
    let Some(message) = message else {
        // Cut off inside its header, while it named a function (or the header before it did).
        let header = &text[at..];
        let cut = super::harmony::cut_calling_a_function(header) || super::harmony::calls_a_function(before);
        return cut.then_some(text.len());
    };
    let header = &text[at..message];
    if !super::harmony::calls_a_function(before) && !super::harmony::calls_a_function(header) {
        return None;
    }
    let body = message + "<|message|>".len();
    match super::arguments::find_outside_values(text, body, &super::harmony::ENDS) {
        Some((end, 0)) => Some(end + "<|call|>".len()),
        Some(_) => None,
        None => Some(text.len()),
    }
}

/// Where a harmony header that `visible` ends in starts (`<|start|>assistant
/// to=functions.NAME` before `<|channel|>analysis`): the analysis message is reasoning,
/// with the recipient its header names. Only the last few hundred bytes are looked at.
pub(super) fn harmony_header(visible: &str) -> Option<usize> {
    let mut from = visible.len().saturating_sub(512);
    while !visible.is_char_boundary(from) {
        from += 1;
    }
    let at = from + visible[from..].rfind("<|start|>")?;
    let header = &visible[at..];
    let ended = ["<|message|>", "<|end|>", "<|call|>", "<|return|>"].iter().any(|end| header.contains(end));
    (!ended).then_some(at)
}

/// Where the block whose body starts at `body` closes: the first closing marker not
/// matched by an opening one of the same kind inside it (reasoning may mention its own
/// tags). `None` when it never closes.
fn block_end(text: &str, body: usize, open: &str, closes: &[&str]) -> Option<(usize, usize)> {
    let mut patterns = closes.to_vec();
    patterns.push(open);
    let mut depth = 0usize;
    let mut pos = body;
    loop {
        let (at, which) = find_first(text, pos, &patterns)?;
        if which == closes.len() {
            depth += 1;
            pos = at + open.len();
        } else if depth == 0 {
            return Some((at, which));
        } else {
            depth -= 1;
            pos = at + closes[which].len();
        }
    }
}

/// Past the whitespace after a reasoning block (it separated the block from the answer).
pub(super) fn skip_blank(text: &str, from: usize) -> usize {
    from + (text[from..].len() - text[from..].trim_start().len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn think_blocks_are_taken_out() {
        let split = split("<think>maybe <tool_call>x</tool_call></think>\n\nHello");
        assert_eq!(split.visible, "Hello");
        assert_eq!(split.reasoning.as_deref(), Some("maybe <tool_call>x</tool_call>"));
    }

    #[test]
    fn a_lone_close_ends_reasoning_from_the_prompt() {
        let split = split("I should call f.</think>Done.");
        assert_eq!(split.visible, "Done.");
        assert_eq!(split.reasoning.as_deref(), Some("I should call f."));
    }

    #[test]
    fn only_the_first_lone_close_ends_reasoning() {
        let split = split("plan</think>Answer: write </think> in HTML.");
        assert_eq!(split.visible, "Answer: write </think> in HTML.");
        assert_eq!(split.reasoning.as_deref(), Some("plan"));
        assert_eq!(split_with("a</think>b", false).visible, "a</think>b");
    }

    #[test]
    fn an_unclosed_block_runs_to_the_end() {
        let split = split("Sure. [THINK]call f(");
        assert_eq!(split.visible, "Sure. ");
        assert_eq!(split.reasoning.as_deref(), Some("call f("));
    }

    #[test]
    fn harmony_analysis_is_reasoning() {
        let text = "<|channel|>analysis<|message|>Need weather.<|end|><|start|>assistant<|channel|>final<|message|>Hi";
        let split = split(text);
        assert_eq!(split.visible, "<|start|>assistant<|channel|>final<|message|>Hi");
        assert_eq!(split.reasoning.as_deref(), Some("Need weather."));
    }

    #[test]
    fn a_harmony_analysis_message_with_a_recipient_is_reasoning() {
        let text = "<|start|>assistant to=functions.get_weather<|channel|>analysis<|message|>Paris, then.<|end|><|start|>assistant<|channel|>final<|message|>Hi";
        let split = split(text);
        assert_eq!(split.visible, "<|start|>assistant<|channel|>final<|message|>Hi");
        assert_eq!(split.reasoning.as_deref(), Some("Paris, then."));
    }

    #[test]
    fn reasoning_may_mention_its_own_tags() {
        let split = split("<think>I could write <think>x</think> here</think>Answer");
        assert_eq!(split.visible, "Answer");
        assert_eq!(split.reasoning.as_deref(), Some("I could write <think>x</think> here"));
    }

    #[test]
    fn text_without_reasoning_is_borrowed() {
        assert!(matches!(split("plain <tool_call>").visible, Cow::Borrowed(_)));
    }
}
