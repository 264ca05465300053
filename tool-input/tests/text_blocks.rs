//! Calls between markers or tags (Hermes' `<tool_call>` blocks, Qwen3-Coder's and the other
//! XML-ish tag formats, MiniMax's, …): cut inside a closing marker or without a closing tag,
//! closed before their JSON, parameters given twice or typed by the schema, and final at
//! their closing marker.

mod text_support;

use serde_json::json;
use text_support::{call_summary, check_open_calls, error_kinds, errors, outcome, read_every_way, summary};
use tool_input::calls::{parse_text, CallOptions, Format, KnownTool, TextFormat};
use tool_input::parse::StreamEvent;
use tool_input::stream::StreamAssembler;

/// A response cut off while the closing marker of its last call's block was arriving (`<`,
/// `</tool_call`) was cut inside that call's block: the call is `truncated`, never run,
/// even where the calls completed before a cut run; with its whole marker it completed.
#[test]
fn a_call_cut_inside_its_closing_marker_is_truncated() {
    let cases = [
        (TextFormat::Hermes, "<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": 1}}", "</tool_call>"),
        (TextFormat::Hermes, "<tool_call>\n{\"name\": \"f\", \"arguments\": {\"a\": 1}}\n", "</tool_call>"),
        (
            TextFormat::Longcat,
            "<longcat_tool_call>{\"name\": \"f\", \"arguments\": {\"a\": 1}}",
            "</longcat_tool_call>",
        ),
        (
            TextFormat::InternLm,
            "<|action_start|><|plugin|>{\"name\": \"f\", \"parameters\": {\"a\": 1}}",
            "<|action_end|>",
        ),
        (
            TextFormat::Inkling,
            "<|message_model|><|content_invoke_tool_json|>{\"name\": \"f\", \"args\": {\"a\": 1}}",
            "<|end_message|>",
        ),
        (TextFormat::Llama, "<|python_tag|>{\"name\": \"f\", \"parameters\": {\"a\": 1}}", "<|eom_id|>"),
        (TextFormat::Mistral, "[TOOL_CALLS]f{\"a\": 1}", "</s>"),
        (TextFormat::Mistral, "[TOOL_CALLS]{\"name\": \"f\", \"arguments\": {\"a\": 1}}", "[/TOOL_CALLS]"),
    ];
    let f = [json!({"name": "f", "arguments": {"a": 1}})];
    for (format, call, close) in cases {
        for len in (0..close.len()).filter(|&len| close.is_char_boundary(len)) {
            let text = format!("{call}{}", &close[..len]);
            for (how, calls) in read_every_way(format, &text, true, true) {
                assert!(calls.calls.is_empty(), "{format} {how} {text:?}: a call cut off ran");
                assert_eq!(
                    error_kinds(&calls),
                    [("truncated", Some("f".to_owned()))],
                    "{format} {how} {text:?}"
                );
            }
            // Read as a whole response, the call is whole.
            for (how, calls) in read_every_way(format, &text, false, false) {
                assert_eq!(call_summary(&calls.calls), f, "{format} {how} {text:?}: {:?}", errors(&calls));
            }
        }
        // Its closing marker whole: the call completed before the cut.
        let text = format!("{call}{close}");
        for (how, calls) in read_every_way(format, &text, true, true) {
            assert_eq!(call_summary(&calls.calls), f, "{format} {how} {text:?}: {:?}", errors(&calls));
        }
    }
    // A list's `]` ends its calls; the marker after it may be missing, or part of it.
    for (format, text) in [
        (TextFormat::Hermes, "<tool_call>[{\"name\": \"f\", \"arguments\": {\"a\": 1}}]"),
        (TextFormat::Hermes, "<tool_call>[{\"name\": \"f\", \"arguments\": {\"a\": 1}}]</tool_c"),
        (TextFormat::Hunyuan, "<tool_calls>[{\"name\": \"f\", \"arguments\": {\"a\": 1}}]<"),
        (TextFormat::Apertus, "<|tools_prefix|>[{\"f\": {\"a\": 1}}]<|tools_"),
        (TextFormat::Cohere, "<|START_ACTION|>[{\"tool_name\": \"f\", \"parameters\": {\"a\": 1}}]"),
        (TextFormat::Mistral, "[TOOL_CALLS][{\"name\": \"f\", \"arguments\": {\"a\": 1}}]["),
    ] {
        for (how, calls) in read_every_way(format, text, true, true) {
            assert_eq!(call_summary(&calls.calls), f, "{format} {how} {text:?}: {:?}", errors(&calls));
        }
    }
}

