//! The order of a report's coercion records: one order, whichever reader made them and
//! whatever features the build has.
//!
//! The walk visits a value depth first: the value's own record, then, for an object, the
//! defaults it fills for absent properties, then its members in the order of their keys
//! (as `serde_json`'s map holds them, and in that order too where a crate in the build turns
//! on serde_json's `preserve_order`: see [`members_in_key_order`]), and an array's items
//! in index order. The one pass reads a text in the document's order and fills an object's
//! defaults when the object closes. Its records are put in the walk's order here, so that a
//! call's report is the same whichever reader decided it and in every build, and a record's
//! parse and the text it was parsed from give the same report.

use std::cmp::Ordering;
use std::sync::OnceLock;

use serde_json::{Map, Value};

use super::path::Path;
use crate::report::{Coercion, CoercionKind};

/// Which segments of a record's path are array indices. A pointer token of digits is either
/// an index or an object key, and the walk orders the two differently (`9` before `10` as
/// indices, after it as keys); the reader knows which it was at.
#[derive(Debug, Clone)]
pub(crate) enum Place {
    /// Bit `i` set: segment `i`, counted from the root, is an index. Up to 128 segments.
    Short(u128),
    /// Deeper paths (only under a raised depth limit).
    Long(Box<[bool]>),
}

impl Place {
    /// The place of a record made at `at`.
    pub(crate) fn of(at: &Path<'_>) -> Place {
        let depth = at.len();
        let mut indices = Vec::new();
        let mut bits = 0u128;
        let mut current = at;
        let mut segment = depth;
        while let Path::Key(parent, _) | Path::Index(parent, _) = current {
            segment -= 1;
            if let Path::Index(..) = current {
                if depth <= 128 {
                    bits |= 1 << segment;
                } else {
                    indices.push(segment);
                }
            }
            current = parent;
        }
        if depth <= 128 {
            return Place::Short(bits);
        }
        let mut long = vec![false; depth];
        for segment in indices {
            long[segment] = true;
        }
        Place::Long(long.into_boxed_slice())
    }

    fn is_index(&self, segment: usize) -> bool {
        match self {
            Place::Short(bits) => segment < 128 && bits & (1 << segment) != 0,
            Place::Long(indices) => indices.get(segment).copied().unwrap_or(false),
        }
    }
}

/// Does `serde_json::Map` keep its keys in insertion order in this build (its
/// `preserve_order` feature, which any crate in the build can turn on)?
pub(crate) fn maps_keep_insertion_order() -> bool {
    static KEEPS: OnceLock<bool> = OnceLock::new();
    *KEEPS.get_or_init(|| {
        let mut probe = serde_json::Map::new();
        probe.insert("b".to_owned(), serde_json::Value::Null);
        probe.insert("a".to_owned(), serde_json::Value::Null);
        probe.keys().next().is_some_and(|first| first == "b")
    })
}

/// The order in which the walk would have made `records` (made by one reading, in its
/// order, at `places`): `None` when it is theirs already, else the records' indices in
/// the walk's order. Whether they are in order is found by comparing neighbours, with
/// nothing made; a sort compares a few records as they are ([`compare`]) and gives many
/// a key each whose bytes sort as the walk visits ([`sort_key`]).
fn walk_permutation(records: &[Coercion], places: &[Place]) -> Option<Vec<usize>> {
    if records.len() < 2 || records.len() != places.len() {
        return None;
    }
    // Most reports are in order already (members sent in key order, a record or two):
    // found without making anything.
    if (1..records.len()).all(|i| compare(&records[i - 1], &places[i - 1], &records[i], &places[i]).is_le()) {
        return None;
    }
    let mut indices: Vec<usize> = (0..records.len()).collect();
    // Stable: records at one place keep the order they were made in. A few records are
    // compared as they are; many get a key each first, compared as bytes.
    if records.len() <= FEW {
        indices.sort_by(|&a, &b| compare(&records[a], &places[a], &records[b], &places[b]));
        return Some(indices);
    }
    let keys: Vec<Vec<u8>> =
        records.iter().zip(places).map(|(record, place)| sort_key(record, place)).collect();
    if keys.windows(2).all(|pair| pair[0] <= pair[1]) {
        return None;
    }
    indices.sort_by(|&a, &b| keys[a].cmp(&keys[b]));
    Some(indices)
}

/// Up to this many records, a sort compares them as they are.
const FEW: usize = 32;

