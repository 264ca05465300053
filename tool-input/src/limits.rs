//! Limits that keep hostile input cheap to refuse: read by the parser's callers, the check,
//! the call readers and the dialects, so they sit below all of them; and the stack a deep
//! [`Limits::max_depth`] takes ([`Limits::run_with_stack`]).

use std::io;

use crate::parse::{self, ParseMode, ParseOptions};
use crate::policy::Policy;

/// Default for [`Limits::max_errors`].
const DEFAULT_MAX_ERRORS: usize = 50;

/// Default for [`Limits::max_coercions`].
const DEFAULT_MAX_COERCIONS: usize = 100;

/// Limits that keep hostile input cheap to refuse.
///
/// ```
/// use tool_input::Limits;
/// let limits = Limits::default().with_max_bytes(64 * 1024);
/// assert_eq!(limits.max_depth, 128);
/// assert_eq!(limits.max_errors, 50);
/// assert_eq!(limits.max_coercions, 100);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Longest accepted input, in bytes (default 8 MiB): longer is `too_large`. Arguments
    /// that arrive already parsed (a `Value`) are measured as their compact JSON.
    pub max_bytes: usize,
    /// Deepest accepted nesting of arrays and objects (default 128): deeper is `too_deep`.
    ///
    /// Each level takes stack: the check descends a value a level at a time (as do
    /// serializing and dropping a `Value`). Measured in a release build, a level took about
    /// 0.45 KiB under `{"type": "object"}` and 8.6 KiB under the longest chain of subschemas
    /// a schema may lead a level through (61 `$ref`s and an `anyOf`); reading a call's
    /// arguments, 0.15 KiB. So the default, at most 1.1 MiB, fits the 8 MiB of a main thread
    /// (Linux, macOS) and the 2 MiB of a thread Rust spawns (Windows gives a main thread 1
    /// MiB: a schema that deep in references wants a spawned thread there). A debug build takes about four times as much (35
    /// KiB a level at worst, 4.4 MiB at 128: the main thread's 8 MiB holds it). A caller
    /// that raises the limit must run the work on a thread with a stack for it, or a value
    /// nested that deep overflows the stack and aborts the process:
    /// [`Limits::run_with_stack`] does, up to [`Limits::MAX_STACKED_DEPTH`] levels.
    pub max_depth: usize,
    /// Longest value echoed in an error or coercion record, in characters (default 80).
    pub max_echo_chars: usize,
    /// Longest accepted string value, in bytes of UTF-8 (default 4 MiB): longer is a
    /// `too_long` error at the string's path. Checked before `pattern`, so a huge string
    /// never reaches the regular expression engine. Every string value is held to it,
    /// whether a subschema describes it or not (a member where `additionalProperties` is
    /// absent, the items of an array without `items`, a free-form field's contents).
    pub max_string_bytes: usize,
    /// Most field errors one rejection lists (default 50; at least 1). Past it, errors are
    /// counted, not built ([`Rejection::omitted_errors`](crate::Rejection::omitted_errors)),
    /// and the message ends "… and N more errors": a call with a million wrong values costs
    /// a count, not a million messages.
    pub max_errors: usize,
    /// Most coercion records one report keeps (default 100). Past it, coercions are still
    /// made but counted, not recorded ([`Report::omitted_coercions`](crate::Report::omitted_coercions)):
    /// each record names its path, so a call that coerces a million values under a long key
    /// would otherwise cost a million copies of that key.
    pub max_coercions: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_bytes: parse::DEFAULT_MAX_BYTES,
            max_depth: parse::DEFAULT_MAX_DEPTH,
            max_echo_chars: 80,
            max_string_bytes: 4 * 1024 * 1024,
            max_errors: DEFAULT_MAX_ERRORS,
            max_coercions: DEFAULT_MAX_COERCIONS,
        }
    }
}

