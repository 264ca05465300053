//! A generic tool's partial (`PagePartial<T>`, `SearchPartial<F>`) follows the same rules as
//! any other: a string grows, a number or an enum value shows only once complete, a list is a
//! list of its items' partials, a call cut off completes nothing more. Read through the
//! assembler with the call cut at every byte, and through a `PartialReader`.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use tool_input::calls::CallOptions;
use tool_input::partial::{FieldState, PartialReader};
use tool_input::stream::StreamAssembler;
use tool_input::{PartialValue, ToolInput};

/// A page of results.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
struct Page<T> {
    items: Vec<T>,
    next: Option<String>,
}

/// Search, with a filter of the caller's choosing.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
struct Search<F> {
    query: String,
    filter: F,
}

#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema, PartialValue)]
struct Item {
    title: String,
    stars: u32,
    tags: Vec<String>,
    state: State,
}

/// `open` is a prefix of `opened`: never read before the string is closed.
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema, PartialValue)]
#[serde(rename_all = "snake_case")]
enum State {
    Open,
    Opened,
    Closed,
}

/// A tree of its own kind: a recursive generic tool has a partial too.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
struct Tree<T> {
    label: T,
    children: Vec<Tree<T>>,
}

const PAGE: &str = r#"{"items": [{"title": "Fix the disk", "stars": 12, "tags": ["ops", "urgent"], "state": "opened"}, {"title": "Rotate keys", "stars": 3, "tags": [], "state": "open"}], "next": "c2"}"#;

/// One OpenAI chunk of the call's arguments (the first one names the tool).
fn chunk(arguments: &str, first: bool) -> serde_json::Value {
    let function =
        if first { json!({"name": "page", "arguments": arguments}) } else { json!({"arguments": arguments}) };
    let mut call = json!({"index": 0, "function": function});
    if first {
        call["id"] = json!("call_1");
        call["type"] = json!("function");
    }
    json!({"choices": [{"index": 0, "delta": {"tool_calls": [call]}}]})
}

/// `before` is an earlier view of `after`'s string: a prefix, or the same once complete.
fn string_grew(before: &FieldState<String>, after: &FieldState<String>) {
    match (before, after) {
        (FieldState::Absent, _) => {}
        (FieldState::Arriving(so_far), FieldState::Arriving(now) | FieldState::Complete(now)) => {
            assert!(now.starts_with(so_far.as_str()), "{so_far:?} then {now:?}")
        }
        (FieldState::Complete(so_far), FieldState::Complete(now)) => assert_eq!(so_far, now),
        _ => panic!("{before:?} then {after:?}"),
    }
}

/// A value shown only whole: absent, or the final value itself.
fn only_complete<P: PartialEq + std::fmt::Debug>(seen: &FieldState<P>, last: &P) {
    match seen {
        FieldState::Absent => {}
        FieldState::Complete(value) => assert_eq!(value, last),
        FieldState::Arriving(value) => panic!("{value:?} shown before it was complete"),
    }
}

/// Every rule, of a partial read from a prefix against the partial of the whole call.
fn consistent(seen: &PagePartial<Item>, last: &PagePartial<Item>) {
    let last_items = last.items.value().unwrap();
    if let Some(items) = seen.items.value() {
        assert!(items.len() <= last_items.len());
        for (item, last_item) in items.iter().zip(last_items) {
            let Some(item) = item.value() else { continue };
            let last_item = last_item.complete().unwrap();
            string_grew(&item.title, &last_item.title);
            only_complete(&item.stars, last_item.stars.complete().unwrap());
            only_complete(&item.state, last_item.state.complete().unwrap());
            if let Some(tags) = item.tags.value() {
                let last_tags = last_item.tags.complete().unwrap();
                assert!(tags.len() <= last_tags.len());
                tags.iter().zip(last_tags).for_each(|(tag, last_tag)| string_grew(tag, last_tag));
            }
        }
    }
    match (&seen.next, &last.next) {
        (FieldState::Absent, _) => {}
        (FieldState::Arriving(Some(so_far)), FieldState::Complete(Some(now)))
        | (FieldState::Complete(Some(so_far)), FieldState::Complete(Some(now))) => {
            assert!(now.starts_with(so_far.as_str()))
        }
        (seen, last) => panic!("{seen:?} then {last:?}"),
    }
}