/// Put `records` (and `attached`, one item per record) in the walk's order.
pub(crate) fn into_walk_order<A>(records: &mut [Coercion], places: &[Place], attached: &mut [A]) {
    let Some(order) = walk_permutation(records, places) else {
        return;
    };
    let mut attached = (attached.len() == records.len()).then_some(attached);
    // In place, a cycle of the permutation at a time: position `j` takes the item at
    // `order[j]`, which the swaps before have left there.
    let mut done = Done::new(order.len());
    for start in 0..order.len() {
        let mut at = start;
        while !done.take(at) {
            let from = order[at];
            if from == start {
                break;
            }
            records.swap(at, from);
            if let Some(attached) = attached.as_deref_mut() {
                attached.swap(at, from);
            }
            at = from;
        }
    }
}

/// Which places of a permutation are settled: bits for a few (no allocation), else flags.
enum Done {
    Few(u64),
    Many(Vec<bool>),
}

impl Done {
    fn new(len: usize) -> Done {
        if len <= 64 {
            Done::Few(0)
        } else {
            Done::Many(vec![false; len])
        }
    }

    /// Mark place `at` settled; was it already?
    fn take(&mut self, at: usize) -> bool {
        match self {
            Done::Few(bits) => {
                let was = *bits & (1 << at) != 0;
                *bits |= 1 << at;
                was
            }
            Done::Many(flags) => std::mem::replace(&mut flags[at], true),
        }
    }
}

/// The pointer of the value a record is about, for the order: a default filled is about
/// the object it was filled in (which the walk fills on entering), the others about their
/// own path.
fn subject(record: &Coercion) -> &str {
    let path = record.path.as_str();
    if record.kind == CoercionKind::DefaultFilled {
        path.rfind('/').map_or("", |slash| &path[..slash])
    } else {
        path
    }
}

/// The order in which the walk makes records `a` and `b`, in maps that sort their keys:
/// the order of their [`sort_key`]s, without making the keys. Only the first segment
/// where their pointers differ is read as a token.
fn compare(a: &Coercion, a_place: &Place, b: &Coercion, b_place: &Place) -> Ordering {
    let (x, y) = (subject(a).as_bytes(), subject(b).as_bytes());
    let common = x.iter().zip(y).take_while(|(p, q)| p == q).count();
    if common == x.len() && common == y.len() {
        // One value: its own record before the defaults filled in it.
        return (a.kind == CoercionKind::DefaultFilled).cmp(&(b.kind == CoercionKind::DefaultFilled));
    }
    // The segment the first difference is in starts after the last `/` before it (every
    // pointer but the root's starts with `/`).
    let Some(start) = x[..common].iter().rposition(|&byte| byte == b'/') else {
        return x.len().cmp(&y.len());
    };
    fn token(pointer: &[u8], start: usize) -> &[u8] {
        let rest = &pointer[start + 1..];
        &rest[..rest.iter().position(|&byte| byte == b'/').unwrap_or(rest.len())]
    }
    let (tx, ty) = (token(x, start), token(y, start));
    if tx == ty {
        // One pointer goes on past where the other ends: the outer value comes first.
        return x.len().cmp(&y.len());
    }
    let segment = x[..start].iter().filter(|&&byte| byte == b'/').count();
    match (a_place.is_index(segment), b_place.is_index(segment)) {
        // Indices are written without leading zeros: the shorter is the smaller.
        (true, true) => tx.len().cmp(&ty.len()).then_with(|| tx.cmp(ty)),
        (false, false) => match (std::str::from_utf8(tx), std::str::from_utf8(ty)) {
            (Ok(tx), Ok(ty)) => crate::pointer::unescape_token(tx).cmp(&crate::pointer::unescape_token(ty)),
            // (A token ends at `/`, never inside a character.)
            _ => tx.cmp(ty),
        },
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
    }
}

/// The reference tokens of a pointer (as written, escapes and all).
fn tokens(pointer: &str) -> impl Iterator<Item = &str> {
    pointer.split('/').skip(1)
}

/// Bytes that compare as the walk orders records. Per segment: `2` and the index in eight
/// bytes big-endian, or `3` and the key, each of its bytes `0` and `1` written `1 1` and
/// `1 2`, then `0` (so a key sorts before its extensions). Then `1` (an outer value's
/// records come before those inside it, whose next byte is `2` or `3`) and whether it is a
/// default (after the value's own record).
fn sort_key(record: &Coercion, place: &Place) -> Vec<u8> {
    let pointer = subject(record);
    let mut key = Vec::with_capacity(pointer.len() + 16);
    for (i, token) in tokens(pointer).enumerate() {
        if place.is_index(i) {
            key.push(2);
            let index = token.parse::<u64>().unwrap_or(u64::MAX);
            key.extend_from_slice(&index.to_be_bytes());
            continue;
        }
        key.push(3);
        for &byte in crate::pointer::unescape_token(token).as_bytes() {
            match byte {
                0 | 1 => key.extend_from_slice(&[1, byte + 1]),
                _ => key.push(byte),
            }
        }
        key.push(0);
    }
    key.push(1);
    key.push(u8::from(record.kind == CoercionKind::DefaultFilled));
    key
}

