//! One function per fuzz target: what must hold for any input. Each panics (with a message
//! saying which property broke) when it does not hold.

use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::parse::{parse_bytes, parse_without_fast_path, ParseMode, ParseOptions};
use tool_input::{CheckOptions, Limits, ToolInput};

/// The lenient parser on any bytes: no panic; strict acceptance is exactly serde_json's,
/// with the same value; whatever strict mode accepts, lenient mode accepts unchanged and
/// without a repair; the fast path and our own parser agree.
pub fn parse(data: &[u8]) {
    let strict = ParseOptions::strict();
    let lenient = ParseOptions::default();
    let completing = ParseOptions::default().with_complete_truncated(true);
    let ours = parse_without_fast_path(data, &strict);
    let theirs =
        std::str::from_utf8(data).ok().and_then(|text| serde_json::from_str::<serde_json::Value>(text).ok());
    match (&ours, &theirs) {
        (Ok(parsed), Some(value)) => assert_eq!(&parsed.value, value, "strict value differs from serde_json"),
        (Err(_), None) => {}
        (Ok(_), None) => panic!("strict mode accepted what serde_json refuses"),
        (Err(error), Some(_)) => {
            // serde_json has no depth limit beyond 128; ours is the same default.
            assert!(
                matches!(error, tool_input::parse::ParseError::TooDeep { .. }),
                "strict mode refused what serde_json accepts: {error}"
            )
        }
    }
    let through_api = parse_bytes(data, &strict);
    assert_eq!(ours.is_ok(), through_api.is_ok(), "the fast path and our parser disagree");
    let loose = parse_bytes(data, &lenient);
    if let Ok(exact) = &through_api {
        let loose = loose.as_ref().expect("lenient mode refused strict JSON");
        if loose.repairs.is_empty() {
            assert_eq!(loose.value, exact.value, "lenient mode changed strict JSON");
        }
    }
    let own_loose = parse_without_fast_path(data, &lenient);
    // On bytes that are not UTF-8 the two differ by design: `parse_bytes` refuses them up
    // front, our parser reads bytes and refuses invalid UTF-8 only where it lands in a
    // string or key (as a streamed input must), so prose around the value may hold any.
    if std::str::from_utf8(data).is_ok() {
        assert_eq!(own_loose.is_ok(), loose.is_ok(), "lenient: the fast path and our parser disagree");
        // The fast paths (strict JSON, strict JSON in a frame of prose or a code fence) read
        // what our parser reads, with the same repairs.
        if let (Ok(own), Ok(fast)) = (&own_loose, &loose) {
            assert_eq!(own, fast, "lenient: the fast path read otherwise than our parser");
        }
    }
    let completed = parse_bytes(data, &completing);
    if loose.is_ok() {
        assert!(completed.is_ok(), "completion refused what lenient mode accepts");
    }
    for parsed in [&loose, &completed].into_iter().flatten() {
        records_span_the_input(parsed, data.len());
    }
    let _ = ParseMode::Lenient;

    // Repair mode, in both styles and both completions: no panic; on UTF-8 input that is
    // not JSON, `parse_bytes` is our own parser. (Valid JSON is `serde_json`'s reading by
    // contract, in the one-shot and the incremental parser alike; our parser's own guesses
    // about quotes may read it otherwise, as `{"": "{'"}`.)
    for style in [tool_input::parse::RepairStyle::Jsonrepair, tool_input::parse::RepairStyle::JsonRepair] {
        for stream_stable in [true, false] {
            let options = ParseOptions::repair()
                .with_style(style)
                .with_stream_stable(stream_stable)
                .with_complete_truncated(true);
            let repaired = parse_bytes(data, &options);
            if let Ok(parsed) = &repaired {
                records_span_the_input(parsed, data.len());
            }
            if std::str::from_utf8(data).is_ok() && theirs.is_none() {
                let own = parse_without_fast_path(data, &options);
                assert_eq!(repaired, own, "repair mode: the fast path and our parser disagree");
            }
        }
    }
}

/// Each repair record spans the part of the input it counts: from its first repair's offset
/// to its last's, within the input's `len` bytes.
fn records_span_the_input(parsed: &tool_input::parse::Parsed, len: usize) {
    for repair in &parsed.repairs {
        assert!(
            repair.offset <= repair.last_offset && repair.last_offset <= len,
            "a repair record outside its span: {repair:?} in {len} bytes"
        );
    }
}