fn whole_page() -> PagePartial<Item> {
    let mut reader = PartialReader::<Page<Item>>::new();
    reader.feed(PAGE);
    reader.finish().unwrap().complete().cloned().unwrap()
}

#[test]
fn the_partial_of_a_whole_call_is_every_field_complete() {
    let page = whole_page();
    let items = page.items.complete().unwrap();
    let first = items[0].complete().unwrap();
    assert_eq!(first.title, FieldState::Complete("Fix the disk".to_owned()));
    assert_eq!(first.stars, FieldState::Complete(12));
    assert_eq!(first.state, FieldState::Complete(State::Opened));
    assert_eq!(items[1].complete().unwrap().state, FieldState::Complete(State::Open));
    assert_eq!(page.next, FieldState::Complete(Some("c2".to_owned())));
}

/// The call cut at every byte, in two chunks: each partial the assembler gives keeps every
/// rule, and is the partial a reader of the same prefix gives.
#[test]
fn the_assembler_gives_a_generic_tools_partial_cut_at_every_byte() {
    let last = whole_page();
    for cut in (1..PAGE.len()).filter(|cut| PAGE.is_char_boundary(*cut)) {
        let (head, tail) = PAGE.split_at(cut);
        let mut stream = StreamAssembler::new(CallOptions::new());
        stream.push_event(&chunk(head, true));
        let mut reader = PartialReader::<Page<Item>>::new();
        reader.feed(head);
        let seen = stream.partial::<Page<Item>>(0).expect("the call is to `page`");
        assert_eq!(seen, reader.partial(), "cut at {cut}");
        if let Some(seen) = seen.value() {
            consistent(seen, &last);
        }
        stream.push_event(&chunk(tail, false));
        let seen = stream.partial::<Page<Item>>(0).unwrap().value().cloned().unwrap();
        consistent(&seen, &last);
        // Every item is complete; the list and the object only once the call ends.
        assert!(seen.items.value().unwrap().iter().all(FieldState::is_complete));
    }
}

