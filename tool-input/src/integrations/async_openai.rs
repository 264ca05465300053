//! [async-openai](https://docs.rs/async-openai)'s Chat Completions types, to and from this
//! crate's: tool definitions (strict mode included), the calls of a response, the tool-call
//! chunks of a stream, and tool results.
//!
//! Only async-openai's types are used (its `chat-completion-types` feature): no HTTP client,
//! runtime or TLS comes with this feature. Use any async-openai client, or none.
//!
//! | async-openai | this crate | how |
//! |---|---|---|
//! | `ChatCompletionTools` (request `tools`) | [`ToolDefinition`], [`Toolbox`] | [`tool`], [`tools`] |
//! | `ChatCompletionMessageToolCall` | [`ToolCall`] or [`CallError`] | [`tool_call`], [`message_tool_call`] back |
//! | `ChatCompletionResponseMessage`, `CreateChatCompletionResponse` | [`Calls`] | [`message_calls`], [`response_calls`] |
//! | `CreateChatCompletionStreamResponse`, `ChatCompletionMessageToolCallChunk` | [`StreamAssembler`] | [`StreamAssembler::push_chat_chunk`], [`StreamAssembler::push_tool_call_chunks`] |
//! | `ChatCompletionRequestToolMessage` (`role: tool`) | [`Outcome`] | [`tool_message`], `From<&Outcome>` |
//! | `ChatCompletionRequestAssistantMessage` (history) | the response message | [`assistant_message`] |
//!
//! ```
//! use async_openai::types::chat::{ChatCompletionMessageToolCall, ChatCompletionRequestMessage, FunctionCall};
//! use schemars::JsonSchema;
//! use serde::Deserialize;
//! use tool_input::{async_openai as ao, Conversation, Dialect, ToolInput, Toolbox};
//!
//! /// Get the weather for a city.
//! #[derive(Deserialize, JsonSchema, ToolInput)]
//! struct GetWeather { city: String, units: Units }
//!
//! #[derive(Deserialize, JsonSchema)]
//! #[serde(rename_all = "lowercase")]
//! enum Units { C, F }
//!
//! let toolbox = Toolbox::new()
//!     .with_tool(|call: GetWeather| Ok::<_, String>(format!("12 degrees in {}", call.city)))
//!     .with_dialect(Dialect::OpenAiStrict);
//! let tools = ao::tools(&toolbox, true); // CreateChatCompletionRequestArgs::default().tools(tools)
//!
//! // What the model sent: single quotes and an enum value in capitals are repaired.
//! let sent = ChatCompletionMessageToolCall {
//!     id: "call_1".into(),
//!     function: FunctionCall { name: "get_weather".into(), arguments: "{'city': 'Paris', 'units': 'C'}".into() },
//! };
//! let call = ao::tool_call(&sent, &toolbox.call_options()).unwrap();
//! let outcome = toolbox.dispatch_in(&mut Conversation::new(), &call);
//! let message = ChatCompletionRequestMessage::from(&outcome); // role: tool, the call's id
//! assert_eq!(serde_json::to_value(&message).unwrap()["content"], "12 degrees in Paris");
//! # assert_eq!(tools.len(), 1);
//! ```

use async_openai::types::chat::{
    ChatCompletionMessageToolCall, ChatCompletionMessageToolCallChunk, ChatCompletionMessageToolCalls,
    ChatCompletionRequestAssistantMessage, ChatCompletionRequestAssistantMessageAudio,
    ChatCompletionRequestAssistantMessageContent, ChatCompletionRequestMessage,
    ChatCompletionRequestToolMessage, ChatCompletionRequestToolMessageContent, ChatCompletionResponseMessage,
    ChatCompletionTool, ChatCompletionTools, CreateChatCompletionResponse,
    CreateChatCompletionStreamResponse, FunctionCall, FunctionObject,
};
use serde::Serialize;
use serde_json::{json, Value};

use crate::calls::{
    self, BodyError, CallError, CallOptions, CallParts, Calls, Format, OriginalArguments, ToolCall,
};
use crate::dialect::Dialect;
use crate::stream::StreamAssembler;
use crate::tool::ToolDefinition;
use crate::toolbox::{Outcome, Toolbox};

