//! The limit flags (`--max-bytes N`, …): the library's [`Limits`] from the command line,
//! each flag setting one limit and leaving the others at their defaults.

use clap::Args;
use tool_input::Limits;

/// The six limits of a check (`check`, `bench`): what one call may cost.
#[derive(Debug, Default, Clone, PartialEq, Eq, Args)]
#[command(next_help_heading = "Limits")]
pub(crate) struct LimitFlags {
    /// The longest call accepted, in bytes (default 8388608, 8 MiB): a longer one is
    /// `too_large`, and is read no further than one byte past the limit.
    #[arg(long, value_name = "N", value_parser = limit, allow_negative_numbers = true)]
    pub max_bytes: Option<usize>,
    /// The deepest nesting of arrays and objects accepted (default 128, at most 10000):
    /// deeper is `too_deep`.
    #[arg(long, value_name = "N", value_parser = depth, allow_negative_numbers = true)]
    pub max_depth: Option<usize>,
    /// The longest value quoted in an error or coercion record, in characters (default 80):
    /// a longer one is cut, with its length.
    #[arg(long, value_name = "N", value_parser = limit, allow_negative_numbers = true)]
    pub max_echo_chars: Option<usize>,
    /// The longest string value accepted, in bytes (default 4194304, 4 MiB): a longer one
    /// is a `too_long` error at its path.
    #[arg(long, value_name = "N", value_parser = limit, allow_negative_numbers = true)]
    pub max_string_bytes: Option<usize>,
    /// The most errors one rejection lists, at least 1 (default 50): the rest are counted
    /// in `omitted_errors`.
    #[arg(long, value_name = "N", value_parser = max_errors, allow_negative_numbers = true)]
    pub max_errors: Option<usize>,
    /// The most coercion records one result lists (default 100): the rest are still made,
    /// and counted in `omitted_coercions`.
    #[arg(long, value_name = "N", value_parser = limit, allow_negative_numbers = true)]
    pub max_coercions: Option<usize>,
}

impl LimitFlags {
    /// The library's limits, each flag given in place of its default.
    pub(crate) fn limits(&self) -> Limits {
        let mut limits = parse_limits(self.max_bytes, self.max_depth);
        if let Some(n) = self.max_echo_chars {
            limits = limits.with_max_echo_chars(n);
        }
        if let Some(n) = self.max_string_bytes {
            limits = limits.with_max_string_bytes(n);
        }
        if let Some(n) = self.max_errors {
            limits = limits.with_max_errors(n);
        }
        if let Some(n) = self.max_coercions {
            limits = limits.with_max_coercions(n);
        }
        limits
    }

    /// The flags given, as arguments again: for the `check` that `bench` runs in a new
    /// process to measure its memory.
    pub(crate) fn args(&self) -> Vec<String> {
        let flags = [
            ("--max-bytes", self.max_bytes),
            ("--max-depth", self.max_depth),
            ("--max-echo-chars", self.max_echo_chars),
            ("--max-string-bytes", self.max_string_bytes),
            ("--max-errors", self.max_errors),
            ("--max-coercions", self.max_coercions),
        ];
        flags
            .into_iter()
            .filter_map(|(flag, value)| value.map(|value| [flag.to_owned(), value.to_string()]))
            .flatten()
            .collect()
    }
}

/// The default limits with `--max-bytes` and `--max-depth` in place of theirs, where given:
/// the two that bound a parse, all `calls` and `repair` read.
pub(crate) fn parse_limits(max_bytes: Option<usize>, max_depth: Option<usize>) -> Limits {
    let mut limits = Limits::default();
    if let Some(n) = max_bytes {
        limits = limits.with_max_bytes(n);
    }
    if let Some(n) = max_depth {
        limits = limits.with_max_depth(n);
    }
    limits
}

/// A limit's value: a whole number, 0 or more. Anything else is a usage error, which clap
/// words naming the flag (`invalid value 'x' for '--max-bytes <N>': …`).
pub(crate) fn limit(value: &str) -> Result<usize, String> {
    at_least(value, 0)
}

