//! How a tool name a model sent is matched against the registered tools: the one rule.

/// How a sent tool name matched the registered ones; see [`resolve_name`].
///
/// ```
/// use tool_input::calls::{resolve_name, MatchedBy, NameMatch};
/// let known = ["search", "Search", "get_weather"];
/// match resolve_name("functions.get_weather", &known) {
///     NameMatch::Found(name, by) => assert_eq!((name, by), ("get_weather", MatchedBy::NamespacePrefix)),
///     other => panic!("{other:?}"),
/// }
/// // Two tools differ only in case: no guess is made.
/// assert_eq!(resolve_name("SEARCH", &known), NameMatch::Ambiguous(vec!["search", "Search"]));
/// assert_eq!(resolve_name("browse", &known), NameMatch::Unknown);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NameMatch<'k> {
    /// The registered name this call is for, and how it was found.
    Found(&'k str, MatchedBy),
    /// Several registered names match at the first step that matches at all; none is chosen.
    Ambiguous(Vec<&'k str>),
    /// No registered name matches.
    Unknown,
}

/// Which step of the rule matched.
///
/// ```
/// use tool_input::calls::{parse_body, CallOptions, MatchedBy};
/// let body = br#"{"type": "message", "role": "assistant", "content": [
///   {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}},
///   {"type": "tool_use", "id": "toolu_2", "name": "files_read", "input": {}}]}"#;
/// let calls = parse_body(body, &CallOptions::new().tools(["get_weather", "files.read"])).unwrap();
/// assert_eq!(calls.calls[0].matched_by, Some(MatchedBy::Exact));
/// assert_eq!(calls.calls[1].name, "files.read");
/// assert_eq!(calls.calls[1].matched_by, Some(MatchedBy::Sanitized));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MatchedBy {
    /// Byte for byte.
    Exact,
    /// After removing whitespace around the sent name.
    Trimmed,
    /// After removing whitespace, ignoring ASCII case, with exactly one candidate.
    CaseInsensitive,
    /// The name a definition was sent under because the provider rejects the registered
    /// one ([`crate::dialect::sent_name`]), mapped back by the [`crate::Toolbox`].
    SentName,
    /// After removing a `functions.` or `tools.` namespace prefix (`functions.get_weather`).
    NamespacePrefix,
    /// After reading every character a provider's name pattern `^[a-zA-Z0-9_-]{1,64}$`
    /// does not allow, and `-`, as `_` (`get_weather` for the registered `get.weather`).
    Sanitized,
}

impl MatchedBy {
    /// `exact`, `trimmed`, `case_insensitive`, `sent_name`, `namespace_prefix` or
    /// `sanitized`.
    ///
    /// ```
    /// use tool_input::calls::{resolve_name, MatchedBy, NameMatch};
    /// assert_eq!(MatchedBy::CaseInsensitive.code(), "case_insensitive");
    /// if let NameMatch::Found(_, by) = resolve_name(" get_weather\n", &["get_weather"]) {
    ///     assert_eq!(by.code(), "trimmed");
    ///     assert_eq!(by.to_string(), "trimmed");
    /// } else {
    ///     unreachable!();
    /// }
    /// ```
    pub fn code(self) -> &'static str {
        match self {
            MatchedBy::Exact => "exact",
            MatchedBy::Trimmed => "trimmed",
            MatchedBy::CaseInsensitive => "case_insensitive",
            MatchedBy::SentName => "sent_name",
            MatchedBy::NamespacePrefix => "namespace_prefix",
            MatchedBy::Sanitized => "sanitized",
        }
    }
}

impl std::fmt::Display for MatchedBy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

/// The namespace prefixes models and compatible servers put before a tool name.
const NAMESPACES: [&str; 2] = ["functions.", "tools."];

