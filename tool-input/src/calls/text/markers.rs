//! The markers that start a call written in text, which format each belongs to, and where
//! the next one is.

use super::TextFormat;

/// A marker that starts a call (or, for harmony and Kimi K3, a message or channel).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Marker {
    /// `<tool_call>` (JSON, qwen3-coder, GLM or Granite's list inside).
    ToolCall,
    /// `<tools>`, as Qwen3-Coder writes when the system prompt shows that tag.
    Tools,
    /// `<function=`, qwen3-coder without the `<tool_call>` around it.
    Function,
    /// `[TOOL_CALLS]`.
    Mistral,
    /// `<|python_tag|>`.
    PythonTag,
    /// `<|python_start|>`.
    PythonStart,
    /// DeepSeek's `tool▁calls▁begin` or `tool▁call▁begin`.
    DeepSeek,
    /// Kimi's `tool_calls_section_begin` or `tool_call_begin`.
    Kimi,
    /// DeepSeek V3.2/V4's `<｜DSML｜function_calls>` or `<｜DSML｜tool_calls>`.
    Dsml,
    /// Kimi K3's tools channel.
    KimiK3Tools,
    /// Kimi K3's response channel markers, which are not content.
    KimiK3Response,
    /// A harmony message: `<|start|>` or `<|channel|>`.
    Harmony,
    /// `<minimax:tool_call>`.
    MiniMaxM2,
    /// `]<]minimax[>[<tool_call>` (or an `<invoke` with the namespace).
    MiniMaxM3,
    /// `<tool_calls>`: a JSON list (Hunyuan A13B, Jamba) or HY V3's `<tool_call>`s.
    ToolCalls,
    /// Granite 3.0's `<|tool_call|>`.
    GraniteTag,
    /// Granite 20B's `<function_call>`.
    FunctionCall,
    /// Phi-4-mini's `functools[`.
    Functools,
    /// `<seed:tool_call>`.
    SeedOss,
    /// Step 3's `<｜tool_calls_begin｜>`.
    Step3,
    /// OLMo 3's `<function_calls>`.
    Olmo3,
    /// LFM2's `<|tool_call_start|>`.
    Lfm2,
    /// Cohere Command A's `<|START_ACTION|>`.
    CohereAction,
    /// Command R's ``Action: ```json``.
    CohereFence,
    /// InternLM's `<|action_start|>`.
    InternLm,
    /// `<start_function_call>`.
    FunctionGemma,
    /// `<|tool_call>`.
    Gemma4,
    /// `<longcat_tool_call>`.
    Longcat,
    /// `<function name=`.
    MiniCpm5,
    /// GigaChat's `function call<|role_sep|>` or `<|function_call|>`.
    GigaChat,
    /// `<|tools_prefix|>`.
    Apertus,
    /// `<|tool_call:start|>`.
    Solar,
    /// Inkling's `<|content_invoke_tool_json|>`.
    Inkling,
    /// Inkling's message and block markers around text, which are not content.
    InklingFrame,
}

/// Every marker, longer ones before their prefixes.
pub(super) const MARKERS: &[(&str, Marker)] = &[
    ("]<]minimax[>[<tool_call>", Marker::MiniMaxM3),
    ("<]minimax[>[<tool_call>", Marker::MiniMaxM3),
    ("]<]minimax[>[<invoke", Marker::MiniMaxM3),
    ("<minimax:tool_call>", Marker::MiniMaxM2),
    ("<tool_calls>", Marker::ToolCalls),
    ("<tool_call>", Marker::ToolCall),
    ("<tools>", Marker::Tools),
    ("<function=", Marker::Function),
    ("<function name=", Marker::MiniCpm5),
    ("<function_calls>", Marker::Olmo3),
    ("<function_call>", Marker::FunctionCall),
    ("<seed:tool_call>", Marker::SeedOss),
    ("<longcat_tool_call>", Marker::Longcat),
    ("<start_function_call>", Marker::FunctionGemma),
    ("[TOOL_CALLS]", Marker::Mistral),
    ("<|python_tag|>", Marker::PythonTag),
    ("<|python_start|>", Marker::PythonStart),
    ("<｜tool▁calls▁begin｜>", Marker::DeepSeek),
    ("<|tool▁calls▁begin|>", Marker::DeepSeek),
    ("<｜tool▁call▁begin｜>", Marker::DeepSeek),
    ("<|tool▁call▁begin|>", Marker::DeepSeek),
    ("<｜DSML｜function_calls>", Marker::Dsml),
    ("<｜DSML｜tool_calls>", Marker::Dsml),
    ("<|DSML|function_calls>", Marker::Dsml),
    ("<|DSML|tool_calls>", Marker::Dsml),
    ("<｜tool_calls_begin｜>", Marker::Step3),
    ("<|tool_calls_section_begin|>", Marker::Kimi),
    ("<|tool_call_section_begin|>", Marker::Kimi),
    ("<|tool_call_begin|>", Marker::Kimi),
    ("<|tool_call_start|>", Marker::Lfm2),
    ("<|tool_call:start|>", Marker::Solar),
    ("<|content_invoke_tool_json|>", Marker::Inkling),
    ("<|message_model|>", Marker::InklingFrame),
    ("<|content_text|>", Marker::InklingFrame),
    ("<|content_invoke_tool_text|>", Marker::InklingFrame),
    ("<|content_tool_error|>", Marker::InklingFrame),
    ("<|end_message|>", Marker::InklingFrame),
    ("<|content_model_end_sampling|>", Marker::InklingFrame),
    ("<|tool_call|>", Marker::GraniteTag),
    ("<|tool_call>", Marker::Gemma4),
    ("<|open|>tools<|sep|>", Marker::KimiK3Tools),
    ("<|open|>response<|sep|>", Marker::KimiK3Response),
    ("<|close|>response<|sep|>", Marker::KimiK3Response),
    ("<|start|>assistant", Marker::Harmony),
    ("<|channel|>", Marker::Harmony),
    ("<|START_ACTION|>", Marker::CohereAction),
    ("<|action_start|>", Marker::InternLm),
    ("<|function_call|>", Marker::GigaChat),
    ("<|tools_prefix|>", Marker::Apertus),
    ("functools[", Marker::Functools),
    ("function call<|role_sep|>", Marker::GigaChat),
    ("Action: ```json", Marker::CohereFence),
    ("Action:\n```json", Marker::CohereFence),
];

