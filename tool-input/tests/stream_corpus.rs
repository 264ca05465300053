//! The recorded streams of `suite/tests/corpus/provider-responses`: every streaming case with
//! `expected_calls` assembles to exactly those calls (names and arguments, in order), fed as
//! decoded events, as an SSE body split anywhere, and with its argument fragments split
//! differently; the stream cut off by `max_tokens` gives a `truncated` error and no call.

#[path = "../../suite/tests/common/mod.rs"]
mod common;

use common::{format_of, provider_cases as cases, text_options, PROVIDER_FILES as FILES};

use serde_json::{json, Value};
use tool_input::calls::{parse_text, CallOptions, Calls, Format};
use tool_input::stream::StreamAssembler;

fn summary(calls: &Calls) -> Value {
    Value::Array(calls.calls.iter().map(|c| json!({"name": c.name, "arguments": c.arguments})).collect())
}

fn events(options: CallOptions, events: &[Value]) -> Calls {
    let mut stream = StreamAssembler::new(options);
    for event in events {
        stream.push_event(event);
    }
    stream.finish()
}

/// The SSE body of a recording: `event:` lines where the API has them, `data:` lines, and
/// blank lines.
fn sse_body(chunks: &[Value]) -> String {
    let mut body = String::from(": a comment\n");
    for chunk in chunks {
        if let Some(kind) = chunk.get("type").and_then(Value::as_str) {
            body.push_str(&format!("event: {kind}\r\n"));
        }
        body.push_str(&format!("data: {chunk}\r\n\r\n"));
    }
    body
}

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn sse_split(chunks: &[Value], options: &CallOptions, rng: &mut Rng) -> Calls {
    let body = sse_body(chunks);
    let bytes = body.as_bytes();
    let mut stream = StreamAssembler::new(options.clone());
    let mut at = 0;
    while at < bytes.len() {
        let size = 1 + rng.below(40);
        let end = (at + size).min(bytes.len());
        stream.push_sse_bytes(&bytes[at..end]);
        at = end;
    }
    stream.finish()
}

/// Split `text` into pieces at random char boundaries (anywhere in the JSON text: inside
/// strings, escapes such as `\"` and `\u00e9`, numbers, keys).
fn split_text(text: &str, rng: &mut Rng) -> Vec<String> {
    let boundaries: Vec<usize> = (1..text.len()).filter(|&i| text.is_char_boundary(i)).collect();
    let mut cuts: Vec<usize> = boundaries.into_iter().filter(|_| rng.below(4) == 0).collect();
    cuts.push(text.len());
    let mut pieces = Vec::new();
    let mut start = 0;
    for cut in cuts {
        pieces.push(text[start..cut].to_owned());
        start = cut;
    }
    pieces
}

/// The recording with every argument fragment split differently: each fragment-carrying
/// event becomes several, each with a piece of the fragment, and consecutive fragment
/// events of one call are sometimes merged first.
fn rechunk(format: Format, chunks: &[Value], rng: &mut Rng) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    for chunk in chunks {
        let (pointer, fragment) = match fragment_of(format, chunk) {
            Some(found) => found,
            None => {
                out.push(chunk.clone());
                continue;
            }
        };
        // Merge with the previous event when it carried a fragment at the same place of the
        // same call.
        if rng.below(3) == 0 {
            if let Some(previous) = out.last_mut() {
                if same_call(format, previous, chunk) {
                    if let Some(Value::String(text)) = previous.pointer_mut(&pointer) {
                        text.push_str(&fragment);
                        continue;
                    }
                }
            }
        }
        for piece in split_text(&fragment, rng) {
            let mut copy = chunk.clone();
            if let Some(slot) = copy.pointer_mut(&pointer) {
                *slot = Value::String(piece);
            }
            out.push(copy);
        }
    }
    out
}

/// Where an event carries an argument fragment, and the fragment.
fn fragment_of(format: Format, chunk: &Value) -> Option<(String, String)> {
    let pointer = match format {
        Format::OpenAi => {
            let calls = chunk.pointer("/choices/0/delta/tool_calls")?.as_array()?;
            if calls.len() != 1 || chunk.pointer("/choices/0/finish_reason").is_some_and(|r| !r.is_null()) {
                return None;
            }
            "/choices/0/delta/tool_calls/0/function/arguments"
        }
        Format::Anthropic if chunk["delta"]["type"] == "input_json_delta" => "/delta/partial_json",
        Format::Responses if chunk["type"] == "response.function_call_arguments.delta" => "/delta",
        _ => return None,
    };
    let text = chunk.pointer(pointer)?.as_str()?;
    (!text.is_empty()).then(|| (pointer.to_owned(), text.to_owned()))
}

