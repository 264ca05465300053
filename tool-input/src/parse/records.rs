//! The record of what a parse repaired: one [`Repair`] per kind, with where it was first and
//! last made and how many times, as [`parse`](super::parse) reports it.

use serde::ser::{Serialize, SerializeStruct, Serializer};

use super::RepairKind;

/// One kind of repair the parser made, where it first and last made it, and how many times.
///
/// A payload in single quotes needs one repair per string; [`parse`](super::parse) reports it once, with
/// the count, so a log line stays short however long the payload. Runs of one repair are
/// counted as they are made, never listed: 8 MiB of raw NUL bytes in a string is one
/// record with a count of 8,388,608, not eight million records.
///
/// ```
/// use tool_input::parse::{parse, ParseOptions, RepairKind};
///
/// let parsed = parse("{'a': 'x', 'b': 'y'}", &ParseOptions::default())?;
/// let repair = parsed.repairs[0];
/// assert_eq!(repair.kind, RepairKind::SingleQuotes);
/// assert_eq!(repair.count, 4); // two keys and two values, one record
/// assert!(repair.offset < repair.last_offset);
/// # Ok::<(), tool_input::parse::ParseError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Repair {
    /// What was repaired.
    pub kind: RepairKind,
    /// Byte offset in the input of the first repair of this kind.
    pub offset: usize,
    /// How many times this repair was made.
    pub count: usize,
    /// Byte offset of the last repair counted here: with `offset`, the span of input the
    /// record covers (equal to `offset` when `count` is 1).
    pub last_offset: usize,
}

impl Repair {
    pub(crate) fn new(kind: RepairKind, offset: usize) -> Self {
        Repair { kind, offset, count: 1, last_offset: offset }
    }

    /// The same repairs, all recorded at `offset` (repairs made inside a decoded string,
    /// which are placed at the string).
    pub(crate) fn at(self, offset: usize) -> Self {
        Repair { offset, last_offset: offset, ..self }
    }

    /// The same repairs, made `by` bytes further on (repairs made in a piece of the input
    /// read on its own, placed in the whole).
    pub(crate) fn shifted(self, by: usize) -> Self {
        Repair {
            offset: self.offset.saturating_add(by),
            last_offset: self.last_offset.saturating_add(by),
            ..self
        }
    }

    /// Count one more repair of this record's kind at `offset`.
    pub(crate) fn extend(&mut self, count: usize, offset: usize) {
        self.count = self.count.saturating_add(count);
        self.offset = self.offset.min(offset);
        self.last_offset = self.last_offset.max(offset);
    }
}

/// Record a repair at the end of `repairs`: counted into the last record when that is of the
/// same kind (a run of one repair is one record; `true`), pushed otherwise.
pub(crate) fn record_repair(repairs: &mut Vec<Repair>, kind: RepairKind, offset: usize) -> bool {
    if let Some(last) = repairs.last_mut().filter(|last| last.kind == kind) {
        last.extend(1, offset);
        return true;
    }
    repairs.push(Repair::new(kind, offset));
    false
}

/// `{"kind", "offset", "count", "last_offset"}`, `kind` the [`RepairKind::code`]: the record the CLI
/// prints and the Python module returns.
///
/// ```
/// use tool_input::parse::{parse, ParseOptions};
/// let parsed = parse("{'a': 1,}", &ParseOptions::default()).unwrap();
/// assert_eq!(
///     serde_json::to_string(&parsed.repairs).unwrap(),
///     r#"[{"kind":"single_quotes","offset":1,"count":1,"last_offset":1},{"kind":"trailing_comma","offset":7,"count":1,"last_offset":7}]"#
/// );
/// ```
impl Serialize for Repair {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut record = serializer.serialize_struct("Repair", 4)?;
        record.serialize_field("kind", self.kind.code())?;
        record.serialize_field("offset", &self.offset)?;
        record.serialize_field("count", &self.count)?;
        record.serialize_field("last_offset", &self.last_offset)?;
        record.end()
    }
}

/// One entry per kind, at its first offset, in the order the kinds first appear (the work of
/// `parse`'s `coalesce`, on the repairs alone: the tape has no `Parsed`). In place: the
/// first `kinds` records are the entries made so far.
pub(crate) fn coalesce_repairs(repairs: &mut Vec<Repair>) {
    let mut kinds = 0;
    for at in 0..repairs.len() {
        let Some(&repair) = repairs.get(at) else { break };
        let (seen, rest) = repairs.split_at_mut(kinds);
        match seen.iter_mut().find(|seen| seen.kind == repair.kind) {
            Some(seen) => {
                seen.extend(repair.count, repair.offset);
                seen.last_offset = seen.last_offset.max(repair.last_offset);
            }
            None => {
                // `at` is at or after `kinds`: the record moves back, or stays.
                if let Some(slot) = rest.first_mut() {
                    *slot = repair;
                }
                kinds += 1;
            }
        }
    }
    repairs.truncate(kinds);
    // A long text can leave thousands of records behind (a repair of one kind between every
    // two of another): what they held goes back now, not when the value is dropped.
    if repairs.capacity() > SHRINK_REPAIRS_ABOVE {
        repairs.shrink_to_fit();
    }
}

/// Records a coalesced list may keep room for; above it the room is given back.
const SHRINK_REPAIRS_ABOVE: usize = 64;