/// Every marker that closes a call or a block of calls, in every format: a block ends with
/// one of them (a stream cut off after one was not cut inside a call), and the stream's reader
/// waits on a tail that may be the start of one.
pub(super) const CLOSING_MARKERS: &[&str] = &[
    "</tool_call>",
    "</tools>",
    "</function>",
    "<|python_end|>",
    "<｜tool▁call▁end｜>",
    "<|tool▁call▁end|>",
    "<｜tool▁calls▁end｜>",
    "<|tool▁calls▁end|>",
    "<|tool_call_end|>",
    "<|tool_calls_section_end|>",
    "</invoke>",
    "</minimax:tool_call>",
    "</｜DSML｜invoke>",
    "</|DSML|invoke>",
    "</｜DSML｜function_calls>",
    "</｜DSML｜tool_calls>",
    "</|DSML|function_calls>",
    "</|DSML|tool_calls>",
    "</steptml:invoke>",
    "<｜tool_calls_end｜>",
    "<｜tool_call_end｜>",
    "<|close|>call<|sep|>",
    "<|close|>tools<|sep|>",
    "<|call|>",
    "</tool_calls>",
    "</seed:tool_call>",
    "</function_calls>",
    "<|END_ACTION|>",
    "<|action_end|>",
    "<end_function_call>",
    "<tool_call|>",
    "</longcat_tool_call>",
    "<|tools_suffix|>",
    "<|tool_call:end|>",
    "]<]minimax[>[</tool_call>",
    "<|end_message|>",
    "<|content_model_end_sampling|>",
];

impl Marker {
    /// The formats written with this marker; the first names it in messages.
    pub(super) fn formats(self) -> &'static [TextFormat] {
        use TextFormat as F;
        match self {
            Marker::ToolCall => &[F::Hermes, F::Qwen3Coder, F::Glm, F::Granite],
            Marker::Tools => &[F::Hermes],
            Marker::Function => &[F::Qwen3Coder],
            Marker::Mistral => &[F::Mistral],
            Marker::PythonTag => &[F::Llama],
            Marker::PythonStart => &[F::Pythonic],
            Marker::DeepSeek => &[F::DeepSeek],
            Marker::Kimi => &[F::Kimi],
            Marker::Dsml => &[F::DeepSeekDsml],
            Marker::KimiK3Tools | Marker::KimiK3Response => &[F::KimiK3],
            Marker::Harmony => &[F::Harmony],
            Marker::MiniMaxM2 => &[F::MiniMaxM2],
            Marker::MiniMaxM3 => &[F::MiniMaxM3],
            Marker::ToolCalls => &[F::Hunyuan, F::HyV3],
            Marker::GraniteTag => &[F::Granite],
            Marker::FunctionCall => &[F::Granite20bFc],
            Marker::Functools => &[F::Phi4MiniJson],
            Marker::SeedOss => &[F::SeedOss],
            Marker::Step3 => &[F::Step3],
            Marker::Olmo3 => &[F::Olmo3],
            Marker::Lfm2 => &[F::Lfm2],
            Marker::CohereAction | Marker::CohereFence => &[F::Cohere],
            Marker::InternLm => &[F::InternLm],
            Marker::FunctionGemma => &[F::FunctionGemma],
            Marker::Gemma4 => &[F::Gemma4],
            Marker::Longcat => &[F::Longcat],
            Marker::MiniCpm5 => &[F::MiniCpm5],
            Marker::GigaChat => &[F::GigaChat3],
            Marker::Apertus => &[F::Apertus],
            Marker::Solar => &[F::SolarOpen2],
            Marker::Inkling | Marker::InklingFrame => &[F::Inkling],
        }
    }

    /// May this marker start a call when only `only` is read?
    fn allowed(self, only: Option<TextFormat>) -> bool {
        only.is_none_or(|format| self.formats().contains(&format))
    }

    /// The format that names this marker's family in the error for two formats' markers.
    pub(super) fn family(self) -> TextFormat {
        self.formats()[0]
    }
}

/// Does any marker start with this byte?
fn starts_a_marker(byte: u8) -> bool {
    matches!(byte, b'<' | b'[' | b']' | b'f' | b'A')
}

/// The first marker at or after `from`: its position, its text and kind.
pub(super) fn next_marker(
    text: &str,
    from: usize,
    only: Option<TextFormat>,
) -> Option<(usize, &'static str, Marker)> {
    let bytes = text.as_bytes();
    let mut i = from;
    while i < bytes.len() {
        if starts_a_marker(bytes[i]) {
            let rest = &bytes[i..];
            for &(pattern, marker) in MARKERS {
                if rest.starts_with(pattern.as_bytes()) && marker.allowed(only) {
                    return Some((i, pattern, marker));
                }
            }
        }
        i += 1;
    }
    None
}