/// A tool input with nested structs, enums, options and constraints.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
pub struct Order {
    #[schemars(length(min = 1, max = 20))]
    pub customer: String,
    pub priority: Priority,
    pub items: Vec<Item>,
    pub note: Option<String>,
    pub shape: Option<Shape>,
    #[serde(default)]
    pub gift: bool,
    #[tool_input(sensitive)]
    pub coupon: Option<String>,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Priority {
    Low,
    High,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
pub struct Item {
    #[schemars(regex(pattern = r"^[A-Z]{3}-\d{4}$"))]
    pub sku: String,
    #[schemars(range(min = 1, max = 1000))]
    pub quantity: u16,
    pub tags: Option<Vec<String>>,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Shape {
    Box { side: f64 },
    Tube { radius: f64, length: f64 },
}

/// The whole pipeline into a derived type, on any bytes: no panic; the one-pass path and
/// the full path agree; every rejection names at least one error, each with a path that is
/// a JSON Pointer; a sensitive value never shows; small limits give their own errors.
pub fn pipeline(data: &[u8]) {
    let options = CheckOptions::default();
    let result = Order::from_arguments_with(data, &options);
    let full = tool_input::__private::from_arguments_full::<Order>(data.into(), &options);
    paths_agree(&result, &full);
    if let Err(rejection) = &result {
        assert!(!rejection.errors().is_empty(), "a rejection without errors");
        for error in rejection.errors() {
            assert!(
                error.path().is_empty() || error.path().starts_with('/'),
                "not a JSON Pointer: {}",
                error.path()
            );
            assert!(!error.message().is_empty());
        }
        let text = rejection.to_string();
        assert!(text.len() < 20_000, "an unbounded message");
    }
    if let Ok(checked) = &result {
        // Coercion is idempotent: the checked value, checked again, changes nothing more.
        let again = Order::definition()
            .check(&serde_json::to_value(checked_value(&checked.value)).unwrap_or_default());
        if let Ok(again) = again {
            assert!(
                again.report.coercions.iter().all(|c| c.kind == tool_input::CoercionKind::DefaultFilled),
                "a second check coerced again: {:?}",
                again.report.coercions
            );
        }
    }
    let tiny = options.with_limits(
        Limits::default()
            .with_max_bytes(64)
            .with_max_depth(3)
            .with_max_echo_chars(8)
            .with_max_string_bytes(16)
            .with_max_errors(4)
            .with_max_coercions(2),
    );
    let small = Order::from_arguments_with(data, &tiny);
    paths_agree(&small, &tool_input::__private::from_arguments_full::<Order>(data.into(), &tiny));
    // The untyped check (one pass over the parsed value where it can) and the walk alone:
    // the same value, report (coercions in the same order) and rejection.
    let validator = Order::definition().validator();
    for options in [&options, &tiny] {
        let untyped = validator.check_with(data.into(), options);
        let walked = tool_input::__private::check_by_walk(validator, data.into(), options);
        assert_eq!(untyped, walked, "the untyped one pass and the walk disagree");
    }
}

/// The typed path (one pass where it can) and the full path give the same value, the same
/// report (coercions in the same order: the walk's, `check/order.rs`) and the same rejection.
fn paths_agree(
    result: &Result<tool_input::Checked<Order>, tool_input::Rejection>,
    full: &Result<tool_input::Checked<Order>, tool_input::Rejection>,
) {
    match (result, full) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a.value, b.value, "the one-pass and full paths disagree");
            assert_eq!(a.report.repairs, b.report.repairs, "the paths report different repairs");
            assert_eq!(a.report.coercions, b.report.coercions, "the paths report different coercions");
            assert_eq!(
                a.report.omitted_coercions, b.report.omitted_coercions,
                "the paths count different coercions past the records' limit"
            );
        }
        (Err(a), Err(b)) => assert_eq!(a, b, "the one-pass and full paths reject differently"),
        _ => panic!("the one-pass and full paths disagree: {result:?} / {full:?}"),
    }
}

/// The checked JSON of an accepted order, rebuilt for the idempotence check.
fn checked_value(order: &Order) -> serde_json::Value {
    let items: Vec<serde_json::Value> = order
        .items
        .iter()
        .map(|item| {
            let mut value = serde_json::json!({"sku": item.sku, "quantity": item.quantity});
            if let Some(tags) = &item.tags {
                value["tags"] = serde_json::json!(tags);
            }
            value
        })
        .collect();
    let mut value = serde_json::json!({
        "customer": order.customer,
        "priority": match order.priority { Priority::Low => "low", Priority::High => "high" },
        "items": items,
        "gift": order.gift,
    });
    if let Some(note) = &order.note {
        value["note"] = serde_json::json!(note);
    }
    if let Some(coupon) = &order.coupon {
        value["coupon"] = serde_json::json!(coupon);
    }
    match &order.shape {
        Some(Shape::Box { side }) => value["shape"] = serde_json::json!({"kind": "box", "side": side}),
        Some(Shape::Tube { radius, length }) => {
            value["shape"] = serde_json::json!({"kind": "tube", "radius": radius, "length": length})
        }
        None => {}
    }
    value
}

