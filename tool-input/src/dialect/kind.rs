//! The dialects themselves, named and parsed: a leaf, so that what only names a dialect (the
//! `ToolInput` trait, the Toolbox's outcomes) does not depend on the definitions and checks.

use std::fmt;
use std::str::FromStr;

/// The shape a tool definition is sent in, per API.
///
/// ```
/// use tool_input::Dialect;
/// assert_eq!("openai-strict".parse::<Dialect>().unwrap(), Dialect::OpenAiStrict);
/// assert_eq!(Dialect::Gemini.as_str(), "gemini");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Dialect {
    /// OpenAI Chat Completions, `strict` not set.
    OpenAi,
    /// OpenAI Chat Completions with `strict: true` (Structured Outputs for function calls).
    OpenAiStrict,
    /// The OpenAI Responses API with `strict: false` (it defaults to strict).
    Responses,
    /// The OpenAI Responses API with `strict: true`.
    ResponsesStrict,
    /// The Anthropic Messages API.
    Anthropic,
    /// The Gemini API's `FunctionDeclaration`.
    Gemini,
    /// The Model Context Protocol's `Tool`.
    Mcp,
}

impl Dialect {
    /// Every dialect.
    ///
    /// ```
    /// use tool_input::Dialect;
    /// // Each has a name of its own, read back by `FromStr`.
    /// for dialect in Dialect::ALL {
    ///     assert_eq!(dialect.as_str().parse::<Dialect>(), Ok(dialect));
    /// }
    /// ```
    pub const ALL: [Dialect; 7] = [
        Dialect::OpenAi,
        Dialect::OpenAiStrict,
        Dialect::Responses,
        Dialect::ResponsesStrict,
        Dialect::Anthropic,
        Dialect::Gemini,
        Dialect::Mcp,
    ];

    /// `openai`, `openai-strict`, `responses`, `responses-strict`, `anthropic`, `gemini` or
    /// `mcp`.
    ///
    /// ```
    /// use tool_input::Dialect;
    /// assert_eq!(Dialect::ResponsesStrict.as_str(), "responses-strict");
    /// assert_eq!(Dialect::Mcp.to_string(), "mcp");
    /// // Every name parses back to its dialect.
    /// assert!(Dialect::ALL.iter().all(|d| d.as_str().parse::<Dialect>() == Ok(*d)));
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::OpenAi => "openai",
            Dialect::OpenAiStrict => "openai-strict",
            Dialect::Responses => "responses",
            Dialect::ResponsesStrict => "responses-strict",
            Dialect::Anthropic => "anthropic",
            Dialect::Gemini => "gemini",
            Dialect::Mcp => "mcp",
        }
    }

    /// True for the OpenAI strict dialects.
    ///
    /// ```
    /// use tool_input::Dialect;
    /// let strict: Vec<Dialect> = Dialect::ALL.into_iter().filter(|d| d.is_strict()).collect();
    /// assert_eq!(strict, [Dialect::OpenAiStrict, Dialect::ResponsesStrict]);
    /// assert!(!Dialect::Anthropic.is_strict());
    /// ```
    pub fn is_strict(self) -> bool {
        matches!(self, Dialect::OpenAiStrict | Dialect::ResponsesStrict)
    }

    /// Does the dialect change the schema in a way that changes what a model sends?
    pub(crate) fn transforms_arguments(self) -> bool {
        self.is_strict() || self == Dialect::Gemini
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error of parsing a [`Dialect`] from text.
///
/// ```
/// use tool_input::dialect::UnknownDialect;
/// use tool_input::Dialect;
/// let error = "openai_strict".parse::<Dialect>().unwrap_err();
/// assert_eq!(error, UnknownDialect("openai_strict".to_owned()));
/// assert!(error.to_string().starts_with("unknown dialect `openai_strict`; expected openai, openai-strict,"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown dialect `{0}`; expected openai, openai-strict, responses, responses-strict, anthropic, gemini or mcp")]
pub struct UnknownDialect(pub String);

impl FromStr for Dialect {
    type Err = UnknownDialect;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Dialect::ALL.into_iter().find(|d| d.as_str() == s).ok_or_else(|| UnknownDialect(s.to_owned()))
    }
}