/// An object's members in the order of their keys, as the walk visits them in every build:
/// `serde_json`'s map holds them so, unless a crate in the build turns on its
/// `preserve_order` (rig-core does), which keeps them as sent; they are sorted here then, so
/// that records and errors come in one order whatever the build (see `order`).
pub(super) fn members_in_key_order(map: &mut Map<String, Value>) -> MembersInKeyOrder<'_> {
    if !maps_keep_insertion_order() {
        return MembersInKeyOrder::Sorted(map.iter_mut());
    }
    let mut members: Vec<(&String, &mut Value)> = map.iter_mut().collect();
    members.sort_unstable_by_key(|(key, _)| *key);
    MembersInKeyOrder::Collected(members.into_iter())
}

/// See [`members_in_key_order`].
pub(super) enum MembersInKeyOrder<'m> {
    /// The map's own order, which is the keys'.
    Sorted(serde_json::map::IterMut<'m>),
    /// A map that keeps insertion order, its members sorted.
    Collected(std::vec::IntoIter<(&'m String, &'m mut Value)>),
}

impl<'m> Iterator for MembersInKeyOrder<'m> {
    type Item = (&'m String, &'m mut Value);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        match self {
            MembersInKeyOrder::Sorted(members) => members.next(),
            MembersInKeyOrder::Collected(members) => members.next(),
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        /// The comparison of records and the comparison of their keys agree. As in one
        /// value, where two pointers share a parent the kind of the next segment is the
        /// parent's, the same for both: here, one per depth.
        #[test]
        fn compare_is_the_order_of_the_keys(
            a in prop::collection::vec(0usize..7, 0..4),
            b in prop::collection::vec(0usize..7, 0..4),
            kinds in prop::array::uniform4(any::<bool>()),
            a_default in any::<bool>(),
            b_default in any::<bool>(),
        ) {
            const KEYS: [&str; 7] = ["0", "9", "10", "a", "a~1b", "~0", "b\u{1}"];
            const INDICES: [&str; 7] = ["0", "9", "10", "3", "12", "7", "1"];
            let made = |segments: &[usize], default: bool| {
                let mut pointer = String::new();
                let mut bits = 0u128;
                for (i, &token) in segments.iter().enumerate() {
                    pointer.push('/');
                    if kinds[i] {
                        pointer.push_str(INDICES[token]);
                        bits |= 1 << i;
                    } else {
                        pointer.push_str(KEYS[token]);
                    }
                }
                let kind = if default { CoercionKind::DefaultFilled } else { CoercionKind::EnumCase };
                if default {
                    // The default's own segment is a key, of the object it was filled in.
                    pointer.push_str("/d");
                }
                (record(&pointer, kind), Place::Short(bits))
            };
            let (ra, pa) = made(&a, a_default);
            let (rb, pb) = made(&b, b_default);
            let (ka, kb) = (sort_key(&ra, &pa), sort_key(&rb, &pb));
            prop_assert_eq!(compare(&ra, &pa, &rb, &pb), ka.cmp(&kb), "{:?} {:?}", ra.path, rb.path);
        }
    }

    fn record(path: &str, kind: CoercionKind) -> Coercion {
        Coercion { path: path.to_owned(), kind, from: None, to: None }
    }

    #[test]
    fn places_tell_indices_from_keys_at_any_depth() {
        let root = Path::Root;
        let key = Path::Key(&root, "10");
        let index = Path::Index(&key, 9);
        let place = Place::of(&index);
        assert!(!place.is_index(0));
        assert!(place.is_index(1));
        assert!(!place.is_index(2));
        // Past 128 segments: even segments are indices.
        fn deep(parent: &Path<'_>, at: usize, depth: usize) -> Place {
            if at == depth {
                return Place::of(parent);
            }
            let next = if at & 1 == 0 { Path::Index(parent, at) } else { Path::Key(parent, "k") };
            deep(&next, at + 1, depth)
        }
        let place = deep(&root, 0, 140);
        assert!(matches!(place, Place::Long(_)));
        assert!(place.is_index(0) && !place.is_index(1) && place.is_index(138) && !place.is_index(139));
        assert!(matches!(deep(&root, 0, 128), Place::Short(_)));
    }

