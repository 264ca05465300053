//! The one-pass fast path for typed calls: deserialize `T` straight from the text while
//! checking every value against the plan as serde hands it over.
//!
//! Most calls are exact: strict JSON that needs no coercion. For those, building a
//! `serde_json::Value`, walking it, then deserializing `T` from it costs three passes and an
//! allocation per node. Here a wrapping [`Deserializer`] (in the manner of
//! `serde_path_to_error`) checks each scalar, array and object against its schema node on the
//! way into `T`.
//!
//! Under the default policy it also makes the common representation coercions on the way,
//! exactly as the walker would (same rules, same records): a number or boolean sent as a
//! string, an enum value in other letter case, an array or object sent as a JSON string
//! (read through this same path: from the string's text when it looks like strict JSON and
//! no record shows the value, else from its parsed `Value`). The moment anything else is not
//! exactly valid — another coercion, a constraint broken, a keyword this path does not
//! evaluate (`oneOf`, `allOf`, a general `anyOf`, `patternProperties`, `not`), a coercion
//! under a union or under the strict or lenient policy — it aborts, and the caller takes the full
//! path, which coerces or explains. So this path only ever accepts what the full path accepts,
//! with the same value and the same report (coercions and defaults filled for absent
//! properties).
//!
//! An array whose items must be unique (`uniqueItems`, a `HashSet` field's schema) is read
//! whole first, its items compared as the walk compares them, then read from that value as
//! any array is ([`Wrap::unique_items`]).

use std::cell::{Cell, OnceCell, RefCell};
use std::collections::HashMap;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, Visitor};
use serde_json::{Number, Value};

mod explain;
mod lifted;
mod object;

use super::convert::{container_text, respelled, text_as_type};
use super::keywords::{
    const_refuses, enum_refuses, enum_refuses_text, first_equal_items, integral_float_rewritten, item_schema,
    number_admitted, string_admitted, Bounds, Sent,
};
use super::mode::{field_mode, FieldOverride, Mode};
use super::order::{self, Place};
use super::path::Path;
use crate::equal::json_equal;
use crate::limits::Limits;
use crate::message::{echo, echo_str};
use crate::plan::{Chain, FastString, Node, NodeId, Plan, Types};
use crate::policy::Policy;
use crate::report::{Coercion, CoercionKind};
use explain::Explain;
use lifted::Lifted;
use object::{Object, Pending};

/// Shared state of one fast deserialization.
pub(crate) struct Fast<'p> {
    plan: &'p Plan,
    overrides: &'p HashMap<String, FieldOverride>,
    coercions: RefCell<Vec<Coercion>>,
    /// Where each coercion was made: which segments of its path are indices, for putting
    /// the records in the walk's order at the end (`check::order`).
    places: RefCell<Places>,
    /// The value of each `DefaultFilled` coercion, in the same order, when the caller fills
    /// them into a `Value` as the walk does (see [`Fast::keeping_defaults`]).
    defaults: RefCell<Vec<&'p Value>>,
    keep_defaults: bool,
    /// How many coercions this reading made (recorded or not), and whether a default filled
    /// was among them: what the checks on records read, so that they hold alike when the
    /// records are not kept (see [`Fast::unrecorded`]).
    made: Cell<usize>,
    filled_a_default: Cell<bool>,
    /// Are the records left unmade: the caller keeps the value only (`from_arguments`), and
    /// a record costs a pointer, an echo and their allocations?
    unrecorded: bool,
    /// Are the defaults of absent properties handed to the type being read, as members
    /// after the sent ones (the walk's value has them there), rather than only recorded?
    defaults_given: bool,
    /// May this reading fill defaults at all: the plan's defaults are exactly valid under
    /// the limits of this reading (`Plan::defaults_exact`, found for the validator's own).
    defaults_exact: bool,
    max_echo: usize,
    max_string_bytes: usize,
    max_depth: usize,
    /// The call's policy (a top-level field may override it).
    policy: Policy,
    /// How many `anyOf` unions the value being read is inside: the walker tries coercions
    /// there branch by branch, so this path makes none.
    unions: Cell<usize>,
    /// Has the reader handed over a number read as a float (or beyond 64 bits)? Only then can
    /// `serde_json`'s rounding matter, so only then is the text scanned for a float it may
    /// misread ([`Fast::read_a_float`]).
    floats: Cell<bool>,
    /// The limits of this reading, for the walker that explains (see [`Fast::explaining`]).
    limits: Limits,
    /// The text being read, when refusals are explained (see `check::fast::explain`).
    explained_text: Option<&'p str>,
    /// The explaining state, made at the first refusal (boxed: most readings never make it,
    /// and a reading is moved by value).
    explain: OnceCell<Box<Explain<'p>>>,
    /// How many containers sent as strings the value being read is inside: the walker
    /// decides whether such a coercion stands, so nothing is explained there.
    parsed: Cell<usize>,
    /// How many containers are reading on past a refusal (see `check::fast::explain`): what they
    /// read is for explaining only, and a refusal explained there does not end the reading
    /// (an error through `serde_json` costs a scan of the text for its line).
    draining: Cell<usize>,
    /// The next array is one whose items were found unique (see [`Wrap::unique_items`]):
    /// read it as any other.
    items_unique: Cell<bool>,
    /// Inside such an array, read again from its `Value`: an array in it whose items must
    /// be unique too is left to the full path (reading it whole again, level by level,
    /// would cost the depth times the array).
    in_unique: Cell<bool>,
}

