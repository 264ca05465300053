//! What serde reads inside the arguments that their schema does not say: the aliases of a
//! nested struct's fields, the aliases of an enum's variants, and an enum's catch-all
//! (`#[serde(other)]`). schemars writes none of them, and the derive on the tool's struct sees
//! only its own fields, so each nested type tells its own: `#[derive(PartialValue)]` on it
//! writes [`PartialValue::__serde_facts`](crate::partial::PartialValue), and the tool's derive
//! gathers its fields' facts through it, at the places in the arguments where those types sit.

use std::cell::RefCell;
use std::collections::HashMap;

use serde_json::Value;

use crate::equal::json_equal;
use crate::error::{ErrorCode, FieldError, Options};
use crate::message::echo;
use crate::report::{Coercion, CoercionKind};

/// How deep the facts of nested types are gathered (a recursive type stops here).
const MAX_DEPTH: usize = 8;
/// How many facts a tool keeps at most (a wide recursive type stops here).
const MAX_FACTS: usize = 512;

/// One step of a place inside the arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Segment {
    /// The property of this name.
    Key(String),
    /// Every item of a list.
    Items,
    /// The data of an enum's variant `name`, where the enum here is that variant: the value
    /// of the object's one key `name` (externally tagged, `tag: None`), the object itself
    /// when its key `tag` is `name` (internally tagged), or the object's key `content` then
    /// (adjacently tagged).
    Variant { tag: Option<String>, content: Option<String>, name: String },
}

/// What serde reads at one place.
#[derive(Debug, Clone)]
pub(crate) enum Fact {
    /// The object there reads the key `alias` as `name`.
    KeyAlias { alias: String, name: String },
    /// The enum there: its variants' names, their aliases (`(alias, name)`), and its catch-all;
    /// `tag`: the key of the object the enum is (internally or adjacently tagged) whose value
    /// names the variant, the place this fact is at (`None`: the enum is the name itself, or
    /// an object of one key, externally tagged).
    Variants {
        names: Vec<String>,
        aliases: Vec<(String, String)>,
        other: Option<String>,
        tag: Option<String>,
    },
}

/// The facts of a tool's nested types, each at its place. Filled by the derives
/// (doc-hidden: generated code calls it).
#[doc(hidden)]
#[derive(Debug, Clone, Default)]
pub struct SerdeFacts {
    at: Vec<Segment>,
    pub(crate) facts: Vec<(Vec<Segment>, Fact)>,
}

impl SerdeFacts {
    /// The field `name` of the struct here, read under `aliases` too; `inner` tells the facts
    /// of its type.
    pub fn field(&mut self, name: &str, aliases: &[&str], inner: fn(&mut SerdeFacts)) {
        for alias in aliases {
            self.key_alias(alias, name);
        }
        self.enter(Segment::Key(name.to_owned()), inner);
    }

    /// The object here reads the key `alias` as `name`.
    pub fn key_alias(&mut self, alias: &str, name: &str) {
        if alias != name {
            self.push(Fact::KeyAlias { alias: alias.to_owned(), name: name.to_owned() });
        }
    }

    /// The items of the list here; `inner` tells the facts of their type.
    pub fn items(&mut self, inner: fn(&mut SerdeFacts)) {
        self.enter(Segment::Items, inner);
    }

    /// The data of the variant `name` of the enum here (see [`SerdeFacts::tagged`] for `tag`;
    /// `content`: the key of an adjacently tagged enum's data); `inner` tells what serde reads
    /// in it, as of a struct's fields. Told after the enum's names, which are read first.
    pub fn variant(
        &mut self,
        tag: Option<&str>,
        content: Option<&str>,
        name: &str,
        inner: fn(&mut SerdeFacts),
    ) {
        let segment = Segment::Variant {
            tag: tag.map(str::to_owned),
            content: content.map(str::to_owned),
            name: name.to_owned(),
        };
        self.enter(segment, inner);
    }

    /// The enum here: its variants' names as serde reads them, `(alias, name)` pairs, and the
    /// name of its `#[serde(other)]` variant.
    pub fn variants(&mut self, names: &[&str], aliases: &[(&str, &str)], other: Option<&str>) {
        self.push_variants(None, names, aliases, other);
    }

