//! The text formats, by the names vLLM's tool parsers go by.

use std::fmt;
use std::str::FromStr;

/// The text formats calls are read from. By default the format is detected from its
/// markers; [`CallOptions::text_format`](crate::calls::CallOptions::text_format) (or
/// `--format text:<name>` on the command line) reads only that one.
///
/// Each format is named by the vLLM tool parser that reads it ([`TextFormat::parser_names`];
/// several parsers read the same format, so several names give one variant).
///
/// | format | vLLM parsers | what it looks like |
/// |---|---|---|
/// | [`Hermes`](TextFormat::Hermes) | `hermes`, `granite4`, `mimo`, `ernie45`, `poolside_v1` | `<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>`; also `<tools>…</tools>` |
/// | [`Json`](TextFormat::Json) | `xlam` | a bare or fenced `{"name": …, "arguments": …}` (or `"parameters"`), a list of them, or several separated by `;` |
/// | [`Mistral`](TextFormat::Mistral) | `mistral` | `[TOOL_CALLS] [{"name": …, "arguments": …}]`, `[TOOL_CALLS]get_weather{…}`, `[TOOL_CALLS]get_weather[ARGS]{…}` (with `[CALL_ID]id` kept as the id) |
/// | [`Llama`](TextFormat::Llama) | `llama3_json`, `llama4_json` | `<\|python_tag\|>{"name": …, "parameters": …}; {…}` |
/// | [`Pythonic`](TextFormat::Pythonic) | `pythonic`, `llama4_pythonic` | `[get_weather(city='Paris', days=3)]`, optionally in `<\|python_start\|>…<\|python_end\|>` |
/// | [`Qwen3Coder`](TextFormat::Qwen3Coder) | `qwen3_coder`, `qwen3_xml`, `step3p5` | `<tool_call><function=get_weather><parameter=city>Paris</parameter></function></tool_call>` |
/// | [`Glm`](TextFormat::Glm) | `glm45`, `glm47` | `<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>` |
/// | [`DeepSeek`](TextFormat::DeepSeek) | `deepseek_v3`, `deepseek_v31` | `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather` + a fenced JSON, or `…begin｜>get_weather<｜tool▁sep｜>{…}`; ASCII `\|` bars too |
/// | [`Kimi`](TextFormat::Kimi) | `kimi_k2` | `<\|tool_calls_section_begin\|><\|tool_call_begin\|>functions.get_weather:0<\|tool_call_argument_begin\|>{…}<\|tool_call_end\|>…`; the id `functions.get_weather:0` is kept |
/// | [`DeepSeekDsml`](TextFormat::DeepSeekDsml) | `deepseek_v32`, `deepseek_v4` | `<｜DSML｜function_calls>` (V4: `tool_calls`) `<｜DSML｜invoke name="get_weather"><｜DSML｜parameter name="city" string="true">Paris</｜DSML｜parameter></｜DSML｜invoke>…` |
/// | [`KimiK3`](TextFormat::KimiK3) | `kimi_k3` | `<\|open\|>tools<\|sep\|><\|open\|>call tool="get_weather" index="1"<\|sep\|><\|open\|>argument key="city" type="string"<\|sep\|>Paris<\|close\|>argument<\|sep\|><\|close\|>call<\|sep\|><\|close\|>tools<\|sep\|>` |
/// | [`Harmony`](TextFormat::Harmony) | `openai` (gpt-oss) | `<\|channel\|>commentary to=functions.get_weather <\|constrain\|>json<\|message\|>{…}<\|call\|>`, or the recipient in the header: `<\|start\|>assistant to=functions.get_weather<\|channel\|>commentary json<\|message\|>{…}<\|call\|>` |
/// | [`MiniMaxM2`](TextFormat::MiniMaxM2) | `minimax_m2` | `<minimax:tool_call><invoke name="get_weather"><parameter name="city">Paris</parameter></invoke></minimax:tool_call>` |
/// | [`MiniMaxM3`](TextFormat::MiniMaxM3) | `minimax_m3` | every tag prefixed with `]<]minimax[>[`: `<tool_call><invoke name="get_weather"><city>Paris</city></invoke></tool_call>`, nested tags for objects, repeated `<item>` for arrays |
/// | [`HyV3`](TextFormat::HyV3) | `hy_v3` | `<tool_calls><tool_call>get_weather<tool_sep><arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call></tool_calls>` |
/// | [`Hunyuan`](TextFormat::Hunyuan) | `hunyuan_a13b`, `jamba` | `<tool_calls>[{"name": …, "arguments": …}]</tool_calls>` |
/// | [`Granite`](TextFormat::Granite) | `granite` | `<\|tool_call\|>[{"name": …, "arguments": …}]` (Granite 3.0), `<tool_call>[…]` (3.1) |
/// | [`Granite20bFc`](TextFormat::Granite20bFc) | `granite-20b-fc` | `<function_call> {"name": …, "arguments": …}`, one per call |
/// | [`Phi4MiniJson`](TextFormat::Phi4MiniJson) | `phi4_mini_json` | `functools[{"name": …, "arguments": …}]` |
/// | [`SeedOss`](TextFormat::SeedOss) | `seed_oss` | `<seed:tool_call><function=get_weather><parameter=city>Paris</parameter></function></seed:tool_call>` |
/// | [`Step3`](TextFormat::Step3) | `step3` | `<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="get_weather"><steptml:parameter name="city">Paris</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>` |
/// | [`Olmo3`](TextFormat::Olmo3) | `olmo3` | `<function_calls>get_weather(city="Paris")` one call a line `</function_calls>` |
/// | [`Lfm2`](TextFormat::Lfm2) | `lfm2` | `<\|tool_call_start\|>[get_weather(city="Paris")]<\|tool_call_end\|>` |
/// | [`Cohere`](TextFormat::Cohere) | `cohere_command3`, `cohere_command4` | `<\|START_ACTION\|>[{"tool_call_id": "0", "tool_name": …, "parameters": …}]<\|END_ACTION\|>`; Command R: ``Action: ```json [{"tool_name": …, "parameters": …}] ``` `` |
/// | [`InternLm`](TextFormat::InternLm) | `internlm` | `<\|action_start\|><\|plugin\|>{"name": …, "parameters": …}<\|action_end\|>` |
/// | [`FunctionGemma`](TextFormat::FunctionGemma) | `functiongemma` | `<start_function_call>call:get_weather{city:<escape>Paris<escape>}<end_function_call>` |
/// | [`Gemma4`](TextFormat::Gemma4) | `gemma4` | `<\|tool_call>call:get_weather{city:<\|"\|>Paris<\|"\|>}<tool_call\|>` |
/// | [`Longcat`](TextFormat::Longcat) | `longcat` | `<longcat_tool_call>{"name": …, "arguments": …}</longcat_tool_call>` |
/// | [`MiniCpm5`](TextFormat::MiniCpm5) | `minicpm5` | `<function name="get_weather"><param name="city">Paris</param></function>` |
/// | [`GigaChat3`](TextFormat::GigaChat3) | `gigachat3` | `function call<\|role_sep\|>\n{"name": …, "arguments": …}` or `<\|function_call\|>{…}` |
/// | [`Apertus`](TextFormat::Apertus) | `apertus` | `<\|tools_prefix\|>[{"get_weather": {"city": "Paris"}}]<\|tools_suffix\|>` |
/// | [`Inkling`](TextFormat::Inkling) | `inkling` | `<\|message_model\|><\|content_invoke_tool_json\|>{"name": "get_weather", "args": {"city": "Paris"}}<\|end_message\|>`; thinking in `<\|content_thinking\|>…<\|end_message\|>` blocks |
/// | [`SolarOpen2`](TextFormat::SolarOpen2) | `solar_open2` | `<\|tool_call:start\|>get_weather` newline `<\|tool_arg:start\|>city<\|tool_arg:value\|>Paris<\|tool_arg:end\|><\|tool_call:end\|>` |
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TextFormat {
    /// `<tool_call>` JSON (Hermes, Qwen).
    Hermes,
    /// A bare or fenced JSON call object or list.
    Json,
    /// Mistral's `[TOOL_CALLS]`.
    Mistral,
    /// Llama 3's `<|python_tag|>` JSON.
    Llama,
    /// A Python list of calls.
    Pythonic,
    /// qwen3-coder's XML.
    Qwen3Coder,
    /// GLM's `<arg_key>`/`<arg_value>`.
    Glm,
    /// DeepSeek's special tokens (V3, V3.1, R1).
    DeepSeek,
    /// Kimi K2's special tokens.
    Kimi,
    /// DeepSeek V3.2 and V4's DSML tags.
    DeepSeekDsml,
    /// Kimi K3's XTML channels, with typed arguments.
    KimiK3,
    /// gpt-oss's harmony messages.
    Harmony,
    /// MiniMax M2's `<minimax:tool_call>` and `<invoke>`.
    MiniMaxM2,
    /// MiniMax M3's namespaced tags.
    MiniMaxM3,
    /// Hunyuan (HY) V3's `<tool_calls>` with `<tool_sep>` and key/value tags.
    HyV3,
    /// Hunyuan A13B's and Jamba's `<tool_calls>` JSON list.
    Hunyuan,
    /// Granite 3's `<|tool_call|>` JSON list.
    Granite,
    /// Granite 20B function calling's `<function_call>`.
    Granite20bFc,
    /// Phi-4-mini's `functools[…]`.
    Phi4MiniJson,
    /// Seed-OSS's `<seed:tool_call>`.
    SeedOss,
    /// Step 3's `steptml` invokes in special tokens.
    Step3,
    /// OLMo 3's `<function_calls>` Python calls.
    Olmo3,
    /// LFM2's `<|tool_call_start|>` Python list.
    Lfm2,
    /// Cohere Command's actions.
    Cohere,
    /// InternLM 2's `<|action_start|><|plugin|>`.
    InternLm,
    /// FunctionGemma's `<start_function_call>`.
    FunctionGemma,
    /// Gemma 4's `<|tool_call>`.
    Gemma4,
    /// LongCat's `<longcat_tool_call>`.
    Longcat,
    /// MiniCPM 5's `<function name=…>` XML.
    MiniCpm5,
    /// GigaChat 3's function call.
    GigaChat3,
    /// Apertus's `<|tools_prefix|>`.
    Apertus,
    /// Solar Open 2's `<|tool_call:start|>`.
    SolarOpen2,
    /// Inkling's typed blocks: `<|content_invoke_tool_json|>{"name": …, "args": …}<|end_message|>`.
    Inkling,
}

