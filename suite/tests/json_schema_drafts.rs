//! The whole JSON-Schema-Test-Suite (suite/tests/corpus/json-schema-test-suite-full), every
//! draft: each file of a draft's folder and of its `optional` folder through plain validation
//! (`Validator::is_valid`), and each draft's `optional/format` with format assertion on.
//! Prints, per run, the tests tool-input passes and those the `jsonschema` crate passes in the
//! same run (the target), and fails if tool-input's count falls below the floor recorded here.
//! The `optional` folders hold what a draft lets a validator leave out: float overflow in
//! `multipleOf`, draft 7's `content*` assertions, ECMA-262 regexes, big numbers, references
//! across drafts, draft 4's `1.0` as no integer.
//!
//! Drafts 7, 6 and 4 write no `$schema` in their schemas: the folder's draft is written into
//! each root schema object that has none, which is how a caller says which draft a schema is.
//! Tests that reach remote documents (`refRemote.json` and the few others that `$ref` a URL
//! under `http://localhost:1234/`) get the suite's `remotes/` folder, as its own harness
//! serves them: each file at that URL, given to tool-input with
//! `ValidatorBuilder::resource` and to the `jsonschema` crate by a retriever that reads the
//! same map. Nothing is fetched. The drafts' own metaschemas are bundled by both validators.
//!
//! `cargo test -p tool-input-suite --test json_schema_drafts -- --nocapture` prints the table;
//! with `FAILURES=1` it lists every test tool-input gets wrong.

mod common;

use std::collections::HashMap;
use std::path::Path;
use std::sync::OnceLock;

use serde_json::Value;
use tool_input::Validator;

/// One run: a folder of a draft, how its `$schema` is spelled, whether formats are asserted,
/// and the count tool-input must keep (the floor: raise it when more pass). Before the
/// keywords folder the counts were 816, 742, 701, 653, 491 and 376; before the bundled
/// metaschemas and the dynamic scope, 1240, 1217, 900, 812 and 597 (the drafts); before the
/// remote documents were given, 1254, 1227, 904, 816 and 601.
struct Run {
    name: &'static str,
    folder: &'static str,
    dialect: &'static str,
    formats: bool,
    floor: usize,
}

const RUNS: &[Run] = &[
    Run {
        name: "2020-12",
        folder: "draft2020-12",
        dialect: "https://json-schema.org/draft/2020-12/schema",
        formats: false,
        floor: 1299,
    },
    Run {
        name: "2019-09",
        folder: "draft2019-09",
        dialect: "https://json-schema.org/draft/2019-09/schema",
        formats: false,
        floor: 1259,
    },
    Run {
        name: "7",
        folder: "draft7",
        dialect: "http://json-schema.org/draft-07/schema#",
        formats: false,
        floor: 927,
    },
    Run {
        name: "6",
        folder: "draft6",
        dialect: "http://json-schema.org/draft-06/schema#",
        formats: false,
        floor: 839,
    },
    Run {
        name: "4",
        folder: "draft4",
        dialect: "http://json-schema.org/draft-04/schema#",
        formats: false,
        floor: 618,
    },
    Run {
        name: "2020-12 optional/format",
        folder: "draft2020-12/optional/format",
        dialect: "https://json-schema.org/draft/2020-12/schema",
        formats: true,
        floor: 764,
    },
    Run {
        name: "2020-12 optional",
        folder: "draft2020-12/optional",
        dialect: "https://json-schema.org/draft/2020-12/schema",
        formats: false,
        floor: 162,
    },
    Run {
        name: "2019-09 optional",
        folder: "draft2019-09/optional",
        dialect: "https://json-schema.org/draft/2019-09/schema",
        formats: false,
        floor: 158,
    },
    Run {
        name: "2019-09 optional/format",
        folder: "draft2019-09/optional/format",
        dialect: "https://json-schema.org/draft/2019-09/schema",
        formats: true,
        floor: 757,
    },
    Run {
        name: "7 optional",
        folder: "draft7/optional",
        dialect: "http://json-schema.org/draft-07/schema#",
        formats: false,
        floor: 118,
    },
    Run {
        name: "7 optional/format",
        folder: "draft7/optional/format",
        dialect: "http://json-schema.org/draft-07/schema#",
        formats: true,
        floor: 676,
    },
    Run {
        name: "6 optional",
        folder: "draft6/optional",
        dialect: "http://json-schema.org/draft-06/schema#",
        formats: false,
        floor: 106,
    },
    Run {
        name: "6 optional/format",
        folder: "draft6/optional/format",
        dialect: "http://json-schema.org/draft-06/schema#",
        formats: true,
        floor: 325,
    },
    Run {
        name: "4 optional",
        folder: "draft4/optional",
        dialect: "http://json-schema.org/draft-04/schema#",
        formats: false,
        floor: 100,
    },
    Run {
        name: "4 optional/format",
        folder: "draft4/optional/format",
        dialect: "http://json-schema.org/draft-04/schema#",
        formats: true,
        floor: 219,
    },
];