/// A tool's definition as a Chat Completions function tool: with `strict`, in OpenAI's
/// strict mode ([`Dialect::OpenAiStrict`]: every property required, optional ones nullable,
/// `additionalProperties: false`, unsupported keywords removed) and `"strict": true`;
/// otherwise the schema as it is, but for a root union written as one object, which OpenAI
/// refuses at the top level ([`Dialect::OpenAi`]).
///
/// Send strict definitions from a [`Toolbox`] built `with_dialect(Dialect::OpenAiStrict)`,
/// so the `null`s a strict model sends for optional fields read back as absent.
///
/// ```
/// use async_openai::types::chat::ChatCompletionTools;
/// use serde_json::json;
/// use tool_input::{async_openai::tool, ToolDefinition};
///
/// let definition = ToolDefinition::new("get_weather", Some("Get the weather."), json!({"type": "object",
///     "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}, "required": ["city"]})).unwrap();
/// let ChatCompletionTools::Function(strict) = tool(&definition, true) else { unreachable!() };
/// assert_eq!(strict.function.strict, Some(true));
/// assert_eq!(strict.function.parameters.unwrap()["required"], json!(["city", "days"]));
/// let ChatCompletionTools::Function(plain) = tool(&definition, false) else { unreachable!() };
/// assert_eq!(plain.function.strict, None);
/// ```
pub fn tool(definition: &ToolDefinition, strict: bool) -> ChatCompletionTools {
    function_tool(definition, definition.name(), strict)
}

/// A tool's definition as a Chat Completions function tool, sent under `name`.
fn function_tool(definition: &ToolDefinition, name: &str, strict: bool) -> ChatCompletionTools {
    let dialect = if strict { Dialect::OpenAiStrict } else { Dialect::OpenAi };
    let mut exported = definition.to_dialect(dialect);
    let function = exported.get_mut("function").map(Value::take).unwrap_or(Value::Null);
    ChatCompletionTools::Function(ChatCompletionTool {
        function: FunctionObject {
            name: name.to_owned(),
            description: function.get("description").and_then(Value::as_str).map(str::to_owned),
            parameters: function.get("parameters").cloned(),
            strict: function.get("strict").and_then(Value::as_bool),
        },
    })
}

/// Every tool of a [`Toolbox`] as Chat Completions function tools, in registration order
/// (see [`tool`]), as [`Toolbox::definitions`] sends them: a tool whose name OpenAI refuses
/// (`files.read`) is sent under [`dialect::sent_name`](crate::dialect::sent_name)
/// (`files_read`), which the Toolbox's calls read back as the registered tool.
///
/// ```
/// use schemars::JsonSchema;
/// use serde::Deserialize;
/// use serde_json::json;
/// use tool_input::{async_openai, ToolDefinition, ToolInput, Toolbox};
///
/// /// Ping a host.
/// #[derive(Deserialize, JsonSchema, ToolInput)]
/// struct Ping { host: String }
///
/// let read = ToolDefinition::new("files.read", None, json!({"type": "object", "properties": {}})).unwrap();
/// let toolbox = Toolbox::new()
///     .with_tool(|_: Ping| Ok::<_, String>("pong"))
///     .with_definition(read, |_| Ok::<_, String>("…"));
/// let tools = serde_json::to_value(async_openai::tools(&toolbox, false)).unwrap();
/// assert_eq!(tools[0]["function"]["name"], "ping");
/// assert_eq!(tools[1]["function"]["name"], "files_read");
/// ```
pub fn tools<S: Send + Sync + 'static>(toolbox: &Toolbox<S>, strict: bool) -> Vec<ChatCompletionTools> {
    let dialect = if strict { Dialect::OpenAiStrict } else { Dialect::OpenAi };
    toolbox
        .tool_definitions()
        .map(|definition| {
            // The name the provider accepts, as the Toolbox sends it and maps calls back.
            function_tool(definition, &crate::dialect::sent_name(definition.name(), dialect), strict)
        })
        .collect()
}