/// The tools the call checks know about.
const TOOLS: [&str; 3] = ["get_weather", "search", "write_file"];

/// Text tool-call extraction on any text: no panic; with known tools, every call names one
/// of them; the JSON rendering works; the text as reasoning (an unclosed `<think>`, or a
/// closed block before a call) gives no call of its own. Then the same bytes build a call
/// that gives a key twice ([`repeated_keywords`]).
pub fn text_calls(data: &[u8]) {
    use tool_input::calls::{parse_text, CallOptions, TextFormat};
    let Some((&first, rest)) = data.split_first() else { return };
    let text = String::from_utf8_lossy(rest);
    let known = parse_text(&text, &CallOptions::new().tools(TOOLS));
    for call in &known.calls {
        assert!(TOOLS.contains(&call.name.as_str()), "a call to an unknown tool: {}", call.name);
    }
    let _ = known.to_json();
    let _ = parse_text(&text, &CallOptions::new()).to_json();
    // Named: the first byte picks the format, every one of them in turn.
    let format = TextFormat::ALL[usize::from(first) % TextFormat::ALL.len()];
    let named = parse_text(&text, &CallOptions::new().tools(TOOLS).text_format(format));
    for call in &named.calls {
        assert!(TOOLS.contains(&call.name.as_str()), "a call to an unknown tool: {}", call.name);
    }
    // Reasoning is never read for calls: after an opening `<think>` that nothing closes,
    // there is none.
    if !text.contains("</think>") {
        let thinking = parse_text(&format!("<think>{text}"), &CallOptions::new());
        assert!(thinking.calls.is_empty() && thinking.errors.is_empty(), "a call read from reasoning");
    }
    // Nor from a closed block: the call after it is the only one, whatever the block holds
    // (markers of any format, cut blocks, keys given twice). A `<think>` inside it opens a
    // nested block, which the first `</think>` closes, so such text is left out.
    if !text.contains("</think>") && !text.contains("<think>") {
        let after = r#"<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>"#;
        let closed = parse_text(&format!("<think>{text}</think>{after}"), &CallOptions::new().tools(TOOLS));
        let made: Vec<&str> = closed.calls.iter().map(|c| c.name.as_str()).collect();
        assert!(
            made == ["get_weather"] && closed.errors.is_empty(),
            "reasoning changed the calls after it: {text:?}: {made:?} {:?}",
            closed.errors
        );
    }
    streamed_as_it_arrives(&text, format, first);
    repeated_keywords(data);
}

/// The text streamed with its format named, in pieces of a size the first byte picks: what
/// `calls()` shows as the text arrives is always the start of what the end gives.
fn streamed_as_it_arrives(text: &str, format: tool_input::calls::TextFormat, first: u8) {
    use tool_input::calls::{CallOptions, Format};
    use tool_input::stream::StreamAssembler;
    let made = |calls: &[tool_input::calls::ToolCall]| -> Vec<(String, serde_json::Value)> {
        calls.iter().map(|c| (c.name.clone(), serde_json::Value::Object(c.arguments.clone()))).collect()
    };
    let mut stream =
        StreamAssembler::new(CallOptions::new().tools(TOOLS).format(Format::Text).text_format(format))
            .with_events();
    let step = 1 + usize::from(first % 7);
    let mut shown = Vec::new();
    let mut pos = 0;
    while pos < text.len() {
        let mut end = (pos + step).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        stream.push_text(&text[pos..end]);
        let now = made(stream.calls());
        assert!(now.len() >= shown.len() && now[..shown.len()] == shown[..], "a shown call changed");
        // The calls being written, in every format's reader: after the final ones, their
        // arguments an object, their text within what arrived.
        for open in stream.open_calls() {
            assert!(open.position >= now.len(), "an open call before a final one: {text:?}");
            assert!(open.arguments_partial.is_none_or(serde_json::Value::is_object), "{text:?}");
            assert!(open.bytes <= end, "{text:?}");
        }
        let _ = stream.take_events();
        // Each call to `write_file` shown typed too, asked after every piece.
        for position in 0..stream.open_calls().last().map_or(now.len(), |open| open.position + 1) {
            let _ = stream.partial::<WriteFile>(position);
        }
        shown = now;
        pos = end;
    }
    // Asked once the text has arrived, a typed partial is the one asked after every piece.
    let mut late =
        StreamAssembler::new(CallOptions::new().tools(TOOLS).format(Format::Text).text_format(format));
    late.push_text(text);
    let positions = late.open_calls().last().map_or(late.calls().len(), |open| open.position + 1);
    for position in 0..positions {
        let every = stream.partial::<WriteFile>(position).cloned();
        if let Some(every) = every {
            assert_eq!(late.partial::<WriteFile>(position), Some(&every), "{text:?}: call {position}");
        }
    }
    let end = made(&stream.finish().calls);
    assert!(
        shown.len() <= end.len() && end[..shown.len()] == shown[..],
        "a shown call is not the end's: {text:?}"
    );
}

