//! Lists of calls (JSON lists after a marker, Python call lists) and bare calls (Llama's
//! JSON without `<|python_tag|>`, a bare JSON or Python list): cut off inside a call or as
//! the next began, items that are no call, and calls separated by `;`.

mod text_support;

use serde_json::{json, Value};
use text_support::{
    call_summary, check_open_calls, error_kinds, errors, outcome, read_every_way, streamed_by_char, summary,
};
use tool_input::calls::{parse_body, parse_text, CallOptions, Calls, Format, TextFormat};
use tool_input::stream::StreamAssembler;

/// A list of calls cut off inside a call keeps the whole calls before it: they are read
/// (and, in a response cut off, run where completed calls run), and the call cut is
/// `truncated`.
#[test]
fn a_cut_call_list_keeps_the_whole_calls_before_the_cut() {
    let cases = [
        (TextFormat::Mistral, "[TOOL_CALLS] [{\"name\": \"a\", \"arguments\": {}}, {\"name\": \"b\", \"arguments\": {\"x\": 1"),
        (TextFormat::Granite, "<|tool_call|>[{\"name\": \"a\", \"arguments\": {}}, {\"name\": \"b\", \"arguments\": {\"x\": 1"),
        (TextFormat::Phi4MiniJson, "functools[{\"name\": \"a\", \"arguments\": {}}, {\"name\": \"b\", \"arguments\": {\"x\": 1"),
        (TextFormat::Apertus, "<|tools_prefix|>[{\"a\": {}}, {\"b\": {\"x\": 1"),
        (
            TextFormat::Cohere,
            "<|START_ACTION|>[{\"tool_call_id\": \"0\", \"tool_name\": \"a\", \"parameters\": {}}, {\"tool_call_id\": \"1\", \"tool_name\": \"b\", \"parameters\": {\"x\": 1",
        ),
        (TextFormat::Lfm2, "<|tool_call_start|>[a(), b(x=1"),
        (TextFormat::Pythonic, "<|python_start|>[a(), b(x=1"),
        (TextFormat::Olmo3, "<function_calls>\na()\nb(x=1"),
        // As these did already.
        (TextFormat::Hermes, "<tool_call>[{\"name\": \"a\", \"arguments\": {}}, {\"name\": \"b\", \"arguments\": {\"x\": 1"),
        (TextFormat::Hunyuan, "<tool_calls>[{\"name\": \"a\", \"arguments\": {}}, {\"name\": \"b\", \"arguments\": {\"x\": 1"),
        (TextFormat::Llama, "<|python_tag|>{\"name\": \"a\", \"parameters\": {}}; {\"name\": \"b\", \"parameters\": {\"x\": 1"),
    ];
    let a = [json!({"name": "a", "arguments": {}})];
    for (format, text) in cases {
        for (cut, run) in [(false, false), (true, true)] {
            for (how, calls) in read_every_way(format, text, cut, run) {
                assert_eq!(call_summary(&calls.calls), a, "{format} {how} {text:?}: {:?}", errors(&calls));
                assert_eq!(
                    error_kinds(&calls),
                    [("truncated", Some("b".to_owned()))],
                    "{format} {how} {text:?}"
                );
            }
        }
        // Cut off, nothing runs unless asked.
        for (how, calls) in read_every_way(format, text, true, false) {
            assert!(calls.calls.is_empty(), "{format} {how} {text:?}");
            let kinds: Vec<&str> = calls.errors.iter().map(|error| error.kind.code()).collect();
            assert_eq!(kinds, ["incomplete", "truncated"], "{format} {how} {text:?}");
        }
    }
}

