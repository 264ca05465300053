//! Toolbox handlers with a context (the application's state, the call's id, the tool's name),
//! and `run_all_async`: the calls of one response run together on any executor, answered in
//! their order, the retry budget counted per tool.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use futures_executor::block_on;
use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::calls::{parse_text, CallOptions, Calls};
use tool_input::{CallContext, Conversation, Failure, Outcome, OutcomeKind, ToolInput, Toolbox};

/// Add an item to the cart.
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
struct AddToCart {
    sku: String,
    quantity: u32,
}

/// Look a word up.
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
struct Define {
    word: String,
}

#[derive(Default)]
struct Shop {
    cart: Mutex<Vec<(String, u32)>>,
    seen: Mutex<Vec<(String, String)>>,
    runs: AtomicUsize,
}

fn calls(text: &str) -> Calls {
    parse_text(text, &CallOptions::new())
}

fn tagged(name: &str, arguments: &str) -> String {
    format!(r#"<tool_call>{{"name": "{name}", "arguments": {arguments}}}</tool_call>"#)
}

fn shop() -> Toolbox<Shop> {
    Toolbox::with_state(Shop::default())
        .with_context_tool(|call: AddToCart, cx: CallContext<Shop>| {
            cx.state().runs.fetch_add(1, Ordering::SeqCst);
            cx.state().seen.lock().unwrap().push((cx.call_id().to_owned(), cx.tool().to_owned()));
            if call.sku == "BROKEN" {
                return Err("that item is out of stock".to_owned());
            }
            let mut cart = cx.state().cart.lock().unwrap();
            cart.push((call.sku, call.quantity));
            Ok(format!("{} lines", cart.len()))
        })
        .with_async_context_tool(|call: Define, cx: CallContext<Shop>| async move {
            cx.state().runs.fetch_add(1, Ordering::SeqCst);
            Ok::<_, String>(format!("{} ({})", call.word, cx.tool()))
        })
}

#[test]
fn handlers_get_the_state_the_call_id_and_the_registered_name() {
    let toolbox = shop();
    // The name as sent differs in case: the context has the registered one.
    let sent = calls(&tagged("Add_To_Cart", r#"{"sku": "A-1", "quantity": "2"}"#));
    let outcome = toolbox.dispatch(&sent.calls[0]);
    assert_eq!(outcome.text(), "1 lines");
    assert_eq!(toolbox.state().cart.lock().unwrap().as_slice(), [("A-1".to_owned(), 2)]);
    assert_eq!(
        toolbox.state().seen.lock().unwrap().as_slice(),
        [(sent.calls[0].id.clone(), "add_to_cart".to_owned())]
    );
    let define = calls(&tagged("define", r#"{"word": "tool"}"#));
    assert_eq!(block_on(toolbox.dispatch_async(&define.calls[0])).text(), "tool (define)");
    // Refused arguments never reach the handler.
    let refused = calls(&tagged("add_to_cart", r#"{"sku": "A-1"}"#));
    assert_eq!(toolbox.dispatch(&refused.calls[0]).kind(), OutcomeKind::Invalid);
    assert_eq!(toolbox.state().runs.load(Ordering::SeqCst), 2);
}

#[test]
fn run_all_async_answers_in_the_calls_order() {
    let toolbox = shop();
    let text = [
        tagged("define", r#"{"word": "a"}"#),
        tagged("nope", "{}"),
        tagged("add_to_cart", r#"{"sku": "A-1", "quantity": 1}"#),
        tagged("add_to_cart", r#"{"sku": "A-2"}"#),
        tagged("define", r#"{"word": "b"}"#),
        r#"<tool_call>{"name": "define", "arguments": {"word": "c"#.to_owned(),
    ]
    .concat();
    let sent = calls(&text);
    let mut conversation = Conversation::new();
    let outcomes = block_on(toolbox.run_all_async(&mut conversation, &sent));
    let kinds: Vec<OutcomeKind> = outcomes.iter().map(Outcome::kind).collect();
    assert_eq!(
        kinds,
        [
            OutcomeKind::Success,
            OutcomeKind::UnknownTool,
            OutcomeKind::Success,
            OutcomeKind::Invalid,
            OutcomeKind::Success,
            OutcomeKind::Unparsable,
        ]
    );
    let expected_ids: Vec<String> = sent
        .in_order()
        .map(|entry| match entry {
            Ok(call) => call.id.clone(),
            Err(error) => error.id.clone(),
        })
        .collect();
    let ids: Vec<String> = outcomes.iter().map(|o| o.call_id.clone()).collect();
    assert_eq!(ids, expected_ids);
    assert_eq!(outcomes[4].text(), "b (define)");
    // Counted in order: `define` failed last (cut off), `add_to_cart` failed last too.
    assert_eq!(conversation.failures("define"), 1);
    assert_eq!(conversation.failures("add_to_cart"), 1);
    assert_eq!(conversation.failures("nope"), 1);
}

#[test]
fn run_all_async_gives_what_run_all_gives_for_sync_handlers() {
    let responses = [
        [tagged("add_to_cart", r#"{"sku": "A", "quantity": 1}"#), tagged("add_to_cart", r#"{"sku": 1}"#)]
            .concat(),
        [tagged("add_to_cart", r#"{"sku": "BROKEN", "quantity": 1}"#), tagged("x", "{}")].concat(),
        tagged("add_to_cart", r#"{}"#).repeat(4),
        [tagged("add_to_cart", r#"{"sku": "B", "quantity": 2}"#), "<tool_call>{oops".to_owned()].concat(),
    ];
    let (sequential, together) = (shop(), shop());
    let (mut first, mut second) = (Conversation::new(), Conversation::new());
    for response in &responses {
        let sent = calls(response);
        let expected = sequential.run_all(&mut first, &sent);
        let got = block_on(together.run_all_async(&mut second, &sent));
        assert_eq!(got, expected, "{response}");
        assert_eq!(first, second, "{response}");
    }
}

/// Ready once the other side has started too; gives up (an error) after many polls, so a
/// dispatch that ran the calls one after the other fails instead of hanging.
struct Rendezvous {
    mine: Arc<AtomicBool>,
    theirs: Arc<AtomicBool>,
    polls: usize,
}

impl Future for Rendezvous {
    type Output = Result<(), String>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        self.mine.store(true, Ordering::SeqCst);
        if self.theirs.load(Ordering::SeqCst) {
            return Poll::Ready(Ok(()));
        }
        self.polls += 1;
        if self.polls > 1000 {
            return Poll::Ready(Err("the other call never started".to_owned()));
        }
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

#[derive(Default)]
struct Meeting {
    first: Arc<AtomicBool>,
    second: Arc<AtomicBool>,
}

#[test]
fn the_calls_of_one_response_run_together() {
    let toolbox = Toolbox::with_state(Meeting::default()).with_async_context_tool(
        |call: Define, cx: CallContext<Meeting>| {
            let (mine, theirs) = match call.word.as_str() {
                "first" => (cx.state().first.clone(), cx.state().second.clone()),
                _ => (cx.state().second.clone(), cx.state().first.clone()),
            };
            async move { Rendezvous { mine, theirs, polls: 0 }.await.map(|()| call.word) }
        },
    );
    let sent = calls(
        &[tagged("define", r#"{"word": "first"}"#), tagged("define", r#"{"word": "second"}"#)].concat(),
    );
    let mut conversation = Conversation::new();
    let future = toolbox.run_all_async(&mut conversation, &sent);
    fn assert_send<T: Send>(_: &T) {}
    assert_send(&future);
    let outcomes = block_on(future);
    let texts: Vec<String> = outcomes.iter().map(Outcome::text).collect();
    assert_eq!(texts, ["first", "second"]);

    // One after the other, the same handlers cannot meet: the first gives up.
    let toolbox_again = Toolbox::with_state(Meeting::default()).with_async_context_tool(
        |call: Define, cx: CallContext<Meeting>| {
            let (mine, theirs) = (cx.state().first.clone(), cx.state().second.clone());
            async move { Rendezvous { mine, theirs, polls: 0 }.await.map(|()| call.word) }
        },
    );
    let outcome = block_on(toolbox_again.dispatch_async(&sent.calls[0]));
    assert!(outcome.text().contains("the other call never started"), "{}", outcome.text());
}

#[test]
fn the_budget_is_decided_before_the_handlers_run() {
    let toolbox = shop();
    let mut conversation = Conversation::new().with_max_failures(2);
    // Refused arguments are known before anything runs: the budget runs out inside the
    // response, and the third call is not run.
    let bad = tagged("add_to_cart", r#"{"sku": "A"}"#).repeat(3);
    let outcomes = block_on(toolbox.run_all_async(&mut conversation, &calls(&bad)));
    let kinds: Vec<OutcomeKind> = outcomes.iter().map(Outcome::kind).collect();
    assert_eq!(kinds, [OutcomeKind::Invalid, OutcomeKind::Invalid, OutcomeKind::BudgetSpent]);
    assert!(outcomes[1].budget_spent);
    assert_eq!(toolbox.state().runs.load(Ordering::SeqCst), 0);

    // A handler's error is known only once it ran: the calls run, each counts on the
    // handler's own budget (never the model's), and the next response finds it spent.
    let toolbox = shop();
    let mut conversation = Conversation::new().with_max_failures(2).with_max_handler_failures(2);
    let broken = tagged("add_to_cart", r#"{"sku": "BROKEN", "quantity": 1}"#).repeat(3);
    let outcomes = block_on(toolbox.run_all_async(&mut conversation, &calls(&broken)));
    assert!(outcomes.iter().all(|o| o.kind() == OutcomeKind::HandlerError));
    assert_eq!(toolbox.state().runs.load(Ordering::SeqCst), 3);
    assert!(outcomes[1].budget_spent && outcomes[2].budget_spent);
    let next = block_on(toolbox.run_all_async(&mut conversation, &calls(&broken)));
    assert!(next.iter().all(|o| o.kind() == OutcomeKind::BudgetSpent));
    assert!(matches!(next[0].result, Err(Failure::HandlerBudgetSpent { .. })));
    assert_eq!(conversation.failures("add_to_cart"), 0);
    assert_eq!(toolbox.state().runs.load(Ordering::SeqCst), 3);
}

#[test]
fn the_future_can_move_to_another_thread() {
    // No runtime is imposed: a `Send` future any executor polls, here on a thread of its own.
    let toolbox = Arc::new(shop());
    let handle = std::thread::spawn({
        let toolbox = Arc::clone(&toolbox);
        move || {
            let mut conversation = Conversation::new();
            let sent = calls(&tagged("define", r#"{"word": "x"}"#));
            block_on(toolbox.run_all_async(&mut conversation, &sent))
        }
    });
    let outcomes = handle.join().unwrap();
    assert_eq!(outcomes[0].text(), "x (define)");
}