/// The tool `write_file`, for its typed partial while a text call streams.
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
#[allow(dead_code)] // read through its partial
struct WriteFile {
    path: Option<String>,
    content: Option<String>,
}

/// A call that gives a key twice, built from the bytes: a Python keyword, a qwen3-coder,
/// GLM, MiniMax or Gemma 4 parameter (`dir`), or a JSON call's `name`, each with two values. The property: with
/// one value twice the call runs with it (the tool's check records the repeat); with two,
/// a JSON call's name is a `duplicate_key` error, and a keyword's call carries both values
/// on its record, so the tool's check rejects it as `duplicate_key`: never one value
/// picked in silence.
pub fn repeated_keywords(data: &[u8]) {
    use tool_input::calls::{parse_text, CallOptions};
    use tool_input::{CoercionKind, ErrorCode, Validator};
    let mut pick = Choices(data);
    let format = pick.next(6);
    let mut value =
        || -> String { (0..pick.next(4)).map(|_| char::from(b'a' + pick.next(3) as u8)).collect() };
    let (first, second) = (value(), value());
    let text = match format {
        0 => format!("[list_files(dir='{first}', dir='{second}')]"),
        1 => format!("<tool_call>\n<function=list_files>\n<parameter=dir>\n{first}\n</parameter>\n<parameter=dir>\n{second}\n</parameter>\n</function>\n</tool_call>"),
        2 => format!("<tool_call>list_files<arg_key>dir</arg_key><arg_value>{first}</arg_value><arg_key>dir</arg_key><arg_value>{second}</arg_value></tool_call>"),
        3 => format!("<tool_call>{{\"name\": \"list_{first}\", \"arguments\": {{}}, \"name\": \"list_{second}\"}}</tool_call>"),
        4 => format!("<minimax:tool_call><invoke name=\"list_files\"><parameter name=\"dir\">{first}</parameter><parameter name=\"dir\">{second}</parameter></invoke></minimax:tool_call>"),
        _ => format!("<|tool_call>call:list_files{{dir:<|\"|>{first}<|\"|>,dir:<|\"|>{second}<|\"|>}}<tool_call|>"),
    };
    let calls = parse_text(&text, &CallOptions::new());
    if format == 3 {
        if first == second {
            assert_eq!(calls.calls.len(), 1, "{text}: {:?}", calls.errors);
        } else {
            assert!(calls.calls.is_empty(), "{text}: one name picked: {:?}", calls.calls);
            assert_eq!(calls.errors[0].kind.code(), "duplicate_key", "{text}");
        }
        return;
    }
    let schema = serde_json::json!({"type": "object", "properties": {"dir": {"type": "string"}}});
    let validator = Validator::new(&schema).expect("a valid schema");
    assert_eq!(calls.calls.len(), 1, "{text}: {:?}", calls.errors);
    let checked = validator.check(calls.calls[0].original.as_raw());
    if first == second {
        let checked = checked.unwrap_or_else(|rejection| panic!("{text}: {rejection}"));
        assert_eq!(checked.value["dir"], serde_json::json!(first), "{text}");
        assert!(checked.report.coercions.iter().any(|c| c.kind == CoercionKind::DuplicateKey), "{text}");
    } else {
        let rejection = checked.expect_err("two values of one key accepted");
        assert!(
            rejection.errors().iter().any(|e| e.code() == ErrorCode::DuplicateKey),
            "{text}: {rejection}"
        );
    }
}

/// What a response's calls amount to, without the generated ids (random per process).
fn summary(calls: &tool_input::calls::Calls) -> (Vec<(String, serde_json::Value)>, Vec<String>) {
    let made = calls
        .calls
        .iter()
        .map(|c| (c.name.clone(), serde_json::Value::Object(c.arguments.clone())))
        .collect();
    let failed = calls.errors.iter().map(|e| e.kind.code().to_owned()).collect();
    (made, failed)
}

/// The stream assembler on any bytes, as an SSE body: no panic; fed whole or in pieces of
/// any size (the first byte picks it), with the open calls looked at after every piece, the
/// result is the same; as text chunks, the same as reading the whole text at once. Then the
/// same bytes drive [`stream_events`].
pub fn stream(data: &[u8]) {
    stream_bytes(data);
    stream_events(data);
}

