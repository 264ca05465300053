//! How one call is answered: the tool found by its name (or the budget it spent, or the
//! tools it could have meant), its arguments checked by the tool's path, its handler run,
//! and the outcome counted against the conversation's budget.

use super::*;

impl<S: Send + Sync + 'static> Toolbox<S> {
    pub(super) fn dispatch_sync(&self, call: &ToolCall, conversation: Option<&mut Conversation>) -> Outcome {
        let outcome = match self.prepare(call, conversation.as_deref()) {
            Prepared::Done(outcome) => outcome,
            Prepared::Run { tool, arguments } => {
                let report = arguments.report().clone();
                let invocation = self.invocation(call, tool);
                let asynchronous = || {
                    Ok(Err(format!(
                        "the tool `{}` is asynchronous; dispatch it with `Toolbox::dispatch_async`",
                        tool.definition.name()
                    )))
                };
                let output = if tool.is_async {
                    asynchronous()
                } else {
                    match start(tool, arguments, &invocation) {
                        Ok(Started::Output(output)) => Ok(output),
                        Ok(Started::Future(_)) => asynchronous(),
                        Err(rejection) => Err(rejection),
                    }
                };
                ran(call, tool, report, output)
            }
        };
        finish(outcome, call.format, conversation)
    }

    pub(super) async fn dispatch_future(
        &self,
        call: &ToolCall,
        conversation: Option<&mut Conversation>,
    ) -> Outcome {
        let outcome = match self.prepare(call, conversation.as_deref()) {
            Prepared::Done(outcome) => outcome,
            Prepared::Run { tool, arguments } => self.run(call, tool, arguments).await,
        };
        finish(outcome, call.format, conversation)
    }

    /// Run a call's handler on its checked arguments, awaiting an async one.
    pub(super) async fn run(&self, call: &ToolCall, tool: &Tool<S>, arguments: Arguments<S>) -> Outcome {
        let report = arguments.report().clone();
        let invocation = self.invocation(call, tool);
        let output = match start(tool, arguments, &invocation) {
            Ok(Started::Output(output)) => Ok(output),
            Ok(Started::Future(future)) => Ok(future.await),
            Err(rejection) => Err(rejection),
        };
        ran(call, tool, report, output)
    }

    pub(super) fn invocation<'a>(&'a self, call: &'a ToolCall, tool: &'a Tool<S>) -> Invocation<'a, S> {
        Invocation { state: &self.state, call_id: &call.id, tool: tool.definition.name() }
    }

    /// Everything before the handler: find the tool, check the budget, check the arguments.
    pub(super) fn prepare(&self, call: &ToolCall, conversation: Option<&Conversation>) -> Prepared<'_, S> {
        let Some((tool, matched_by)) = self.find_matched(&call.name) else {
            let raw = || trace::raw(&call.original, Some(&call.arguments), &[]);
            return Prepared::Done(self.unknown(Sent::of_call(call), raw, conversation));
        };
        let name = tool.definition.name();
        let at = trace::Subject { tool: name, call_id: &call.id, format: call.format.as_str() };
        if let Some(spent) = conversation.and_then(|c| c.spent(name)) {
            trace::budget_spent(at, spent.count());
            return Prepared::Done(Outcome::failed(call, name, spent.failure(name)));
        }
        // How the toolbox matched the name, or how the reader did when it knew the tools.
        let matched_by = call.matched_by.filter(|_| matched_by == MatchedBy::Exact).unwrap_or(matched_by);
        let raw = || trace::raw(&call.original, Some(&call.arguments), &tool.sensitive);
        trace::call(at, &call.name_sent, Some(matched_by), raw);
        // A typed tool reads the arguments by its typed path, unless a dialect changed them
        // (they are read back from it as JSON) or the `arguments accepted` event is listened
        // to (it logs the checked JSON).
        let typed = tool
            .on_raw
            .as_ref()
            .filter(|_| !self.dialect.is_some_and(Dialect::transforms_arguments) && !trace::wants_accepted());
        // The record's parse of the text stands in for the tool's own where they are the
        // same parse (see `Validator::check_parsed_text`): the text is parsed once.
        let parsed = call.parsed_text();
        let checked = match (typed, self.dialect) {
            (Some(read), _) => {
                read(call.original.as_raw(), parsed.as_ref(), &self.options).map(Arguments::Typed)
            }
            (None, Some(dialect)) if dialect.transforms_arguments() => {
                tool.definition.check_as(dialect, call.original.as_raw(), &self.options).map(Arguments::Value)
            }
            // `check_as` of a dialect that leaves arguments as they are is `check_with`.
            (None, _) => match &parsed {
                Some(parsed) => {
                    check_parsed_text(&tool.definition, parsed, &self.options).map(Arguments::Value)
                }
                None => {
                    tool.definition.check_with(call.original.as_raw(), &self.options).map(Arguments::Value)
                }
            },
        };
        match checked {
            Ok(arguments) => {
                if let Arguments::Value(checked) = &arguments {
                    trace::accepted(at, &checked.report, raw, || {
                        trace::value(&checked.value, &tool.sensitive)
                    });
                }
                Prepared::Run { tool, arguments }
            }
            Err(rejection) => {
                trace::rejected(at, &rejection, !tool.sensitive.is_empty(), raw);
                let failure = if rejection.kind == RejectionKind::Invalid {
                    Failure::Invalid(rejection)
                } else {
                    Failure::Unparsable(rejection)
                };
                Prepared::Done(Outcome::failed(call, name, failure))
            }
        }
    }

    fn find_matched(&self, name: &str) -> Option<(&Tool<S>, MatchedBy)> {
        match calls::names::resolve_with_sent_names(name, &self.names(), &self.sent_names) {
            NameMatch::Found(found, by) => {
                self.tools.iter().find(|tool| tool.definition.name() == found).map(|tool| (tool, by))
            }
            _ => None,
        }
    }

    fn unknown(
        &self,
        sent: Sent<'_>,
        raw: impl FnOnce() -> String,
        conversation: Option<&Conversation>,
    ) -> Outcome {
        let name = sent.name.trim();
        let at = trace::Subject { tool: name, call_id: sent.id, format: sent.format.as_str() };
        // Calls to a name no tool has are the model's mistakes too, counted under that name:
        // once they spend its budget, each further one is told so, as for a known tool.
        if let Some(spent) = conversation.and_then(|c| c.spent(name)) {
            trace::budget_spent(at, spent.count());
            return Outcome::new(sent.id, sent.id_generated, name, Err(spent.failure(name)));
        }
        let available: Vec<String> = self.names().into_iter().map(str::to_owned).collect();
        trace::unknown(at, sent.name_sent, &available, raw);
        Outcome::new(
            sent.id,
            sent.id_generated,
            name,
            Err(Failure::UnknownTool { name: name.to_owned(), available }),
        )
    }

    pub(super) fn answer_error(&self, error: &CallError, conversation: Option<&mut Conversation>) -> Outcome {
        let outcome = self.answer_outcome(error, conversation.as_deref());
        finish(outcome, error.format, conversation)
    }

    /// [`Toolbox::answer_error`] before the outcome is counted.
    pub(super) fn answer_outcome(&self, error: &CallError, conversation: Option<&Conversation>) -> Outcome {
        let sent = error.name.as_deref().unwrap_or("");
        let name_sent = error.name_sent.as_deref().unwrap_or(sent);
        let tool = self.find(sent);
        let sensitive = tool.map_or(&[][..], |tool| &tool.sensitive[..]);
        let raw = || trace::raw(&error.original, None, sensitive);
        match error.kind {
            CallErrorKind::UnknownTool => self.unknown(Sent::of_error(error), raw, conversation),
            CallErrorKind::Malformed | CallErrorKind::TooManyCalls => {
                let at = trace::Subject { tool: sent, call_id: &error.id, format: error.format.as_str() };
                trace::malformed(at, name_sent, &error.message, raw);
                let outcome = Outcome::new(
                    &error.id,
                    error.id_generated,
                    sent,
                    Err(Failure::Malformed(error.message.clone())),
                );
                match tool {
                    Some(_) => outcome.of_registered_tool(),
                    None => outcome,
                }
            }
            _ => match tool {
                // Read before the tools were known: that the tool does not exist comes first.
                None if !sent.is_empty() => self.unknown(Sent::of_error(error), raw, conversation),
                tool => {
                    let name = tool.map_or(sent, |tool| tool.definition.name());
                    let at = trace::Subject { tool: name, call_id: &error.id, format: error.format.as_str() };
                    let spent = conversation.and_then(|c| c.spent(name));
                    let failure = match (spent, &error.rejection) {
                        (Some(spent), _) => spent.failure(name),
                        (None, Some(rejection)) => {
                            // Read before the tool was known: a tool with sensitive fields
                            // gets a message that quotes nothing of the arguments.
                            let rejection = if sensitive.is_empty() {
                                rejection.clone()
                            } else {
                                rejection.clone().quoting_nothing()
                            };
                            trace::rejected(at, &rejection, !sensitive.is_empty(), raw);
                            Failure::Unparsable(rejection)
                        }
                        (None, None) => {
                            trace::malformed(at, name_sent, &error.message, raw);
                            Failure::Malformed(error.message.clone())
                        }
                    };
                    let outcome = Outcome::new(&error.id, error.id_generated, name, Err(failure));
                    match tool {
                        Some(_) => outcome.of_registered_tool(),
                        None => outcome,
                    }
                }
            },
        }
    }

    fn find(&self, name: &str) -> Option<&Tool<S>> {
        self.find_matched(name).map(|(tool, _)| tool)
    }
}