/// One tool call of a response, read by this crate's rules ([`CallParts::finish`]): the id
/// kept byte for byte (or generated when empty), the name matched against the known tools
/// of `options`, the arguments parsed leniently into an object. Arguments that do not parse,
/// are cut off or are not an object, and unknown tools, give a [`CallError`] with the call's
/// id, to answer with [`Toolbox::answer`].
///
/// ```
/// use async_openai::types::chat::{ChatCompletionMessageToolCall, FunctionCall};
/// use tool_input::{async_openai::tool_call, calls::CallOptions};
///
/// let sent = ChatCompletionMessageToolCall {
///     id: "call_1".into(),
///     function: FunctionCall { name: "Get_Weather".into(), arguments: "{\"city\": \"Paris\",}".into() },
/// };
/// let call = tool_call(&sent, &CallOptions::new().tools(["get_weather"])).unwrap();
/// assert_eq!((call.id.as_str(), call.name.as_str()), ("call_1", "get_weather"));
/// assert_eq!(call.arguments["city"], "Paris");
///
/// let cut = ChatCompletionMessageToolCall {
///     id: "call_2".into(),
///     function: FunctionCall { name: "get_weather".into(), arguments: "{\"city\": \"Par".into() },
/// };
/// let error = tool_call(&cut, &CallOptions::new()).unwrap_err();
/// assert_eq!((error.id.as_str(), error.kind.code()), ("call_2", "truncated"));
/// ```
// A `CallError` is as ordinary an outcome as a `ToolCall`, as in `CallParts::finish`.
#[allow(clippy::result_large_err)]
pub fn tool_call(call: &ChatCompletionMessageToolCall, options: &CallOptions) -> Result<ToolCall, CallError> {
    CallParts {
        id: Some(call.id.clone()),
        name: Some(call.function.name.clone()),
        arguments: OriginalArguments::Text(call.function.arguments.clone()),
        format: Format::OpenAi,
        raw: json!({"id": call.id, "type": "function", "function": {
            "name": call.function.name, "arguments": call.function.arguments,
        }}),
        index: 0,
    }
    .finish(options)
}

/// Our call as async-openai's, for the assistant message of a history (a call read from
/// text, say): the arguments as the compact JSON of [`ToolCall::arguments`].
///
/// ```
/// use async_openai::types::chat::ChatCompletionMessageToolCalls;
/// use tool_input::calls::{parse_text, CallOptions};
/// use tool_input::async_openai::message_tool_call;
///
/// let calls = parse_text(r#"<tool_call>{"name": "ping", "arguments": {"host": "a"}}</tool_call>"#, &CallOptions::new());
/// let ChatCompletionMessageToolCalls::Function(call) = message_tool_call(&calls.calls[0]) else { unreachable!() };
/// assert_eq!(call.function.arguments, r#"{"host":"a"}"#);
/// assert!(call.id.starts_with("call_"));
/// ```
pub fn message_tool_call(call: &ToolCall) -> ChatCompletionMessageToolCalls {
    ChatCompletionMessageToolCalls::Function(ChatCompletionMessageToolCall {
        id: call.id.clone(),
        function: FunctionCall {
            name: call.name.clone(),
            arguments: Value::Object(call.arguments.clone()).to_string(),
        },
    })
}

/// The calls of an assistant message, read as [`calls::parse_value`] reads an OpenAI
/// message: every `tool_calls` entry (custom tool calls are errors: they carry no JSON
/// arguments), the legacy `function_call`, the `multi_tool_use.parallel` wrapper, and calls
/// written into the content by a model served without a tool parser.
///
/// ```
/// use async_openai::types::chat::ChatCompletionResponseMessage;
/// use tool_input::{async_openai::message_calls, calls::CallOptions};
///
/// let message: ChatCompletionResponseMessage = serde_json::from_value(serde_json::json!({
///     "role": "assistant", "content": null, "tool_calls": [
///         {"id": "call_1", "type": "function", "function": {"name": "ping", "arguments": "{\"host\": \"a\"}"}},
///         {"id": "call_2", "type": "function", "function": {"name": "ping", "arguments": "[1, 2]"}}]
/// })).unwrap();
/// let calls = message_calls(&message, &CallOptions::new()).unwrap();
/// assert_eq!(calls.calls[0].arguments["host"], "a");
/// assert_eq!(calls.errors[0].kind.code(), "not_object");
/// ```
pub fn message_calls(
    message: &ChatCompletionResponseMessage,
    options: &CallOptions,
) -> Result<Calls, BodyError> {
    read(message, options)
}