/// A tag-format call whose closing tag (`</function>`, `</invoke>`, `</tool_call>`) never
/// arrived, its text running to the end, was cut off: it is `truncated`, never run with
/// the parameters that arrived, whether the response ended or was cut.
#[test]
fn a_tag_call_without_its_closing_tag_at_the_end_is_truncated() {
    let cases = [
        (TextFormat::Qwen3Coder, "<tool_call><function=f><parameter=a>1</parameter><paramete"),
        (TextFormat::Qwen3Coder, "<tool_call>\n<function=f>"),
        (TextFormat::Qwen3Coder, "<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n"),
        (TextFormat::Qwen3Coder, "<function=f><parameter=a>1</parameter>"),
        (TextFormat::SeedOss, "<seed:tool_call><function=f><parameter=a>1</parameter><par"),
        (TextFormat::MiniCpm5, "<function name=\"f\"><param name=\"a\">v</param><param n"),
        (TextFormat::MiniCpm5, "<function name=\"f\">"),
        (
            TextFormat::MiniMaxM2,
            "<minimax:tool_call>\n<invoke name=\"f\">\n<parameter name=\"a\">1</parameter>\n<param",
        ),
        (TextFormat::DeepSeekDsml, "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"f\">"),
        (
            TextFormat::DeepSeekDsml,
            "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"f\">\n<｜DSML｜parameter name=\"a\" string=\"true\">1</｜DSML｜parameter>\n</｜DSML",
        ),
        (
            TextFormat::Step3,
            "<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"f\"><steptml:parameter name=\"a\">1</steptml:parameter><steptml:para",
        ),
        (TextFormat::Glm, "<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>1</arg_value>\n<"),
        (TextFormat::Glm, "<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>1</arg_value>"),
    ];
    for (format, text) in cases {
        for (cut, run) in [(false, false), (true, true)] {
            for (how, calls) in read_every_way(format, text, cut, run) {
                assert!(calls.calls.is_empty(), "{format} {how} {text:?}: ran {:?}", calls.calls);
                assert_eq!(
                    error_kinds(&calls),
                    [("truncated", Some("f".to_owned()))],
                    "{format} {how} {text:?}"
                );
            }
        }
    }
    // A call another one follows is whole, though its own closing tag is missing.
    let text =
        "<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n<function=g>\n</function>\n</tool_call>";
    let calls = parse_text(text, &CallOptions::new().text_format(TextFormat::Qwen3Coder));
    assert_eq!(
        call_summary(&calls.calls),
        [json!({"name": "f", "arguments": {"a": "1"}}), json!({"name": "g", "arguments": {}})],
        "{:?}",
        errors(&calls)
    );
}

