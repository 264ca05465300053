//! A generic tool's partial: its parameters (type, lifetime, constant), bounds and where
//! clause carried over; a parameter no field of the partial names kept by a hidden marker; a
//! field shown whole, and one serde reads by a function under `#[serde(bound)]`.

use std::borrow::Cow;
use std::fmt::Debug;
use std::marker::PhantomData;
use std::str::FromStr;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer};
use tool_input::partial::{FieldState, PartialReader};
use tool_input::{PartialValue, ToolInput};

/// Store some items.
#[derive(Deserialize, JsonSchema, ToolInput)]
#[allow(dead_code)]
struct Store<T, U: Debug = String>
where
    T: Clone,
{
    items: Vec<T>,
    label: U,
}

/// A note that may borrow nothing, but has a lifetime.
#[derive(Deserialize, JsonSchema, ToolInput)]
#[allow(dead_code)]
struct Note<'a> {
    text: Cow<'a, str>,
}

/// At most `MAX` results.
#[derive(Deserialize, JsonSchema, ToolInput)]
#[allow(dead_code)]
struct Top<const MAX: usize> {
    query: String,
}

/// Only skipped fields hold `C`: the partial keeps it with a marker.
#[derive(Deserialize, JsonSchema, ToolInput)]
#[allow(dead_code)]
struct Cached<C, K> {
    key: K,
    #[serde(skip)]
    cache: PhantomData<C>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
struct Point {
    x: i32,
}

/// Shown whole, and read by a function.
#[derive(Deserialize, JsonSchema, ToolInput)]
#[serde(bound(deserialize = "P: Deserialize<'de>, N: FromStr"))]
#[allow(dead_code)]
struct Measure<P, N> {
    #[tool_input(stream_whole)]
    at: P,
    #[serde(deserialize_with = "parsed")]
    #[schemars(with = "String")]
    amount: N,
}

fn parsed<'de, D: Deserializer<'de>, N: FromStr>(deserializer: D) -> Result<N, D::Error> {
    let text = String::deserialize(deserializer)?;
    text.parse().map_err(|_| serde::de::Error::custom("not a number"))
}

/// A generic struct and enum a generic tool's fields use derive `PartialValue` too.
#[derive(Deserialize, JsonSchema, ToolInput)]
#[allow(dead_code)]
struct Ledger<T> {
    entries: Vec<Entry<T>>,
    total: Either<T, String>,
}

#[derive(Deserialize, JsonSchema, PartialValue)]
#[allow(dead_code)]
struct Entry<T> {
    amount: T,
    memo: String,
}

#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema, PartialValue)]
#[serde(tag = "kind")]
enum Either<L, R> {
    Left { value: L },
    Right { value: R },
}

fn partial_of<T: PartialValue>(text: &str) -> T::Partial
where
    T::Partial: Clone,
{
    let mut reader = PartialReader::<T>::new();
    reader.feed(text);
    reader.finish().unwrap().complete().cloned().unwrap()
}

fn main() {
    let store: StorePartial<u32> = partial_of::<Store<u32>>(r#"{"items": [1], "label": "a"}"#);
    assert_eq!(store.items, FieldState::Complete(vec![FieldState::Complete(1)]));
    assert_eq!(store.label, FieldState::Complete("a".to_owned()));

    let note: NotePartial<'static> = partial_of::<Note<'static>>(r#"{"text": "hi"}"#);
    assert_eq!(note.text, FieldState::Complete("hi".to_owned()));

    let top: TopPartial<5> = partial_of::<Top<5>>(r#"{"query": "q"}"#);
    assert_eq!(top.query, FieldState::Complete("q".to_owned()));

    let cached: CachedPartial<Vec<u8>, String> = partial_of::<Cached<Vec<u8>, String>>(r#"{"key": "k"}"#);
    assert_eq!(cached.key, FieldState::Complete("k".to_owned()));
    let _: PhantomData<fn() -> (*const Vec<u8>,)> = cached.__marker;

    let measure = partial_of::<Measure<Point, u64>>(r#"{"at": {"x": 1}, "amount": "42"}"#);
    assert_eq!(measure.at, FieldState::Complete(Point { x: 1 }));
    assert_eq!(measure.amount, FieldState::Complete(42));
    assert_eq!(<Measure<Point, u64> as ToolInput>::NAME, "measure");

    let ledger = partial_of::<Ledger<u32>>(
        r#"{"entries": [{"amount": 3, "memo": "tea"}], "total": {"kind": "Left", "value": 3}}"#,
    );
    let entry: &EntryPartial<u32> = ledger.entries.complete().unwrap()[0].complete().unwrap();
    assert_eq!(entry.amount, FieldState::Complete(3));
    assert_eq!(ledger.total, FieldState::Complete(Either::Left { value: 3 }));
}
