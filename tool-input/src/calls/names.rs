//! How a tool name a model sent is matched against the registered tools: the one rule.

/// How a sent tool name matched the registered ones; see [`resolve_name`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NameMatch<'k> {
    /// The registered name this call is for, and how it was found.
    Found(&'k str, MatchedBy),
    /// Several registered names match without regard to case; none is chosen.
    Ambiguous(Vec<&'k str>),
    /// No registered name matches.
    Unknown,
}

/// Which step of the rule matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MatchedBy {
    /// Byte for byte.
    Exact,
    /// After removing whitespace around the sent name.
    Trimmed,
    /// After removing whitespace, ignoring ASCII case, with exactly one candidate.
    CaseInsensitive,
}

/// Match a sent tool name against the registered names, by this rule, in this order:
///
/// 1. **exact**: the sent name is a registered name, byte for byte;
/// 2. **trimmed**: the sent name without surrounding whitespace (models and backends add
///    spaces and newlines; no provider allows whitespace in a name) is a registered name;
/// 3. **ASCII case-insensitive**: the trimmed name equals exactly one registered name when
///    ASCII letters are compared without case (`Get_Weather` → `get_weather`). When two
///    registered names differ only in case and neither is exact, the match is
///    [`NameMatch::Ambiguous`], never a guess.
///
/// Nothing else is tried: no prefix stripping, no edit distance (a model that calls
/// `get_wether` gets an unknown-tool error listing the tools, and fixes its call). The
/// same rule is used when calls are read ([`crate::calls::CallOptions::tools`]) and when the
/// [`crate::Toolbox`] dispatches them.
///
/// ```
/// use tool_input::calls::{resolve_name, MatchedBy, NameMatch};
/// let known = ["get_weather", "get_time"];
/// assert_eq!(resolve_name("get_weather", &known), NameMatch::Found("get_weather", MatchedBy::Exact));
/// assert_eq!(resolve_name(" get_weather\n", &known), NameMatch::Found("get_weather", MatchedBy::Trimmed));
/// assert_eq!(resolve_name("Get_Weather", &known), NameMatch::Found("get_weather", MatchedBy::CaseInsensitive));
/// assert_eq!(resolve_name("get_wether", &known), NameMatch::Unknown);
/// assert_eq!(resolve_name("RUN", &["run", "Run"]), NameMatch::Ambiguous(vec!["run", "Run"]));
/// ```
pub fn resolve_name<'k, S: AsRef<str>>(sent: &str, known: &'k [S]) -> NameMatch<'k> {
    if let Some(name) = known.iter().map(AsRef::as_ref).find(|k| *k == sent) {
        return NameMatch::Found(name, MatchedBy::Exact);
    }
    let trimmed = sent.trim();
    if let Some(name) = known.iter().map(AsRef::as_ref).find(|k| *k == trimmed) {
        return NameMatch::Found(name, MatchedBy::Trimmed);
    }
    let candidates: Vec<&'k str> =
        known.iter().map(AsRef::as_ref).filter(|k| k.eq_ignore_ascii_case(trimmed)).collect();
    match candidates.len() {
        0 => NameMatch::Unknown,
        1 => NameMatch::Found(candidates[0], MatchedBy::CaseInsensitive),
        _ => NameMatch::Ambiguous(candidates),
    }
}