fn stream_bytes(data: &[u8]) {
    use tool_input::calls::{parse_text, CallOptions, Format};
    use tool_input::StreamAssembler;
    let Some((&first, body)) = data.split_first() else { return };
    let size = usize::from(first % 17) + 1;
    let mut whole = StreamAssembler::new(CallOptions::new());
    whole.push_sse_bytes(body);
    let whole = whole.finish();
    let mut pieces = StreamAssembler::new(CallOptions::new());
    for chunk in body.chunks(size) {
        pieces.push_sse_bytes(chunk);
        let _ = pieces.open_calls();
    }
    assert_eq!(summary(&whole), summary(&pieces.finish()), "pieces of {size} bytes read differently");

    // The incremental parser, fed the same pieces with the partial value read after each:
    // the same result as the one-shot parse of the whole (on UTF-8 input, where
    // `parse_bytes` reads the same way; on any input, no panic).
    let python = ParseOptions::repair()
        .with_style(tool_input::parse::RepairStyle::JsonRepair)
        .with_complete_truncated(true);
    for options in [ParseOptions::default(), ParseOptions::strict(), ParseOptions::repair(), python] {
        let mut parser = tool_input::parse::IncrementalParser::new(options.clone());
        // Another, asked now and then: the partial value it brings up to date over several
        // pieces is the one brought up to date after each.
        let mut now_and_then = tool_input::parse::IncrementalParser::new(options.clone());
        for (k, chunk) in body.chunks(size).enumerate() {
            let _ = parser.feed_bytes(chunk);
            let _ = now_and_then.feed_bytes(chunk);
            let every = parser.partial();
            if k % (usize::from(first % 5) + 2) == 0 {
                assert_eq!(now_and_then.partial(), every, "the partial value after piece {k}");
            }
        }
        let incremental = parser.finish();
        if std::str::from_utf8(body).is_ok() {
            let whole = parse_bytes(body, &options);
            match (&incremental, &whole) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "incremental and one-shot parses differ"),
                (Err(_), Err(_)) => {}
                _ => panic!("incremental {incremental:?} but one-shot {whole:?}"),
            }
        }
    }

    let text = String::from_utf8_lossy(body);
    let options = CallOptions::new().format(Format::Text).tools(TOOLS);
    let mut streamed = StreamAssembler::new(options.clone());
    let mut rest: &str = &text;
    while !rest.is_empty() {
        let mut cut = size.min(rest.len());
        while !rest.is_char_boundary(cut) {
            cut += 1;
        }
        streamed.push_text(&rest[..cut]);
        rest = &rest[cut..];
    }
    streamed.push_done();
    assert_eq!(
        summary(&streamed.finish()),
        summary(&parse_text(&text, &options)),
        "text streamed reads differently"
    );
}

/// Reads the bytes of a fuzz input as choices, 0 once they run out.
struct Choices<'d>(&'d [u8]);

impl Choices<'_> {
    fn next(&mut self, below: usize) -> usize {
        match self.0.split_first() {
            Some((&first, rest)) => {
                self.0 = rest;
                usize::from(first) % below.max(1)
            }
            None => 0,
        }
    }
}

/// One event of a generated stream: the call it belongs to (`None` for the response's own
/// events), whether it is the end marker, and whether sending it twice is harmless by the
/// API's own rules (a start, a stop, an end; never an argument fragment, which no API
/// numbers).
struct Sent {
    event: serde_json::Value,
    call: Option<usize>,
    end: bool,
    repeatable: bool,
}

/// The name of the call sent after the stream's end marker: never returned.
const LATE: &str = "late_tool";

