//! The aliases of the fields of struct variants, in internally, adjacently and externally
//! tagged enums, each read beside serde's own reading (`serde_json::from_value`): an alias
//! reads as its field, recorded `alias`; an alias beside its name with another value is a key
//! given twice; with the same value, recorded. The variant's own alias is read first; a
//! nested struct's aliases inside a variant, and a newtype variant's, are read too.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use tool_input::{CoercionKind, PartialValue, ToolInput};

/// Move the robot.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
struct Command {
    internal: Internal,
    adjacent: Vec<Adjacent>,
    external: Option<External>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema, PartialValue)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Internal {
    #[serde(alias = "go")]
    Move {
        #[serde(alias = "dest", alias = "to")]
        destination: String,
        speed: u8,
    },
    Turn {
        #[serde(alias = "deg")]
        degrees: i16,
    },
    Wait(Pause),
    Stop,
}

/// A newtype variant's struct: its aliases are read inside the variant.
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema, PartialValue)]
struct Pause {
    #[serde(alias = "secs")]
    seconds: u32,
}

#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema, PartialValue)]
#[serde(tag = "t", content = "c", rename_all = "snake_case", rename_all_fields = "camelCase")]
enum Adjacent {
    Move {
        #[serde(alias = "dest")]
        destination_name: String,
    },
    Grab {
        #[serde(alias = "obj")]
        target: Target,
    },
}

/// A nested struct in a variant's field: its own aliases.
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema, PartialValue)]
struct Target {
    #[serde(alias = "nm")]
    name: String,
}

#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema, PartialValue)]
#[serde(rename_all = "snake_case")]
enum External {
    #[serde(alias = "go")]
    Move {
        #[serde(alias = "dest")]
        destination: String,
    },
    Halt,
}

/// serde's and tool-input's readings of `sent` agree; tool-input's, with its record.
#[track_caller]
fn both(sent: Value) -> (Command, Vec<(String, CoercionKind)>) {
    let by_serde: Command = serde_json::from_value(sent.clone()).expect("serde reads it");
    let checked = Command::from_arguments_with_report(&sent.to_string())
        .unwrap_or_else(|rejection| panic!("{sent}: {rejection}"));
    assert_eq!(checked.value, by_serde, "{sent}");
    let record = checked.report.coercions.iter().map(|c| (c.path.clone(), c.kind)).collect();
    (checked.value, record)
}

fn base() -> Value {
    json!({"internal": {"kind": "stop"}, "adjacent": []})
}

fn with(key: &str, value: Value) -> Value {
    let mut sent = base();
    sent[key] = value;
    sent
}

fn alias_at(path: &str) -> (String, CoercionKind) {
    (path.to_owned(), CoercionKind::Alias)
}

#[test]
fn an_alias_of_an_internally_tagged_variants_field() {
    let (command, record) = both(with("internal", json!({"kind": "move", "dest": "dock", "speed": 2})));
    assert_eq!(command.internal, Internal::Move { destination: "dock".into(), speed: 2 });
    assert_eq!(record, [alias_at("/internal/destination")]);
    // Under the variant's own alias, and another alias of the field.
    let (command, record) = both(with("internal", json!({"kind": "go", "to": "dock", "speed": 2})));
    assert_eq!(command.internal, Internal::Move { destination: "dock".into(), speed: 2 });
    assert_eq!(record, [alias_at("/internal/kind"), alias_at("/internal/destination")]);
    // Another variant's alias is not this one's.
    let (command, record) = both(with("internal", json!({"kind": "turn", "deg": -90})));
    assert_eq!(command.internal, Internal::Turn { degrees: -90 });
    assert_eq!(record, [alias_at("/internal/degrees")]);
    // (serde ignores the unknown key; tool-input names it, as any key the schema has not.)
    let sent = with("internal", json!({"kind": "turn", "dest": "dock", "degrees": 5}));
    let rejection = Command::from_arguments(&sent.to_string()).unwrap_err();
    assert_eq!(rejection.errors()[0].path(), "/internal/dest", "{rejection}");
    // A newtype variant's struct.
    let (command, record) = both(with("internal", json!({"kind": "wait", "secs": 3})));
    assert_eq!(command.internal, Internal::Wait(Pause { seconds: 3 }));
    assert_eq!(record, [alias_at("/internal/seconds")]);
}

#[test]
fn an_alias_of_an_adjacently_tagged_variants_field() {
    let sent = with(
        "adjacent",
        json!([{"t": "move", "c": {"dest": "dock"}}, {"t": "grab", "c": {"obj": {"nm": "box"}}}]),
    );
    let (command, record) = both(sent);
    assert_eq!(
        command.adjacent,
        [
            Adjacent::Move { destination_name: "dock".into() },
            Adjacent::Grab { target: Target { name: "box".into() } }
        ]
    );
    assert_eq!(
        record,
        [
            alias_at("/adjacent/0/c/destinationName"),
            alias_at("/adjacent/1/c/target"),
            alias_at("/adjacent/1/c/target/name")
        ]
    );
}

#[test]
fn an_alias_of_an_externally_tagged_variants_field() {
    let (command, record) = both(with("external", json!({"move": {"dest": "dock"}})));
    assert_eq!(command.external, Some(External::Move { destination: "dock".into() }));
    assert_eq!(record, [alias_at("/external/move/destination")]);
    let (command, record) = both(with("external", json!({"go": {"dest": "dock"}})));
    assert_eq!(command.external, Some(External::Move { destination: "dock".into() }));
    assert_eq!(record, [alias_at("/external/move"), alias_at("/external/move/destination")]);
    let (command, _) = both(with("external", json!("halt")));
    assert_eq!(command.external, Some(External::Halt));
}

/// The alias beside the name: another value is a key given twice (serde refuses it too); the
/// same value, recorded.
#[test]
fn an_alias_beside_its_name() {
    let cases = [
        (
            "internal",
            json!({"kind": "move", "dest": "dock", "destination": "yard", "speed": 1}),
            "/internal/destination",
        ),
        (
            "adjacent",
            json!([{"t": "move", "c": {"dest": "dock", "destinationName": "yard"}}]),
            "/adjacent/0/c/destinationName",
        ),
        ("external", json!({"move": {"dest": "dock", "destination": "yard"}}), "/external/move/destination"),
    ];
    for (key, value, path) in cases {
        let sent = with(key, value);
        assert!(serde_json::from_value::<Command>(sent.clone()).is_err(), "{sent}");
        let rejection = Command::from_arguments(&sent.to_string()).unwrap_err();
        let found: Vec<_> = rejection.errors().iter().map(|e| (e.path(), e.code().code())).collect();
        assert_eq!(found, [(path, "duplicate_key")], "{sent}");
        assert!(rejection.errors()[0].message().contains("given twice"), "{rejection}");
    }
    let checked = Command::from_arguments_with_report(
        &with("external", json!({"move": {"dest": "dock", "destination": "dock"}})).to_string(),
    )
    .unwrap();
    assert_eq!(checked.value.external, Some(External::Move { destination: "dock".into() }));
    let kinds: Vec<_> = checked.report.coercions.iter().map(|c| (c.path.as_str(), c.kind)).collect();
    assert_eq!(
        kinds,
        [
            ("/external/move/destination", CoercionKind::Alias),
            ("/external/move/destination", CoercionKind::DuplicateKey)
        ]
    );
}