/// Where each record was made (see `Fast::places`): most readings make at most one record,
/// whose place orders nothing, so it is held without a vector.
#[derive(Default)]
enum Places {
    #[default]
    None,
    One(Place),
    Many(Vec<Place>),
}

impl Places {
    fn push(&mut self, place: Place) {
        *self = match std::mem::take(self) {
            Places::None => Places::One(place),
            Places::One(first) => Places::Many(vec![first, place]),
            Places::Many(mut places) => {
                places.push(place);
                Places::Many(places)
            }
        };
    }
}

/// A string read as what its schema declares (see [`Fast::coerce_str`]).
enum Coerced<'p, 't> {
    Number(Number),
    Bool(bool),
    /// The enum option spelled like the string but for letter case.
    Option(&'p str),
    /// The JSON array or object the string held.
    Parsed(Value),
    /// The text of the JSON array or object the string held, which the parse for `Parsed`
    /// would give `serde_json` first (`convert::container_text`): read from the text, where
    /// its record needs no echo of the value.
    Strict(&'t str),
}

impl Coerced<'_, '_> {
    /// The value as a coercion record shows it (`message::echo`); none for a container
    /// left as its text, which is made only where the record shows none.
    fn echo(&self, max: usize) -> Option<String> {
        Some(match self {
            Coerced::Number(number) => echo(&Value::Number(number.clone()), max),
            Coerced::Bool(flag) => echo(&Value::Bool(*flag), max),
            Coerced::Option(option) => echo_str(option, max),
            Coerced::Parsed(value) => echo(value, max),
            Coerced::Strict(_) => return None,
        })
    }
}

/// The error that abandons the fast path; its text is never shown. Out of line and cold:
/// every check has this exit, and an exactly valid call takes none of them.
///
/// Its text is only a position, which `serde_json` reads into the error and removes: an
/// error without one is given one as it leaves the reader (the lines of the text counted up
/// to it) and made again, which cost a rejected call one more allocation and a scan.
#[cold]
#[inline(never)]
fn abort<E: de::Error>() -> E {
    E::custom(" at line 1 column 1")
}

impl<'p> Fast<'p> {
    #[inline(always)]
    pub fn new(
        plan: &'p Plan,
        overrides: &'p HashMap<String, FieldOverride>,
        limits: &Limits,
        policy: Policy,
    ) -> Self {
        Fast {
            plan,
            overrides,
            coercions: RefCell::new(Vec::new()),
            places: RefCell::new(Places::default()),
            defaults: RefCell::new(Vec::new()),
            keep_defaults: false,
            made: Cell::new(0),
            filled_a_default: Cell::new(false),
            unrecorded: false,
            defaults_given: false,
            defaults_exact: plan.defaults_exact,
            max_echo: limits.max_echo_chars,
            max_string_bytes: limits.max_string_bytes,
            max_depth: limits.max_depth,
            policy,
            unions: Cell::new(0),
            floats: Cell::new(false),
            limits: *limits,
            explained_text: None,
            explain: OnceCell::new(),
            parsed: Cell::new(0),
            draining: Cell::new(0),
            items_unique: Cell::new(false),
            in_unique: Cell::new(false),
        }
    }

    /// Did the reading see a number `serde_json` read as a float (or an integer beyond 64
    /// bits)? When it did not, no float of the text was read, and how `serde_json` rounds
    /// floats cannot have changed the result.
    pub fn read_a_float(&self) -> bool {
        self.floats.get()
    }

    /// `own`: this reading's limits are the validator's, under which the plan's defaults
    /// were found exact (`Plan::defaults_exact`). Under others a default may break them (a
    /// string past a smaller size limit), and an object that would take one is left to the
    /// walk.
    #[inline(always)]
    pub fn under_own_limits(mut self, own: bool) -> Self {
        self.defaults_exact &= own;
        self
    }

    /// Hand the defaults of absent properties to the type being read (each object's, after
    /// its sent members), as the walk puts them in its value; where they are not exact (see
    /// [`Fast::under_own_limits`]), an object that would take a default is left to the walk.
    #[inline(always)]
    pub fn giving_defaults(mut self) -> Self {
        self.defaults_given = true;
        self
    }

    /// Make no records: the coercions and defaults filled are counted (for the limit on
    /// records, and where the walk must decide because of one), never written. For a caller
    /// that drops the report; what is accepted or refused is the same.
    #[inline(always)]
    pub fn unrecorded(mut self) -> Self {
        self.unrecorded = true;
        self
    }

    /// Keep the value of each default filled, for [`Fast::into_coercions_and_defaults`].
    #[inline(always)]
    pub fn keeping_defaults(mut self) -> Self {
        self.keep_defaults = true;
        self
    }

    /// Deserialize `T` from `deserializer`, checking it against the plan's root.
    pub fn run<'de, T, D>(&self, deserializer: D) -> Result<T, D::Error>
    where
        T: de::Deserialize<'de>,
        D: Deserializer<'de>,
    {
        T::deserialize(Checked { de: deserializer, fast: self, node: Some(self.plan.root), at: &Path::Root })
    }

    /// The coercions, in the order the walk would have recorded them (`check::order`).
    pub fn into_coercions(self) -> Vec<Coercion> {
        let mut coercions = self.coercions.into_inner();
        if let Places::Many(places) = self.places.into_inner() {
            order::into_walk_order::<()>(&mut coercions, &places, &mut []);
        }
        coercions
    }

    /// The coercions in the walk's order, and the value of each default filled, in the
    /// order of their `DefaultFilled` records.
    pub fn into_coercions_and_defaults(self) -> (Vec<Coercion>, Vec<&'p Value>) {
        debug_assert!(self.keep_defaults, "defaults asked for but not kept");
        let mut coercions = self.coercions.into_inner();
        let Places::Many(places) = self.places.into_inner() else {
            // One record at most: already in order.
            return (coercions, self.defaults.into_inner());
        };
        let defaults = self.defaults.into_inner();
        if defaults.is_empty() {
            order::into_walk_order::<()>(&mut coercions, &places, &mut []);
            return (coercions, defaults);
        }
        let mut defaults = defaults.into_iter();
        let mut attached: Vec<Option<&'p Value>> = coercions
            .iter()
            .map(|coercion| if coercion.kind == CoercionKind::DefaultFilled { defaults.next() } else { None })
            .collect();
        order::into_walk_order(&mut coercions, &places, &mut attached);
        (coercions, attached.into_iter().flatten().collect())
    }

    /// May `count` more coercions be recorded? Past `Limits::max_coercions` the walk
    /// decides, which records the first in its order and counts the rest (this path makes
    /// its records in the document's order).
    fn room_for(&self, count: usize) -> bool {
        self.made.get().saturating_add(count) <= self.limits.max_coercions
    }

    /// Keep a coercion of `kind` made at `at`, which `coercion` writes (unless the records
    /// are left unmade: [`Fast::unrecorded`]).
    fn record(&self, at: &Path<'_>, kind: CoercionKind, coercion: impl FnOnce() -> Coercion) {
        self.made.set(self.made.get() + 1);
        if kind == CoercionKind::DefaultFilled {
            self.filled_a_default.set(true);
        }
        if self.unrecorded {
            return;
        }
        self.places.borrow_mut().push(Place::of(at));
        self.coercions.borrow_mut().push(coercion());
    }

    /// The nodes whose keywords apply to a value of `id`: it and its `$ref` chain. `None`
    /// when one of them uses a keyword this path does not evaluate.
    fn chain(&self, id: NodeId) -> Option<Chain> {
        self.plan.fast[id].chain
    }

    /// For `Some(value)` of an Option: the node of the non-null value (`Plan::non_null_of`).
    #[inline]
    fn non_null(&self, id: NodeId) -> Option<NodeId> {
        self.plan.fast[id].non_null
    }

    fn accepts_null(&self, id: NodeId) -> bool {
        let node = &self.plan.nodes[id];
        if node.any_of.len() == 2 {
            return self.non_null(id).is_some();
        }
        self.check_scalar(id, &Value::Null)
    }

    /// Is a scalar exactly valid at `id`?
    fn check_scalar(&self, id: NodeId, value: &Value) -> bool {
        let Some(chain) = self.chain(id) else { return false };
        chain.nodes(self.plan).all(|node| scalar_ok(node, value))
    }

    /// Is the integer `value` (`number`) exactly valid at `id`? Most integer schemas are a
    /// range, checked directly (inlined); others as any scalar.
    #[inline]
    fn check_integer(&self, id: NodeId, value: i128, number: Number) -> bool {
        match self.plan.fast[id].integers {
            Some((lowest, highest)) => lowest <= value && value <= highest,
            None => self.check_scalar(id, &Value::Number(number)),
        }
    }

    /// Is a string exactly valid at `id`? Inlined: most strings are settled by the node's
    /// [`FastString`] without a call, a free string without any.
    #[inline(always)]
    fn check_str(&self, id: NodeId, text: &str) -> bool {
        if text.len() > self.max_string_bytes {
            return false;
        }
        match self.plan.fast[id].string {
            FastString::Any => true,
            string => self.check_str_by(string, id, text),
        }
    }

    /// [`Fast::check_str`] of a string the node constrains.
    #[inline(never)]
    fn check_str_by(&self, string: FastString, id: NodeId, text: &str) -> bool {
        match string {
            FastString::Any => true,
            FastString::Pattern(node) => {
                self.plan.nodes[node].pattern.as_ref().is_none_or(|pattern| pattern.is_match(text))
            }
            FastString::Options(node) => enum_refuses_text(&self.plan.nodes[node], text).is_none(),
            FastString::Chain => self.check_str_chain(id, text),
        }
    }

    fn check_str_chain(&self, id: NodeId, text: &str) -> bool {
        let Some(chain) = self.chain(id) else { return false };
        chain.nodes(self.plan).all(|node| string_admitted(node, text))
    }

    /// Checks on an array or object itself (not its members): the node of the chain whose
    /// member keywords apply (see `plan::fast`).
    fn container(&self, id: NodeId, kind: Types) -> Option<NodeId> {
        let fast = &self.plan.fast[id];
        if kind == Types::ARRAY {
            fast.array
        } else {
            fast.object
        }
    }

    /// The policy and redaction at `at`: the call's, unless the top-level property it is
    /// under overrides them (the walker's lookup, `mode::field_mode`).
    fn mode_at(&self, at: &Path<'_>) -> Mode {
        let call = Mode { policy: self.policy, sensitive: false };
        match at.top_key() {
            Some(key) => field_mode(self.overrides, key, call),
            None => call,
        }
    }

    /// The string `text`, which `id` does not accept as it is, read as what `id` declares,
    /// by the walker's rules for the default policy (`coerce.rs`): an array or object in a
    /// JSON string, a number, a boolean, an enum option in other letter case. `None` when the
    /// walker would not coerce it here, or when the result would still not be exactly valid
    /// (the walker then explains). The coercion is recorded.
    fn coerce_str<'t>(&self, id: NodeId, text: &'t str, at: &Path<'_>) -> Option<Coerced<'p, 't>> {
        if self.unions.get() > 0 || text.len() > self.max_string_bytes || !self.room_for(1) {
            return None;
        }
        let Mode { policy, sensitive } = self.mode_at(at);
        if policy != Policy::Default {
            return None;
        }
        // The walker coerces at the nodes of the chain in turn; here one node must declare
        // the types and options, and the others nothing a coercion would meet.
        let chain = self.chain(id)?;
        let mut typed: Option<&'p Node> = None;
        for node in chain.nodes(self.plan) {
            if node.types.is_some() || node.enum_values.is_some() || node.const_value.is_some() {
                if typed.is_some() {
                    return None;
                }
                typed = Some(node);
            }
        }
        let node = typed?;
        // The walker's order (`convert`): the declared type first, then a respelled option.
        // What the value became is echoed only when the coercion is recorded (a caller that
        // keeps the value only records none).
        let (coerced, kind) = match node.types {
            Some(types) if !types.contains(Types::STRING) => {
                let max_depth = self.max_depth.saturating_sub(at.len());
                // A container that looks like strict JSON is read from its text, where its
                // record shows no echo of it (none is kept, or the value is masked): no
                // `Value` built.
                let echoed = !self.unrecorded && !sensitive;
                if let Some(content) = container_text(text, types, max_depth).filter(|_| !echoed) {
                    let kind = CoercionKind::ParsedString;
                    self.record(at, kind, || Coercion { path: at.pointer(), kind, from: None, to: None });
                    return Some(Coerced::Strict(content));
                }
                let converted = text_as_type(text, types, false, max_depth)?;
                if converted.repeats_keys {
                    // The walk reports the keys given twice.
                    return None;
                }
                let (converted, kind) = (converted.value, converted.kind);
                let coerced = match converted {
                    // The walker's choice; if the scalar breaks a constraint, it explains.
                    Value::Number(number) if self.check_scalar(id, &Value::Number(number.clone())) => {
                        Coerced::Number(number)
                    }
                    Value::Bool(flag) if self.check_scalar(id, &Value::Bool(flag)) => Coerced::Bool(flag),
                    // (A parsed container is checked as it is read.)
                    parsed @ (Value::Array(_) | Value::Object(_)) => Coerced::Parsed(parsed),
                    _ => return None,
                };
                (coerced, kind)
            }
            _ => {
                let matched = respelled(node, text, false)?;
                let option = matched.as_str()?;
                if !self.check_str(id, option) {
                    return None;
                }
                (Coerced::Option(option), CoercionKind::EnumCase)
            }
        };
        self.record(at, kind, || Coercion {
            path: at.pointer(),
            kind,
            from: (!sensitive).then(|| echo_str(text, self.max_echo)),
            to: (!sensitive).then(|| coerced.echo(self.max_echo)).flatten(),
        });
        Some(coerced)
    }
}

/// Is a scalar exactly valid at `node` (without rewriting an integral float)?
fn scalar_ok(node: &Node, value: &Value) -> bool {
    // An integral float beyond 2^53 may be an integer written with more digits than it
    // keeps: the walk reads its text.
    node.types.is_none_or(|types| types.accepts(value) && !integral_float_rewritten(types, value))
        && !value.as_number().is_some_and(|n| {
            n.is_f64()
                && n.as_f64()
                    .is_some_and(|f| f.fract() == 0.0 && f.abs() >= crate::decimal::EXACT_FLOAT_INTEGERS)
        })
        && enum_refuses(node, value).is_none()
        && const_refuses(node, |constant| json_equal(constant, value)).is_none()
        && value.as_number().is_none_or(|number| number_admitted(node, number))
        && node.keywords.iter().all(|keyword| keyword.scalar_admits(value) == Some(true))
}

/// The wrapping deserializer: `node` is the schema of the value it reads; `None` means any
/// value is fine (an undeclared property where others are allowed).
struct Checked<'f, 'p, D> {
    de: D,
    fast: &'f Fast<'p>,
    node: Option<NodeId>,
    at: &'f Path<'f>,
}

/// The wrapping visitor.
struct Wrap<'f, 'p, V> {
    inner: V,
    fast: &'f Fast<'p>,
    node: Option<NodeId>,
    at: &'f Path<'f>,
}

macro_rules! forward {
    ($($method:ident)*) => {
        $(
            #[inline]
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
                let wrap = Wrap { inner: visitor, fast: self.fast, node: self.node, at: self.at };
                self.de.$method(wrap)
            }
        )*
    };
}