/// The calls of a whole response: of the choice [`CallOptions::choice`] selects (the first
/// by default); see [`message_calls`].
///
/// ```
/// use async_openai::types::chat::CreateChatCompletionResponse;
/// use tool_input::{async_openai::response_calls, calls::CallOptions};
///
/// let response: CreateChatCompletionResponse = serde_json::from_value(serde_json::json!({
///     "id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "m",
///     "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant",
///         "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "ping", "arguments": "{}"}}]}}]
/// })).unwrap();
/// assert_eq!(response_calls(&response, &CallOptions::new()).unwrap().calls[0].id, "call_1");
/// ```
pub fn response_calls(
    response: &CreateChatCompletionResponse,
    options: &CallOptions,
) -> Result<Calls, BodyError> {
    read(response, options)
}

/// Read async-openai's value as the OpenAI body it was deserialized from, so every quirk is
/// handled by the one reader.
fn read(value: &impl Serialize, options: &CallOptions) -> Result<Calls, BodyError> {
    let body = serde_json::to_value(value).map_err(|error| BodyError::Shape(error.to_string()))?;
    calls::parse_value(&body, &options.clone().format(Format::OpenAi))
}

/// The assistant message of a response as the request message that puts it in the history
/// (content, refusal, tool calls, audio id), to send before the tool results.
///
/// ```
/// use async_openai::types::chat::{ChatCompletionRequestMessage, ChatCompletionResponseMessage};
/// use tool_input::async_openai::assistant_message;
///
/// let message: ChatCompletionResponseMessage = serde_json::from_value(serde_json::json!({
///     "role": "assistant", "content": null, "tool_calls": [
///         {"id": "call_1", "type": "function", "function": {"name": "ping", "arguments": "{}"}}]
/// })).unwrap();
/// let history = ChatCompletionRequestMessage::from(assistant_message(&message));
/// let sent = serde_json::to_value(&history).unwrap();
/// assert_eq!(sent["role"], "assistant");
/// assert_eq!(sent["tool_calls"][0]["id"], "call_1");
/// ```
pub fn assistant_message(message: &ChatCompletionResponseMessage) -> ChatCompletionRequestAssistantMessage {
    #[allow(deprecated)] // the legacy `function_call` still has to go back as it came
    ChatCompletionRequestAssistantMessage {
        content: message.content.clone().map(ChatCompletionRequestAssistantMessageContent::Text),
        refusal: message.refusal.clone(),
        tool_calls: message.tool_calls.clone(),
        audio: message
            .audio
            .as_ref()
            .map(|audio| ChatCompletionRequestAssistantMessageAudio { id: audio.id.clone() }),
        function_call: message.function_call.clone(),
        ..Default::default()
    }
}

/// The tool message that answers a call: `{"role": "tool", "tool_call_id", "content"}` with
/// [`Outcome::text_in`] OpenAI (the output, or the message for the model, naming each tool as
/// OpenAI was shown it), as [`Outcome::to_openai`].
///
/// ```
/// use serde_json::json;
/// use tool_input::calls::{parse_text, CallOptions};
/// use tool_input::{async_openai::tool_message, Toolbox};
///
/// let calls = parse_text(r#"<tool_call>{"name": "nope", "arguments": {}}</tool_call>"#, &CallOptions::new());
/// let outcome = Toolbox::new().dispatch(&calls.calls[0]);
/// let message = tool_message(&outcome);
/// assert_eq!(message.tool_call_id, calls.calls[0].id);
/// assert_eq!(serde_json::to_value(&message).unwrap(), json!({
///     "tool_call_id": calls.calls[0].id, "content": outcome.text()
/// }));
/// ```
pub fn tool_message(outcome: &Outcome) -> ChatCompletionRequestToolMessage {
    ChatCompletionRequestToolMessage {
        content: ChatCompletionRequestToolMessageContent::Text(outcome.text_in(Dialect::OpenAi)),
        tool_call_id: outcome.call_id.clone(),
    }
}

impl From<&Outcome> for ChatCompletionRequestToolMessage {
    fn from(outcome: &Outcome) -> Self {
        tool_message(outcome)
    }
}