/// A stream built from the bytes in one API's format (Chat Completions, Anthropic,
/// Responses or Gemini) with up to four calls, then damaged (an event made unreadable),
/// reordered (the events of two calls interleaved otherwise), duplicated (a start or stop
/// sent twice) and given reused ids (a call taking another's id), and cut (its end marker
/// and what follows gone), all at random. Chat Completions calls may send their name after
/// their arguments, and a chunk may carry two choices with one index; a call (or more of
/// one) may follow the end marker. The property: every call returned is one that was sent,
/// whole (never two merged, never a piece); a cut stream returns no call; a sent call that
/// is not returned is reported by an error; nothing sent after the end marker is returned,
/// nor a call it adds to; a stream with two choices of one index returns no call.
pub fn stream_events(data: &[u8]) {
    use serde_json::{json, Value};
    use tool_input::calls::CallOptions;
    use tool_input::StreamAssembler;

    let mut pick = Choices(data);
    let api = pick.next(4);
    let count = 1 + pick.next(4);
    // The calls: distinct names, small arguments, split into fragments.
    let calls: Vec<(String, Value)> = (0..count)
        .map(|n| {
            let args = json!({"n": n, "text": "ab\"c".repeat(pick.next(3)), "list": [pick.next(100)]});
            (format!("tool_{n}"), args)
        })
        .collect();
    let mut ids: Vec<String> = (0..count).map(|n| format!("id_{n}")).collect();
    if count > 1 && pick.next(3) == 0 {
        // A call takes the id of another.
        let (from, to) = (pick.next(count), pick.next(count));
        ids[to] = ids[from].clone();
    }
    let fragments = |args: &Value, pick: &mut Choices<'_>| -> Vec<String> {
        let text = args.to_string();
        let mut pieces = Vec::new();
        let mut rest = text.as_str();
        while !rest.is_empty() {
            let mut cut = (1 + pick.next(12)).min(rest.len());
            while !rest.is_char_boundary(cut) {
                cut += 1;
            }
            pieces.push(rest[..cut].to_owned());
            rest = &rest[cut..];
        }
        pieces
    };
    let mut sent: Vec<Sent> = Vec::new();
    let mut push = |event: Value, call: Option<usize>, end: bool, repeatable: bool| {
        sent.push(Sent { event, call, end, repeatable })
    };
    // What follows the end marker, if anything: a new call, or more of call 0.
    let late = pick.next(4);
    let mut twins = false;
    match api {
        0 => {
            // With nothing after the end, some streams repeat the id on every delta (LiteLLM,
            // vLLM): a repeated id goes on with its call, never starts another.
            let id_every_delta = late == 3;
            for (n, (name, args)) in calls.iter().enumerate() {
                // The name after the arguments, on a delta of its own.
                let name_late = pick.next(4) == 0;
                let first_name = if name_late { Value::Null } else { json!(name) };
                let mut start = json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": n, "id": ids[n], "type": "function", "function": {"name": first_name, "arguments": ""}}]}}]});
                if pick.next(8) == 0 {
                    // A second choice with the same index in the same chunk.
                    let twin = json!({"index": 0, "delta": {"tool_calls": [{"index": n, "id": "twin", "type": "function", "function": {"name": "twin_tool", "arguments": "{}"}}]}});
                    if let Some(choices) = start["choices"].as_array_mut() {
                        choices.push(twin);
                    }
                    twins = true;
                }
                push(start, Some(n), false, true);
                for piece in fragments(args, &mut pick) {
                    let mut delta = json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": n, "function": {"arguments": piece}}]}}]});
                    if id_every_delta {
                        delta["choices"][0]["delta"]["tool_calls"][0]["id"] = json!(ids[n]);
                    }
                    push(delta, Some(n), false, false);
                }
                if name_late {
                    let named = json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": n, "function": {"name": name}}]}}]});
                    push(named, Some(n), false, false);
                }
            }
            push(
                json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}),
                None,
                true,
                true,
            );
            match late {
                1 => push(
                    json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": count, "id": "late", "function": {"name": LATE, "arguments": "{}"}}]}}]}),
                    Some(count),
                    false,
                    false,
                ),
                2 => push(
                    json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": " "}}]}}]}),
                    Some(0),
                    false,
                    false,
                ),
                _ => {}
            }
        }
        1 => {
            push(json!({"type": "message_start", "message": {"content": []}}), None, false, false);
            for (n, (name, args)) in calls.iter().enumerate() {
                let start = json!({"type": "content_block_start", "index": n, "content_block": {"type": "tool_use", "id": ids[n], "name": name, "input": {}}});
                push(start, Some(n), false, true);
                for piece in fragments(args, &mut pick) {
                    let delta = json!({"type": "content_block_delta", "index": n, "delta": {"type": "input_json_delta", "partial_json": piece}});
                    push(delta, Some(n), false, false);
                }
                push(json!({"type": "content_block_stop", "index": n}), Some(n), false, true);
            }
            push(json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}}), None, false, true);
            push(json!({"type": "message_stop"}), None, true, true);
            match late {
                1 => {
                    let start = json!({"type": "content_block_start", "index": count, "content_block": {"type": "tool_use", "id": "late", "name": LATE, "input": {}}});
                    push(start, Some(count), false, false);
                    push(json!({"type": "content_block_stop", "index": count}), Some(count), false, false);
                }
                2 => {
                    let delta = json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": " "}});
                    push(delta, Some(0), false, false);
                }
                _ => {}
            }
        }
        2 => {
            for (n, (name, args)) in calls.iter().enumerate() {
                let item = |arguments: &str| json!({"type": "function_call", "id": format!("fc_{}", ids[n]), "call_id": ids[n], "name": name, "arguments": arguments});
                push(
                    json!({"type": "response.output_item.added", "output_index": n, "item": item("")}),
                    Some(n),
                    false,
                    true,
                );
                for piece in fragments(args, &mut pick) {
                    let delta = json!({"type": "response.function_call_arguments.delta", "output_index": n, "item_id": format!("fc_{}", ids[n]), "delta": piece});
                    push(delta, Some(n), false, false);
                }
                let done = json!({"type": "response.output_item.done", "output_index": n, "item": item(&args.to_string())});
                push(done, Some(n), false, true);
            }
            push(
                json!({"type": "response.completed", "response": {"status": "completed"}}),
                None,
                true,
                true,
            );
            if late == 1 {
                let item = json!({"type": "function_call", "id": "fc_late", "call_id": "late", "name": LATE, "arguments": "{}"});
                push(
                    json!({"type": "response.output_item.done", "output_index": count, "item": item}),
                    Some(count),
                    false,
                    false,
                );
            }
        }
        _ => {
            for (n, (name, args)) in calls.iter().enumerate() {
                let part = json!({"candidates": [{"content": {"parts": [{"functionCall": {"id": ids[n], "name": name, "args": args}}]}}]});
                push(part, Some(n), false, true);
            }
            push(
                json!({"candidates": [{"content": {"parts": []}, "finishReason": "STOP"}]}),
                None,
                true,
                true,
            );
            if late == 1 {
                let part = json!({"candidates": [{"content": {"parts": [{"functionCall": {"id": "late", "name": LATE, "args": {}}}]}}]});
                push(part, Some(count), false, false);
            }
        }
    }
    // Interleave: swap neighbours that belong to two different calls.
    for _ in 0..pick.next(8) {
        let at = pick.next(sent.len().saturating_sub(1));
        if at + 1 < sent.len() {
            let (a, b) = (sent[at].call, sent[at + 1].call);
            if a.is_some() && b.is_some() && a != b {
                sent.swap(at, at + 1);
            }
        }
    }
    // Duplicate the events an API may repeat.
    for _ in 0..pick.next(3) {
        let at = pick.next(sent.len());
        if sent[at].repeatable {
            let copy = Sent { event: sent[at].event.clone(), ..sent[at] };
            sent.insert(at + 1, copy);
        }
    }
    // Damage events: the calls they belong to are damaged (or the stream's end is gone).
    let mut damaged = vec![false; sent.len()];
    for _ in 0..pick.next(3) {
        damaged[pick.next(sent.len())] = true;
    }
    // Cut: the stream loses its end marker and everything after it.
    let cut = pick.next(3) == 0;
    if cut {
        let first_end = sent.iter().position(|event| event.end).unwrap_or(sent.len());
        let keep = pick.next(first_end + 1);
        sent.truncate(keep);
        damaged.truncate(keep);
    }
    let mut body = String::new();
    for (event, &damaged) in sent.iter().zip(&damaged) {
        let data = if damaged { format!("{{\"damaged\": {}", event.event) } else { event.event.to_string() };
        body.push_str(&format!("data: {data}\n\n"));
    }
    let mut stream = StreamAssembler::new(CallOptions::new());
    for piece in body.as_bytes().chunks(1 + pick.next(64)) {
        stream.push_sse_bytes(piece);
    }
    let result = stream.finish();
    let ended = sent.iter().zip(&damaged).any(|(event, &damaged)| event.end && !damaged);
    // Nothing after the end marker is returned, nor a call it adds to.
    let end_at = sent.iter().position(|event| event.end).unwrap_or(sent.len());
    for (event, &damaged) in sent.iter().zip(&damaged).skip(end_at + 1) {
        let Some(n) = event.call.filter(|_| !damaged && !event.end) else { continue };
        let name = if n == count { LATE } else { calls[n].0.as_str() };
        assert!(
            result.calls.iter().all(|call| call.name != name),
            "{name}, sent after the end marker, came back\n{body}"
        );
        assert!(!result.errors.is_empty(), "an event after the end marker went unreported\n{body}");
    }
    // Two choices with one index: no call of that choice runs.
    let twinned = twins
        && sent.iter().zip(&damaged).any(|(event, &damaged)| {
            !damaged && event.event["choices"].as_array().is_some_and(|c| c.len() > 1)
        });
    assert!(!twinned || result.calls.is_empty(), "a call of two choices with one index came back\n{body}");
    for call in &result.calls {
        let arguments = Value::Object(call.arguments.clone());
        assert!(call.name != "twin_tool", "a call of a repeated choice index came back\n{body}");
        assert!(
            calls.iter().any(|(name, args)| *name == call.name && *args == arguments),
            "a call that was never sent came back: {} {arguments}\n{body}",
            call.name
        );
        assert!(ended, "a call came back from a stream cut before its end: {}\n{body}", call.name);
    }
    let whole =
        |n: usize| !sent.iter().zip(&damaged).any(|(event, &damaged)| damaged && event.call == Some(n));
    let returned = |n: usize| result.calls.iter().any(|call| call.name == calls[n].0);
    for n in 0..count {
        if sent.iter().any(|event| event.call == Some(n)) && !returned(n) {
            assert!(
                !result.errors.is_empty(),
                "call {n} was sent and lost in silence (whole: {})\n{body}",
                whole(n)
            );
        }
    }
}