/// A block whose closing marker comes before its JSON closes is cut off there: that call is
/// an error, and the block after it is read on its own. Streamed, nothing is shown that the
/// end does not give (the closing marker might have been inside a string of the call, so
/// the end's reading decides).
#[test]
fn a_block_closed_before_its_json_is_cut_off_there() {
    let cases = [
        (
            TextFormat::Apertus,
            "t<|tools_prefix|>{<|tools_suffix|><|tools_prefix|>[{\"get_weather\":{\"city\":\"Basel\"}}]<|tools_suffix|>",
        ),
        (
            TextFormat::Longcat,
            "<longcat_tool_call>{\"name\": \"search\", \"arguments\": {\"q\": [1</longcat_tool_call>\n<longcat_tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Basel\"}}</longcat_tool_call>",
        ),
        (
            TextFormat::InternLm,
            "<|action_start|><|plugin|>{\"name\": \"search\"<|action_end|><|action_start|><|plugin|>{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Basel\"}}<|action_end|>",
        ),
    ];
    for (format, text) in cases {
        let options =
            CallOptions::new().tools(["get_weather", "search"]).format(Format::Text).text_format(format);
        let whole = parse_text(text, &options);
        assert_eq!(
            call_summary(&whole.calls),
            [json!({"name": "get_weather", "arguments": {"city": "Basel"}})],
            "{format:?}"
        );
        assert_eq!(whole.errors.len(), 1, "{format:?}: {:?}", whole.errors);
        assert_eq!(
            whole.errors[0].kind,
            tool_input::calls::CallErrorKind::Arguments(tool_input::RejectionKind::Truncated)
        );
        for step in 1..=7 {
            let mut stream = StreamAssembler::new(options.clone());
            let mut at = 0;
            while at < text.len() {
                let mut end = (at + step).min(text.len());
                while !text.is_char_boundary(end) {
                    end += 1;
                }
                stream.push_text(&text[at..end]);
                let shown = call_summary(stream.calls());
                let expected = call_summary(&whole.calls);
                assert!(
                    shown.len() <= expected.len() && shown[..] == expected[..shown.len()],
                    "{format:?} by {step}"
                );
                at = end;
            }
            assert_eq!(outcome(&stream.finish()), outcome(&whole), "{format:?} by {step}");
        }
    }
    // The closing marker inside a string of a call that closes after it: one call, which
    // keeps the marker's text.
    let text = "<|tools_prefix|>[{\"get_weather\": {\"city\": \"a<|tools_suffix|>b\"}}]<|tools_suffix|>";
    let options =
        CallOptions::new().tools(["get_weather"]).format(Format::Text).text_format(TextFormat::Apertus);
    let whole = parse_text(text, &options);
    assert_eq!(
        call_summary(&whole.calls),
        [json!({"name": "get_weather", "arguments": {"city": "a<|tools_suffix|>b"}})]
    );
    assert!(whole.errors.is_empty());
    for cut in (0..=text.len()).filter(|&at| text.is_char_boundary(at)) {
        let mut stream = StreamAssembler::new(options.clone());
        stream.push_text(&text[..cut]);
        assert!(stream.calls().is_empty() || cut == text.len(), "shown before the end at {cut}");
        stream.push_text(&text[cut..]);
        assert_eq!(outcome(&stream.finish()), outcome(&whole), "cut at {cut}");
    }
}

#[test]
fn namespaced_and_wrapped_tool_call_tags_are_not_hermes() {
    // MiniMax M3 and HY V3 wrap `<tool_call>` in markers of their own.
    let m3 = "]<]minimax[>[<tool_call>]<]minimax[>[<invoke name=\"ping\">]<]minimax[>[</invoke>]<]minimax[>[</tool_call>";
    let hy = "<tool_calls><tool_call>ping<tool_sep></tool_call></tool_calls>";
    for text in [m3, hy] {
        let calls = parse_text(text, &CallOptions::new());
        assert_eq!(calls.calls.len(), 1, "{text}: {:?}", errors(&calls));
        assert!(calls.errors.is_empty());
    }
}

#[test]
fn untyped_values_stay_text_without_a_schema() {
    let text = "<minimax:tool_call><invoke name=\"get_weather\"><parameter name=\"days\">3</parameter></invoke></minimax:tool_call>";
    let calls = parse_text(text, &CallOptions::new());
    assert_eq!(calls.calls[0].arguments["days"], "3");
}

