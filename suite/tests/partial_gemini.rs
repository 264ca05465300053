//! A call's typed partial while Gemini streams its arguments as `partialArgs` (a value per
//! JSON path), and `open_calls()`' `arguments_partial` beside it: a recorded Vertex AI stream
//! (the corpus' nested recipe) and a fixture of this project's with numbers, booleans, a null
//! and a string ended by an entry for another path (`fixtures/gemini-partial-args.json`, its
//! provenance inside).

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use tool_input::calls::CallOptions;
use tool_input::partial::FieldState;
use tool_input::stream::StreamAssembler;
use tool_input::ToolInput;

/// Plan a trip.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
struct PlanTrip {
    title: String,
    days: u32,
    stops: Vec<Stop>,
    notes: String,
    rush: bool,
    budget: Option<u32>,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
struct Stop {
    city: String,
    nights: u8,
}

fn fixture() -> Value {
    serde_json::from_str(include_str!("fixtures/gemini-partial-args.json")).unwrap()
}

/// The typed partial after each chunk (`None` once the call ended), the untyped one beside
/// it, and the stream.
type Steps<P> = (Vec<Option<FieldState<P>>>, Vec<Option<Value>>, StreamAssembler);

/// The partial after each chunk, with the untyped partial beside it.
fn steps<T>(chunks: &[Value]) -> Steps<T::Partial>
where
    T: ToolInput + tool_input::PartialValue + 'static,
    T::Partial: Clone + Send + Sync + 'static,
{
    let mut stream = StreamAssembler::new(CallOptions::new());
    let (mut typed, mut untyped) = (Vec::new(), Vec::new());
    for chunk in chunks {
        stream.push_event(chunk);
        untyped.push(stream.open_calls().first().and_then(|call| call.arguments_partial.cloned()));
        typed.push(stream.partial::<T>(0).cloned());
    }
    (typed, untyped, stream)
}

#[test]
fn each_value_shows_as_the_stream_says_it_arrived() {
    let fixture = fixture();
    let chunks = fixture["chunks"].as_array().unwrap();
    let (typed, untyped, _) = steps::<PlanTrip>(chunks);
    let at = |chunk: usize| typed[chunk].as_ref().and_then(|state| state.value()).cloned().unwrap();

    // The name alone: nothing has arrived.
    assert!(typed[0].as_ref().unwrap().is_absent());
    // A string as far as it arrived, then complete when its last entry comes.
    assert_eq!(at(1).title, FieldState::Arriving("Weekend in".to_owned()));
    assert!(at(1).days.is_absent());
    assert_eq!(at(2).title, FieldState::Complete("Weekend in Scotland".to_owned()));
    assert_eq!(at(2).days, FieldState::Complete(3));
    // A list of structs, each its own partial; the list is arriving until the call ends.
    let stops = at(3).stops.value().cloned().unwrap();
    assert_eq!(stops[0].value().unwrap().city, FieldState::Arriving("Edin".to_owned()));
    assert!(stops[0].value().unwrap().nights.is_absent());
    let stops = at(4).stops.value().cloned().unwrap();
    assert_eq!(stops[0].value().unwrap().city, FieldState::Complete("Edinburgh".to_owned()));
    assert_eq!(stops[0].value().unwrap().nights, FieldState::Complete(2));
    assert_eq!(stops[1].value().unwrap().city, FieldState::Arriving("Inverness".to_owned()));
    // An entry for another path ends the string that went on.
    let stops = at(5).stops.value().cloned().unwrap();
    assert_eq!(stops[1].value().unwrap().city, FieldState::Complete("Inverness".to_owned()));
    assert!(!at(5).stops.is_complete());
    assert_eq!(at(5).notes, FieldState::Arriving("Bring a coat".to_owned()));
    assert_eq!(at(6).rush, FieldState::Complete(false));
    assert_eq!(at(6).budget, FieldState::Complete(None));
    // Objects and lists are complete only when the call ends: the stream never says so
    // before. Once it ends, the call is read (`finish`) and has no partial any more.
    assert!(!typed[6].as_ref().unwrap().is_complete());
    assert!(!at(6).stops.is_complete());
    assert!(typed[7].is_none());

    // The untyped partial says the same values, as far as they arrived.
    assert_eq!(untyped[1], Some(json!({"title": "Weekend in"})));
    assert_eq!(
        untyped[3],
        Some(json!({"title": "Weekend in Scotland", "days": 3, "stops": [{"city": "Edin"}]}))
    );
    // Once the call ended it is no longer open.
    assert_eq!(untyped[7], None);
}

#[test]
fn the_last_partial_holds_the_finished_calls_values() {
    let fixture = fixture();
    let chunks = fixture["chunks"].as_array().unwrap();
    let (typed, _, stream) = steps::<PlanTrip>(chunks);
    let calls = stream.finish();
    assert!(calls.errors.is_empty(), "{:?}", calls.errors);
    assert_eq!(calls.calls.len(), 1);
    assert_eq!(calls.calls[0].name, fixture["tool"]);
    let arguments = Value::Object(calls.calls[0].arguments.clone());
    assert_eq!(arguments, fixture["expected_arguments"]);
    let plan = PlanTrip::from_arguments(&arguments).unwrap();
    // The last partial before the end: every value the call has, each complete.
    let partial = typed[6].as_ref().unwrap().value().cloned().unwrap();
    assert_eq!(partial.title.complete(), Some(&plan.title));
    assert_eq!(partial.days.complete(), Some(&plan.days));
    assert_eq!(partial.notes.complete(), Some(&plan.notes));
    assert_eq!(partial.rush.complete(), Some(&plan.rush));
    assert_eq!(partial.budget.complete(), Some(&plan.budget));
    let stops: Vec<_> = partial
        .stops
        .value()
        .unwrap()
        .iter()
        .map(|stop| {
            let stop = stop.value().unwrap();
            (stop.city.complete().cloned().unwrap(), *stop.nights.complete().unwrap())
        })
        .collect();
    let sent: Vec<_> = plan.stops.iter().map(|stop| (stop.city.clone(), stop.nights)).collect();
    assert_eq!(stops, sent);
}

#[test]
fn a_call_cut_off_never_completes() {
    let fixture = fixture();
    let chunks = fixture["chunks"].as_array().unwrap();
    // Cut before the part that ends the call: the stream ends without a finishReason.
    let (typed, _, stream) = steps::<PlanTrip>(&chunks[..5]);
    let last = typed.last().unwrap().as_ref().unwrap();
    assert!(!last.is_complete());
    let stops = last.value().unwrap().stops.value().cloned().unwrap();
    assert_eq!(stops[1].value().unwrap().city, FieldState::Arriving("Inverness".to_owned()));
    let calls = stream.finish();
    assert!(calls.calls.is_empty());
    assert_eq!(calls.errors.len(), 1);
}

/// The corpus' recorded Vertex AI stream of a nested recipe (strings only, each ended by an
/// empty entry for its own path).
mod recorded {
    use super::*;