/// What a call to an unknown tool sent, from a call or an error.
struct Sent<'a> {
    id: &'a str,
    id_generated: bool,
    name: &'a str,
    name_sent: &'a str,
    format: Format,
}

impl<'a> Sent<'a> {
    fn of_call(call: &'a ToolCall) -> Self {
        Sent {
            id: &call.id,
            id_generated: call.id_generated,
            name: &call.name,
            name_sent: &call.name_sent,
            format: call.format,
        }
    }

    fn of_error(error: &'a CallError) -> Self {
        let name = error.name.as_deref().unwrap_or("");
        Sent {
            id: &error.id,
            id_generated: error.id_generated,
            name,
            name_sent: error.name_sent.as_deref().unwrap_or(name),
            format: error.format,
        }
    }
}

pub(super) enum Prepared<'t, S> {
    Done(Outcome),
    Run { tool: &'t Tool<S>, arguments: Arguments<S> },
}

/// [`ToolDefinition::check_with`] of a call's argument text, given the record's parse of it.
pub(super) fn check_parsed_text(
    definition: &ToolDefinition,
    parsed: &ParsedText<'_>,
    options: &CheckOptions,
) -> Result<Checked<Value>, Rejection> {
    definition
        .validator()
        .check_parsed_text(parsed, options)
        .map_err(|rejection| rejection.with_tool_named(definition.shared_name()))
}

