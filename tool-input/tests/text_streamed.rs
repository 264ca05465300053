//! Open text calls as the text arrives: a stream shows only calls its end gives, and each
//! open call's name and arguments are views of what the end reads, in every format, cut at
//! every byte, fed hostile pieces, and never from reasoning.

mod text_support;

use serde_json::{json, Value};
use text_support::{
    call_summary, check_open_calls, check_open_calls_at, data, errors, open_after_each, options, outcome,
};
use tool_input::calls::{parse_text, CallOptions, Format, TextFormat};
use tool_input::stream::StreamAssembler;

#[test]
fn fixtures_streamed_show_only_calls_the_end_gives_as_the_text_arrives() {
    let (tools, fixtures) = data();
    let mut shown_early = 0;
    for fixture in &fixtures {
        let named: TextFormat = fixture.format.parse().unwrap();
        let options = options(&tools, Some(named));
        let whole = parse_text(&fixture.text, &options);
        let expected = call_summary(&whole.calls);
        let text = &fixture.text;
        let cuts: Vec<usize> = (0..=text.len()).filter(|at| text.is_char_boundary(*at)).collect();
        let is_prefix = |shown: &[tool_input::calls::ToolCall], how: &str| {
            let shown = call_summary(shown);
            assert!(
                shown.len() <= expected.len() && shown[..] == expected[..shown.len()],
                "{} ({how}): shown {shown:?}, the end gives {expected:?}",
                fixture.format
            );
        };
        for &at in &cuts {
            let mut stream = StreamAssembler::new(options.clone());
            stream.push_text(&text[..at]);
            is_prefix(stream.calls(), &format!("cut at {at}"));
            stream.push_text(&text[at..]);
            is_prefix(stream.calls(), &format!("whole, cut at {at}"));
            assert_eq!(outcome(&stream.finish()), outcome(&whole), "{} cut at {at}", fixture.format);
        }
        let mut stream = StreamAssembler::new(options.clone());
        for pair in cuts.windows(2) {
            stream.push_text(&text[pair[0]..pair[1]]);
            is_prefix(stream.calls(), "char by char");
            for open in stream.open_calls() {
                assert!(open.arguments_text.is_some_and(|block| text.contains(block)), "{}", fixture.format);
            }
        }
        if !stream.calls().is_empty() {
            shown_early += 1;
        }
        assert_eq!(outcome(&stream.finish()), outcome(&whole), "{} char by char", fixture.format);
    }
    // The formats whose models may write a lone `</think>` show calls early only after one.
    assert!(shown_early >= 20, "only {shown_early} fixtures showed a call before the end");
}

/// The formats whose open calls show their name and arguments as they arrive.
const SHOWN_AS_THEY_GROW: &[&str] = &[
    "hermes",
    "mistral",
    "llama3_json",
    "llama4_json",
    "qwen3_coder",
    "qwen3_xml",
    "step3p5",
    "glm45",
    "glm47",
    "deepseek_v32",
    "deepseek_v4",
    "minimax_m2",
    "hy_v3",
    "hunyuan_a13b",
    "jamba",
    "granite",
    "granite-20b-fc",
    "phi4_mini_json",
    "seed_oss",
    "step3",
    "cohere_command3",
    "cohere_command4",
    "internlm",
    "longcat",
    "minicpm5",
    "gigachat3",
    "apertus",
    "solar_open2",
    "inkling",
    "llama4_pythonic",
    "olmo3",
    "lfm2",
    "functiongemma",
    "gemma4",
    "kimi_k3",
    "openai",
    "minimax_m3",
];

/// The formats read by a draft reader of their own syntax (not JSON, nor parameter tags),
/// checked again cut at every byte.
const OWN_SYNTAX: &[&str] =
    &["llama4_pythonic", "olmo3", "lfm2", "functiongemma", "gemma4", "kimi_k3", "openai", "minimax_m3"];