/// Methods for values a string may stand for (a number, a boolean, an array or object
/// sent as JSON text): read as whatever the input holds, so that a string reaches the
/// visitor, which coerces it (`serde_json` refuses a string for `deserialize_i64` without
/// showing it to the visitor). For JSON input, `deserialize_any` hands these types' visitors
/// exactly what the typed methods would.
macro_rules! any_when_checked {
    ($($method:ident)*) => {
        $(
            #[inline]
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
                let wrap = Wrap { inner: visitor, fast: self.fast, node: self.node, at: self.at };
                if self.node.is_some() {
                    self.de.deserialize_any(wrap)
                } else {
                    self.de.$method(wrap)
                }
            }
        )*
    };
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Checked<'_, '_, D> {
    type Error = D::Error;

    forward! {
        deserialize_any deserialize_i128 deserialize_u128 deserialize_char
        deserialize_str deserialize_string deserialize_bytes deserialize_byte_buf
        deserialize_option deserialize_unit deserialize_identifier
    }

    any_when_checked! {
        deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_f32
        deserialize_f64 deserialize_seq deserialize_map
    }

    /// A value the type ignores is still read, never skipped: checked where the schema says
    /// something of it, its strings held to the size limit where it says nothing, and, while
    /// refusals are explained, a key given twice inside it found, as the full path finds it.
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        let wrap = Wrap { inner: visitor, fast: self.fast, node: self.node, at: self.at };
        self.de.deserialize_any(wrap)
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let wrap = Wrap { inner: visitor, fast: self.fast, node: self.node, at: self.at };
        self.de.deserialize_unit_struct(name, wrap)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let wrap = Wrap { inner: visitor, fast: self.fast, node: self.node, at: self.at };
        self.de.deserialize_newtype_struct(name, wrap)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, D::Error> {
        let wrap = Wrap { inner: visitor, fast: self.fast, node: self.node, at: self.at };
        if self.node.is_some() {
            return self.de.deserialize_any(wrap);
        }
        self.de.deserialize_tuple(len, wrap)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let wrap = Wrap { inner: visitor, fast: self.fast, node: self.node, at: self.at };
        if self.node.is_some() {
            return self.de.deserialize_any(wrap);
        }
        self.de.deserialize_tuple_struct(name, len, wrap)
    }

    #[inline]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let wrap = Wrap { inner: visitor, fast: self.fast, node: self.node, at: self.at };
        if self.node.is_some() {
            return self.de.deserialize_any(wrap);
        }
        self.de.deserialize_struct(name, fields, wrap)
    }

    /// Only enums sent as a string (unit variants) are read here: the string is checked
    /// against the node, then handed to the enum's visitor as its variant name. Anything else
    /// (a variant with data) takes the full path.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        match self.node {
            Some(node) => {
                self.de.deserialize_str(UnitVariant { inner: visitor, fast: self.fast, node, at: self.at })
            }
            None => Err(abort()),
        }
    }

    fn is_human_readable(&self) -> bool {
        self.de.is_human_readable()
    }
}