    /// The internally or adjacently tagged enum here: the object's key `tag` names the
    /// variant, read as [`SerdeFacts::variants`] reads an externally tagged one's name.
    pub fn tagged(&mut self, tag: &str, names: &[&str], aliases: &[(&str, &str)], other: Option<&str>) {
        self.at.push(Segment::Key(tag.to_owned()));
        self.push_variants(Some(tag), names, aliases, other);
        self.at.pop();
    }

    fn push_variants(
        &mut self,
        tag: Option<&str>,
        names: &[&str],
        aliases: &[(&str, &str)],
        other: Option<&str>,
    ) {
        if aliases.is_empty() && other.is_none() {
            return;
        }
        self.push(Fact::Variants {
            names: names.iter().map(|name| (*name).to_owned()).collect(),
            aliases: aliases.iter().map(|(alias, name)| ((*alias).to_owned(), (*name).to_owned())).collect(),
            other: other.map(str::to_owned),
            tag: tag.map(str::to_owned),
        });
    }

    fn enter(&mut self, segment: Segment, inner: fn(&mut SerdeFacts)) {
        if self.at.len() < MAX_DEPTH && self.facts.len() < MAX_FACTS {
            self.at.push(segment);
            inner(self);
            self.at.pop();
        }
    }

    fn push(&mut self, fact: Fact) {
        if self.facts.len() < MAX_FACTS {
            self.facts.push((self.at.clone(), fact));
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.facts.is_empty()
    }

    /// Every alias, for the cheap test of whether a call may use one.
    pub(crate) fn aliases(&self) -> impl Iterator<Item = &str> {
        self.facts.iter().flat_map(|(_, fact)| -> Box<dyn Iterator<Item = &str>> {
            match fact {
                Fact::KeyAlias { alias, .. } => Box::new(std::iter::once(alias.as_str())),
                Fact::Variants { aliases, .. } => Box::new(aliases.iter().map(|(alias, _)| alias.as_str())),
            }
        })
    }

    /// Whether some enum has a catch-all: any text may then be read as it.
    pub(crate) fn has_catch_all(&self) -> bool {
        self.facts.iter().any(|(_, fact)| matches!(fact, Fact::Variants { other: Some(_), .. }))
    }

    /// The schema the model sees: an enum with a catch-all takes any string, and says which
    /// names it knows and what the rest is read as (the catch-all is not one more choice).
    pub(crate) fn show_catch_alls(&self, schema: &mut Value) {
        for (_, fact) in &self.facts {
            match fact {
                Fact::Variants { names, other: Some(other), tag: None, .. } => {
                    rewrite_enums(schema, names, other, 0)
                }
                // The tag's catch-all stays a branch of its own (loosened, it would match
                // beside every other branch): its tag says what it reads.
                Fact::Variants { names, other: Some(other), tag: Some(tag), .. } => {
                    describe_tag_catch_all(schema, tag, names, other, 0)
                }
                _ => {}
            }
        }
    }

    /// Read `value` as serde does at each place: aliases renamed, unknown variants read as
    /// the catch-all, each recorded. `hidden`: is the top-level property sensitive?
    /// `coerces`: may its value be coerced (its policy is not strict)? Where it may, a value
    /// that is one variant's name in another letter case (`"Red"`) is that variant, recorded
    /// `enum_case`, as for any enum: the catch-all takes only what names no variant, so a
    /// respelling never changes the model's choice into "anything else".
    pub(crate) fn map(
        &self,
        value: &mut Value,
        hidden: &dyn Fn(&str) -> bool,
        coerces: &dyn Fn(&str) -> bool,
        max_echo: usize,
        mapped: &mut Mapped,
    ) {
        for (index, (path, fact)) in self.facts.iter().enumerate() {
            let mut pointer = String::new();
            let mut strings = Vec::new();
            visit(value, path, &mut pointer, &mut strings, &mut |value, pointer| {
                let top = pointer.split('/').nth(1).map(crate::pointer::unescape_token).unwrap_or_default();
                let place = Place { hide: hidden(&top), coerce: coerces(&top), max_echo };
                apply(fact, value, pointer, place, mapped);
            });
            for (at, done) in strings {
                add_place(&mut mapped.within, at, index, done);
            }
        }
    }

    /// The note an error at a catch-all's place ends with: what any text is read as.
    pub(crate) fn note_catch_alls(&self, value: &Value, errors: &mut [FieldError]) {
        for (path, fact) in &self.facts {
            let Fact::Variants { other: Some(other), names, .. } = fact else { continue };
            let mut pointer = String::new();
            let mut places = Vec::new();
            let mut value = value.clone();
            visit(&mut value, path, &mut pointer, &mut Vec::new(), &mut |_, pointer| {
                places.push(pointer.to_owned())
            });
            for error in errors.iter_mut().filter(|error| places.contains(&error.path)) {
                error.message.push_str(&format!("; {}", catch_all_note(names, other)));
            }
        }
    }
}

fn catch_all_note(names: &[String], other: &str) -> String {
    let known: Vec<String> =
        names.iter().filter(|name| *name != other).map(|name| format!("`{name}`")).collect();
    format!("send a string: one of {}, or any other text, read as `{other}`", known.join(", "))
}

/// Call `f` on each place `path` reaches in `value`, with its JSON Pointer. Where it finds
/// a string on the way, or at the place (a container the model may have sent as JSON text,
/// which only the check parses), `strings` gets that string's pointer and how many steps of
/// `path` led to it.
fn visit(
    value: &mut Value,
    path: &[Segment],
    pointer: &mut String,
    strings: &mut Vec<(String, usize)>,
    f: &mut dyn FnMut(&mut Value, &str),
) {
    visit_from(value, path, 0, pointer, strings, f)
}

fn visit_from(
    value: &mut Value,
    path: &[Segment],
    done: usize,
    pointer: &mut String,
    strings: &mut Vec<(String, usize)>,
    f: &mut dyn FnMut(&mut Value, &str),
) {
    let Some(first) = path.get(done) else {
        if value.is_string() {
            // The place itself may be an object sent as text (a struct whose keys have
            // aliases); as a string, it is read here too (a variant's name).
            strings.push((pointer.clone(), done));
        }
        f(value, pointer);
        return;
    };
    let length = pointer.len();
    match (first, value) {
        (_, Value::String(_)) => strings.push((pointer.clone(), done)),
        (Segment::Key(key), Value::Object(object)) => {
            if let Some(inner) = object.get_mut(key) {
                crate::pointer::push_token(pointer, key);
                visit_from(inner, path, done + 1, pointer, strings, f);
            }
        }
        (Segment::Items, Value::Array(items)) => {
            for (index, item) in items.iter_mut().enumerate() {
                crate::pointer::push_token(pointer, &index.to_string());
                visit_from(item, path, done + 1, pointer, strings, f);
                pointer.truncate(length);
            }
        }
        (Segment::Variant { tag: None, name, .. }, Value::Object(object)) => {
            if let (1, Some(inner)) = (object.len(), object.get_mut(name)) {
                crate::pointer::push_token(pointer, name);
                visit_from(inner, path, done + 1, pointer, strings, f);
            }
        }
        (Segment::Variant { tag: Some(tag), content, name }, value @ Value::Object(_)) => {
            let named = value.get(tag).and_then(Value::as_str) == Some(name.as_str());
            match (named, content) {
                (false, _) => {}
                (true, None) => visit_from(value, path, done + 1, pointer, strings, f),
                (true, Some(content)) => {
                    if let Some(inner) = value.get_mut(content) {
                        crate::pointer::push_token(pointer, content);
                        visit_from(inner, path, done + 1, pointer, strings, f);
                    }
                }
            }
        }
        _ => {}
    }
    pointer.truncate(length);
}

/// What holds at the place a fact applies: is its value sensitive, may it be coerced, and
/// how much of a value an echo shows.
#[derive(Clone, Copy)]
struct Place {
    hide: bool,
    coerce: bool,
    max_echo: usize,
}

fn apply(fact: &Fact, value: &mut Value, pointer: &str, place: Place, mapped: &mut Mapped) {
    let Place { hide, max_echo, .. } = place;
    match fact {
        Fact::KeyAlias { alias, name } => {
            if let Value::Object(object) = value {
                rename_key(object, pointer, alias, name, hide, max_echo, mapped);
            }
        }
        Fact::Variants { names, aliases, other, .. } => match value {
            Value::String(sent) => {
                if names.contains(sent) {
                    return;
                }
                let respelled = || {
                    let trimmed = sent.trim();
                    let mut matching = names.iter().filter(|name| name.eq_ignore_ascii_case(trimmed));
                    match (matching.next(), matching.next()) {
                        (Some(name), None) => Some(name),
                        _ => None,
                    }
                };
                let (to, kind) = match aliases.iter().find(|(alias, _)| alias == sent) {
                    Some((_, name)) => (name.clone(), CoercionKind::Alias),
                    None => match other {
                        // Only where the catch-all would read it: without one, the check
                        // coerces the letter case as for any enum.
                        Some(other) => match respelled().filter(|_| place.coerce) {
                            Some(name) => (name.clone(), CoercionKind::EnumCase),
                            None => (other.clone(), CoercionKind::OtherVariant),
                        },
                        None => return,
                    },
                };
                let from = std::mem::replace(sent, to.clone());
                mapped.coercions.push(Coercion {
                    path: pointer.to_owned(),
                    kind,
                    from: (!hide).then(|| echo(&Value::String(from), max_echo)),
                    to: (!hide).then(|| echo(&Value::String(to), max_echo)),
                });
            }
            // An externally tagged variant with data, under an alias of its name.
            Value::Object(object) if object.len() == 1 => {
                let Some(key) = object.keys().next().cloned() else { return };
                if let Some((alias, name)) = aliases.iter().find(|(alias, _)| *alias == key) {
                    rename_key(object, pointer, alias, name, hide, max_echo, mapped);
                }
            }
            _ => {}
        },
    }
}

/// Rewrite each enum of exactly `names` (as `enum`, or as a `oneOf` of `const`s) into a
/// string that says what it reads.
fn rewrite_enums(schema: &mut Value, names: &[String], other: &str, depth: usize) {
    if depth > 64 {
        return;
    }
    match schema {
        Value::Object(object) => {
            if enumerates(object, names) {
                let description = object.get("description").and_then(Value::as_str).map(str::to_owned);
                let note = catch_all_note(names, other);
                let note = match description {
                    Some(description) if !description.is_empty() => format!("{description} ({note})"),
                    _ => format!("{}{}", note[..1].to_uppercase(), &note[1..]),
                };
                object.clear();
                object.insert("type".into(), Value::String("string".into()));
                object.insert("description".into(), Value::String(format!("{note}.")));
                return;
            }
            for inner in object.values_mut() {
                rewrite_enums(inner, names, other, depth + 1);
            }
        }
        Value::Array(items) => {
            for inner in items {
                rewrite_enums(inner, names, other, depth + 1);
            }
        }
        _ => {}
    }
}

/// In each object schema whose property `tag` is the constant `other`, say on that property
/// what the catch-all reads.
fn describe_tag_catch_all(schema: &mut Value, tag: &str, names: &[String], other: &str, depth: usize) {
    if depth > 64 {
        return;
    }
    match schema {
        Value::Object(object) => {
            let property = object.get_mut("properties").and_then(|properties| properties.get_mut(tag));
            if let Some(Value::Object(property)) = property {
                let names_other = property.get("const").and_then(Value::as_str) == Some(other)
                    || property.get("enum") == Some(&Value::Array(vec![Value::String(other.to_owned())]));
                if names_other {
                    let note = catch_all_note(names, other);
                    property.insert(
                        "description".into(),
                        Value::String(format!("{}{}.", note[..1].to_uppercase(), &note[1..])),
                    );
                }
            }
            for inner in object.values_mut() {
                describe_tag_catch_all(inner, tag, names, other, depth + 1);
            }
        }
        Value::Array(items) => {
            for inner in items {
                describe_tag_catch_all(inner, tag, names, other, depth + 1);
            }
        }
        _ => {}
    }
}

/// Does this schema enumerate exactly `names` (in any order)?
fn enumerates(object: &serde_json::Map<String, Value>, names: &[String]) -> bool {
    let listed: Option<Vec<&Value>> = match (object.get("enum"), object.get("oneOf")) {
        (Some(Value::Array(values)), _) => Some(values.iter().collect()),
        (None, Some(Value::Array(branches))) => branches.iter().map(|branch| branch.get("const")).collect(),
        _ => None,
    };
    let Some(listed) = listed else { return false };
    listed.len() == names.len()
        && names.iter().all(|name| listed.iter().any(|value| json_equal(value, &Value::String(name.clone()))))
}

/// What mapping the aliases of one arguments object found.
#[derive(Debug, Default)]
pub(crate) struct Mapped {
    pub coercions: Vec<Coercion>,
    pub errors: Vec<FieldError>,
    /// The facts that stopped at a string (see [`Within`]), by the string's pointer.
    pub within: Places,
}

/// By a string's pointer, the facts whose places go on inside it: `(fact, done)`, the
/// index of the fact and how many steps of its place led to the string.
pub(crate) type Places = HashMap<String, Vec<(usize, usize)>>;

fn add_place(places: &mut Places, at: String, fact: usize, done: usize) {
    let here = places.entry(at).or_default();
    if !here.contains(&(fact, done)) {
        here.push((fact, done));
    }
}

/// The facts whose places lie inside strings of the arguments: a list or object sent as
/// JSON text (`"[\"paused\"]"`), which only the check parses (recorded `parsed_string`),
/// is read as serde reads the same container sent as JSON, once parsed: its aliases renamed,
/// its unknown variants read as the catch-all, each recorded at its path inside the string.
#[derive(Debug)]
pub(crate) struct Within<'f> {
    facts: &'f SerdeFacts,
    places: RefCell<Places>,
}