/// The counts of one run.
#[derive(Default)]
struct Counts {
    total: usize,
    ours: usize,
    theirs: usize,
    failures: Vec<String>,
}

/// The suite's remote documents, each at the URL its harness serves it from.
fn remotes() -> &'static HashMap<String, Value> {
    static REMOTES: OnceLock<HashMap<String, Value>> = OnceLock::new();
    REMOTES.get_or_init(|| {
        let root = common::corpus_dir().join("json-schema-test-suite-full/remotes");
        let mut remotes = HashMap::new();
        let mut folders = vec![root.clone()];
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(&folder).expect("the remotes folder") {
                let path = entry.expect("a directory entry").path();
                if path.is_dir() {
                    folders.push(path);
                } else if path.extension().is_some_and(|e| e == "json") {
                    let relative = path
                        .strip_prefix(&root)
                        .expect("under remotes/")
                        .to_string_lossy()
                        .replace('\\', "/");
                    let text = std::fs::read_to_string(&path).expect("a remote document");
                    let document = serde_json::from_str(&text).expect("a remote document is JSON");
                    remotes.insert(format!("http://localhost:1234/{relative}"), document);
                }
            }
        }
        remotes
    })
}

/// The `jsonschema` crate's view of [`remotes`]: a retriever that reads the map.
struct Remotes;

impl jsonschema::Retrieve for Remotes {
    fn retrieve(
        &self,
        uri: &jsonschema::Uri<String>,
    ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        remotes().get(uri.as_str()).cloned().ok_or_else(|| format!("no remote document at {uri}").into())
    }
}

fn files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

/// The schema as the draft's folder means it: its `$schema` written in where it has none.
fn in_dialect(schema: &Value, dialect: &str) -> Value {
    let mut schema = schema.clone();
    if let Value::Object(map) = &mut schema {
        map.entry("$schema").or_insert_with(|| Value::String(dialect.to_owned()));
    }
    schema
}

fn run(run: &Run) -> Counts {
    let dir = common::corpus_dir().join("json-schema-test-suite-full/tests").join(run.folder);
    let mut counts = Counts::default();
    for file in files(&dir) {
        let text = std::fs::read_to_string(&file).expect("a suite file");
        let groups: Vec<Value> = serde_json::from_str(&text).expect("a suite file is JSON");
        let name = file.file_name().unwrap_or_default().to_string_lossy().into_owned();
        for group in &groups {
            let description = group["description"].as_str().unwrap_or_default();
            let schema = in_dialect(&group["schema"], run.dialect);
            // Plain validation: `default` is an annotation (the suite checks that an invalid one
            // changes nothing), not filled in as for a call.
            let mut builder = Validator::builder(&schema).formats(run.formats).defaults(false);
            // The remote documents a schema may reach (all of them, where it names their host).
            if schema.to_string().contains("localhost:1234") {
                for (uri, document) in remotes() {
                    builder = builder.resource(uri, document.clone());
                }
            }
            let ours = builder.build();
            let theirs = jsonschema::options()
                .should_validate_formats(run.formats)
                .with_retriever(Remotes)
                .build(&schema);
            for test in group["tests"].as_array().expect("tests") {
                counts.total += 1;
                let valid = test["valid"].as_bool().expect("valid");
                let data = &test["data"];
                match &ours {
                    Ok(validator) => {
                        let answer = validator.is_valid(data);
                        // The explaining path agrees with the deciding one.
                        assert_eq!(
                            answer,
                            validator.validate(data).is_ok(),
                            "{} {name} / {description} / {}",
                            run.name,
                            test["description"]
                        );
                        if answer == valid {
                            counts.ours += 1;
                        } else {
                            counts.failures.push(format!(
                                "{name} / {description} / {}: expected valid={valid}",
                                test["description"]
                            ));
                        }
                    }
                    Err(error) => counts.failures.push(format!(
                        "{name} / {description} / {}: schema refused: {error}",
                        test["description"]
                    )),
                }
                if theirs.as_ref().is_ok_and(|validator| validator.is_valid(data) == valid) {
                    counts.theirs += 1;
                }
            }
        }
    }
    counts
}

#[test]
fn every_draft_of_the_json_schema_test_suite() {
    let mut below = Vec::new();
    println!("{:<24} {:>14} {:>10} {:>6}", "draft", "tool-input", "jsonschema", "floor");
    for each in RUNS {
        let counts = run(each);
        println!(
            "{:<24} {:>14} {:>10} {:>6}",
            each.name,
            format!("{} / {}", counts.ours, counts.total),
            counts.theirs,
            each.floor
        );
        if std::env::var_os("FAILURES").is_some() {
            for failure in &counts.failures {
                println!("    {failure}");
            }
        }
        if counts.ours < each.floor {
            below.push(format!("{}: {} passed, below the floor of {}", each.name, counts.ours, each.floor));
        }
    }
    assert!(below.is_empty(), "{}", below.join("\n"));
}