/// Match a sent tool name against the registered names, by this rule, in this order:
///
/// 1. **exact**: the sent name is a registered name, byte for byte;
/// 2. **trimmed**: the sent name without surrounding whitespace (models and backends add
///    spaces and newlines; no provider allows whitespace in a name) is a registered name;
/// 3. **ASCII case-insensitive**: the trimmed name equals exactly one registered name when
///    ASCII letters are compared without case (`Get_Weather` → `get_weather`);
/// 4. **namespace prefix**: the trimmed name starts with `functions.` or `tools.` (any
///    case), and the rest matches by steps 1 to 3 (`functions.get_weather` →
///    `get_weather`, as Kimi, harmony and the `multi_tool_use.parallel` wrapper write it);
/// 5. **sanitized**: the name, without such a prefix, equals exactly one registered name
///    once every character outside `[A-Za-z0-9_]` (so `.`, `-`, spaces) is read as `_` in
///    both, first with case, then without (`get_weather` → `get.weather`, for a provider
///    whose names must match `^[a-zA-Z0-9_-]{1,64}$`).
///
/// A step that matches exactly one registered name decides; a step that matches several is
/// [`NameMatch::Ambiguous`], never a guess, and no later step is tried. Nothing else is
/// tried: no edit distance (a model that calls `get_wether` gets an unknown-tool error
/// listing the tools, and fixes its call). The same rule is used when calls are read
/// ([`crate::calls::CallOptions::tools`]) and when the [`crate::Toolbox`] dispatches them;
/// the Toolbox also knows the names it sent definitions under
/// ([`MatchedBy::SentName`], between steps 3 and 4).
///
/// ```
/// use tool_input::calls::{resolve_name, MatchedBy, NameMatch};
/// let known = ["get_weather", "get_time", "files.read"];
/// assert_eq!(resolve_name("get_weather", &known), NameMatch::Found("get_weather", MatchedBy::Exact));
/// assert_eq!(resolve_name(" get_weather\n", &known), NameMatch::Found("get_weather", MatchedBy::Trimmed));
/// assert_eq!(resolve_name("Get_Weather", &known), NameMatch::Found("get_weather", MatchedBy::CaseInsensitive));
/// assert_eq!(resolve_name("functions.get_time", &known), NameMatch::Found("get_time", MatchedBy::NamespacePrefix));
/// assert_eq!(resolve_name("files_read", &known), NameMatch::Found("files.read", MatchedBy::Sanitized));
/// assert_eq!(resolve_name("get_wether", &known), NameMatch::Unknown);
/// assert_eq!(resolve_name("RUN", &["run", "Run"]), NameMatch::Ambiguous(vec!["run", "Run"]));
/// assert_eq!(resolve_name("a_b", &["a.b", "a-b"]), NameMatch::Ambiguous(vec!["a.b", "a-b"]));
/// ```
pub fn resolve_name<'k, S: AsRef<str>>(sent: &str, known: &'k [S]) -> NameMatch<'k> {
    resolve_with_sent_names(sent, known, &[])
}

/// [`resolve_name`], knowing also the names definitions were sent under: `(sent, registered)`
/// pairs, tried after the case-insensitive step.
pub(crate) fn resolve_with_sent_names<'k, S: AsRef<str>>(
    sent: &str,
    known: &'k [S],
    sent_names: &[(String, String)],
) -> NameMatch<'k> {
    let names = || known.iter().map(AsRef::as_ref);
    if let Some(name) = names().find(|k| *k == sent) {
        return NameMatch::Found(name, MatchedBy::Exact);
    }
    let trimmed = sent.trim();
    if let Some(name) = names().find(|k| *k == trimmed) {
        return NameMatch::Found(name, MatchedBy::Trimmed);
    }
    match one(names().filter(|k| k.eq_ignore_ascii_case(trimmed)), MatchedBy::CaseInsensitive) {
        NameMatch::Unknown => {}
        decided => return decided,
    }
    // The tools the name was sent for, looked for among the known ones: each known name is
    // compared with those few, not with every pair the definitions were sent under (that was
    // a cost of tools times sent names per call: 4,096 renamed tools, 1.3 s for 128 calls).
    let sent_for: Vec<&str> =
        sent_names.iter().filter(|(alias, _)| alias == trimmed).map(|(_, to)| to.as_str()).collect();
    let aliased = names().filter(|k| sent_for.contains(k));
    match one(aliased, MatchedBy::SentName) {
        NameMatch::Unknown => {}
        decided => return decided,
    }
    let unprefixed = strip_namespace(trimmed);
    if let Some(rest) = unprefixed {
        let rest = rest.trim();
        if let Some(name) = names().find(|k| *k == rest) {
            return NameMatch::Found(name, MatchedBy::NamespacePrefix);
        }
        match one(names().filter(|k| k.eq_ignore_ascii_case(rest)), MatchedBy::NamespacePrefix) {
            NameMatch::Unknown => {}
            decided => return decided,
        }
    }
    let bare = unprefixed.map_or(trimmed, str::trim);
    if bare.is_empty() {
        return NameMatch::Unknown;
    }
    let wanted = sanitized(bare);
    match one(names().filter(|k| sanitized(k) == wanted), MatchedBy::Sanitized) {
        NameMatch::Unknown => {}
        decided => return decided,
    }
    one(names().filter(|k| sanitized(k).eq_ignore_ascii_case(&wanted)), MatchedBy::Sanitized)
}

/// The decision of one step: exactly one candidate is found, several are ambiguous.
fn one<'k>(candidates: impl Iterator<Item = &'k str>, by: MatchedBy) -> NameMatch<'k> {
    let mut candidates: Vec<&'k str> = candidates.collect();
    candidates.dedup();
    match candidates.len() {
        0 => NameMatch::Unknown,
        1 => NameMatch::Found(candidates[0], by),
        _ => NameMatch::Ambiguous(candidates),
    }
}