impl Limits {
    /// How a call's arguments are parsed under `policy` within these limits: strictly under
    /// [`Policy::Strict`], else leniently, as long and as deep as the limits allow. Every
    /// reader of arguments (the validator, the call records, the streams, the dialects)
    /// parses with these.
    pub(crate) fn parse_options(&self, policy: Policy) -> ParseOptions {
        ParseOptions {
            mode: if policy == Policy::Strict { ParseMode::Strict } else { ParseMode::Lenient },
            max_bytes: self.max_bytes,
            max_depth: self.max_depth,
            ..ParseOptions::default()
        }
    }

    /// The longest accepted input, in bytes ([`Limits::max_bytes`]).
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::{Limits, Validator};
    ///
    /// let schema = json!({"type": "object"});
    /// let validator = Validator::builder(&schema).limits(Limits::default().with_max_bytes(16)).build()?;
    /// assert!(validator.check(r#"{"a": 1}"#).is_ok());
    /// assert_eq!(validator.check(r#"{"a": "a longer text"}"#).unwrap_err().kind().code(), "too_large");
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn with_max_bytes(mut self, max_bytes: usize) -> Self {
        self.max_bytes = max_bytes;
        self
    }

    /// The deepest accepted nesting of arrays and objects ([`Limits::max_depth`]).
    ///
    /// Each level takes stack: the default (128) fits the usual stacks (8 MiB for a main
    /// thread, 2 MiB for a thread Rust spawns); past it, run the work with
    /// [`Limits::run_with_stack`], which makes a stack for up to
    /// [`Limits::MAX_STACKED_DEPTH`] levels, or a value nested that deep overflows the stack
    /// and aborts the process (see [`Limits::max_depth`] for what a level takes).
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::{Limits, Validator};
    ///
    /// let schema = json!({"type": "object"});
    /// let validator = Validator::builder(&schema).limits(Limits::default().with_max_depth(3)).build()?;
    /// assert!(validator.check(r#"{"a": [[1]]}"#).is_ok());
    /// assert_eq!(validator.check(r#"{"a": [[[1]]]}"#).unwrap_err().kind().code(), "too_deep");
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn with_max_depth(mut self, max_depth: usize) -> Self {
        self.max_depth = max_depth;
        self
    }

    /// The longest value echoed in an error or coercion record, in characters
    /// ([`Limits::max_echo_chars`]).
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::{Limits, Validator};
    ///
    /// let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}});
    /// let validator = Validator::builder(&schema).limits(Limits::default().with_max_echo_chars(10)).build()?;
    /// let rejection = validator.check(r#"{"n": "a rather long piece of text"}"#).unwrap_err();
    /// assert_eq!(rejection.errors()[0].value(), Some(r#""a rather … (29 characters)"#));
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn with_max_echo_chars(mut self, max_echo_chars: usize) -> Self {
        self.max_echo_chars = max_echo_chars;
        self
    }

    /// The longest accepted string value, in bytes ([`Limits::max_string_bytes`]).
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::{Limits, Validator};
    ///
    /// let schema = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    /// let validator = Validator::builder(&schema).limits(Limits::default().with_max_string_bytes(4)).build()?;
    /// assert!(validator.check(r#"{"a": "abcd"}"#).is_ok());
    /// let rejection = validator.check(r#"{"a": "abcde"}"#).unwrap_err();
    /// assert_eq!(rejection.errors()[0].path(), "/a");
    /// assert_eq!(rejection.errors()[0].message(), "the string is 5 bytes long, more than the limit of 4");
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn with_max_string_bytes(mut self, max_string_bytes: usize) -> Self {
        self.max_string_bytes = max_string_bytes;
        self
    }

    /// The most field errors one rejection lists ([`Limits::max_errors`]); the rest are
    /// counted ([`Rejection::omitted_errors`](crate::Rejection::omitted_errors)).
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::{Limits, Validator};
    ///
    /// let schema = json!({"type": "object", "additionalProperties": false});
    /// let validator = Validator::builder(&schema).limits(Limits::default().with_max_errors(1)).build()?;
    /// let rejection = validator.check(r#"{"a": 1, "b": 2, "c": 3}"#).unwrap_err();
    /// assert_eq!((rejection.errors().len(), rejection.omitted_errors()), (1, 2));
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn with_max_errors(mut self, max_errors: usize) -> Self {
        self.max_errors = max_errors;
        self
    }