#[test]
fn a_parameter_given_twice_follows_the_duplicate_key_rule() {
    use tool_input::{CoercionKind, ErrorCode, Validator};
    let schema = json!({"type": "object", "properties": {"city": {"type": "string"}}});
    let validator = Validator::new(&schema).unwrap();
    let texts = [
        "<minimax:tool_call><invoke name=\"get_weather\"><parameter name=\"city\">Rome</parameter><parameter name=\"city\">Rome</parameter></invoke></minimax:tool_call>",
        "<tool_call>get_weather<arg_key>city</arg_key><arg_value>Rome</arg_value><arg_key>city</arg_key><arg_value>Rome</arg_value></tool_call>",
        "<tool_call>\n<function=get_weather>\n<parameter=city>\nRome\n</parameter>\n<parameter=city>\nRome\n</parameter>\n</function>\n</tool_call>",
        "<|tool_call>call:get_weather{city:<|\"|>Rome<|\"|>,city:<|\"|>Rome<|\"|>}<tool_call|>",
        "[get_weather(city='Rome', city='Rome')]",
    ];
    for same in texts {
        // The record keeps both; the tool's check decides, in every format alike.
        let calls = parse_text(same, &CallOptions::new());
        assert_eq!(calls.calls.len(), 1, "{same}: {:?}", errors(&calls));
        let checked = validator.check(calls.calls[0].original.as_raw()).unwrap();
        assert_eq!(checked.value["city"], "Rome", "{same}");
        assert!(checked.report.coercions.iter().any(|c| c.kind == CoercionKind::DuplicateKey), "{same}");
        let different = same.replacen("Rome", "Milan", 1);
        let calls = parse_text(&different, &CallOptions::new());
        assert_eq!(calls.calls.len(), 1, "{different}: {:?}", errors(&calls));
        let rejection = validator.check(calls.calls[0].original.as_raw()).unwrap_err();
        assert!(rejection.errors().iter().any(|e| e.code() == ErrorCode::DuplicateKey), "{different}");
    }
}

#[test]
fn a_call_is_final_at_its_closing_marker_once_reasoning_is_over() {
    let options = CallOptions::new().format(Format::Text).text_format(TextFormat::Hermes);
    let mut stream = StreamAssembler::new(options.clone());
    stream.push_text("<tool_call>{\"name\": \"draft\", \"arguments\": {}}</tool_call>");
    // A later lone `</think>` would make it reasoning: not final yet.
    assert!(stream.calls().is_empty());
    stream.push_text(" so.</think>\n<tool_call>{\"name\": \"f\", \"arguments\": {\"x\": 1}}");
    assert!(stream.calls().is_empty());
    assert_eq!(stream.open_calls().len(), 1);
    stream.push_text("</tool_call>");
    assert_eq!(stream.calls()[0].name, "f");
    assert!(stream.open_calls().is_empty());
    let calls = stream.finish();
    assert_eq!(call_summary(&calls.calls), vec![json!({"name": "f", "arguments": {"x": 1}})]);

    // Gemma 4 thinks in a channel of its own: a call is final at its closing marker.
    let options = CallOptions::new().format(Format::Text).text_format(TextFormat::Gemma4);
    let mut stream = StreamAssembler::new(options);
    stream.push_text("<|tool_call>call:get_weather{city:<|\"|>Paris<|\"|>}");
    assert!(stream.calls().is_empty());
    stream.push_text("<tool_call|>");
    assert_eq!(stream.calls()[0].name, "get_weather");

    // With the format detected, markers of another format later would make the text an
    // error: nothing is final before the end.
    let mut stream = StreamAssembler::new(CallOptions::new().format(Format::Text));
    stream.push_text("</think><tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>");
    assert!(stream.calls().is_empty());
    assert_eq!(stream.finish().calls.len(), 1);
}