/// Each format and the vLLM parser names that read it; the first name is the format's own.
const NAMES: &[(TextFormat, &[&str])] = &[
    (TextFormat::Hermes, &["hermes", "granite4", "mimo", "ernie45", "poolside_v1", "qwen"]),
    (TextFormat::Json, &["json", "xlam"]),
    (TextFormat::Mistral, &["mistral"]),
    (TextFormat::Llama, &["llama", "llama3_json", "llama4_json"]),
    (TextFormat::Pythonic, &["pythonic", "llama4_pythonic"]),
    (TextFormat::Qwen3Coder, &["qwen3_coder", "qwen3_xml", "step3p5", "qwen3-coder"]),
    (TextFormat::Glm, &["glm", "glm45", "glm47"]),
    (TextFormat::DeepSeek, &["deepseek", "deepseek_v3", "deepseek_v31"]),
    (TextFormat::Kimi, &["kimi", "kimi_k2"]),
    (TextFormat::DeepSeekDsml, &["deepseek_v32", "deepseek_v4"]),
    (TextFormat::KimiK3, &["kimi_k3"]),
    (TextFormat::Harmony, &["openai", "harmony", "gpt-oss"]),
    (TextFormat::MiniMaxM2, &["minimax_m2", "minimax"]),
    (TextFormat::MiniMaxM3, &["minimax_m3"]),
    (TextFormat::HyV3, &["hy_v3"]),
    (TextFormat::Hunyuan, &["hunyuan_a13b", "jamba"]),
    (TextFormat::Granite, &["granite"]),
    (TextFormat::Granite20bFc, &["granite-20b-fc"]),
    (TextFormat::Phi4MiniJson, &["phi4_mini_json"]),
    (TextFormat::SeedOss, &["seed_oss"]),
    (TextFormat::Step3, &["step3"]),
    (TextFormat::Olmo3, &["olmo3"]),
    (TextFormat::Lfm2, &["lfm2"]),
    (TextFormat::Cohere, &["cohere_command4", "cohere_command3"]),
    (TextFormat::InternLm, &["internlm"]),
    (TextFormat::FunctionGemma, &["functiongemma"]),
    (TextFormat::Gemma4, &["gemma4"]),
    (TextFormat::Longcat, &["longcat"]),
    (TextFormat::MiniCpm5, &["minicpm5"]),
    (TextFormat::GigaChat3, &["gigachat3"]),
    (TextFormat::Apertus, &["apertus"]),
    (TextFormat::SolarOpen2, &["solar_open2"]),
    (TextFormat::Inkling, &["inkling"]),
];