/// A rejection made when serde refused a value the schema accepted.
pub(super) fn is_serde_refusal(rejection: &Rejection) -> bool {
    rejection.kind == RejectionKind::Invalid
        && rejection.errors.first().is_some_and(|error| error.code == crate::ErrorCode::Deserialize)
}

/// The outcome of a handler that ran (or of typed deserialization that refused).
fn ran<S>(call: &ToolCall, tool: &Tool<S>, report: Report, output: Result<Output, Rejection>) -> Outcome {
    let name = tool.definition.name();
    let at = trace::Subject { tool: name, call_id: &call.id, format: call.format.as_str() };
    let result = match output {
        Ok(Ok(value)) => {
            trace::succeeded(at);
            Ok(value)
        }
        Ok(Err(message)) => {
            trace::failed(at, &message);
            Err(Failure::Handler { tool: name.to_owned(), message })
        }
        Err(rejection) => {
            let raw = || trace::raw(&call.original, Some(&call.arguments), &tool.sensitive);
            trace::rejected(at, &rejection, !tool.sensitive.is_empty(), raw);
            Err(Failure::Invalid(rejection))
        }
    };
    let mut outcome = Outcome::new(&call.id, call.id_generated, name, result).of_registered_tool();
    outcome.report = report;
    outcome
}

/// Count the outcome against the conversation's budget.
pub(super) fn finish(
    mut outcome: Outcome,
    format: Format,
    conversation: Option<&mut Conversation>,
) -> Outcome {
    if let Some(conversation) = conversation {
        let spent = conversation.record(&outcome.tool, outcome.kind());
        outcome.budget_spent = spent;
        if spent && outcome.kind() != OutcomeKind::BudgetSpent {
            let at =
                trace::Subject { tool: &outcome.tool, call_id: &outcome.call_id, format: format.as_str() };
            trace::budget_spent(at, conversation.spent(&outcome.tool).map_or(0, Spent::count));
        }
    }
    outcome
}

impl Outcome {
    /// A call to the registered tool `tool` that did not run.
    pub(super) fn failed(call: &ToolCall, tool: &str, failure: Failure) -> Outcome {
        Outcome::new(&call.id, call.id_generated, tool, Err(failure)).of_registered_tool()
    }
}