#[test]
fn open_text_calls_show_their_name_and_arguments_as_they_grow() {
    let (tools, fixtures) = data();
    let mut shown_formats = std::collections::HashSet::new();
    for fixture in &fixtures {
        let named: TextFormat = fixture.format.parse().unwrap();
        // A lone `</think>` first: where one may end reasoning, nothing before it is shown.
        let text = format!("Plan.</think>{}", fixture.text);
        for (options, how) in [(options(&tools, Some(named)), "named"), (options(&tools, None), "detected")] {
            for step in [1, 7] {
                let context = format!("{} ({how}, {step} chars a piece): {text:?}", fixture.format);
                if check_open_calls(&text, &options, step, &context) {
                    shown_formats.insert(fixture.format.as_str());
                }
            }
        }
        // Without schemas every parameter is text, and grows.
        let bare = CallOptions::new().format(Format::Text).text_format(named);
        check_open_calls(&text, &bare, 1, &format!("{} (no schema)", fixture.format));
    }
    for format in SHOWN_AS_THEY_GROW {
        assert!(shown_formats.contains(format), "{format}: no open call showed its arguments");
    }
}

#[test]
fn own_syntax_formats_streamed_cut_at_every_byte_show_views_of_the_end() {
    let (tools, fixtures) = data();
    for fixture in fixtures.iter().filter(|fixture| OWN_SYNTAX.contains(&fixture.format.as_str())) {
        let named: TextFormat = fixture.format.parse().unwrap();
        let text = format!("Plan.</think>{}", fixture.text);
        let cuts: Vec<usize> = (0..=text.len()).filter(|at| text.is_char_boundary(*at)).collect();
        let bare = CallOptions::new().format(Format::Text).text_format(named);
        for options in [options(&tools, Some(named)), bare] {
            for &at in &cuts {
                let context = format!("{} cut at {at}: {text:?}", fixture.format);
                check_open_calls_at(&text, &options, vec![0, at], &context);
                // Cut off there: a call not closed is `truncated`, never run.
                let mut stream = StreamAssembler::new(options.clone());
                stream.push_text(&text[..at]);
                // Inside a call: its arguments shown are not yet the end's.
                let whole = parse_text(&text, &options);
                let inside = stream.open_calls().last().is_some_and(|open| {
                    let fin =
                        whole.calls.get(open.position).map(|call| Value::Object(call.arguments.clone()));
                    open.name.is_some() && open.arguments_partial.cloned() != fin
                });
                stream.cut_off("the connection dropped");
                let calls = stream.finish();
                assert!(calls.calls.is_empty(), "{context}: a call cut off ran");
                if inside {
                    assert!(
                        calls.errors.iter().any(|error| error.kind.code() == "truncated"),
                        "{context}: {:?}",
                        errors(&calls)
                    );
                }
            }
        }
    }
}

#[test]
fn own_syntax_calls_grow_strings_and_show_other_values_once_complete() {
    let name = Some("get_weather".to_owned());
    let shown = open_after_each(
        TextFormat::Lfm2,
        &["<|tool_call_start|>[get_wea", "ther(city=\"Por", "to\", days=1", "2, metric=Tr", "ue)]"],
    );
    assert_eq!(shown[0], (None, None));
    assert_eq!(shown[1], (name.clone(), Some(json!({"city": "Por"}))));
    // `1` of `12` is not a value, nor `Tr` of `True`.
    assert_eq!(shown[2], (name.clone(), Some(json!({"city": "Porto"}))));
    assert_eq!(shown[3], (name.clone(), Some(json!({"city": "Porto", "days": 12}))));
    assert_eq!(shown[4], (name.clone(), Some(json!({"city": "Porto", "days": 12, "metric": true}))));

    for (format, open, quote, close) in [
        (TextFormat::FunctionGemma, "<start_function_call>", "<escape>", "<end_function_call>"),
        (TextFormat::Gemma4, "<|tool_call>", "<|\"|>", "<tool_call|>"),
    ] {
        let (start, end) = quote.split_at(3);
        let shown = open_after_each(
            format,
            &[
                &format!("{open}call:get_weather{{city:{quote}Bo"),
                &format!("nn{start}"),
                &format!("{end},days:1"),
                "2,tags:[",
                &format!("{quote}x{quote}"),
                &format!("]}}{close}"),
            ],
        );
        assert_eq!(shown[0], (name.clone(), Some(json!({"city": "Bo"}))), "{format}");
        // The start of the closing delimiter is not shown as text.
        assert_eq!(shown[1], (name.clone(), Some(json!({"city": "Bonn"}))), "{format}");
        assert_eq!(shown[2], (name.clone(), Some(json!({"city": "Bonn"}))), "{format}");
        assert_eq!(shown[3], (name.clone(), Some(json!({"city": "Bonn", "days": 12}))), "{format}");
        assert_eq!(
            shown[4],
            (name.clone(), Some(json!({"city": "Bonn", "days": 12, "tags": ["x"]}))),
            "{format}"
        );
    }

    // Kimi K3: a string argument grows, a typed one is shown once closed.
    let shown = open_after_each(
        TextFormat::KimiK3,
        &[
            "</think><|open|>tools<|sep|><|open|>call tool=\"get_weather\" index=\"1\"<|sep|><|open|>argument key=\"city\" type=\"string\"<|sep|>Sap",
            "poro<|close|>argu",
            "ment<|sep|><|open|>argument key=\"days\" type=\"integer\"<|sep|>1",
            "2<|close|>argument<|sep|>",
        ],
    );
    assert_eq!(shown[0], (name.clone(), Some(json!({"city": "Sap"}))));
    assert_eq!(shown[1], (name.clone(), Some(json!({"city": "Sapporo"}))));
    assert_eq!(shown[2], (name.clone(), Some(json!({"city": "Sapporo"}))));
    assert_eq!(shown[3], (name.clone(), Some(json!({"city": "Sapporo", "days": 12}))));
}

