//! `#[derive(PartialValue)]`: a derived type's partial form while its call streams, one rule
//! per test: every field optional, a string as far as it arrived, a number or enum value only
//! once complete (a number sent as a string shown as the check reads it), nested structs and lists as their own partials, `stream_done` and
//! `stream_not_null`, a call cut off, and the assembler's partial of a recorded stream.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;
use tool_input::calls::CallOptions;
use tool_input::partial::{FieldState, PartialReader};
use tool_input::stream::StreamAssembler;
use tool_input::{PartialValue, ToolInput};

/// Create a ticket.
#[allow(dead_code)] // read through its partial
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
struct CreateTicket {
    title: String,
    priority: Priority,
    estimate: u32,
    reporter: Person,
    tasks: Vec<Task>,
    #[serde(alias = "labels")]
    tags: Vec<String>,
    #[tool_input(stream_done)]
    summary: String,
    #[tool_input(stream_not_null)]
    notes: Vec<String>,
    due: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema, PartialValue)]
#[serde(rename_all = "snake_case")]
enum Priority {
    Hi,
    High,
    Low,
}

#[derive(Debug, Deserialize, JsonSchema, PartialValue)]
#[allow(dead_code)]
struct Person {
    name: String,
    #[serde(rename = "mail")]
    email: String,
}

#[derive(Debug, Deserialize, JsonSchema, PartialValue)]
#[allow(dead_code)]
struct Task {
    what: String,
    hours: Vec<u8>,
}

fn read(fragments: &[&str]) -> CreateTicketPartial {
    read_as::<CreateTicket>(fragments)
}

/// `T`'s partial once `fragments` were read, its object started.
fn read_as<T: PartialValue>(fragments: &[&str]) -> T::Partial
where
    T::Partial: Clone,
{
    let mut reader = PartialReader::<T>::new();
    for fragment in fragments {
        reader.feed(fragment);
    }
    reader.partial().value().cloned().expect("the object has started")
}