impl TextFormat {
    /// Every format, in the order of the table above.
    ///
    /// ```
    /// use tool_input::calls::TextFormat;
    /// // Each has a name of its own, read back by `FromStr`.
    /// for &format in TextFormat::ALL {
    ///     assert_eq!(format.as_str().parse::<TextFormat>(), Ok(format));
    /// }
    /// ```
    pub const ALL: &'static [TextFormat] = &[
        TextFormat::Hermes,
        TextFormat::Json,
        TextFormat::Mistral,
        TextFormat::Llama,
        TextFormat::Pythonic,
        TextFormat::Qwen3Coder,
        TextFormat::Glm,
        TextFormat::DeepSeek,
        TextFormat::Kimi,
        TextFormat::DeepSeekDsml,
        TextFormat::KimiK3,
        TextFormat::Harmony,
        TextFormat::MiniMaxM2,
        TextFormat::MiniMaxM3,
        TextFormat::HyV3,
        TextFormat::Hunyuan,
        TextFormat::Granite,
        TextFormat::Granite20bFc,
        TextFormat::Phi4MiniJson,
        TextFormat::SeedOss,
        TextFormat::Step3,
        TextFormat::Olmo3,
        TextFormat::Lfm2,
        TextFormat::Cohere,
        TextFormat::InternLm,
        TextFormat::FunctionGemma,
        TextFormat::Gemma4,
        TextFormat::Longcat,
        TextFormat::MiniCpm5,
        TextFormat::GigaChat3,
        TextFormat::Apertus,
        TextFormat::SolarOpen2,
        TextFormat::Inkling,
    ];

    /// The format's name: for the first nine formats their short names (`hermes`, `json`,
    /// `mistral`, `llama`, `pythonic`, `qwen3_coder`, `glm`, `deepseek`, `kimi`), for the
    /// others the name of the vLLM parser that reads them (`openai`, `minimax_m2`, …).
    ///
    /// ```
    /// use tool_input::calls::TextFormat;
    /// assert_eq!(TextFormat::Harmony.as_str(), "openai");
    /// assert_eq!("deepseek_v4".parse::<TextFormat>(), Ok(TextFormat::DeepSeekDsml));
    /// ```
    pub fn as_str(self) -> &'static str {
        self.names()[0]
    }

    /// The names of vLLM's tool parsers (vllm/tool_parsers/__init__.py) that read this
    /// format; each parses (with [`FromStr`]) to this format.
    ///
    /// ```
    /// use tool_input::calls::TextFormat;
    /// assert_eq!(TextFormat::Glm.parser_names(), ["glm45", "glm47"]);
    /// ```
    pub fn parser_names(self) -> Vec<&'static str> {
        self.names().iter().copied().filter(|name| VLLM_PARSERS.contains(name)).collect()
    }

    fn names(self) -> &'static [&'static str] {
        NAMES.iter().find(|(format, _)| *format == self).map(|(_, names)| *names).unwrap_or(&["text"])
    }
}