/// Reads a string and passes it to an enum visitor as a unit variant.
struct UnitVariant<'f, 'p, V> {
    inner: V,
    fast: &'f Fast<'p>,
    node: NodeId,
    at: &'f Path<'f>,
}

impl<'de, V: Visitor<'de>> Visitor<'de> for UnitVariant<'_, '_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.expecting(f)
    }

    fn visit_borrowed_str<E: de::Error>(self, text: &'de str) -> Result<V::Value, E> {
        if !self.fast.check_str(self.node, text) {
            return self.coerced(text);
        }
        self.inner.visit_enum(de::value::BorrowedStrDeserializer::new(text))
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<V::Value, E> {
        if !self.fast.check_str(self.node, text) {
            return self.coerced(text);
        }
        self.inner.visit_enum(de::value::StrDeserializer::new(text))
    }
}

impl<'de, V: Visitor<'de>> UnitVariant<'_, '_, V> {
    /// The variant spelled like `text` but for letter case, or the full path.
    #[inline(never)]
    fn coerced<E: de::Error>(self, text: &str) -> Result<V::Value, E> {
        match self.fast.coerce_str(self.node, text, self.at) {
            Some(Coerced::Option(option)) => self.inner.visit_enum(de::value::StrDeserializer::new(option)),
            Some(_) => Err(abort()),
            None => {
                self.fast.refuse(self.node, || Value::String(text.to_owned()), self.at);
                Err(abort())
            }
        }
    }
}