/// Gemma's delimiters hold a string exactly: no template puts line breaks inside them, so a
/// newline at either end of a top-level string is the model's, kept in the call and in what
/// the stream shows, with or without the tool's schema.
#[test]
fn a_gemma_string_keeps_the_newlines_at_its_ends() {
    let (tools, _) = data();
    for (format, open, quote, close) in [
        (TextFormat::FunctionGemma, "<start_function_call>", "<escape>", "<end_function_call>"),
        (TextFormat::Gemma4, "<|tool_call>", "<|\"|>", "<tool_call|>"),
    ] {
        let text = format!("{open}call:get_weather{{city:{quote}\nBonn\n\n{quote},days:3}}{close}");
        for options in
            [options(&tools, Some(format)), CallOptions::new().format(Format::Text).text_format(format)]
        {
            let whole = parse_text(&text, &options);
            assert_eq!(whole.calls.len(), 1, "{format}: {:?}", errors(&whole));
            assert_eq!(whole.calls[0].arguments["city"], "\nBonn\n\n", "{format}");
            for size in [1, 4, 64] {
                let mut stream = StreamAssembler::new(options.clone()).with_events();
                for piece in text.as_bytes().chunks(size) {
                    stream.push_text(std::str::from_utf8(piece).unwrap());
                    // What is shown of the string is always a prefix of what it is.
                    for open in stream.open_calls() {
                        let city = open.arguments_partial.and_then(|partial| partial.get("city"));
                        if let Some(city) = city.and_then(Value::as_str) {
                            assert!("\nBonn\n\n".starts_with(city), "{format} {size}: {city:?}");
                        }
                    }
                }
                assert_eq!(outcome(&stream.finish()), outcome(&whole), "{format} {size}");
            }
        }
    }
}

#[test]
fn an_open_text_call_in_reasoning_is_never_shown() {
    let (tools, fixtures) = data();
    for fixture in &fixtures {
        let named: TextFormat = fixture.format.parse().unwrap();
        for text in
            [format!("<think>{}</think>Done.", fixture.text), format!("{}</think>Done.", fixture.text)]
        {
            for options in [options(&tools, Some(named)), options(&tools, None)] {
                // Where the end reads no call (it was reasoning), nothing may ever be shown;
                // a fixture with its own `</think>`, or a format whose models never write a
                // lone one, has calls at the end.
                if !parse_text(&text, &options).calls.is_empty() {
                    continue;
                }
                let mut stream = StreamAssembler::new(options).with_events();
                for c in text.chars() {
                    stream.push_text(c.encode_utf8(&mut [0; 4]));
                    assert!(stream.open_calls().is_empty(), "{}: {text:?}", fixture.format);
                    assert!(stream.take_events().is_empty(), "{}: {text:?}", fixture.format);
                }
            }
        }
    }
}