impl<'f> Within<'f> {
    /// The places [`SerdeFacts::map`] left at strings (`places`) of `facts`.
    pub(crate) fn new(facts: &'f SerdeFacts, places: Places) -> Self {
        Within { facts, places: RefCell::new(places) }
    }

    /// Read `parsed`, the container the string at `at` was parsed into, as serde does at
    /// the places inside it (see [`SerdeFacts::map`]); a string inside it that holds a
    /// container in turn is noted for when it is parsed. `hide`: is the value sensitive?
    pub(crate) fn map(&self, at: &str, parsed: &mut Value, hide: bool, max_echo: usize) -> Mapped {
        let mut mapped = Mapped::default();
        let here = self.places.borrow().get(at).cloned().unwrap_or_default();
        for (index, done) in here {
            let Some((path, fact)) = self.facts.facts.get(index) else { continue };
            let mut pointer = at.to_owned();
            let mut strings = Vec::new();
            // Coerced: the string itself was, and a respelled name is that variant.
            let place = Place { hide, coerce: true, max_echo };
            visit_from(parsed, path, done, &mut pointer, &mut strings, &mut |value, pointer| {
                apply(fact, value, pointer, place, &mut mapped);
            });
            let mut places = self.places.borrow_mut();
            for (inner, done) in strings {
                add_place(&mut places, inner, index, done);
            }
        }
        mapped
    }
}

