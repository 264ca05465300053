//! The members of an object on the one pass: each key resolved against the declared
//! properties (the declared one by index, any other kept), each value read through its
//! property's schema, and at the end `required`, the count bounds and the defaults of absent
//! properties.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, Visitor};
use serde_json::Value;

use super::{abort, Fast, Seed};
use crate::arbitrary_precision;
use crate::check::keywords::{absent_defaults, Bounds, Sent};
use crate::check::path::Path;
use crate::message::echo;
use crate::plan::{Additional, Node};
use crate::report::{Coercion, CoercionKind};

/// The members of an object: keys checked against the declared properties, values against
/// their schemas, and at the end `required` and the defaults of absent properties.
pub(super) struct Object<'f, 'p, 'de, A> {
    pub(super) map: A,
    pub(super) fast: &'f Fast<'p>,
    pub(super) node: Option<&'p Node>,
    /// Which declared properties were sent.
    pub(super) sent: Sent,
    /// The bits of `sent` that `required` asks for (see `plan::fast`).
    pub(super) required_mask: u64,
    /// Whether `required_mask` settles the object at its end (`FastNode::plain_object`).
    pub(super) plain: bool,
    /// Where the object is.
    pub(super) at: &'f Path<'f>,
    /// The member whose key was just read, for `next_value_seed`.
    pub(super) pending: Pending<'de>,
    /// What few objects need, made when first needed: kept apart so that making and
    /// dropping the usual object sets and tests one pointer for them (with the fields
    /// inline, and the pending key as an enum holding a `Cow`, a clean call cost 2.6% more
    /// instructions).
    pub(super) rare: Option<Box<Rare<'p, 'de>>>,
}

/// The member whose key was just read: a declared property by index into its object's
/// `properties` (whose name is the key's text), or any other key.
pub(super) struct Pending<'de> {
    /// The index, or [`Pending::OTHER`] (the key is in `other`), or [`Pending::NONE`].
    index: usize,
    other: Option<Cow<'de, str>>,
    /// The declared property after the last one read: the next key's first guess
    /// (`Node::property_index_from`).
    next: usize,
}

impl Pending<'_> {
    /// No key read since the last value.
    pub(super) const NONE: Pending<'static> = Pending { index: usize::MAX, other: None, next: 0 };
    /// The key read is not a declared property (or there is no schema): it is in `other`.
    const OTHER: usize = usize::MAX - 1;
}

impl<'de> Pending<'de> {
    /// The key just read: the declared property at `index`, else the key's `text`.
    #[inline(always)]
    fn set(&mut self, index: Option<usize>, text: impl FnOnce() -> Cow<'de, str>) {
        match index {
            Some(index) => {
                self.index = index;
                self.next = index + 1;
            }
            None => {
                self.index = Pending::OTHER;
                self.other = Some(text());
            }
        }
    }
}

/// An object's rarely needed state (see `Object::rare`).
#[derive(Default)]
pub(super) struct Rare<'p, 'de> {
    /// The undeclared keys read so far: a key given twice is left to the full path, which
    /// reads the text's repeated keys.
    pub(super) others: Option<HashSet<Cow<'de, str>>>,
    /// Once the sent members are read, the defaults still to hand over (when
    /// [`Fast::giving_defaults`]), and the value of the one whose key was just given.
    given: Option<std::vec::IntoIter<(&'p str, &'p Value)>>,
    given_value: Option<&'p Value>,
}

impl<'p, 'de, A: MapAccess<'de>> Object<'_, 'p, 'de, A> {
    /// The next key when defaults are handed over ([`Fast::giving_defaults`]): a sent
    /// member's, then the absent properties' whose defaults `finish` recorded, in the
    /// walk's order.
    #[inline(always)]
    fn next_key_giving<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error> {
        if self.rare.as_ref().is_none_or(|rare| rare.given.is_none()) {
            // The seed is lent to the sent members' map, and kept when it has no more.
            let mut kept = Some(seed);
            let key = self.map.next_key_seed(Key {
                seed: Lent(&mut kept),
                node: self.node,
                pending: &mut self.pending,
            })?;
            let (Some(seed), None) = (kept, &key) else { return Ok(key) };
            self.finish()?;
            let absent = match self.node {
                Some(node) => absent_defaults(node, |index, _| self.sent.contains(index)).collect(),
                None => Vec::new(),
            };
            self.rare.get_or_insert_default().given = Some(absent.into_iter());
            return self.next_given_key(seed);
        }
        self.next_given_key(seed)
    }