impl From<Outcome> for ChatCompletionRequestToolMessage {
    fn from(outcome: Outcome) -> Self {
        tool_message(&outcome)
    }
}

impl From<&Outcome> for ChatCompletionRequestMessage {
    fn from(outcome: &Outcome) -> Self {
        ChatCompletionRequestMessage::Tool(tool_message(outcome))
    }
}

impl From<Outcome> for ChatCompletionRequestMessage {
    fn from(outcome: Outcome) -> Self {
        ChatCompletionRequestMessage::Tool(tool_message(&outcome))
    }
}

impl StreamAssembler {
    /// Feed one chunk of async-openai's Chat Completions stream (`client.chat()
    /// .create_stream(..)` yields them): its tool-call deltas, content and `finish_reason`,
    /// read as [`push_event`](StreamAssembler::push_event) reads the chunk's JSON. When the
    /// stream ends without an error, call [`push_done`](StreamAssembler::push_done) (the
    /// client consumed the `[DONE]` line) before [`finish`](StreamAssembler::finish); when it
    /// fails, [`cut_off`](StreamAssembler::cut_off).
    ///
    /// ```
    /// use async_openai::types::chat::CreateChatCompletionStreamResponse;
    /// use tool_input::{calls::CallOptions, StreamAssembler};
    ///
    /// let chunks: Vec<CreateChatCompletionStreamResponse> = [
    ///     r#"{"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m", "choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_1", "type": "function", "function": {"name": "ping", "arguments": "{\"ho"}}]}}]}"#,
    ///     r#"{"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m", "choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": "st\": \"a\"}"}}]}, "finish_reason": "tool_calls"}]}"#,
    /// ].iter().map(|text| serde_json::from_str(text).unwrap()).collect();
    /// let mut stream = StreamAssembler::new(CallOptions::new());
    /// for chunk in &chunks {
    ///     stream.push_chat_chunk(chunk);
    /// }
    /// stream.push_done();
    /// assert_eq!(stream.finish().calls[0].arguments["host"], "a");
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "async-openai")))]
    pub fn push_chat_chunk(&mut self, chunk: &CreateChatCompletionStreamResponse) {
        match serde_json::to_value(chunk) {
            Ok(event) => self.push_event(&event),
            // Not reachable for these types (no map with non-string keys); if it were, the
            // calls then open must not be taken as whole.
            Err(_) => self.cut_off("a chunk of the stream could not be read"),
        }
    }

    /// Feed the tool-call chunks of one delta (choice 0), for code that takes the deltas
    /// apart itself. A call is final only when the stream says so: feed the `finish_reason`
    /// with [`push_chat_chunk`](StreamAssembler::push_chat_chunk), or call
    /// [`push_done`](StreamAssembler::push_done) when the stream ended normally.
    ///
    /// ```
    /// use async_openai::types::chat::{ChatCompletionMessageToolCallChunk, FunctionCallStream};
    /// use tool_input::{calls::CallOptions, StreamAssembler};
    ///
    /// let piece = |id: Option<&str>, name: Option<&str>, arguments: &str| ChatCompletionMessageToolCallChunk {
    ///     index: 0,
    ///     id: id.map(str::to_owned),
    ///     r#type: None,
    ///     function: Some(FunctionCallStream { name: name.map(str::to_owned), arguments: Some(arguments.to_owned()) }),
    /// };
    /// let mut stream = StreamAssembler::new(CallOptions::new());
    /// stream.push_tool_call_chunks(&[piece(Some("call_1"), Some("ping"), "{\"host\": \"Zo")]);
    /// stream.push_tool_call_chunks(&[piece(None, None, "ë\"}")]);
    /// stream.push_done();
    /// assert_eq!(stream.finish().calls[0].arguments["host"], "Zoë");
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "async-openai")))]
    pub fn push_tool_call_chunks(&mut self, chunks: &[ChatCompletionMessageToolCallChunk]) {
        match serde_json::to_value(chunks) {
            Ok(tool_calls) => {
                self.push_event(&json!({"choices": [{"index": 0, "delta": {"tool_calls": tool_calls}}]}))
            }
            Err(_) => self.cut_off("a chunk of the stream could not be read"),
        }
    }
}