/// Rename the key `alias` of `object` (at `pointer`) to `name`, recorded; beside `name`
/// with the same value, one record; with another value, a `duplicate_key` error.
pub(crate) fn rename_key(
    object: &mut serde_json::Map<String, Value>,
    pointer: &str,
    alias: &str,
    name: &str,
    hide: bool,
    max_echo: usize,
    mapped: &mut Mapped,
) {
    let Some(sent) = object.remove(alias) else { return };
    let mut path = pointer.to_owned();
    crate::pointer::push_token(&mut path, name);
    let show = |value: &Value| (!hide).then(|| echo(value, max_echo));
    mapped.coercions.push(Coercion {
        path: path.clone(),
        kind: CoercionKind::Alias,
        from: Some(echo(&Value::String(alias.to_owned()), max_echo)),
        to: Some(echo(&Value::String(name.to_owned()), max_echo)),
    });
    match object.get(name) {
        None => {
            object.insert(name.to_owned(), sent);
        }
        Some(own) if json_equal(own, &sent) => mapped.coercions.push(Coercion {
            path,
            kind: CoercionKind::DuplicateKey,
            from: show(&sent),
            to: None,
        }),
        Some(own) => {
            let message = match (show(own), show(&sent)) {
                (Some(first), Some(second)) => format!(
                    "the key `{name}` is given twice, with different values: {first}, then {second} \
                     (as `{alias}`, another name for it); send it once, with the value you mean"
                ),
                _ => format!(
                    "the key `{name}` is given twice, with different values (once as `{alias}`, \
                     another name for it); send it once, with the value you mean"
                ),
            };
            mapped.errors.push(FieldError {
                path,
                code: ErrorCode::DuplicateKey,
                message,
                value: show(&sent),
                options: if hide { Options::None } else { vec![own.clone(), sent].into() },
                suggestion: None,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn color(facts: &mut SerdeFacts) {
        facts.variants(&["red", "green", "unknown"], &[("rouge", "red")], Some("unknown"));
    }

    fn facts() -> SerdeFacts {
        let mut facts = SerdeFacts::default();
        facts.field("pens", &[], |facts| facts.items(|facts| facts.field("color", &["colour"], color)));
        facts
    }

    #[test]
    fn nested_aliases_and_catch_alls_are_read_and_recorded() {
        let mut value = json!({"pens": [{"colour": "blue"}, {"color": "rouge"}, {"color": "green"}]});
        let mut mapped = Mapped::default();
        facts().map(&mut value, &|_| false, &|_| true, 80, &mut mapped);
        assert_eq!(value, json!({"pens": [{"color": "unknown"}, {"color": "red"}, {"color": "green"}]}));
        let kinds: Vec<_> = mapped.coercions.iter().map(|c| (c.path.as_str(), c.kind)).collect();
        assert_eq!(
            kinds,
            [
                ("/pens/0/color", CoercionKind::Alias),
                ("/pens/0/color", CoercionKind::OtherVariant),
                ("/pens/1/color", CoercionKind::Alias)
            ]
        );
    }

    #[test]
    fn a_variant_in_another_letter_case_is_that_variant_not_the_catch_all() {
        let sent = json!({"pens": [{"color": " Red"}, {"color": "GREEN"}, {"color": "blue"}]});
        let mut value = sent.clone();
        let mut mapped = Mapped::default();
        facts().map(&mut value, &|_| false, &|_| true, 80, &mut mapped);
        assert_eq!(value, json!({"pens": [{"color": "red"}, {"color": "green"}, {"color": "unknown"}]}));
        let kinds: Vec<_> = mapped.coercions.iter().map(|c| c.kind).collect();
        assert_eq!(kinds, [CoercionKind::EnumCase, CoercionKind::EnumCase, CoercionKind::OtherVariant]);
        // Where nothing may be coerced (a strict policy), serde's reading stands: any text
        // that is not a variant's exact name is the catch-all.
        let mut value = sent;
        let mut mapped = Mapped::default();
        facts().map(&mut value, &|_| false, &|_| false, 80, &mut mapped);
        assert_eq!(
            value,
            json!({"pens": [{"color": "unknown"}, {"color": "unknown"}, {"color": "unknown"}]})
        );
    }

    #[test]
    fn the_schema_shows_the_catch_all_as_what_the_rest_is_read_as() {
        let mut schema = json!({"$defs": {"Color": {"type": "string", "enum": ["red", "green", "unknown"]}}});
        facts().show_catch_alls(&mut schema);
        let shown = &schema["$defs"]["Color"];
        assert_eq!(shown["type"], "string");
        assert!(shown.get("enum").is_none());
        assert_eq!(
            shown["description"],
            "Send a string: one of `red`, `green`, or any other text, read as `unknown`."
        );
    }

    #[test]
    fn a_recursive_type_stops_at_the_depth_limit() {
        fn node(facts: &mut SerdeFacts) {
            facts.field("children", &["kids"], |facts| facts.items(node));
        }
        let mut facts = SerdeFacts::default();
        node(&mut facts);
        assert!(!facts.is_empty() && facts.facts.len() <= MAX_DEPTH);
    }
}