    /// The key of the next default to hand over; `None` after the last.
    fn next_given_key<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error> {
        let Some(rare) = self.rare.as_mut() else { return Ok(None) };
        let Some((name, default)) = rare.given.as_mut().and_then(Iterator::next) else { return Ok(None) };
        rare.given_value = Some(default);
        seed.deserialize(de::value::StrDeserializer::<A::Error>::new(name)).map(Some)
    }

    #[inline(always)]
    pub(super) fn finish(&mut self) -> Result<(), A::Error> {
        let Some(node) = self.node else { return Ok(()) };
        if self.sent.all_required(node, self.required_mask)
            && (self.plain || self.fast.finish_object(node, &self.sent, self.undeclared(), self.at))
            || self.refuse_end(node)
        {
            return Ok(());
        }
        Err(abort())
    }

    /// How many members the object does not declare were read (only a refused object's
    /// reading, drained to its end, reads any where the object allows none).
    fn undeclared(&self) -> usize {
        self.rare.as_ref().and_then(|rare| rare.others.as_ref()).map_or(0, HashSet::len)
    }

    /// A member's value, checked against its schema.
    #[inline(always)]
    pub(super) fn read_value<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        if let Some(default) = self.rare.as_mut().and_then(|rare| rare.given_value.take()) {
            // Exactly valid as it is (`defaults_exact`): handed over unchecked, a copy, as
            // the walk copies it into its value.
            return seed.deserialize(default.clone()).map_err(de::Error::custom);
        }
        let index = std::mem::replace(&mut self.pending.index, Pending::NONE.index);
        if index != Pending::OTHER {
            let (Some(node), true) = (self.node, index != Pending::NONE.index) else { return Err(abort()) };
            if !self.sent.insert(index) {
                return Err(abort()); // a duplicate key: the full path decides
            }
            let (name, child) = &node.properties[index];
            let at = Path::Key(self.at, name);
            return self.map.next_value_seed(Seed { seed, fast: self.fast, node: Some(*child), at: &at });
        }
        self.read_other_value(seed)
    }

    /// The value of a member the object does not declare (or of any member where there is
    /// no schema). Out of line: most members are declared.
    #[inline(never)]
    fn read_other_value<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        let key = self.pending.other.take().ok_or_else(abort)?;
        let others = self.rare.get_or_insert_default().others.get_or_insert_with(HashSet::new);
        if !others.insert(key.clone()) {
            return Err(abort());
        }
        let child = match self.node {
            None => None,
            Some(node) => match node.additional {
                Additional::Allow => None,
                Additional::Schema(schema) => Some(schema),
                Additional::Deny => match self.refuse_unknown(node, &key)? {
                    true => None,
                    false => return Err(abort()),
                },
            },
        };
        let at = Path::Key(self.at, &key);
        self.map.next_value_seed(Seed { seed, fast: self.fast, node: child, at: &at })
    }
}