impl<'de, V: Visitor<'de>> Wrap<'_, '_, V> {
    /// An array at node `id` whose items must be unique: read whole into a `Value` (as the
    /// walk holds it), its items compared as the walk compares them, then read from that
    /// value as any array is, checked and handed to the inner visitor. Items found equal are
    /// refused at `id` (explained by the walker, as a container this path does not check).
    /// A key given twice in it, or a coercion or default made inside it (after which the
    /// items the walk compares are not the ones sent), or another such array inside it,
    /// leaves the call to the full path.
    #[cold]
    #[inline(never)]
    fn unique_items<A: SeqAccess<'de>>(self, id: NodeId, seq: A) -> Result<V::Value, A::Error> {
        if self.fast.in_unique.get() {
            return Err(abort());
        }
        let access = de::value::SeqAccessDeserializer::new(seq);
        let ((value, repeated), floats) = crate::parse::repeats::noting_repeats(access)?;
        self.fast.floats.set(self.fast.floats.get() || floats);
        if repeated {
            return Err(abort());
        }
        let Value::Array(items) = &value else { return Err(abort()) };
        if first_equal_items(items).is_some() {
            return match self.fast.refuse(id, || value, self.at) {
                true => self.inner.visit_unit(),
                false => Err(abort()),
            };
        }
        // (A default filled is recorded as a coercion too.)
        let made = self.fast.made.get();
        self.fast.items_unique.set(true);
        self.fast.in_unique.set(true);
        let checked = Checked { de: value, fast: self.fast, node: self.node, at: self.at };
        let read = checked.deserialize_any(self.inner).map_err(|_| abort());
        self.fast.items_unique.set(false);
        self.fast.in_unique.set(false);
        if self.fast.made.get() != made {
            return Err(abort());
        }
        read
    }

    fn scalar<E: de::Error>(&self, value: Value) -> Result<(), E> {
        match self.node {
            Some(node) if !self.fast.check_scalar(node, &value) => {
                match self.fast.refuse(node, || value, self.at) {
                    true => Ok(()),
                    false => Err(abort()),
                }
            }
            _ => Ok(()),
        }
    }

    /// Is `text` exactly valid here? (`None` node: any string within the size limit, which
    /// bounds every string, described or not: see `check::undescribed`.)
    fn string_ok(&self, text: &str) -> bool {
        // The size limit first, as `check_str` checks it: for a string without a node too.
        text.len() <= self.fast.max_string_bytes
            && self.node.is_none_or(|node| self.fast.check_str(node, text))
    }

    /// Hand the coerced form of `text` to the inner visitor, or abort. Out of line: a string
    /// the node accepts as it is never comes here.
    #[inline(never)]
    fn coerced<E: de::Error>(self, text: &str) -> Result<V::Value, E> {
        let Some(node) = self.node else { return Err(abort()) };
        match self.fast.coerce_str(node, text, self.at) {
            Some(Coerced::Number(number)) => number.deserialize_any(self.inner).map_err(|_| abort()),
            Some(Coerced::Bool(flag)) => self.inner.visit_bool(flag),
            Some(Coerced::Option(option)) => self.inner.visit_str(option),
            Some(Coerced::Parsed(value)) => {
                // Read through this path again, so what is inside is checked and coerced too.
                let checked = Checked { de: value, fast: self.fast, node: self.node, at: self.at };
                let parsed = &self.fast.parsed;
                parsed.set(parsed.get() + 1);
                let read = checked.deserialize_any(self.inner).map_err(|_| abort());
                parsed.set(parsed.get() - 1);
                read
            }
            Some(Coerced::Strict(content)) => self.read_container_text(content),
            None => match self.fast.refuse(node, || Value::String(text.to_owned()), self.at) {
                true => self.inner.visit_str(text),
                false => Err(abort()),
            },
        }
    }

    /// Read the array or object whose text the string held, as `Parsed` reads the parsed
    /// value: the same visitor calls but for the members' order (the text's, which a `Value`
    /// without `preserve_order` sorts) and strings lent rather than given (see `lifted`).
    /// Where the parse would not have read the text as `serde_json` reads it (not strict
    /// JSON, too deep for `serde_json`, more after the value, a float it may misread) or the
    /// walk would report it (a key given twice, which the one pass refuses in every
    /// object), the reading ends and the full path decides.
    fn read_container_text<E: de::Error>(self, content: &str) -> Result<V::Value, E> {
        let mut text = serde_json::Deserializer::from_str(content);
        let checked = Checked { de: Lifted::new(&mut text), fast: self.fast, node: self.node, at: self.at };
        let (parsed, floats) = (&self.fast.parsed, &self.fast.floats);
        parsed.set(parsed.get() + 1);
        let floats_before = floats.replace(false);
        let read = checked.deserialize_any(self.inner).and_then(|read| text.end().map(|()| read));
        let floats_inside = floats.replace(floats_before || floats.get());
        parsed.set(parsed.get() - 1);
        match read {
            Ok(read) if !(floats_inside && crate::decimal::serde_json_may_misread(content.as_bytes())) => {
                Ok(read)
            }
            _ => Err(abort()),
        }
    }
}