/// A Python list of calls cut right after a whole call (`[a(), b()`, its `]` never came)
/// lost nothing, as a JSON list cut there: both calls, no error. Before, the whole list was
/// one `truncated` error, the whole calls in it with it.
#[test]
fn a_python_list_cut_after_a_whole_call_reads_as_a_json_list_does() {
    let json_list = parse_text(
        "<|tool_call|>[{\"name\": \"a\", \"arguments\": {}}, {\"name\": \"b\", \"arguments\": {\"x\": 1}}",
        &CallOptions::new().format(Format::Text),
    );
    assert_eq!(error_kinds(&json_list), []);
    for text in ["<|tool_call_start|>[a(), b(x=1)", "<|python_start|>[a(), b(x=1)"] {
        let options = CallOptions::new().format(Format::Text);
        let calls = parse_text(text, &options);
        assert_eq!(
            call_summary(&calls.calls),
            call_summary(&json_list.calls),
            "{text}: {:?}",
            errors(&calls)
        );
        assert_eq!(error_kinds(&calls), [], "{text}");
        let streamed = streamed_by_char(options, text);
        assert_eq!(outcome(&streamed), outcome(&calls), "{text}");
    }
    // In a response that says it was cut (a length stop), none of them runs, as for JSON.
    for content in [
        "<|python_start|>[a(), b(x=1)",
        "<tool_call>[{\"name\": \"a\", \"arguments\": {}}, {\"name\": \"b\", \"arguments\": {\"x\": 1}}",
    ] {
        let body =
            json!({"choices": [{"index": 0, "finish_reason": "length", "message": {"content": content}}]});
        let calls = parse_body(body.to_string(), &CallOptions::new().tools(["a", "b"])).unwrap();
        assert!(calls.calls.is_empty(), "{content}: {:?}", summary(&calls));
        assert_eq!(calls.errors.len(), 2, "{content}: {:?}", errors(&calls));
    }
    // Cut after the comma: the whole ones.
    let calls = parse_text("<|python_start|>[a(), b(x=1), ", &CallOptions::new().format(Format::Text));
    assert_eq!(call_summary(&calls.calls).len(), 2, "{:?}", errors(&calls));
    // Its `]` came, the text ended inside the marker after it: a JSON list's `]` ends its
    // calls, and so does a Python list's.
    for text in ["<|tool_call_start|>[a(), b(x=1)]<|tool_call_e", "<|python_start|>[a(), b(x=1)]<|python_e"] {
        let calls = parse_text(text, &CallOptions::new().format(Format::Text));
        assert_eq!(
            call_summary(&calls.calls),
            call_summary(&json_list.calls),
            "{text}: {:?}",
            errors(&calls)
        );
        assert_eq!(error_kinds(&calls), [], "{text}");
    }
    // Calls a line each, cut inside the closing marker: the last one is cut, as a call whose
    // block was cut inside its closing marker is; the whole one before it stays a call.
    let calls =
        parse_text("<function_calls>\na()\nb(x=1)\n</function_c", &CallOptions::new().format(Format::Text));
    assert_eq!(call_summary(&calls.calls), [json!({"name": "a", "arguments": {}})], "{:?}", errors(&calls));
    assert_eq!(error_kinds(&calls), [("truncated", Some("b".to_owned()))]);
}

/// Bare JSON calls (Llama's without `<|python_tag|>`, a list of calls) cut off as the next
/// call began, before it showed its name: the whole calls stay calls and the cut one is a
/// `truncated` error, as when its name had arrived; before, the whole text was content, the
/// whole call with it, and an agent loop took the call's JSON for the answer. Braces after
/// whole calls that are no JSON stay prose.
#[test]
fn bare_calls_cut_as_the_next_began_keep_the_whole_ones() {
    let a = [json!({"name": "a", "arguments": {"x": 1}})];
    for text in [
        "{\"name\": \"a\", \"parameters\": {\"x\": 1}}; {",
        "{\"name\": \"a\", \"parameters\": {\"x\": 1}}; {\"na",
        "[{\"name\": \"a\", \"arguments\": {\"x\": 1}}, {",
        "<|python_tag|>{\"name\": \"a\", \"parameters\": {\"x\": 1}}; {",
    ] {
        for (named, tools) in [(None, false), (Some(TextFormat::Llama), false), (None, true)] {
            let options = match named {
                Some(format) => CallOptions::new().format(Format::Text).text_format(format),
                None => CallOptions::new().format(Format::Text),
            };
            // With known tools too: the cut call has no name to check yet.
            let options = if tools { options.tools(["a"]) } else { options };
            let calls = parse_text(text, &options);
            assert_eq!(call_summary(&calls.calls), a, "{text} {named:?}: {:?}", errors(&calls));
            assert_eq!(error_kinds(&calls), [("truncated", None)], "{text} {named:?}");
            let mut stream = StreamAssembler::new(options);
            stream.push_text(text);
            assert_eq!(outcome(&stream.finish()), outcome(&calls), "{text} {named:?}");
        }
    }
    for prose in [
        "{\"name\": \"a\", \"parameters\": {\"x\": 1}} {see above",
        "{\"name\": \"a\", \"parameters\": {\"x\": 1}}; {x",
    ] {
        let calls = parse_text(prose, &CallOptions::new().format(Format::Text));
        assert!(calls.calls.is_empty() && calls.errors.is_empty(), "{prose}: {:?}", errors(&calls));
        assert_eq!(calls.content.as_deref(), Some(prose));
    }
}