/// The name after a `functions.` or `tools.` prefix (in any case), if it has one.
fn strip_namespace(name: &str) -> Option<&str> {
    NAMESPACES.iter().find_map(|prefix| {
        let head = name.get(..prefix.len())?;
        head.eq_ignore_ascii_case(prefix).then(|| &name[prefix.len()..])
    })
}

/// A name with every character outside `[A-Za-z0-9_]` as `_`: the form a name takes when a
/// provider, a proxy or the model itself fits it to `^[a-zA-Z0-9_-]{1,64}$` (or drops `-`
/// as well).
fn sanitized(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn later_steps_only_when_earlier_ones_find_nothing() {
        let known = ["get_weather", "get.time", "Search", "search", "tools.list"];
        assert_eq!(resolve_name("tools.list", &known), NameMatch::Found("tools.list", MatchedBy::Exact));
        assert_eq!(
            resolve_name("FUNCTIONS.get_weather", &known),
            NameMatch::Found("get_weather", MatchedBy::NamespacePrefix)
        );
        assert_eq!(
            resolve_name("functions.GET_WEATHER", &known),
            NameMatch::Found("get_weather", MatchedBy::NamespacePrefix)
        );
        assert_eq!(
            resolve_name("tools.get_time", &known),
            NameMatch::Found("get.time", MatchedBy::Sanitized)
        );
        assert_eq!(resolve_name("get time", &known), NameMatch::Found("get.time", MatchedBy::Sanitized));
        assert_eq!(resolve_name("Get-Time", &known), NameMatch::Found("get.time", MatchedBy::Sanitized));
        // Ambiguous at the case step: never resolved by a later one.
        assert_eq!(resolve_name("SEARCH", &known), NameMatch::Ambiguous(vec!["Search", "search"]));
        assert_eq!(resolve_name("functions.SEARCH", &known), NameMatch::Ambiguous(vec!["Search", "search"]));
        // Nothing is read out of a bare prefix or an empty name.
        assert_eq!(resolve_name("functions.", &known), NameMatch::Unknown);
        assert_eq!(resolve_name("", &["_"]), NameMatch::Unknown);
        assert_eq!(resolve_name("get_wether", &known), NameMatch::Unknown);
        assert_eq!(resolve_name("functions.get.weather.now", &known), NameMatch::Unknown);
        // Multi-byte characters are one `_` each, and never split.
        assert_eq!(
            resolve_name("café_au_lait", &["caf__au_lait"]),
            NameMatch::Found("caf__au_lait", MatchedBy::Sanitized)
        );
        assert_eq!(resolve_name("caf\u{e9}", &["caf_"]), NameMatch::Found("caf_", MatchedBy::Sanitized));
        assert_eq!(resolve_name("fünctions.x", &["x"]), NameMatch::Unknown);
    }

    #[test]
    fn sent_names_map_back_to_the_registered_tool() {
        let sent = vec![("a_very_long_na".to_owned(), "a.very.long.name".to_owned())];
        let known = ["a.very.long.name", "other"];
        assert_eq!(
            resolve_with_sent_names("a_very_long_na", &known, &sent),
            NameMatch::Found("a.very.long.name", MatchedBy::SentName)
        );
        assert_eq!(resolve_with_sent_names("a_very_long_na", &known, &[]), NameMatch::Unknown);
    }

    /// 20,000 tools each sent under another name: a name is resolved by comparing the known
    /// names with the tools it was sent for, not every known name with every sent pair (that
    /// was 4 * 10^8 comparisons per name here; in a release build, 128 calls among 4,096
    /// such tools took 1.3 s, and now 0.06 s).
    #[test]
    fn a_name_among_many_renamed_tools_is_resolved_by_look_up() {
        let count = 20_000;
        let known: Vec<String> = (0..count).map(|i| format!("tool.{i}")).collect();
        let sent: Vec<(String, String)> =
            (0..count).map(|i| (format!("tool_{i}_"), format!("tool.{i}"))).collect();
        for i in [0, count / 2, count - 1] {
            let name = format!("tool_{i}_");
            assert_eq!(
                resolve_with_sent_names(&name, &known, &sent),
                NameMatch::Found(known[i].as_str(), MatchedBy::SentName)
            );
        }
        assert_eq!(resolve_with_sent_names("nothing", &known, &sent), NameMatch::Unknown);
        // Two sent names for two tools, both sent as one: ambiguous, as before.
        let sent = [("x".to_owned(), "tool.1".to_owned()), ("x".to_owned(), "tool.2".to_owned())];
        assert_eq!(
            resolve_with_sent_names("x", &known, &sent),
            NameMatch::Ambiguous(vec!["tool.1", "tool.2"])
        );
    }
}