macro_rules! number {
    ($($method:ident: $ty:ty => $convert:expr,)*) => {
        $(
            fn $method<E: de::Error>(self, v: $ty) -> Result<Self::Value, E> {
                self.fast.floats.set(true);
                let number: Option<Number> = $convert(v);
                match number {
                    Some(number) => self.scalar(Value::Number(number))?,
                    None => return Err(abort()),
                }
                self.inner.$method(v)
            }
        )*
    };
}

macro_rules! integer {
    ($($method:ident: $ty:ty,)*) => {
        $(
            #[inline]
            fn $method<E: de::Error>(self, v: $ty) -> Result<Self::Value, E> {
                if let Some(node) = self.node {
                    if !self.fast.check_integer(node, i128::from(v), Number::from(v))
                        && !self.fast.refuse(node, || Value::Number(Number::from(v)), self.at)
                    {
                        return Err(abort());
                    }
                }
                self.inner.$method(v)
            }
        )*
    };
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Wrap<'_, '_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.expecting(f)
    }

    #[inline]
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<V::Value, E> {
        if !self.node.is_none_or(|node| self.fast.plan.fast[node].bools) {
            self.scalar(Value::Bool(v))?;
        }
        self.inner.visit_bool(v)
    }

    integer! {
        visit_i8: i8, visit_i16: i16, visit_i32: i32, visit_i64: i64,
        visit_u8: u8, visit_u16: u16, visit_u32: u32, visit_u64: u64,
    }

    number! {
        visit_f32: f32 => |v: f32| Number::from_f64(f64::from(v)),
        visit_f64: f64 => Number::from_f64,
        visit_i128: i128 => |v: i128| i64::try_from(v).ok().map(Number::from),
        visit_u128: u128 => |v: u128| u64::try_from(v).ok().map(Number::from),
    }

    fn visit_char<E: de::Error>(self, v: char) -> Result<V::Value, E> {
        if !self.string_ok(v.encode_utf8(&mut [0; 4])) {
            return Err(abort());
        }
        self.inner.visit_char(v)
    }

    #[inline]
    fn visit_str<E: de::Error>(self, v: &str) -> Result<V::Value, E> {
        if !self.string_ok(v) {
            return self.coerced(v);
        }
        self.inner.visit_str(v)
    }

    #[inline]
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<V::Value, E> {
        if !self.string_ok(v) {
            return self.coerced(v);
        }
        self.inner.visit_borrowed_str(v)
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<V::Value, E> {
        if !self.string_ok(&v) {
            return self.coerced(&v);
        }
        self.inner.visit_string(v)
    }

    fn visit_bytes<E: de::Error>(self, _: &[u8]) -> Result<V::Value, E> {
        Err(abort())
    }

    #[inline]
    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        if self.node.is_some_and(|node| !self.fast.accepts_null(node)) {
            return Err(abort());
        }
        self.inner.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        if self.node.is_some_and(|node| !self.fast.accepts_null(node)) {
            return Err(abort());
        }
        self.inner.visit_unit()
    }

    #[inline]
    fn visit_some<D2: Deserializer<'de>>(self, deserializer: D2) -> Result<V::Value, D2::Error> {
        let node = match self.node {
            Some(node) => Some(self.fast.non_null(node).ok_or_else(abort)?),
            None => None,
        };
        // The non-null branch of an `anyOf`: no coercion below it (see `Fast::unions`).
        let union = node != self.node;
        if union {
            self.fast.unions.set(self.fast.unions.get() + 1);
        }
        let result = self.inner.visit_some(Checked { de: deserializer, fast: self.fast, node, at: self.at });
        if union {
            self.fast.unions.set(self.fast.unions.get() - 1);
        }
        result
    }

    fn visit_newtype_struct<D2: Deserializer<'de>>(self, deserializer: D2) -> Result<V::Value, D2::Error> {
        self.inner.visit_newtype_struct(Checked {
            de: deserializer,
            fast: self.fast,
            node: self.node,
            at: self.at,
        })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        let node = match self.node {
            Some(id) => match self.fast.container(id, Types::ARRAY) {
                Some(found) => {
                    let node = &self.fast.plan.nodes[found];
                    if node.unique_items && !self.fast.items_unique.replace(false) {
                        return self.unique_items(id, seq);
                    }
                    Some(node)
                }
                None => {
                    let access = de::value::SeqAccessDeserializer::new(seq);
                    return match self.fast.refuse_container(id, access, self.at)? {
                        true => self.inner.visit_unit(),
                        false => Err(abort()),
                    };
                }
            },
            None => None,
        };
        let errors_before = self.fast.explain.get().map_or(0, |explain| explain.error_count());
        self.inner.visit_seq(Seq { seq, fast: self.fast, node, index: 0, at: self.at, errors_before })
    }

    #[inline]
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        let (node, required_mask, plain) = match self.node {
            Some(id) => {
                let Some(found) = self.fast.container(id, Types::OBJECT) else {
                    let access = de::value::MapAccessDeserializer::new(map);
                    return match self.fast.refuse_container(id, access, self.at)? {
                        true => self.inner.visit_unit(),
                        false => Err(abort()),
                    };
                };
                let fast = &self.fast.plan.fast[found];
                (Some(&self.fast.plan.nodes[found]), fast.required_mask, fast.plain_object)
            }
            None => (None, 0, true),
        };
        let sent = Sent::new(node.map_or(0, |n| n.properties.len()));
        self.inner.visit_map(Object {
            map,
            fast: self.fast,
            node,
            sent,
            required_mask,
            plain,
            at: self.at,
            pending: Pending::NONE,
            rare: None,
        })
    }

    fn visit_enum<A: EnumAccess<'de>>(self, _: A) -> Result<V::Value, A::Error> {
        // Enums are read in `deserialize_enum`; one arriving here carries data.
        Err(abort())
    }
}