/// After a call marker the model meant calls: an item of the list that is no call object is
/// reported (never dropped without a word), and the calls beside it are read; comments
/// between items are skipped, as the parser skips them. After the one marker that is a word
/// (`functools[`), a list without an object is prose.
#[test]
fn an_item_of_a_call_list_that_is_no_call_object_is_reported() {
    let malformed = tool_input::calls::CallErrorKind::Malformed;
    let cases: [(&str, usize, usize); 9] = [
        // A closing bracket of another kind ends the list.
        ("<|tool_call|>[get }\n}", 0, 1),
        ("<|tool_call|>[}]", 0, 1),
        // Comments between the items are not items.
        ("<|tool_call|>[ // the weather\n{\"name\": \"get_weather\", \"arguments\": {}} /* then */ ]", 1, 0),
        ("<|tools_prefix|>[ // one\n{\"get_weather\": {\"city\": \"Oslo\"}}]<|tools_suffix|>", 1, 0),
        ("<|tool_call|>[\"get_weather\"]", 0, 1),
        ("<|tool_call|>[1, {\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}]", 1, 1),
        (
            "<tool_calls>[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}, x]</tool_calls>",
            1,
            1,
        ),
        ("functools[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}, 2]", 1, 1),
        ("See functools[1] for that.", 0, 0),
    ];
    for (text, calls, errors) in cases {
        let options = CallOptions::new().tools(["get_weather"]).format(Format::Text);
        let whole = parse_text(text, &options);
        assert_eq!(whole.calls.len(), calls, "{text}: {:?}", whole.errors);
        assert_eq!(whole.errors.len(), errors, "{text}: {:?}", whole.errors);
        assert!(whole.errors.iter().all(|error| error.kind == malformed), "{text}");
        if errors == 0 && calls == 0 {
            assert_eq!(whole.content.as_deref(), Some(text));
        }
        let cuts: Vec<usize> = (0..=text.len()).filter(|at| text.is_char_boundary(*at)).collect();
        for &at in &cuts {
            let mut stream = StreamAssembler::new(options.clone());
            stream.push_text(&text[..at]);
            stream.push_text(&text[at..]);
            assert_eq!(outcome(&stream.finish()), outcome(&whole), "{text} cut at {at}");
        }
    }
}

#[test]
fn llama_calls_separated_by_semicolons_each_show_while_they_stream() {
    let text = "<|python_tag|>{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Lyon\"}}; {\"name\": \"ping\", \"parameters\": {\"n\": 1}};\n{\"name\": \"search\", \"parameters\": {\"query\": \"x\"}}";
    let options = CallOptions::new().format(Format::Text).text_format(TextFormat::Llama);
    assert_eq!(parse_text(text, &options).calls.len(), 3);
    let mut stream = StreamAssembler::new(options.clone());
    let cut = text.find("\"n\"").unwrap();
    stream.push_text(&text[..cut]);
    let names: Vec<Option<&str>> = stream.open_calls().iter().map(|open| open.name).collect();
    assert_eq!(names.last(), Some(&Some("ping")), "{names:?}");
    let positions: Vec<usize> = stream.open_calls().iter().map(|open| open.position).collect();
    assert_eq!(positions.last(), Some(&1));
    for step in 1..=4 {
        assert!(check_open_calls(text, &options, step, &format!("llama `;`, {step} a piece")));
    }
    // Each call shows before the end.
    let mut stream = StreamAssembler::new(options);
    let mut seen = std::collections::BTreeSet::new();
    for c in text.chars() {
        stream.push_text(c.encode_utf8(&mut [0; 4]));
        for open in stream.open_calls() {
            if let Some(name) = open.name {
                seen.insert((open.position, name.to_owned()));
            }
        }
    }
    assert_eq!(seen.len(), 3, "{seen:?}");

    // Mistral's calls, each after its own marker, read in one piece.
    let options = CallOptions::new().format(Format::Text).text_format(TextFormat::Mistral);
    let mut stream = StreamAssembler::new(options);
    stream.push_text("[/THINK][TOOL_CALLS]get_weather{\"city\": \"Graz\"}[TOOL_CALLS]ping{\"n\": ");
    let open = stream.open_calls();
    assert_eq!(open.last().map(|open| (open.position, open.name)), Some((1, Some("ping"))));
}