/// The checker over any schema: `data` is a schema's JSON text, a NUL byte, then raw
/// arguments (the seeds are the JSON-Schema-Test-Suite's schemas and instances, see
/// `fuzz/README.md`). No panic, whatever the schema; where it compiles:
/// - the untyped check (its one pass where it can) and the walk alone agree exactly;
/// - a value the check accepts passes the schema as it stands (`is_valid`): no coercion
///   breaks another keyword, and a second check changes nothing more;
/// - under `Policy::Strict` a JSON object is accepted exactly when `is_valid` says it is
///   valid, as it was sent;
/// - every rejection names its errors at JSON Pointers, in bounded messages.
///
/// Each schema is built twice: with `default` read as an annotation, and with defaults
/// filled in (a filled value too must pass the schema whole: `maxProperties`, a `not`...).
pub fn schema(data: &[u8]) {
    use tool_input::Validator;

    let split = data.iter().position(|&b| b == 0).unwrap_or(data.len());
    let (schema, raw) = (&data[..split], data.get(split + 1..).unwrap_or_default());
    let Ok(schema) = std::str::from_utf8(schema) else { return };
    for defaults in [false, true] {
        let Ok(builder) = Validator::builder_from_text(schema) else { return };
        let Ok(validator) = builder.defaults(defaults).build() else { continue };
        schema_checks(&validator, raw, defaults);
    }
}

