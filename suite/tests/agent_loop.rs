//! The agent-loop example runs offline and ends as it says: async-openai's client against a
//! local Chat Completions server replaying a recorded response, the malformed calls repaired
//! or rejected with a message naming the path, the corrected call run, the retry budget kept.

#[path = "../examples/agent_loop.rs"]
#[allow(dead_code)]
mod agent_loop;

use agent_loop::{run_agent, Model, ReplayServer};
use tool_input::OutcomeKind;

fn kinds(turn: &[agent_loop::Step]) -> Vec<(&str, OutcomeKind)> {
    turn.iter().map(|step| (step.tool.as_str(), step.kind)).collect()
}

#[tokio::test]
async fn the_model_fixes_its_call_after_our_error() {
    let server = ReplayServer::start(Model::Corrects).await.expect("the replay server starts");
    let transcript = run_agent(server.api_base(), 3).await.expect("the loop finishes");

    assert_eq!(transcript.turns.len(), 2);
    // Turn 1: the weather call repaired (Python dict, `'C'`) and run; the stock call's wrong
    // exchange rejected, naming the path and the options.
    let first = &transcript.turns[0];
    assert_eq!(
        kinds(first),
        [("GetWeatherArgs", OutcomeKind::Success), ("get_stock_price", OutcomeKind::Invalid)]
    );
    assert_eq!(first[0].text, "12°C and cloudy in Edinburgh, GB");
    assert!(first[0].fixes.iter().any(|fix| fix == "/units: enum_case"), "{:?}", first[0].fixes);
    assert!(first[0].fixes.iter().any(|fix| fix.starts_with("single_quotes")), "{:?}", first[0].fixes);
    assert!(
        first[1].text.contains(r#"- /exchange: "LSE" is not one of "NASDAQ", "NYSE""#),
        "{}",
        first[1].text
    );
    // Turn 2: the recorded, correct call.
    assert_eq!(kinds(&transcript.turns[1]), [("get_stock_price", OutcomeKind::Success)]);
    assert_eq!(transcript.turns[1][0].call_id, "call_h1DWI1POMJLb0KwIyQHWXD4p_2");

    assert_eq!((transcript.weather_runs, transcript.stock_runs), (1, 1));
    // The handlers' context: the registered tool's name and the id of the call each answered.
    assert_eq!(
        transcript.log,
        [
            format!("GetWeatherArgs {}", transcript.turns[0][0].call_id),
            "get_stock_price call_h1DWI1POMJLb0KwIyQHWXD4p_2".to_owned(),
        ]
    );
    assert!(
        transcript.answer.starts_with("Weather: 12°C and cloudy in Edinburgh, GB. AAPL: {"),
        "{}",
        transcript.answer
    );

    // What went over the wire: three requests, the second carrying our error as the tool
    // message of the rejected call.
    let requests = server.requests();
    assert_eq!(requests.len(), 3);
    let tool_messages: Vec<&serde_json::Value> =
        requests[1]["messages"].as_array().unwrap().iter().filter(|m| m["role"] == "tool").collect();
    assert_eq!(tool_messages.len(), 2);
    assert_eq!(tool_messages[1]["tool_call_id"], "call_h1DWI1POMJLb0KwIyQHWXD4p");
    assert!(tool_messages[1]["content"].as_str().unwrap().contains("/exchange"));
    assert_eq!(requests[0]["tools"][1]["function"]["strict"], true);
}

#[tokio::test]
async fn a_stubborn_model_runs_out_of_retries() {
    let server = ReplayServer::start(Model::Stubborn).await.expect("the replay server starts");
    let transcript = run_agent(server.api_base(), 2).await.expect("the loop finishes");

    let turns: Vec<Vec<(&str, OutcomeKind)>> = transcript.turns.iter().map(|turn| kinds(turn)).collect();
    assert_eq!(
        turns,
        [
            vec![("GetWeatherArgs", OutcomeKind::Success), ("get_stock_price", OutcomeKind::Invalid)],
            vec![("get_stock_price", OutcomeKind::Invalid)],
            vec![("get_stock_price", OutcomeKind::BudgetSpent)],
        ]
    );
    // The second failure says the budget is now spent; the third call is not run.
    assert!(transcript.turns[1][0].text.contains("retry budget for `get_stock_price` is now spent"));
    assert!(transcript.turns[2][0].text.contains("was not run"));
    assert_eq!((transcript.weather_runs, transcript.stock_runs), (1, 0));
    assert_eq!(transcript.answer, "I could not get the stock price.");
    assert_eq!(server.requests().len(), 4);
}

#[test]
fn the_example_runs() {
    agent_loop::main().expect("the example runs to the end");
}

#[tokio::test]
async fn the_server_refuses_a_call_left_unanswered() {
    use async_openai::config::OpenAIConfig;
    use async_openai::types::chat::{
        ChatCompletionRequestAssistantMessage, ChatCompletionRequestUserMessage,
        CreateChatCompletionRequestArgs,
    };
    use async_openai::Client;

    let server = ReplayServer::start(Model::Corrects).await.expect("the replay server starts");
    let toolbox = tool_input::Toolbox::new()
        .with_tool(|_: agent_loop::GetWeatherArgs| Ok::<_, String>("sunny"))
        .with_tool(|_: agent_loop::GetStockPrice| Ok::<_, String>("1"));
    let assistant: ChatCompletionRequestAssistantMessage = serde_json::from_value(serde_json::json!({
        "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_stock_price", "arguments": "{}"}}]
    }))
    .unwrap();
    let request = CreateChatCompletionRequestArgs::default()
        .model("gpt-4o-2024-08-06")
        .messages(vec![ChatCompletionRequestUserMessage::from("AAPL?").into(), assistant.into()])
        .tools(tool_input::async_openai::tools(&toolbox, true))
        .build()
        .unwrap();
    let client =
        Client::with_config(OpenAIConfig::new().with_api_base(server.api_base()).with_api_key("sk-offline"));
    let error = client.chat().create(request).await.expect_err("a turn with an unanswered call is refused");
    assert!(error.to_string().contains("the tool call call_1 was not answered"), "{error}");
}

#[tokio::test]
async fn a_turn_that_lost_its_call_is_told_to_the_model_not_taken_for_its_answer() {
    let server = ReplayServer::start(Model::LosesItsFirstCall).await.expect("the replay server starts");
    let transcript = run_agent(server.api_base(), 3).await.expect("the loop finishes");

    // Turn 1 had no call to answer; then the model's calls, as when nothing was lost.
    assert_eq!(transcript.turns.len(), 3);
    assert!(transcript.turns[0].is_empty());
    assert_eq!(
        kinds(&transcript.turns[1]),
        [("GetWeatherArgs", OutcomeKind::Success), ("get_stock_price", OutcomeKind::Invalid)]
    );
    assert_eq!(kinds(&transcript.turns[2]), [("get_stock_price", OutcomeKind::Success)]);
    assert!(transcript.answer.starts_with("Weather: 12°C and cloudy in Edinburgh, GB. AAPL: {"));
    // The second request told the model, in a user turn, and answered no call id.
    let requests = server.requests();
    let messages = requests[1]["messages"].as_array().unwrap();
    let last = messages.last().unwrap();
    assert_eq!(last["role"], "user");
    assert!(last["content"].as_str().unwrap().starts_with("Your tool call could not be read"), "{last}");
    assert!(messages.iter().all(|m| m["role"] != "tool"));
}