/// `--max-errors`: a whole number, 1 or more (a rejection lists at least one error).
pub(crate) fn max_errors(value: &str) -> Result<usize, String> {
    at_least(value, 1)
}

/// `--max-depth`: a whole number from 0 to [`Limits::MAX_STACKED_DEPTH`]. The check and
/// the call readers descend a level of the value at a time, on the stack: a nesting limit
/// past the default runs the command on a stack made for it ([`Limits::run_with_stack`]),
/// which must stay a size a process can ask for.
pub(crate) fn depth(value: &str) -> Result<usize, String> {
    within(value, 0, Limits::MAX_STACKED_DEPTH)
}

fn at_least(value: &str, least: usize) -> Result<usize, String> {
    within(value, least, usize::MAX)
}

fn within(value: &str, least: usize, most: usize) -> Result<usize, String> {
    value
        .parse::<usize>()
        .ok()
        .filter(|number| (least..=most).contains(number))
        .ok_or_else(|| format!("a whole number from {least} to {most} is expected"))
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Flags {
        #[command(flatten)]
        limits: LimitFlags,
    }

    fn parse(args: &[&str]) -> Result<LimitFlags, clap::Error> {
        Flags::try_parse_from(std::iter::once("tool-input").chain(args.iter().copied())).map(|f| f.limits)
    }

    #[test]
    fn each_flag_sets_its_limit_only() {
        let defaults = Limits::default();
        assert_eq!(parse(&[]).unwrap().limits(), defaults);
        let set = |args: &[&str]| parse(args).unwrap().limits();
        assert_eq!(set(&["--max-bytes", "9"]), defaults.with_max_bytes(9));
        assert_eq!(set(&["--max-depth", "0"]), defaults.with_max_depth(0));
        assert_eq!(set(&["--max-depth", "10000"]), defaults.with_max_depth(Limits::MAX_STACKED_DEPTH));
        assert_eq!(set(&["--max-echo-chars", "7"]), defaults.with_max_echo_chars(7));
        assert_eq!(set(&["--max-string-bytes", "6"]), defaults.with_max_string_bytes(6));
        assert_eq!(set(&["--max-errors", "1"]), defaults.with_max_errors(1));
        assert_eq!(set(&["--max-coercions", "0"]), defaults.with_max_coercions(0));
        let most = usize::MAX.to_string();
        assert_eq!(set(&["--max-bytes", &most]), defaults.with_max_bytes(usize::MAX));
    }

    #[test]
    fn the_flags_given_are_given_again_as_arguments() {
        let all = [
            "--max-bytes",
            "1",
            "--max-depth",
            "2",
            "--max-echo-chars",
            "3",
            "--max-string-bytes",
            "4",
            "--max-errors",
            "5",
            "--max-coercions",
            "6",
        ];
        for given in [&all[..], &all[..2], &all[6..10], &[]] {
            let flags = parse(given).unwrap();
            assert_eq!(flags.args(), given, "{given:?}");
            let args = flags.args();
            let again: Vec<&str> = args.iter().map(String::as_str).collect();
            assert_eq!(parse(&again).unwrap(), flags);
        }
    }

    #[test]
    fn out_of_range_values_are_refused_naming_the_flag() {
        let past = format!("{}0", usize::MAX);
        for args in [
            &["--max-errors", "0"][..],
            &["--max-bytes", "abc"],
            &["--max-depth=-1"],
            &["--max-depth", "10001"],
            &["--max-string-bytes", "1e3"],
            &["--max-coercions", "1.5"],
            &["--max-echo-chars", ""],
            &["--max-bytes", &past],
        ] {
            let error = parse(args).unwrap_err();
            assert_eq!(error.kind(), clap::error::ErrorKind::ValueValidation, "{args:?}");
            let flag = args[0].split('=').next().unwrap();
            assert!(error.to_string().contains(&format!("'{flag} <N>'")), "{args:?}: {error}");
        }
    }
}