    /// Many records are sorted by their keys, a few by comparing them: the same order.
    #[test]
    fn many_records_are_put_in_the_order_a_few_are() {
        let root = Path::Root;
        let map = Path::Key(&root, "m");
        let list = Path::Key(&root, "xs");
        let mut records = Vec::new();
        let mut places = Vec::new();
        // Keys of digits and items, interleaved and out of order, with defaults between.
        for n in (0..50usize).map(|n| (n * 37) % 50) {
            let key = n.to_string();
            records.push(record(&format!("/m/{key}"), CoercionKind::NumberFromString));
            places.push(Place::of(&Path::Key(&map, &key)));
            records.push(record(&format!("/xs/{n}"), CoercionKind::NumberFromString));
            places.push(Place::of(&Path::Index(&list, n)));
            if n % 7 == 0 {
                records.push(record(&format!("/xs/{n}/d"), CoercionKind::DefaultFilled));
                places.push(Place::of(&Path::Key(&Path::Index(&list, n), "d")));
            }
        }
        assert!(records.len() > FEW);
        let order = walk_permutation(&records, &places).expect("out of order");
        let mut compared: Vec<usize> = (0..records.len()).collect();
        compared.sort_by(|&a, &b| compare(&records[a], &places[a], &records[b], &places[b]));
        assert_eq!(order, compared);
        // Put in place (past 64 records, with flags for the settled places), records and
        // what is attached to them alike.
        let mut sorted = records.clone();
        let mut attached: Vec<usize> = (0..records.len()).collect();
        into_walk_order(&mut sorted, &places, &mut attached);
        assert_eq!(attached, order);
        assert!(sorted.iter().zip(&order).all(|(record, &i)| *record == records[i]));
        let paths: Vec<&str> = order.iter().map(|&i| records[i].path.as_str()).collect();
        let at = |path: &str| paths.iter().position(|p| *p == path).expect("a record");
        assert!(at("/xs/9") < at("/xs/10") && at("/xs/7") < at("/xs/7/d") && at("/xs/7/d") < at("/xs/8"));
        assert!(at("/m/10") < at("/m/9") && at("/m/49") < at("/xs/0"));
    }

    #[test]
    fn records_go_depth_first_with_defaults_on_entering() {
        let root = Path::Root;
        let order = Path::Key(&root, "order");
        let items = Path::Key(&order, "items");
        let ten = Path::Index(&items, 10);
        let nine = Path::Index(&items, 9);
        let made = [
            (record("/order/zeta", CoercionKind::NumberFromString), Place::of(&Path::Key(&order, "zeta"))),
            (record("/order/items/10/q", CoercionKind::NumberFromString), Place::of(&Path::Key(&ten, "q"))),
            (record("/order/items/9/q", CoercionKind::NumberFromString), Place::of(&Path::Key(&nine, "q"))),
            (record("/order/gift", CoercionKind::DefaultFilled), Place::of(&Path::Key(&order, "gift"))),
            (record("/order", CoercionKind::ParsedString), Place::of(&order)),
        ];
        let (records, places): (Vec<Coercion>, Vec<Place>) = made.into_iter().unzip();
        let mut sorted = records.clone();
        let mut attached: Vec<usize> = (0..records.len()).collect();
        into_walk_order(&mut sorted, &places, &mut attached);
        // In every build: members in key order, whatever order they were met in.
        assert_eq!(attached, [4, 3, 2, 1, 0]);
        assert_eq!(
            sorted.iter().map(|r| r.path.as_str()).collect::<Vec<_>>()[..2],
            ["/order", "/order/gift"]
        );
        // Keys of digits are ordered as keys.
        let a = Path::Key(&root, "10");
        let b = Path::Key(&root, "9");
        let records =
            [record("/9", CoercionKind::NumberFromString), record("/10", CoercionKind::NumberFromString)];
        let places = [Place::of(&b), Place::of(&a)];
        assert_eq!(walk_permutation(&records, &places), Some(vec![1, 0]));
        // Records in order are left alone.
        let records =
            [record("/10", CoercionKind::NumberFromString), record("/9", CoercionKind::NumberFromString)];
        assert_eq!(walk_permutation(&records, &[Place::of(&a), Place::of(&b)]), None);
    }
}