/// A Chat Completions body whose content is `text`, stopped for `finish_reason`, read with
/// `tools` known (a bare call in a message's content must name one), and the same response
/// streamed in content deltas of 5 bytes.
fn chat_read(text: &str, finish_reason: Value, tools: &[&str]) -> (Calls, Calls) {
    let options = CallOptions::new().tools(tools.iter().copied());
    let body = json!({"choices": [{"index": 0, "finish_reason": finish_reason,
        "message": {"role": "assistant", "content": text}}]});
    let whole = parse_body(body.to_string(), &options).unwrap();
    let mut stream = StreamAssembler::new(options);
    let mut cuts: Vec<usize> = (0..text.len()).step_by(5).filter(|at| text.is_char_boundary(*at)).collect();
    cuts.push(text.len());
    for pair in cuts.windows(2) {
        stream.push_event(&json!({"choices": [{"index": 0, "delta": {"content": &text[pair[0]..pair[1]]}}]}));
    }
    stream.push_event(&json!({"choices": [{"index": 0, "delta": {}, "finish_reason": finish_reason}]}));
    stream.push_done();
    (whole, stream.finish())
}

/// A bare Python list of calls (no marker) that the text ended inside reads as a bare JSON
/// list cut there does: its whole calls are calls, run unless something says the response
/// was cut (a `length` stop runs none of them), and the call cut off is `truncated`, named
/// once its `(` arrived. Before, the whole text was content: the whole call was lost, and an
/// agent loop took the list for the answer.
#[test]
fn a_bare_python_list_cut_mid_way_reads_as_a_bare_json_list_does() {
    let weather = json!([{"name": "get_weather", "arguments": {"city": "Paris"}}]);
    let cases = [
        (
            r#"[get_weather(city="Paris"), get_time(tz="UT"#,
            r#"[{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "get_time", "arguments": {"tz": "UT"#,
            weather.clone(),
            vec![("truncated", Some("get_time".to_owned()))],
        ),
        (
            r#"[get_weather(city="Paris"), get_ti"#,
            r#"[{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "get_ti"#,
            weather.clone(),
            vec![("truncated", None)],
        ),
        (
            r#"[get_weather(city="Paris"), get_time("#,
            r#"[{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "get_time", "#,
            weather.clone(),
            vec![("truncated", Some("get_time".to_owned()))],
        ),
        (
            "[get_weather(city='Par",
            r#"[{"name": "get_weather", "arguments": {"city": "Par"#,
            json!([]),
            vec![("truncated", Some("get_weather".to_owned()))],
        ),
        // Cut right after a whole call's comma: nothing was lost.
        (
            r#"[get_weather(city="Paris"), "#,
            r#"[{"name": "get_weather", "arguments": {"city": "Paris"}}, "#,
            weather.clone(),
            vec![],
        ),
    ];
    let tools = ["get_weather", "get_time"];
    for (python, bare_json, calls, errors_expected) in cases {
        for options in
            [CallOptions::new().format(Format::Text), CallOptions::new().format(Format::Text).tools(tools)]
        {
            let read = parse_text(python, &options);
            assert_eq!(summary(&read), calls, "{python}: {:?}", errors(&read));
            assert_eq!(error_kinds(&read), errors_expected, "{python}");
            assert_eq!(read.content.as_deref(), Some(""), "{python}");
            let json_read = parse_text(bare_json, &options);
            assert_eq!(summary(&read), summary(&json_read), "{python}");
            assert_eq!(error_kinds(&read), error_kinds(&json_read), "{python}");
            assert_eq!(outcome(&streamed_by_char(options.clone(), python)), outcome(&read), "{python}");
            // A stream cut off runs none of them, and one whose completed calls run runs the
            // whole ones: the cut one never.
            let mut stream = StreamAssembler::new(options.clone());
            stream.push_text(python);
            stream.cut_off("finish_reason `length`");
            let cut = stream.finish();
            assert!(cut.calls.is_empty(), "{python}: {:?}", summary(&cut));
            let mut stream = StreamAssembler::new(options.clone().run_completed_calls(true));
            stream.push_text(python);
            stream.cut_off("finish_reason `length`");
            assert_eq!(summary(&stream.finish()), calls, "{python}");
        }
        // In a message's content, body and stream alike: the whole calls run when the
        // response ended (or gave no reason); a length stop runs none, as for the JSON list.
        for reason in [json!("stop"), json!(null), json!("length")] {
            let (whole, streamed) = chat_read(python, reason.clone(), &tools);
            let (json_whole, _) = chat_read(bare_json, reason.clone(), &tools);
            assert_eq!(outcome(&streamed), outcome(&whole), "{python} {reason}");
            assert_eq!(summary(&whole), summary(&json_whole), "{python} {reason}");
            assert_eq!(error_kinds(&whole), error_kinds(&json_whole), "{python} {reason}");
            if reason == "length" {
                assert!(whole.calls.is_empty(), "{python}: {:?}", summary(&whole));
                let cut: Vec<_> =
                    error_kinds(&whole).into_iter().filter(|(kind, _)| *kind == "truncated").collect();
                assert_eq!(cut, errors_expected, "{python}");
            } else {
                assert_eq!(summary(&whole), calls, "{python} {reason}: {:?}", errors(&whole));
                assert_eq!(error_kinds(&whole), errors_expected, "{python} {reason}");
            }
        }
    }
}