#[test]
fn every_field_starts_absent() {
    let mut reader = PartialReader::<CreateTicket>::new();
    assert!(reader.partial().is_absent());
    reader.feed(r#"{"title": "Dis"#);
    let partial = reader.partial().value().unwrap();
    assert_eq!(partial.title, FieldState::Arriving("Dis".to_owned()));
    assert!(partial.priority.is_absent() && partial.estimate.is_absent() && partial.reporter.is_absent());
    assert!(partial.tasks.is_absent() && partial.due.is_absent());
}

#[test]
fn a_string_as_far_as_it_arrived_then_complete() {
    let partial = read(&[r#"{"title": "Disk "#, "full"]);
    assert_eq!(partial.title, FieldState::Arriving("Disk full".to_owned()));
    let partial = read(&[r#"{"title": "Disk "#, r#"full", "#]);
    assert_eq!(partial.title, FieldState::Complete("Disk full".to_owned()));
}

#[test]
fn a_prefix_is_never_read_as_a_value() {
    // "hi" is a value of the enum, but here it is the start of "high".
    let partial = read(&[r#"{"priority": "hi"#]);
    assert!(partial.priority.is_absent(), "{:?}", partial.priority);
    let partial = read(&[r#"{"priority": "hi"#, "gh"]);
    assert!(partial.priority.is_absent());
    let partial = read(&[r#"{"priority": "hi"#, r#"gh","#]);
    assert_eq!(partial.priority, FieldState::Complete(Priority::High));
    // `1` is the start of `12`: nothing of it (nor of the object, of which nothing else
    // arrived) is shown.
    let mut reader = PartialReader::<CreateTicket>::new();
    reader.feed(r#"{"estimate": 1"#);
    assert!(reader.partial().is_absent());
    let partial = read(&[r#"{"title": "t", "estimate": 1"#, "2"]);
    assert!(partial.estimate.is_absent());
    let partial = read(&[r#"{"estimate": 1"#, "2}"]);
    assert_eq!(partial.estimate, FieldState::Complete(12));
}

#[test]
fn a_value_in_another_representation_shows_as_the_check_will_read_it() {
    // A number sent as a string, a list sent as JSON text, an integral float: each shown,
    // once complete, as the value the call passes with (a string's content is never a
    // number until its quote closes).
    let partial = read(&[r#"{"estimate": "1"#]);
    assert!(partial.estimate.is_absent());
    let partial = read(&[r#"{"estimate": "12", "tags": "[\"disk\", \"ops\"]", "#]);
    assert_eq!(partial.estimate, FieldState::Complete(12));
    assert_eq!(
        partial.tags,
        FieldState::Complete(vec![
            FieldState::Complete("disk".to_owned()),
            FieldState::Complete("ops".to_owned())
        ])
    );
    let partial = read(&[r#"{"estimate": 3.0, "tasks": [{"hours": "[1, 2]"}], "#]);
    assert_eq!(partial.estimate, FieldState::Complete(3));
    let FieldState::Complete(tasks) = &partial.tasks else { panic!("{:?}", partial.tasks) };
    let FieldState::Complete(task) = &tasks[0] else { panic!("{:?}", tasks[0]) };
    assert_eq!(task.hours, FieldState::Complete(vec![FieldState::Complete(1), FieldState::Complete(2)]));
    // A value no representation of which the type reads stays absent: the check says why.
    let partial = read(&[r#"{"estimate": "soon", "#]);
    assert!(partial.estimate.is_absent());
    // An enum value in another letter case or with white space around it, as the check
    // respells it; `Hіgh` (a Cyrillic `і`) spells no value.
    let partial = read(&[r#"{"priority": "High", "#]);
    assert_eq!(partial.priority, FieldState::Complete(Priority::High));
    let partial = read(&[r#"{"priority": " LOW ", "#]);
    assert_eq!(partial.priority, FieldState::Complete(Priority::Low));
    let partial = read(&[r#"{"priority": "Hіgh", "#]);
    assert!(partial.priority.is_absent());
}

#[test]
fn a_nested_struct_is_its_own_partial() {
    let partial = read(&[r#"{"reporter": {"name": "Ada", "mail": "ada@ex"#]);
    let reporter = partial.reporter.value().unwrap();
    assert_eq!(reporter.name, FieldState::Complete("Ada".to_owned()));
    assert_eq!(reporter.email, FieldState::Arriving("ada@ex".to_owned()));
    assert!(!partial.reporter.is_complete());
    let partial = read(&[r#"{"reporter": {"name": "Ada", "mail": "ada@ex.org"}"#]);
    assert!(partial.reporter.is_complete());
}

#[test]
fn a_nested_list_of_structs_with_lists() {
    let partial =
        read(&[r#"{"tasks": [{"what": "backup", "hours": [1, 2]}, {"what": "res"#, r#"tore", "hours": [3"#]);
    let tasks = partial.tasks.value().unwrap();
    assert_eq!(tasks.len(), 2);
    assert!(tasks[0].is_complete());
    let first = tasks[0].value().unwrap();
    assert_eq!(first.hours, FieldState::Complete(vec![FieldState::Complete(1), FieldState::Complete(2)]));
    let second = tasks[1].value().unwrap();
    assert_eq!(second.what, FieldState::Complete("restore".to_owned()));
    // `3` may go on.
    assert!(second.hours.is_absent());
    assert!(!partial.tasks.is_complete());
}

#[test]
fn an_alias_streams_as_its_field() {
    let partial = read(&[r#"{"labels": ["disk", "o"#]);
    let tags = partial.tags.value().unwrap();
    assert_eq!(tags, &[FieldState::Complete("disk".to_owned()), FieldState::Arriving("o".to_owned())]);
}

#[test]
fn stream_done_shows_a_field_only_once_complete() {
    let partial = read(&[r#"{"summary": "The disk is nearly fu"#]);
    assert!(partial.summary.is_absent());
    let partial = read(&[r#"{"summary": "The disk is nearly full""#, ","]);
    assert_eq!(partial.summary, FieldState::Complete("The disk is nearly full".to_owned()));
}

#[test]
fn stream_not_null_is_never_absent_once_the_object_started() {
    let partial = read(&[r#"{"title": "x"#]);
    assert_eq!(partial.notes, FieldState::Arriving(Vec::new()));
    let partial = read(&[r#"{"notes": ["a"#]);
    assert_eq!(partial.notes, FieldState::Arriving(vec![FieldState::Arriving("a".to_owned())]));
    // A null for an option is a complete value.
    let partial = read(&[r#"{"due": null,"#]);
    assert_eq!(partial.due, FieldState::Complete(None));
}

#[test]
fn a_call_cut_off_keeps_what_was_complete_and_never_completes_the_rest() {
    let text = r#"{"title": "Disk full", "estimate": 3, "tasks": [{"what": "clean", "hours": [4, 5"#;
    let partial = read(&[text]);
    assert!(partial.title.is_complete());
    assert_eq!(partial.estimate, FieldState::Complete(3));
    let task = &partial.tasks.value().unwrap()[0];
    let hours = task.value().unwrap().hours.value().unwrap();
    // 5 was cut off: it may have been 55.
    assert_eq!(hours, &[FieldState::Complete(4)]);
    assert!(!task.is_complete() && !partial.tasks.is_complete());
}

#[test]
fn each_step_is_the_same_whatever_the_fragments() {
    let text = r#"{"title": "Disk full", "priority": "high", "estimate": 12, "reporter": {"name": "Ada", "mail": "a@b"}, "tasks": [{"what": "clean", "hours": [4]}], "tags": ["x"], "summary": "s", "notes": [], "due": "friday"}"#;
    let whole = format!("{:?}", read(&[text]));
    for size in [1, 2, 3, 7, 16] {
        let mut reader = PartialReader::<CreateTicket>::new();
        for piece in text.as_bytes().chunks(size) {
            reader.feed(std::str::from_utf8(piece).unwrap());
        }
        assert_eq!(format!("{:?}", reader.partial().value().unwrap()), whole, "{size}");
    }
}

#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
#[tool_input(name = "GetWeatherArgs")]
#[allow(dead_code)]
struct GetWeatherArgs {
    city: String,
    country: String,
    units: Units,
}

#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema, PartialValue)]
enum Units {
    #[serde(rename = "c")]
    Celsius,
    #[serde(rename = "f")]
    Fahrenheit,
}

/// The recorded chunks of a streamed OpenAI response that calls `GetWeatherArgs`.
pub fn recorded_weather_chunks() -> Vec<Value> {
    let corpus: Value =
        serde_json::from_str(include_str!("corpus/provider-responses/openai-python.json")).unwrap();
    let recording = corpus
        .as_array()
        .unwrap()
        .iter()
        .find(|item| {
            item["streaming"] == true
                && item["note"].as_str().is_some_and(|note| note.contains("::test_parse_pydantic_tool:"))
        })
        .expect("the recording is in the corpus");
    recording["chunks"].as_array().unwrap().clone()
}

#[test]
fn the_assembler_gives_a_recorded_calls_partial_at_every_chunk() {
    let mut stream = StreamAssembler::new(CallOptions::new());
    let mut seen_arriving_city = false;
    let mut last = None;
    for chunk in recorded_weather_chunks() {
        stream.push_event(&chunk);
        let Some(partial) = stream.partial::<GetWeatherArgs>(0) else { continue };
        let Some(args) = partial.value() else { continue };
        seen_arriving_city |= matches!(args.city, FieldState::Arriving(_));
        // Never a value the final one does not have.
        if let FieldState::Complete(units) = &args.units {
            assert_eq!(units, &Units::Celsius);
        }
        last = Some(format!("{args:?}"));
    }
    assert!(seen_arriving_city);
    let last = last.unwrap();
    assert!(last.contains("city: Complete(\"Edinburgh\")"), "{last}");
    assert!(last.contains("units: Complete(Celsius)"), "{last}");
    // Asked as a tool the call is not to: nothing.
    assert!(stream.partial::<CreateTicket>(0).is_none());
    let calls = stream.finish();
    assert_eq!(calls.calls.len(), 1);
}

/// The Toolbox's stream knows its tools: a call's typed partial while it streams, then the
/// finished call dispatched.
#[test]
fn the_toolbox_stream_gives_its_tools_partials() {
    #[derive(serde::Deserialize, schemars::JsonSchema, tool_input::ToolInput)]
    struct Note {
        title: String,
        stars: u8,
    }
    let toolbox = tool_input::Toolbox::new()
        .with_tool(|note: Note| Ok::<_, String>(format!("{} {}", note.title, note.stars)));
    let mut stream = toolbox.stream();
    stream.push_event(&serde_json::json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0,
        "id": "call_1", "type": "function", "function": {"name": "note", "arguments": "{\"title\": \"Sun"}}]}}]}));
    let partial = stream.partial::<Note>(0).and_then(|state| state.value()).expect("the partial");
    assert_eq!(partial.title, tool_input::partial::FieldState::Arriving("Sun".to_owned()));
    assert!(partial.stars.is_absent());
    stream.push_event(&serde_json::json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0,
        "function": {"arguments": "day\", \"stars\": 4}"}}]}}]}));
    let partial = stream.partial::<Note>(0).and_then(|state| state.value()).expect("the partial");
    assert_eq!(partial.stars, tool_input::partial::FieldState::Complete(4));
    stream.push_event(
        &serde_json::json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}),
    );
    let calls = stream.finish().calls;
    assert!(toolbox.dispatch(&calls[0]).is_success());
}

/// A call whose name is matched to the tool as the call itself is (spaces around it, another
/// case, a `functions.` prefix) has the tool's partial while it streams: the call runs as
/// that tool, so its partial is that tool's too.
#[test]
fn a_call_named_as_names_are_matched_has_its_tools_partial() {
    #[derive(serde::Deserialize, schemars::JsonSchema, tool_input::ToolInput)]
    struct Note {
        title: String,
    }
    let toolbox = tool_input::Toolbox::new().with_tool(|note: Note| Ok::<_, String>(note.title));
    for sent in ["note", " note\n", "Note", "functions.note", "tools.NOTE"] {
        // The Toolbox's stream knows the tools; a plain one matches the name to `T`'s alone.
        for mut stream in [toolbox.stream(), StreamAssembler::new(CallOptions::new())] {
            stream.push_event(
                &serde_json::json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0,
                "id": "call_1", "function": {"name": sent, "arguments": "{\"title\": \"Sun"}}]}}]}),
            );
            let partial = stream.partial::<Note>(0).and_then(|state| state.value());
            assert_eq!(
                partial.map(|note| &note.title),
                Some(&FieldState::Arriving("Sun".to_owned())),
                "{sent:?}"
            );
            stream.push_event(
                &serde_json::json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0,
                "function": {"arguments": "\"}"}}]}, "finish_reason": "tool_calls"}]}),
            );
            let calls = stream.finish().calls;
            assert_eq!(toolbox.dispatch(&calls[0]).text(), "Sun", "{sent:?}");
        }
    }
    // A name that is another tool's, or no tool's, has no partial as `Note`.
    let toolbox = toolbox.with_tool(|other: NoteOther| Ok::<_, String>(other.title));
    let mut stream = toolbox.stream();
    stream.push_event(&serde_json::json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0,
        "id": "call_1", "function": {"name": "note_other", "arguments": "{\"title\": \"Sun"}}]}}]}));
    assert!(stream.partial::<Note>(0).is_none());
    let mut stream = StreamAssembler::new(CallOptions::new());
    stream.push_event(&serde_json::json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0,
        "id": "call_1", "function": {"name": "notes", "arguments": "{\"title\": \"Sun"}}]}}]}));
    assert!(stream.partial::<Note>(0).is_none());
}

#[derive(serde::Deserialize, schemars::JsonSchema, tool_input::ToolInput)]
struct NoteOther {
    title: String,
}

/// `#[derive(ToolInput)]` writes the partial itself: a tool nested in another tool is its own
/// partial, a field of a type without a partial form is shown whole with `stream_whole`, a
/// field serde reads by function is read by it, and the partial compares with `==`.
mod from_tool_input {
    use schemars::JsonSchema;
    use serde::Deserialize;
    use tool_input::partial::FieldState;
    use tool_input::{CoercionKind, ToolInput};

    /// A type with no partial form of its own.
    #[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
    pub struct Point {
        x: i32,
        y: i32,
    }

    /// Name a place.
    #[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
    pub struct NamePlace {
        #[serde(alias = "nm")]
        name: String,
        #[tool_input(stream_whole)]
        at: Point,
        #[serde(deserialize_with = "in_metres")]
        #[schemars(with = "f64")]
        height: f64,
    }

    fn in_metres<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
        f64::deserialize(deserializer).map(|feet| (feet * 0.3048 * 100.0).round() / 100.0)
    }

    /// Name several places (a tool whose field is another tool).
    #[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
    pub struct NamePlaces {
        first: NamePlace,
        rest: Vec<NamePlace>,
    }

    /// Plot a point: no partial form (its field has none, and is not marked), but it still
    /// tells what serde reads inside it.
    #[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
    pub struct Plot {
        at: Point,
        place: NamePlace,
    }

    /// A tool whose field is a tool without a partial form.
    #[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
    pub struct Plots {
        plot: Plot,
    }

    fn partial(fragments: &[&str]) -> NamePlacesPartial {
        super::read_as::<NamePlaces>(fragments)
    }

    #[test]
    fn a_nested_tool_is_its_own_partial() {
        let places = partial(&[r#"{"first": {"nm": "Ben Nev"#]);
        let first: &NamePlacePartial = places.first.value().unwrap();
        // Read under its alias, as serde reads it.
        assert_eq!(first.name, FieldState::Arriving("Ben Nev".to_owned()));
        assert!(first.at.is_absent() && first.height.is_absent());
        assert!(places.rest.is_absent());
    }

    #[test]
    fn a_field_shown_whole_is_absent_until_complete() {
        let places = partial(&[r#"{"first": {"name": "Ben Nevis", "at": {"x": 1, "y": 2"#]);
        assert!(places.first.value().unwrap().at.is_absent());
        let places = partial(&[r#"{"first": {"name": "Ben Nevis", "at": {"x": 1, "y": 2}"#]);
        assert_eq!(places.first.value().unwrap().at, FieldState::Complete(Point { x: 1, y: 2 }));
    }

    #[test]
    fn a_field_serde_reads_by_function_is_read_by_it() {
        // 4413 may go on: nothing of it is shown.
        let places = partial(&[r#"{"rest": [{"name": "x", "height": 4413"#]);
        assert!(places.rest.value().unwrap()[0].value().unwrap().height.is_absent());
        let places = partial(&[r#"{"rest": [{"height": 4413}"#]);
        let rest = places.rest.value().unwrap();
        assert_eq!(rest[0].value().unwrap().height, FieldState::Complete(1345.08));
        // The value too, read in full.
        let read = NamePlaces::from_arguments(
            r#"{"first": {"name": "a", "at": {"x": 0, "y": 0}, "height": 10}, "rest": []}"#,
        )
        .unwrap();
        assert_eq!(read.first.height, 3.05);
    }

    #[test]
    fn partials_compare_and_clone() {
        let text = r#"{"first": {"name": "a", "at": {"x": 0, "y": 0}, "height": 10}, "rest": [{"nm": "b"#;
        let whole = partial(&[text]);
        let pieces: Vec<String> = text.chars().map(String::from).collect();
        let pieces: Vec<&str> = pieces.iter().map(String::as_str).collect();
        assert_eq!(partial(&pieces), whole.clone());
        assert_ne!(partial(&[&text[..text.len() - 1]]), whole);
    }

    /// Without a partial form of its own, a tool still tells what serde reads inside it: the
    /// alias of a tool nested in it is read, recorded, in a tool that holds it.
    #[test]
    fn a_tool_without_a_partial_still_tells_its_serde_facts() {
        let text = r#"{"plot": {"at": {"x": 1, "y": 2}, "place": {"nm": "a", "at": {"x": 0, "y": 0}, "height": 0}}}"#;
        let checked = Plots::from_arguments_with_report(text).unwrap();
        assert_eq!(checked.value.plot.place.name, "a");
        let kinds: Vec<_> = checked.report.coercions.iter().map(|c| (c.path.as_str(), c.kind)).collect();
        assert_eq!(kinds, [("/plot/place/name", CoercionKind::Alias)]);
    }
}
