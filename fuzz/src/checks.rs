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
    }
    let completed = parse_bytes(data, &completing);
    if loose.is_ok() {
        assert!(completed.is_ok(), "completion refused what lenient mode accepts");
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
            if std::str::from_utf8(data).is_ok() && theirs.is_none() {
                let own = parse_without_fast_path(data, &options);
                assert_eq!(repaired, own, "repair mode: the fast path and our parser disagree");
            }
        }
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
            .with_max_string_bytes(16),
    );
    let small = Order::from_arguments_with(data, &tiny);
    paths_agree(&small, &tool_input::__private::from_arguments_full::<Order>(data.into(), &tiny));
}

/// The typed path (one pass where it can) and the full path give the same value, the same
/// report (coercions in any order) and the same rejection.
fn paths_agree(
    result: &Result<tool_input::Checked<Order>, tool_input::Rejection>,
    full: &Result<tool_input::Checked<Order>, tool_input::Rejection>,
) {
    match (result, full) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a.value, b.value, "the one-pass and full paths disagree");
            assert_eq!(a.report.repairs, b.report.repairs, "the paths report different repairs");
            let mut one = a.report.coercions.clone();
            let mut two = b.report.coercions.clone();
            one.sort_by(|x, y| (&x.path, x.kind.code()).cmp(&(&y.path, y.kind.code())));
            two.sort_by(|x, y| (&x.path, x.kind.code()).cmp(&(&y.path, y.kind.code())));
            assert_eq!(one, two, "the paths report different coercions");
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
/// of them; the JSON rendering works.
pub fn text_calls(data: &[u8]) {
    use tool_input::calls::{parse_text, CallOptions};
    let text = String::from_utf8_lossy(data);
    let known = parse_text(&text, &CallOptions::new().tools(TOOLS));
    for call in &known.calls {
        assert!(TOOLS.contains(&call.name.as_str()), "a call to an unknown tool: {}", call.name);
    }
    let _ = known.to_json();
    let _ = parse_text(&text, &CallOptions::new()).to_json();
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
/// result is the same; as text chunks, the same as reading the whole text at once.
pub fn stream(data: &[u8]) {
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
        for chunk in body.chunks(size) {
            let _ = parser.feed_bytes(chunk);
            let _ = parser.partial();
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