    /// Cook a recipe.
    #[derive(Debug, Deserialize, JsonSchema, ToolInput)]
    #[tool_input(name = "cookRecipe")]
    #[allow(dead_code)] // read through its partial
    struct CookRecipe {
        recipe: Recipe,
    }

    #[derive(Debug, Deserialize, JsonSchema, ToolInput)]
    #[allow(dead_code)]
    struct Recipe {
        name: String,
        ingredients: Vec<Ingredient>,
        steps: Vec<String>,
    }

    #[derive(Debug, Deserialize, JsonSchema, ToolInput)]
    #[allow(dead_code)]
    struct Ingredient {
        amount: String,
        name: String,
    }

    fn recording() -> Value {
        let corpus: Value =
            serde_json::from_str(include_str!("corpus/provider-responses/vercel-ai.json")).unwrap();
        corpus
            .as_array()
            .unwrap()
            .iter()
            .find(|item| {
                item["source"]
                    .as_str()
                    .is_some_and(|source| source.contains("stream-tool-call-arguments-nested.1"))
            })
            .cloned()
            .expect("the recording is in the corpus")
    }

    #[test]
    fn the_recipe_grows_ingredient_by_ingredient() {
        let recording = recording();
        let chunks = recording["chunks"].as_array().unwrap();
        let (typed, _, stream) = steps::<CookRecipe>(chunks);
        let mut ingredients_seen = 0;
        let mut arriving_names = 0;
        for state in typed.iter().flatten() {
            let Some(recipe) = state.value().and_then(|call| call.recipe.value()) else { continue };
            let Some(ingredients) = recipe.ingredients.value() else { continue };
            // Never fewer than before: items arrive in order.
            assert!(ingredients.len() >= ingredients_seen);
            ingredients_seen = ingredients.len();
            if let Some(FieldState::Arriving(_)) =
                ingredients.last().and_then(|item| item.value()).map(|i| &i.name)
            {
                arriving_names += 1;
            }
        }
        assert_eq!(ingredients_seen, 10);
        assert!(arriving_names > 0);
        // The last partial before the call ended: every ingredient's name complete, as sent.
        let expected = &recording["expected_calls"][0]["arguments"];
        let last = typed.iter().flatten().last().unwrap();
        let recipe = last.value().unwrap().recipe.value().unwrap();
        let names: Vec<_> = recipe
            .ingredients
            .value()
            .unwrap()
            .iter()
            .map(|item| item.value().unwrap().name.complete().cloned().unwrap())
            .collect();
        let sent: Vec<_> = expected["recipe"]["ingredients"]
            .as_array()
            .unwrap()
            .iter()
            .map(|item| item["name"].as_str().unwrap().to_owned())
            .collect();
        assert_eq!(names, sent);
        let finished = Value::Object(stream.finish().calls[0].arguments.clone());
        assert_eq!(&finished, expected);
    }
}

/// The same steps as argument events (`with_events`), as for a stream of argument text.
#[test]
fn the_steps_are_argument_events_too() {
    use tool_input::parse::StreamEvent;

    let fixture = fixture();
    let mut stream = StreamAssembler::new(CallOptions::new()).with_events();
    let mut events = Vec::new();
    for chunk in fixture["chunks"].as_array().unwrap() {
        stream.push_event(chunk);
        events.extend(stream.take_events());
    }
    assert!(events.iter().all(|event| event.name.as_deref() == Some("plan_trip") && event.position == 0));
    let shown: Vec<String> = events
        .iter()
        .map(|event| match &event.event {
            StreamEvent::StringGrew { path, appended } => format!("{path} += {appended}"),
            StreamEvent::ValueComplete { path, value } => format!("{path} = {value}"),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(
        shown,
        [
            "/title += Weekend in",
            "/title +=  Scotland",
            "/title = \"Weekend in Scotland\"",
            "/days = 3",
            "/stops/0/city += Edin",
            "/stops/0/city += burgh",
            "/stops/0/city = \"Edinburgh\"",
            "/stops/0/nights = 2",
            "/stops/1/city += Inverness",
            "/stops/1/city = \"Inverness\"",
            "/notes += Bring a coat",
            "/notes += .",
            "/notes = \"Bring a coat.\"",
            "/stops/1/nights = 1",
            "/rush = false",
            "/budget = null",
        ]
    );
}