#[test]
fn a_prefix_of_a_number_or_an_enum_value_is_not_read() {
    let partial = |text: &str| {
        let mut reader = PartialReader::<Page<Item>>::new();
        reader.feed(text);
        reader.partial().value().cloned().unwrap()
    };
    let page = partial(r#"{"items": [{"title": "Fix", "stars": 1"#);
    let item = page.items.value().unwrap()[0].value().unwrap().clone();
    assert_eq!(item.title, FieldState::Complete("Fix".to_owned()));
    assert!(item.stars.is_absent(), "1 may be the start of 12");
    let page = partial(r#"{"items": [{"title": "Fix", "stars": 12, "state": "open"#);
    let item = page.items.value().unwrap()[0].value().unwrap().clone();
    assert_eq!(item.stars, FieldState::Complete(12));
    assert!(item.state.is_absent(), "\"open\" may be the start of \"opened\"");
}

#[test]
fn a_call_cut_off_completes_nothing_more() {
    let mut reader = PartialReader::<Page<Item>>::new();
    reader.feed(r#"{"items": [{"title": "Fix", "stars": 12, "tags": ["o"#);
    let page = reader.partial().value().cloned().unwrap();
    assert!(reader.finish().is_err());
    let item = page.items.value().unwrap()[0].clone();
    assert!(!item.is_complete() && !page.items.is_complete());
    let item = item.value().unwrap();
    assert_eq!(item.tags.value().unwrap(), &[FieldState::Arriving("o".to_owned())]);
    assert!(page.next.is_absent());
}

#[test]
fn a_parameter_that_is_a_field_itself() {
    let mut reader = PartialReader::<Search<State>>::new();
    reader.feed(r#"{"query": "disk", "filter": "clo"#);
    let search: SearchPartial<State> = reader.partial().value().cloned().unwrap();
    assert_eq!(search.query, FieldState::Complete("disk".to_owned()));
    assert!(search.filter.is_absent());
    reader.feed(r#"sed"}"#);
    let search = reader.finish().unwrap();
    assert_eq!(search.complete().unwrap().filter, FieldState::Complete(State::Closed));
    // A nested struct as the parameter: its own partial.
    let mut reader = PartialReader::<Search<Item>>::new();
    reader.feed(r#"{"query": "disk", "filter": {"title": "Fi"#);
    let search = reader.partial().value().cloned().unwrap();
    assert_eq!(search.filter.value().unwrap().title, FieldState::Arriving("Fi".to_owned()));
    // The parameter a string.
    let search = read_whole::<Search<String>>(r#"{"query": "q", "filter": "f"}"#);
    assert_eq!(search.filter, FieldState::Complete("f".to_owned()));
}

fn read_whole<T: PartialValue>(text: &str) -> T::Partial
where
    T::Partial: Clone,
{
    let mut reader = PartialReader::<T>::new();
    reader.feed(text);
    reader.finish().unwrap().complete().cloned().unwrap()
}

#[test]
fn a_recursive_generic_tool_is_its_own_partial() {
    let mut reader = PartialReader::<Tree<String>>::new();
    reader.feed(r#"{"label": "root", "children": [{"label": "le"#);
    let tree: TreePartial<String> = reader.partial().value().cloned().unwrap();
    let child = tree.children.value().unwrap()[0].value().unwrap();
    assert_eq!(child.label, FieldState::Arriving("le".to_owned()));
    assert_eq!(Tree::<String>::NAME, "tree");
}

/// The Toolbox's stream gives the partial of a generic tool it holds.
#[test]
fn the_toolbox_gives_a_generic_tools_partial() {
    let toolbox = tool_input::Toolbox::new()
        .with_tool(|page: Page<Item>| Ok::<_, String>(format!("{} items", page.items.len())));
    let mut stream = toolbox.stream();
    stream.push_event(&chunk(&PAGE[..40], true));
    let page = stream.partial::<Page<Item>>(0).and_then(|state| state.value()).cloned().expect("the partial");
    let first = page.items.value().unwrap()[0].value().unwrap();
    assert_eq!(first.title, FieldState::Complete("Fix the disk".to_owned()));
    stream.push_event(&chunk(&PAGE[40..], false));
    stream.push_event(&json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}));
    let calls = stream.finish().calls;
    assert!(toolbox.dispatch(&calls[0]).is_success());
}

/// A recursive tool without parameters: its partial too (a field of its own type is bounded
/// by nothing, which would be a cycle).
#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
struct Outline {
    heading: String,
    sections: Vec<Outline>,
    parent: Option<Box<Outline>>,
}

#[test]
fn a_recursive_tool_is_its_own_partial() {
    let outline =
        read_whole::<Outline>(r#"{"heading": "A", "sections": [{"heading": "B", "sections": []}]}"#);
    let section = outline.sections.complete().unwrap()[0].complete().unwrap();
    assert_eq!(section.heading, FieldState::Complete("B".to_owned()));
    assert!(outline.parent.is_absent());
}

#[test]
fn a_boxed_field_is_a_boxed_partial() {
    let mut reader = PartialReader::<Outline>::new();
    reader.feed(r#"{"heading": "A", "sections": [], "parent": {"heading": "Ro"#);
    let outline = reader.partial().value().cloned().unwrap();
    let parent: Option<Box<OutlinePartial>> = outline.parent.value().cloned().unwrap();
    assert_eq!(parent.unwrap().heading, FieldState::Arriving("Ro".to_owned()));
}