#[test]
fn open_text_calls_survive_hostile_pieces() {
    // Markers and the pieces of their bodies in any order, fed in pieces of any size: the
    // open calls and events never panic nor loop.
    let pieces = [
        "<tool_call>",
        "</tool_call>",
        "{",
        "}",
        "[",
        "]",
        "\"name\": \"f\"",
        ", ",
        "\"arguments\": {",
        "\"a\": \"x",
        "\\\"",
        "<function=f>",
        "<parameter=a>",
        "\n",
        "</parameter>",
        "</function>",
        "<arg_key>",
        "</arg_key>",
        "<arg_value>",
        "</arg_value>",
        "[TOOL_CALLS]",
        "get_weather",
        "[ARGS]",
        "[CALL_ID]",
        "```json",
        "```",
        "<｜tool▁calls▁begin｜>",
        "<｜tool▁call▁begin｜>",
        "<｜tool▁sep｜>",
        "function",
        "<｜tool▁call▁end｜>",
        "<|tool_calls_section_begin|>",
        "<|tool_call_begin|>",
        "functions.f:0",
        "<|tool_call_argument_begin|>",
        "<|tool_call_end|>",
        "<minimax:tool_call>",
        "<invoke name=\"f\">",
        "<parameter name=\"a\" string=\"true\">",
        "<![CDATA[",
        "]]>",
        "</invoke>",
        "<|python_tag|>",
        "functools[",
        "<|tools_prefix|>",
        "</think>",
        "<think>",
        "<tool_calls>",
        "<|tool_call:start|>",
        "<|tool_arg:start|>",
        "<|tool_arg:value|>",
        "é",
        "<",
        "<|python_start|>",
        "<|python_end|>",
        "<function_calls>",
        "<|tool_call_start|>",
        "get_weather(",
        "city=",
        "'x'",
        "True",
        ")",
        "<start_function_call>",
        "<end_function_call>",
        "<|tool_call>",
        "<tool_call|>",
        "call:f{",
        "k:",
        "<escape>",
        "<|\"|>",
        "<|open|>tools<|sep|>",
        "<|open|>call tool=\"f\"<|sep|>",
        "<|open|>argument key=\"a\" type=\"integer\"<|sep|>",
        "<|close|>argument<|sep|>",
        "<|close|>call<|sep|>",
        "<|channel|>commentary to=functions.f<|message|>",
        "<|start|>assistant",
        "<|channel|>analysis<|message|>",
        "<|call|>",
        "<|end|>",
        "]<]minimax[>[",
        "]<]minimax[>[<tool_call>",
        "<a>",
        "</a>",
        "<a/>",
    ];
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move |bound: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % bound as u64) as usize
    };
    for round in 0..1200 {
        let text: String = (0..next(40) + 1).map(|_| pieces[next(pieces.len())]).collect();
        let named = [
            None,
            Some(TextFormat::Hermes),
            Some(TextFormat::Mistral),
            Some(TextFormat::DeepSeek),
            Some(TextFormat::Pythonic),
            Some(TextFormat::Lfm2),
            Some(TextFormat::Olmo3),
            Some(TextFormat::FunctionGemma),
            Some(TextFormat::Gemma4),
            Some(TextFormat::KimiK3),
            Some(TextFormat::Harmony),
            Some(TextFormat::MiniMaxM3),
        ][round % 12];
        let mut options = CallOptions::new().format(Format::Text);
        if let Some(named) = named {
            options = options.text_format(named);
        }
        let mut stream = StreamAssembler::new(options).with_events();
        let step = 1 + round % 5;
        let cuts: Vec<usize> =
            (0..=text.len()).filter(|at| text.is_char_boundary(*at)).step_by(step).collect();
        for pair in cuts.windows(2) {
            stream.push_text(&text[pair[0]..pair[1]]);
            for open in stream.open_calls() {
                assert!(open.bytes <= text.len(), "{text:?}");
            }
            stream.take_events();
        }
        stream.push_text(&text[*cuts.last().unwrap()..]);
        stream.finish();
    }
}