    /// The most coercion records one report keeps ([`Limits::max_coercions`]); the rest
    /// are counted ([`Report::omitted_coercions`](crate::Report::omitted_coercions)).
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::{Limits, Validator};
    ///
    /// let schema = json!({"type": "object", "additionalProperties": {"type": "integer"}});
    /// let validator = Validator::builder(&schema).limits(Limits::default().with_max_coercions(1)).build()?;
    /// let checked = validator.check(r#"{"a": "1", "b": "2", "c": "3"}"#).unwrap();
    /// assert_eq!(checked.value, json!({"a": 1, "b": 2, "c": 3}));
    /// assert_eq!(checked.report.coercions[0].path, "/a");
    /// assert_eq!((checked.report.coercions.len(), checked.report.omitted_coercions), (1, 2));
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn with_max_coercions(mut self, max_coercions: usize) -> Self {
        self.max_coercions = max_coercions;
        self
    }
}

/// The stack [`Limits::run_with_stack`] gives each level of nesting: a level of a value
/// under a schema that leads through the longest chain of subschemas it may (61 `$ref`s and
/// a union a level: one more `$ref` is a schema error) took 35 KiB in a debug build; this is
/// near twice that.
const STACK_PER_LEVEL: usize = 64 * 1024;

/// The stack below the levels of nesting: the main thread's on Linux.
const BASE_STACK: usize = 8 * 1024 * 1024;

impl Limits {
    /// The deepest [`Limits::max_depth`] that [`Limits::run_with_stack`] makes a stack for:
    /// 10,000 levels, about 650 MiB of address space (of which only what a call uses is
    /// memory).
    ///
    /// ```
    /// assert_eq!(tool_input::Limits::MAX_STACKED_DEPTH, 10_000);
    /// ```
    pub const MAX_STACKED_DEPTH: usize = 10_000;