#[test]
fn minimax_m3_nested_values_are_converted_by_the_schema() {
    let schema = json!({"type": "object", "properties": {"steps": {"type": "array", "items": {"$ref": "#/$defs/step"}},
        "limits": {"type": "object", "properties": {"max": {"type": "integer"}, "strict": {"type": "boolean"}}}},
        "$defs": {"step": {"type": "object", "properties": {"n": {"type": "integer"}, "label": {"type": "string"}}}}});
    let tag = |name: &str, inner: &str| format!("]<]minimax[>[<{name}>{inner}]<]minimax[>[</{name}>");
    let step = |n: &str, label: &str| tag("item", &(tag("n", n) + &tag("label", label)));
    let text = format!(
        "]<]minimax[>[<tool_call>]<]minimax[>[<invoke name=\"plan\">{}{}]<]minimax[>[</invoke>]<]minimax[>[</tool_call>",
        tag("steps", &(step("1", "007") + &step("2", "go"))),
        tag("limits", &(tag("max", "5") + &tag("strict", "true"))),
    );
    let options = CallOptions::new()
        .format(Format::Text)
        .known_tools(vec![KnownTool { name: "plan".to_owned(), schema: Some(schema) }]);
    let calls = parse_text(&text, &options);
    assert_eq!(
        summary(&calls),
        json!([{"name": "plan", "arguments": {
            "steps": [{"n": 1, "label": "007"}, {"n": 2, "label": "go"}],
            "limits": {"max": 5, "strict": true}}}]),
        "{:?}",
        errors(&calls)
    );
    // Streamed: each parameter shown as the end reads it (the list when the call closes).
    let streamed = format!("</think>{text}");
    for step in 1..=3 {
        assert!(check_open_calls(&streamed, &options, step, &format!("minimax_m3 nested, {step} a piece")));
    }
    // Without a schema, a value stays text.
    let calls = parse_text(&text, &CallOptions::new().format(Format::Text));
    assert_eq!(calls.calls[0].arguments["limits"]["max"], "5");
}

#[test]
fn an_open_text_call_grows_as_it_arrives() {
    let text = "<tool_call>\n<function=write_file>\n<parameter=path>\nnotes.md\n</parameter>\n<parameter=content>\n# Title\nBody\n</parameter>\n</function>\n</tool_call>";
    let options = CallOptions::new().format(Format::Text).text_format(TextFormat::Qwen3Coder);
    let mut stream = StreamAssembler::new(options.clone()).with_events();
    let cut = text.find("Bo").unwrap();
    stream.push_text("</think>");
    stream.push_text(&text[..cut + 2]);
    let open = stream.open_calls();
    assert_eq!(open.len(), 1);
    assert_eq!(open[0].name, Some("write_file"));
    assert_eq!(open[0].arguments_partial, Some(&json!({"path": "notes.md", "content": "# Title\nBo"})));
    let mut content = String::new();
    stream.push_text(&text[cut + 2..]);
    for event in stream.take_events() {
        if let StreamEvent::StringGrew { path, appended } = &event.event {
            if path == "/content" {
                content.push_str(appended);
            }
        }
    }
    assert_eq!(content, "# Title\nBody");
    assert!(stream.open_calls().is_empty());
    assert_eq!(stream.calls()[0].arguments["content"], "# Title\nBody");

    // A JSON body: the name once complete, the arguments as they grow.
    let mut stream =
        StreamAssembler::new(CallOptions::new().format(Format::Text).text_format(TextFormat::Mistral));
    stream.push_text("[/THINK]");
    stream.push_text("[TOOL_CALLS] [{\"name\": \"get_wea");
    assert_eq!(stream.open_calls()[0].name, None);
    stream.push_text("ther\", \"arguments\": {\"city\": \"Par");
    let open = stream.open_calls();
    assert_eq!(open[0].name, Some("get_weather"));
    assert_eq!(open[0].arguments_partial, Some(&json!({"city": "Par"})));
}