/// [`schema`]'s checks of `raw` against one validator; `defaults`: it fills them.
fn schema_checks(validator: &tool_input::Validator, raw: &[u8], defaults: bool) {
    use tool_input::{CoercionKind, Policy, RejectionKind};

    for policy in [Policy::Default, Policy::Lenient] {
        let options = CheckOptions::new().with_policy(policy);
        let checked = validator.check_with(raw.into(), &options);
        let walked = tool_input::__private::check_by_walk(validator, raw.into(), &options);
        assert_eq!(checked, walked, "the untyped one pass and the walk disagree");
        match &checked {
            Ok(checked) => {
                assert!(
                    validator.is_valid(&checked.value),
                    "accepted a value the schema refuses: {:?}",
                    checked.value
                );
                // Arguments are an object; a schema for something else may still turn `{}`
                // into its `[]`, which is then not arguments.
                if !checked.value.is_object() {
                    continue;
                }
                let again = validator.check_with(tool_input::RawArguments::Value(&checked.value), &options);
                let again = again.expect("the accepted value, checked again, is refused");
                assert_eq!(again.value, checked.value, "a second check changed the value");
                assert!(
                    again.report.coercions.iter().all(|c| c.kind == CoercionKind::DuplicateKey),
                    "a second check coerced again: {:?}",
                    again.report.coercions
                );
            }
            Err(rejection) => {
                assert!(!rejection.errors().is_empty() || rejection.kind() != RejectionKind::Invalid);
                for error in rejection.errors() {
                    assert!(
                        error.path().is_empty() || error.path().starts_with('/'),
                        "not a JSON Pointer: {}",
                        error.path()
                    );
                }
                assert!(rejection.to_string().len() < 20_000, "an unbounded message");
            }
        }
    }
    // Strict: JSON as JSON parsers read it, checked as it is.
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(raw) else { return };
    if !value.is_object() {
        return;
    }
    let strict = validator.check_with(raw.into(), &CheckOptions::new().with_policy(Policy::Strict));
    match &strict {
        Ok(checked) => {
            assert!(validator.is_valid(&checked.value), "strict accepted what the schema refuses");
            // (Filled defaults aside: the value as sent may lack them.)
            if !defaults {
                assert!(validator.is_valid(&value), "strict accepted what the schema refuses");
                assert_eq!(checked.value, value, "strict changed the value");
            }
        }
        Err(rejection) => {
            let limit = matches!(rejection.kind(), RejectionKind::TooLarge | RejectionKind::TooDeep);
            // A number a float cannot keep (`1111…1`, 105 digits, where an integer is
            // declared) is valid JSON Schema but is refused by every check of arguments, by
            // design: the tool would receive another number.
            let inexact =
                rejection.errors().iter().all(|error| error.code() == tool_input::ErrorCode::Inexact);
            // (Defaults filled never refuse a call valid as sent: one the defaults would
            // break is checked as sent, none filled.)
            assert!(
                limit || inexact || !validator.is_valid(&value),
                "strict refused a valid value: {rejection}"
            );
        }
    }
}