/// vLLM's tool-parser registry (late 2026), every name of which parses to a [`TextFormat`].
pub(crate) const VLLM_PARSERS: &[&str] = &[
    "deepseek_v3",
    "deepseek_v31",
    "deepseek_v32",
    "deepseek_v4",
    "cohere_command3",
    "cohere_command4",
    "ernie45",
    "glm45",
    "glm47",
    "granite-20b-fc",
    "granite",
    "granite4",
    "hermes",
    "poolside_v1",
    "hunyuan_a13b",
    "hy_v3",
    "internlm",
    "jamba",
    "lfm2",
    "kimi_k2",
    "kimi_k3",
    "llama3_json",
    "llama4_json",
    "llama4_pythonic",
    "longcat",
    "mimo",
    "minimax_m2",
    "minimax_m3",
    "minicpm5",
    "mistral",
    "olmo3",
    "openai",
    "phi4_mini_json",
    "pythonic",
    "qwen3_coder",
    "qwen3_xml",
    "seed_oss",
    "step3",
    "step3p5",
    "xlam",
    "gigachat3",
    "functiongemma",
    "gemma4",
    "apertus",
    "solar_open2",
];

impl fmt::Display for TextFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for TextFormat {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        NAMES.iter().find(|(_, names)| names.contains(&s)).map(|(format, _)| *format).ok_or_else(|| {
            format!("unknown text format `{s}` (use a vLLM tool parser's name, such as `hermes` or `openai`)")
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_vllm_parser_name_reads_a_format() {
        for name in VLLM_PARSERS {
            let format: TextFormat = name.parse().unwrap();
            assert!(format.parser_names().contains(name), "{name}");
        }
        for format in TextFormat::ALL {
            assert_eq!(format.as_str().parse::<TextFormat>(), Ok(*format));
        }
        assert_eq!(TextFormat::ALL.len(), NAMES.len());
    }
}
