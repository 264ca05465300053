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
//! | ERNIE, MiniMax M2, Qwen3 thinking (the opening tag is in the prompt) | everything before a lone `</think>` |
//!
//! A reasoning block that never closes runs to the end of the text: a response cut off
//! while thinking has no calls.

use std::borrow::Cow;

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
];

/// Closing markers that, met before any opening one, end reasoning whose opening marker
/// was in the prompt.
const LONE_CLOSES: &[&str] = &["</think>", "</seed:think>", "[/THINK]", "◁/think▷"];

/// The text without its reasoning, and the reasoning.
#[derive(Debug)]
pub(crate) struct Split<'a> {
    /// What is left to read calls and content from.
    pub visible: Cow<'a, str>,
    /// The reasoning, blocks joined by newlines; `None` when there was none.
    pub reasoning: Option<String>,
}

/// Take the reasoning out of `text`. One pass.
pub(crate) fn split(text: &str) -> Split<'_> {
    let mut patterns: Vec<&str> = BLOCKS.iter().map(|(open, _)| *open).collect();
    patterns.extend(LONE_CLOSES);
    if find_first(text, 0, &patterns).is_none() {
        return Split { visible: Cow::Borrowed(text), reasoning: None };
    }
    let mut reasoning: Vec<&str> = Vec::new();
    let mut visible = String::new();
    let mut pos = 0;
    while let Some((at, which)) = find_first(text, pos, &patterns) {
        if which >= BLOCKS.len() {
            // A closing marker no block opened, after others: everything before it was
            // reasoning, the blocks before it too.
            reasoning = vec![&text[..at]];
            visible.clear();
            pos = skip_blank(text, at + patterns[which].len());
            continue;
        }
        visible.push_str(&text[pos..at]);
        let (open, closes) = BLOCKS[which];
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
fn skip_blank(text: &str, from: usize) -> usize {
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