/// The members of an array, each checked against its item schema.
struct Seq<'f, 'p, A> {
    seq: A,
    fast: &'f Fast<'p>,
    node: Option<&'p Node>,
    index: usize,
    /// Where the array is.
    at: &'f Path<'f>,
    /// How many errors were explained before the array (see `check::fast::explain`).
    errors_before: usize,
}

// The per-member methods below are `#[inline]`: called once per member from serde's loops,
// they were left out of line, and the calls and result copies cost more than their bodies
// (about 2.5% of a clean call's instructions, measured).
impl<'de, A: SeqAccess<'de>> Seq<'_, '_, A> {
    /// The next item, checked against its schema.
    #[inline(always)]
    fn read_element<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, A::Error> {
        let item = self.node.and_then(|node| item_schema(node, self.index));
        let at = Path::Index(self.at, self.index);
        self.seq.next_element_seed(Seed { seed, fast: self.fast, node: item, at: &at })
    }

    /// The end of the array: its count against the bounds.
    #[inline(always)]
    fn finish(&self) -> Result<(), A::Error> {
        match self.node {
            Some(node) if !Bounds::items(node).admit(self.index as u64) && !self.refuse_count(node) => {
                Err(abort())
            }
            _ => Ok(()),
        }
    }
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for Seq<'_, '_, A> {
    type Error = A::Error;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, A::Error> {
        let element = match self.read_element(seed) {
            Ok(element) => element,
            Err(error) => return Err(self.read_on(error)),
        };
        match element {
            Some(_) => self.index += 1,
            None => self.finish()?,
        }
        Ok(element)
    }

    fn size_hint(&self) -> Option<usize> {
        self.seq.size_hint()
    }
}

/// A member's seed, reading the member through a [`Checked`] deserializer.
struct Seed<'f, 'p, S> {
    seed: S,
    fast: &'f Fast<'p>,
    node: Option<NodeId>,
    at: &'f Path<'f>,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Seed<'_, '_, S> {
    type Value = S::Value;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        self.seed.deserialize(Checked { de: deserializer, fast: self.fast, node: self.node, at: self.at })
    }
}