fn same_call(format: Format, a: &Value, b: &Value) -> bool {
    match format {
        Format::OpenAi => {
            let key = |v: &Value| {
                let call = &v["choices"][0]["delta"]["tool_calls"][0];
                (call["index"].clone(), call["id"].clone(), call["function"]["name"].clone())
            };
            fragment_of(format, a).is_some() && key(a) == key(b) && key(b).1.is_null() && key(b).2.is_null()
        }
        Format::Anthropic => a["type"] == b["type"] && a["index"] == b["index"],
        Format::Responses => a["type"] == b["type"] && a["item_id"] == b["item_id"],
        _ => false,
    }
}

fn check_errors(case: &Value, calls: &Calls) -> Result<(), String> {
    let Some(expected) = case.get("expected_errors").and_then(Value::as_array) else { return Ok(()) };
    for want in expected {
        let kind = want["kind"].as_str().unwrap_or("");
        if kind == "sdk_partial_result" {
            continue;
        }
        let found = calls.errors.iter().any(|error| {
            error.kind.code() == kind
                && want
                    .get("name")
                    .and_then(Value::as_str)
                    .is_none_or(|name| error.name.as_deref() == Some(name))
        });
        if !found {
            let got: Vec<_> = calls.errors.iter().map(|e| (e.kind.code(), e.name.clone())).collect();
            return Err(format!("expected error {want}, got {got:?}"));
        }
    }
    Ok(())
}

#[test]
fn every_streaming_case_with_expected_calls_gives_exactly_those_calls() {
    let mut failures = Vec::new();
    let (mut total, mut total_errors, mut changed) = (0, 0, 0);
    for file in FILES {
        let (mut run, mut matched, mut with_errors, mut errors_matched) = (0, 0, 0, 0);
        for (i, case) in cases(file).iter().enumerate() {
            let Some(chunks) = case.get("chunks").and_then(Value::as_array) else { continue };
            if case["streaming"] != true {
                continue;
            }
            let format = format_of(case["api"].as_str().unwrap());
            // Every recorded stream is read without panicking, expected or not.
            let detected = events(CallOptions::new(), chunks);
            assert_eq!(detected.format, format, "{file}[{i}]: detected format");
            let expected_calls = case.get("expected_calls");
            let expects_errors = case.get("expected_errors").is_some();
            if expected_calls.is_none() && !expects_errors {
                continue;
            }
            run += 1;
            with_errors += usize::from(expects_errors);
            let mut ok = true;
            let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ (i as u64 + 1));
            let mut readings = vec![
                ("detected", detected),
                ("given format", events(CallOptions::new().format(format), chunks)),
                ("sse bytes", sse_split(chunks, &CallOptions::new(), &mut rng)),
            ];
            for round in 0..8 {
                let rechunked = rechunk(format, chunks, &mut rng);
                changed += usize::from(&rechunked != chunks);
                readings.push((
                    if round == 0 { "rechunked" } else { "rechunked again" },
                    events(CallOptions::new(), &rechunked),
                ));
            }
            for (how, calls) in &readings {
                if let Some(expected) = expected_calls {
                    let got = summary(calls);
                    if &got != expected {
                        ok = false;
                        failures.push(format!(
                            "{file}[{i}] ({how}): expected {expected}\n  got {got}\n  errors {:?}",
                            calls.errors.iter().map(|e| &e.message).collect::<Vec<_>>()
                        ));
                    }
                }
                if let Err(message) = check_errors(case, calls) {
                    ok = false;
                    failures.push(format!("{file}[{i}] ({how}): {message}"));
                }
                if expects_errors && !calls.calls.is_empty() {
                    ok = false;
                    failures.push(format!("{file}[{i}] ({how}): a call came out of a cut-off stream"));
                }
                // Every call has an id, and the ids of one response differ.
                let mut ids: Vec<&str> = calls.calls.iter().map(|c| c.id.as_str()).collect();
                ids.sort_unstable();
                ids.dedup();
                assert_eq!(ids.len(), calls.calls.len(), "{file}[{i}]: duplicate ids");
            }
            matched += usize::from(ok);
            errors_matched += usize::from(ok && expects_errors);
        }
        if run > 0 {
            println!(
                "{file}: {matched} of {run} streaming cases match ({errors_matched} of {with_errors} with expected_errors)"
            );
        }
        total += run;
        total_errors += with_errors;
    }
    assert!(total >= 60, "only {total} streaming cases ran");
    assert!(total_errors >= 1, "the max_tokens case did not run");
    // The fragments really were split differently.
    assert!(changed >= 200, "only {changed} re-chunked streams differ from the recording");
    assert!(failures.is_empty(), "{} mismatches:\n{}", failures.len(), failures.join("\n"));
}

