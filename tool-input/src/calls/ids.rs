//! Ids for calls that arrived without one.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use serde_json::Value;

/// The id a provider sent, as the record keeps it: a string byte for byte; a number (some
/// compatible servers send `"id": 123`) as its JSON text, `"123"`. Anything else (`null`,
/// a boolean, an object) is no id, and neither is an empty string: the call gets a
/// [`generate_id`] one.
pub(crate) fn id_from(value: &Value) -> Option<String> {
    match value {
        Value::String(id) if !id.is_empty() => Some(id.clone()),
        Value::Number(number) => Some(number.to_string()),
        _ => None,
    }
}

/// A fresh call id: `call_` and 24 lowercase hex digits, for a call whose provider sent no id
/// (Ollama, Gemini without `id`, the legacy `function_call`, text-emitted calls) or a null or
/// empty one.
///
/// Unique within the process: the first 16 digits are a bijective mix of a per-process
/// counter with a per-process seed, so two calls never share them. The last 8 digits are
/// more of the seed, so ids from two processes are very unlikely to collide either. The seed
/// comes from the standard library's randomly keyed hasher, so no dependency is needed.
/// `call_` and hex digits satisfy every provider's id pattern we know of
/// (`^[a-zA-Z0-9_-]+$` for Anthropic), except Mistral's 9-character ids; Mistral always
/// sends its own, and a provider's own id is always kept byte for byte.
///
/// ```
/// let a = tool_input::calls::generate_id();
/// let b = tool_input::calls::generate_id();
/// assert_ne!(a, b);
/// assert!(a.starts_with("call_") && a.len() == 29);
/// ```
pub fn generate_id() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let (mix, tail) = *seed();
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    format!("call_{:016x}{:08x}", splitmix(n ^ mix), tail as u32)
}

fn seed() -> &'static (u64, u64) {
    static SEED: OnceLock<(u64, u64)> = OnceLock::new();
    SEED.get_or_init(|| {
        let state = RandomState::new();
        let mut first = state.build_hasher();
        first.write_u32(std::process::id());
        if let Ok(elapsed) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
            first.write_u128(elapsed.as_nanos());
        }
        let mut second = state.build_hasher();
        second.write_u64(first.finish());
        (first.finish(), second.finish())
    })
}

/// The splitmix64 finalizer: a bijection on `u64`, so distinct counters give distinct ids.
fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Why a call is not run whose id another call of the same response has, with another tool
/// or other arguments (one id is one call; the same call sent twice is read once). The body
/// readers and the stream say it alike.
pub(crate) fn id_conflict(id: &str) -> String {
    format!(
        "its id `{}` was given to two tool calls of the response, with another tool or other arguments, so which one is meant cannot be told",
        id.chars().take(80).collect::<String>()
    )
}

/// The message of a call the response itself contradicts (`why`).
pub(crate) fn rejected_message(name: Option<&str>, why: &str) -> String {
    format!(
        "The tool call{} was not run: {why}. Call the tool again.",
        name.map(|name| format!(" to `{name}`")).unwrap_or_default()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn numbers_are_kept_as_their_text_and_empty_ids_are_none() {
        use serde_json::json;
        assert_eq!(id_from(&json!(123)).as_deref(), Some("123"));
        assert_eq!(id_from(&json!(-7)).as_deref(), Some("-7"));
        assert_eq!(id_from(&json!(0)).as_deref(), Some("0"));
        assert_eq!(id_from(&json!(18446744073709551615u64)).as_deref(), Some("18446744073709551615"));
        assert_eq!(id_from(&json!(1.5)).as_deref(), Some("1.5"));
        assert_eq!(id_from(&json!("call_1")).as_deref(), Some("call_1"));
        assert_eq!(id_from(&json!(" ")).as_deref(), Some(" "));
        for none in [json!(null), json!(""), json!(true), json!([1]), json!({"id": 1})] {
            assert_eq!(id_from(&none), None, "{none}");
        }
    }

    #[test]
    fn ids_are_unique_and_well_formed() {
        let ids: HashSet<String> = (0..10_000).map(|_| generate_id()).collect();
        assert_eq!(ids.len(), 10_000);
        for id in &ids {
            assert_eq!(id.len(), 29);
            assert!(id["call_".len()..].bytes().all(|b| b.is_ascii_hexdigit()));
        }
    }
}