    /// Run `work` (a check, a parse, a call reader under these limits) where the stack holds
    /// values nested [`Limits::max_depth`] deep, and return what it returns.
    ///
    /// Within the default depth (128), `work` runs right here, on the caller's thread: the
    /// usual stacks hold it. Past it, `work` runs on a thread made with a stack for that many
    /// levels (8 MiB and 64 KiB a level), and this waits for it; a `max_depth` past
    /// [`Limits::MAX_STACKED_DEPTH`] is an error of kind [`io::ErrorKind::InvalidInput`]
    /// (no stack made for it would be sure to hold it), and so is a thread the system
    /// cannot make. A panic in `work` goes on in the caller.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::{Limits, Validator};
    ///
    /// let limits = Limits::default().with_max_depth(2_000);
    /// let validator = Validator::builder(&json!({"type": "object"})).limits(limits).build()?;
    /// let deep = format!(r#"{{"a": {}1{}}}"#, "[".repeat(1_999), "]".repeat(1_999));
    /// // The value is used (and dropped, which descends it too) where the stack holds it.
    /// let accepted = limits.run_with_stack(|| validator.check(deep.as_str()).is_ok())?;
    /// assert!(accepted);
    /// let too_deep = Limits::default().with_max_depth(Limits::MAX_STACKED_DEPTH + 1);
    /// assert!(too_deep.run_with_stack(|| ()).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn run_with_stack<T: Send>(&self, work: impl FnOnce() -> T + Send) -> io::Result<T> {
        let depth = self.max_depth;
        if depth <= parse::DEFAULT_MAX_DEPTH {
            return Ok(work());
        }
        if depth > Self::MAX_STACKED_DEPTH {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("no stack is made for a max_depth of {depth}, past {}", Self::MAX_STACKED_DEPTH),
            ));
        }
        let stack = BASE_STACK + depth * STACK_PER_LEVEL;
        std::thread::scope(|scope| {
            let thread = std::thread::Builder::new().stack_size(stack).spawn_scoped(scope, work)?;
            // A panic is `work`'s own, and goes on in the caller as if it had run there.
            Ok(thread.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Map, Value};

    use super::*;
    use crate::Validator;

    /// A call nested `depth` deep: `{"a": [[…1…]]}`.
    fn nested(depth: usize) -> String {
        format!(r#"{{"a": {}1{}}}"#, "[".repeat(depth - 1), "]".repeat(depth - 1))
    }

    #[test]
    fn within_the_default_depth_the_work_runs_on_the_callers_thread() {
        let here = std::thread::current().id();
        for limits in [Limits::default(), Limits::default().with_max_depth(0)] {
            assert_eq!(limits.run_with_stack(|| std::thread::current().id()).unwrap(), here);
        }
        let deeper = Limits::default().with_max_depth(parse::DEFAULT_MAX_DEPTH + 1);
        assert_ne!(deeper.run_with_stack(|| std::thread::current().id()).unwrap(), here);
    }

    #[test]
    fn past_the_deepest_stack_made_the_work_is_refused_unrun() {
        let limits = Limits::default().with_max_depth(Limits::MAX_STACKED_DEPTH + 1);
        let mut ran = false;
        let error = limits.run_with_stack(|| ran = true).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::InvalidInput);
        assert_eq!(error.to_string(), "no stack is made for a max_depth of 10001, past 10000");
        assert!(!ran);
        let most = Limits::default().with_max_depth(usize::MAX);
        assert_eq!(most.run_with_stack(|| ()).unwrap_err().kind(), io::ErrorKind::InvalidInput);
    }

    #[test]
    fn a_panic_in_the_work_goes_on_in_the_caller() {
        let limits = Limits::default().with_max_depth(1_000);
        let caught = std::panic::catch_unwind(|| limits.run_with_stack(|| panic!("the work's own")));
        let panic = caught.unwrap_err();
        assert_eq!(panic.downcast_ref::<&str>(), Some(&"the work's own"));
    }

    /// The deepest depth a stack is made for holds a value that deep under the schema that
    /// takes the most stack a level: every level through the longest chain of references
    /// a schema may have (61, then a union: one more is a schema error).
    #[test]
    fn the_deepest_stack_holds_the_check_that_takes_the_most_a_level() {
        let mut defs: Map<String, Value> =
            (0..61).map(|i| (format!("n{i}"), json!({"$ref": format!("#/$defs/n{}", i + 1)}))).collect();
        defs.insert(
            "n61".to_owned(),
            json!({"anyOf": [{"type": "array", "items": {"$ref": "#/$defs/n0"}}, {"type": "integer"}]}),
        );
        let schema = json!({"$defs": defs, "type": "object", "properties": {"a": {"$ref": "#/$defs/n0"}}});
        let limits = Limits::default().with_max_depth(Limits::MAX_STACKED_DEPTH);
        let validator = Validator::builder(&schema).limits(limits).build().unwrap();
        let deepest = nested(Limits::MAX_STACKED_DEPTH);
        let depth = limits
            .run_with_stack(|| {
                let checked = validator.check(deepest.as_str()).unwrap();
                let mut depth = 0;
                let mut at = &checked.value;
                while let Some(inner) = at.get("a").or_else(|| at.get(0)) {
                    (depth, at) = (depth + 1, inner);
                }
                assert_eq!(at, &json!(1));
                depth
            })
            .unwrap();
        assert_eq!(depth, Limits::MAX_STACKED_DEPTH);
        let too_deep = nested(Limits::MAX_STACKED_DEPTH + 1);
        let refused = limits.run_with_stack(|| validator.check(too_deep.as_str()).unwrap_err()).unwrap();
        assert_eq!(refused.kind().code(), "too_deep");
    }
}