/// The stream cut off by `max_tokens` inside the tool's input: a `truncated` error that
/// names the tool and the bytes that arrived, and no call.
#[test]
fn the_stream_cut_off_by_max_tokens_is_a_truncated_error() {
    let case = cases("anthropic-sdk-python.json")
        .into_iter()
        .find(|case| case.get("expected_errors").is_some())
        .expect("the max_tokens case");
    let calls = events(CallOptions::new(), case["chunks"].as_array().unwrap());
    assert!(calls.calls.is_empty());
    assert_eq!(calls.errors.len(), 1);
    let error = &calls.errors[0];
    assert_eq!(error.kind.code(), "truncated");
    assert_eq!(error.name.as_deref(), Some("make_file"));
    assert_eq!(error.id, "toolu_01EKqbqmZrGRXy18eN7m9kvY");
    let arrived: usize = case["chunks"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c.pointer("/delta/partial_json").and_then(Value::as_str))
        .map(str::len)
        .sum();
    assert!(error.message.contains(&format!("{arrived} bytes")), "{}", error.message);
    assert!(error.message.contains("max_tokens") && error.message.contains("make_file"), "{}", error.message);
}

/// A second `message_start` while a tool's input streams: the first call is cut off, the
/// second is read.
#[test]
fn a_second_message_start_cuts_off_the_open_call() {
    let case = cases("vercel-ai.json")
        .into_iter()
        .find(|case| case["source"].as_str().unwrap_or("").contains("spliced-message-start"))
        .expect("the spliced case");
    let calls = events(CallOptions::new(), case["chunks"].as_array().unwrap());
    assert_eq!(summary(&calls), json!([{"name": "test-tool", "arguments": {"value": "Sparkle Day"}}]));
    assert_eq!(calls.calls[0].id, "toolu_second");
    assert_eq!(calls.errors.len(), 1);
    assert_eq!(calls.errors[0].kind.code(), "truncated");
    assert_eq!(calls.errors[0].id, "toolu_first");
    assert_eq!(calls.errors[0].name.as_deref(), Some("test-tool"));
}

/// The streamed text cases (`text_chunks`), fed chunk by chunk: the same calls as the whole
/// text read at once, and those Ollama's parser ends with, except where the two readers'
/// rules differ (printed).
#[test]
fn streamed_text_cases_equal_the_whole_text() {
    let (mut run, mut matched, mut streaming, mut streaming_matched) = (0, 0, 0, 0);
    let mut differ = Vec::new();
    for case in cases("ollama-tool-parser-text.json") {
        let Some(chunks) = case.get("text_chunks").and_then(Value::as_array) else { continue };
        run += 1;
        let is_streaming = case["streaming"] == true;
        streaming += usize::from(is_streaming);
        let options = text_options(&case);
        let mut stream = StreamAssembler::new(options.clone());
        for chunk in chunks {
            stream.push_text(chunk.as_str().unwrap());
        }
        let streamed = stream.finish();
        let whole = parse_text(case["payload"].as_str().unwrap(), &options);
        assert_eq!(summary(&streamed), summary(&whole), "{}", case["note"]);
        assert_eq!(streamed.content, whole.content, "{}", case["note"]);
        let kinds = |calls: &Calls| calls.errors.iter().map(|e| e.kind.code()).collect::<Vec<_>>();
        assert_eq!(kinds(&streamed), kinds(&whole), "{}", case["note"]);
        if Some(&summary(&streamed)) == case.get("expected_calls") {
            matched += 1;
            streaming_matched += usize::from(is_streaming);
        } else {
            differ.push(case["note"].as_str().unwrap_or("").chars().take(40).collect::<String>());
        }
    }
    println!(
        "text cases fed in chunks: {matched} of {run} match Ollama's expected calls \
         ({streaming_matched} of the {streaming} streaming ones); differ: {differ:?}"
    );
    assert!(run >= 14 && matched + 1 >= run, "{matched} of {run}");
}

/// Every recording, shuffled, with events dropped and repeated: never a panic, and every
/// error can still be answered (it has an id).
#[test]
fn shuffled_and_damaged_recordings_never_panic() {
    let mut rng = Rng(42);
    for file in FILES {
        for case in cases(file) {
            let Some(chunks) = case.get("chunks").and_then(Value::as_array) else { continue };
            for _ in 0..4 {
                let mut mixed: Vec<Value> = Vec::new();
                for chunk in chunks {
                    match rng.below(6) {
                        0 => {}
                        1 => {
                            mixed.push(chunk.clone());
                            mixed.push(chunk.clone());
                        }
                        _ => mixed.push(chunk.clone()),
                    }
                }
                for i in (1..mixed.len()).rev() {
                    if rng.below(3) == 0 {
                        let j = rng.below(i + 1);
                        mixed.swap(i, j);
                    }
                }
                let calls = events(CallOptions::new(), &mixed);
                assert!(calls.errors.iter().all(|error| !error.id.is_empty()));
                // And as a body cut at a random byte.
                let body = sse_body(&mixed);
                let cut = rng.below(body.len());
                let mut stream = StreamAssembler::new(CallOptions::new());
                stream.push_sse_bytes(&body.as_bytes()[..cut]);
                let _ = stream.finish();
            }
        }
    }
}