/// Prose that opens with `[` is never a call list cut off: what arrived must be calls and
/// nothing else (after whole calls, the start of a call; with none before it, a name and an
/// argument, as a bare JSON call must show `"name"` and `"arguments"`), and with known tools,
/// every name that arrived must be one of them.
#[test]
fn prose_opening_with_a_bracket_is_no_bare_call_list() {
    let tools = ["get_weather", "get_time"];
    for text in [
        "[1] see the docs",
        "[here](https://example.com) is the link",
        "[TODO] call get_weather(city=\"Paris\")",
        "[f(x) = 2x] is the map",
        "[see(below) for more",
        "[note: get_time(tz=\"UT",
        "[get_weather(",
        "[get_weather(city=Paris is nice",
        "[get_weather(city=\"Paris\" is nice",
        "[get_weather(city=\"Paris\"), this is prose",
        "[get_weather(city=\"Paris\")] and more",
        // With the tools known, a call cut off that names another tool.
        "[get_weather(city=\"Paris\"), rm(path=\"/",
        "[",
        "[get_weather",
    ] {
        let unknown_tool = text.contains("rm(");
        let with_tools = CallOptions::new().format(Format::Text).tools(tools);
        let options = if unknown_tool {
            vec![with_tools]
        } else {
            vec![CallOptions::new().format(Format::Text), with_tools]
        };
        for options in options {
            let read = parse_text(text, &options);
            assert!(
                read.calls.is_empty() && read.errors.is_empty(),
                "{text}: {:?} {:?}",
                summary(&read),
                errors(&read)
            );
            assert_eq!(read.content.as_deref(), Some(text));
            assert_eq!(outcome(&streamed_by_char(options.clone(), text)), outcome(&read), "{text}");
        }
        for reason in [json!("stop"), json!("length")] {
            let (whole, streamed) = chat_read(text, reason.clone(), &tools);
            assert!(
                whole.calls.is_empty() && whole.errors.is_empty(),
                "{text} {reason}: {:?}",
                errors(&whole)
            );
            assert_eq!(whole.content.as_deref(), Some(text), "{text} {reason}");
            assert_eq!(outcome(&streamed), outcome(&whole), "{text} {reason}");
        }
    }
}