impl<'p> Fast<'p> {
    /// The end of an object at `at` that is not plain (see `Object::finish`), whose declared
    /// properties `sent` were sent, beside `undeclared` others: `false` when the full path
    /// must decide. Records the defaults of absent properties. Not generic, so one copy
    /// serves every reader.
    #[inline(never)]
    fn finish_object(&self, node: &'p Node, sent: &Sent, undeclared: usize, at: &Path<'_>) -> bool {
        if !node.required_other.is_empty() {
            return false;
        }
        let bounds = Bounds::properties(node);
        // Undeclared properties count too: where the object allows none, those of a refused
        // object read to its end (`undeclared`); else only the full path counts them all.
        // Against `maxProperties` so do the defaults to be filled, which the value handed
        // over holds: past it with them, the full path checks the call as sent and fills
        // none. (`minProperties` counts what the model sent, as the walk does.)
        if !bounds.is_none() {
            let count = (sent.count() + undeclared) as u64;
            let filled = absent_defaults(node, |index, _| sent.contains(index)).count() as u64;
            if node.additional != Additional::Deny
                || bounds.broken_min(count).is_some()
                || bounds.broken_max(count + filled).is_some()
            {
                return false;
            }
        }
        // A default the walk would check and refuse, or change, is for the walk to fill.
        if !self.defaults_exact && absent_defaults(node, |index, _| sent.contains(index)).next().is_some() {
            return false;
        }
        for (name, default) in absent_defaults(node, |index, _| sent.contains(index)) {
            if !self.room_for(1) {
                // (What this reading recorded is dropped with it.)
                return false;
            }
            let at = Path::Key(at, name);
            if self.keep_defaults {
                self.defaults.borrow_mut().push(default);
            }
            self.record(&at, CoercionKind::DefaultFilled, || Coercion {
                path: at.pointer(),
                kind: CoercionKind::DefaultFilled,
                from: None,
                to: (!self.mode_at(&at).sensitive).then(|| echo(default, self.max_echo)),
            });
        }
        true
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Object<'_, '_, 'de, A> {
    type Error = A::Error;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error> {
        if self.fast.defaults_given {
            return self.next_key_giving(seed);
        }
        let key = self.map.next_key_seed(Key { seed, node: self.node, pending: &mut self.pending })?;
        if key.is_none() {
            self.finish()?;
        }
        Ok(key)
    }

    #[inline]
    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        match self.read_value(seed) {
            Ok(value) => Ok(value),
            Err(error) => Err(self.read_on(error)),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}

/// A seed lent to a reading that may not use it: left in place when it does not.
struct Lent<'s, S>(&'s mut Option<S>);

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Lent<'_, S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        match self.0.take() {
            Some(seed) => seed.deserialize(deserializer),
            None => Err(abort()),
        }
    }
}

/// A key's seed: resolves the key against the object's declared properties and leaves the
/// result for `next_value_seed`.
pub(super) struct Key<'s, 'p, 'de, S> {
    pub(super) seed: S,
    pub(super) node: Option<&'p Node>,
    pub(super) pending: &'s mut Pending<'de>,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Key<'_, '_, 'de, S> {
    type Value = S::Value;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        // JSON keys are strings: read the key as a string, remember it, then give it to the
        // key's own seed (a struct's field identifier, a map's key type) as a string.
        deserializer.deserialize_str(KeyVisitor { seed: self.seed, node: self.node, pending: self.pending })
    }
}

struct KeyVisitor<'s, 'p, 'de, S> {
    seed: S,
    node: Option<&'p Node>,
    pending: &'s mut Pending<'de>,
}

impl<S> KeyVisitor<'_, '_, '_, S> {
    /// The declared property spelled `key`, if any: its name then needs no copy.
    #[inline(always)]
    fn declared(&self, key: &str) -> Option<usize> {
        self.node.and_then(|node| node.property_index_from(key, self.pending.next))
    }
}

impl<'de, S: DeserializeSeed<'de>> Visitor<'de> for KeyVisitor<'_, '_, 'de, S> {
    type Value = S::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object key")
    }

    #[inline]
    fn visit_borrowed_str<E: de::Error>(self, key: &'de str) -> Result<S::Value, E> {
        if arbitrary_precision::is_number_key(key) {
            return Err(abort()); // a number, as the walk reads it
        }
        let index = self.declared(key);
        self.pending.set(index, || Cow::Borrowed(key));
        self.seed.deserialize(de::value::BorrowedStrDeserializer::new(key))
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<S::Value, E> {
        if arbitrary_precision::is_number_key(key) {
            return Err(abort()); // a number, as the walk reads it
        }
        let index = self.declared(key);
        self.pending.set(index, || Cow::Owned(key.to_owned()));
        self.seed.deserialize(key.into_deserializer())
    }

    fn visit_string<E: de::Error>(self, key: String) -> Result<S::Value, E> {
        if arbitrary_precision::is_number_key(&key) {
            return Err(abort()); // a number, as the walk reads it
        }
        let index = self.declared(&key);
        self.pending.set(index, || Cow::Owned(key.clone()));
        self.seed.deserialize(key.into_deserializer())
    }
}
