"""Validator.check: the coercion contract, the policies, and the raw inputs it takes."""

from __future__ import annotations

import json
import pickle
import threading

import pytest

import tool_input
from tool_input import Rejection, SchemaError, Validator

SCHEMA = {
    "title": "create_order",
    "type": "object",
    "properties": {
        "customer_id": {"type": "string"},
        "priority": {"enum": ["low", "high"]},
        "quantity": {"type": "integer", "minimum": 1},
        "price": {"type": "number"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "address": {
            "type": "object",
            "properties": {"city": {"type": "string"}},
            "required": ["city"],
            "additionalProperties": False,
        },
        "gift": {"type": "boolean", "default": False},
        "note": {"type": "string"},
    },
    "required": ["customer_id", "priority"],
    "additionalProperties": False,
}


@pytest.fixture(scope="module")
def validator() -> Validator:
    return Validator(SCHEMA)


def kinds(records):
    return [record["kind"] for record in records]


# Representation is coerced, each change recorded at its path.
@pytest.mark.parametrize(
    "raw, path, value, coercion",
    [
        ('{"customer_id": "C", "priority": "High"}', "/priority", "high", "enum_case"),
        ('{"customer_id": "C", "priority": "LOW"}', "/priority", "low", "enum_case"),
        ('{"customer_id": "C", "priority": "low", "quantity": "5"}', "/quantity", 5, "number_from_string"),
        ('{"customer_id": "C", "priority": "low", "quantity": 5.0}', "/quantity", 5, "integer_from_float"),
        ('{"customer_id": "C", "priority": "low", "price": "2.5"}', "/price", 2.5, "number_from_string"),
        ('{"customer_id": "C", "priority": "low", "gift": "true"}', "/gift", True, "bool_from_string"),
        ('{"customer_id": "C", "priority": "low", "tags": "[\\"a\\", \\"b\\"]"}', "/tags", ["a", "b"], "parsed_string"),
        ('{"customer_id": "C", "priority": "low", "address": "{\\"city\\": \\"Oslo\\"}"}', "/address", {"city": "Oslo"}, "parsed_string"),
    ],
)
def test_representation_is_coerced_and_recorded(validator, raw, path, value, coercion):
    checked = validator.check(raw)
    key = path.lstrip("/")
    assert checked.value[key] == value
    assert type(checked.value[key]) is type(value)
    assert {"path": path, "kind": coercion} in [{"path": c["path"], "kind": c["kind"]} for c in checked.coercions]


def test_coercion_records_say_from_and_to(validator):
    checked = validator.check('{"customer_id": "C", "priority": "High"}')
    assert {"path": "/priority", "kind": "enum_case", "from": '"High"', "to": '"high"'} in checked.coercions


def test_coercions_past_the_limit_are_counted():
    numbers = Validator({"type": "object", "properties": {"n": {"type": "array", "items": {"type": "integer"}}}})
    checked = numbers.check(json.dumps({"n": ["1"] * 150}))
    assert checked.value == {"n": [1] * 150}
    assert [c["path"] for c in checked.coercions] == [f"/n/{i}" for i in range(100)]
    assert checked.omitted_coercions == 50
    assert numbers.check('{"n": ["1"]}').omitted_coercions == 0


def test_defaults_and_nulls_for_optional_fields(validator):
    checked = validator.check('{"customer_id": "C", "priority": "low", "note": null}')
    assert checked.value == {"customer_id": "C", "priority": "low", "gift": False}
    assert kinds(checked.coercions) == ["null_as_absent", "default_filled"] or set(kinds(checked.coercions)) == {
        "null_as_absent",
        "default_filled",
    }


@pytest.mark.parametrize(
    "raw, repair",
    [
        ("{'customer_id': 'C', 'priority': 'low'}", "single_quotes"),
        ('{"customer_id": "C", "priority": "low",}', "trailing_comma"),
        ('```json\n{"customer_id": "C", "priority": "low"}\n```', "code_fence"),
        ('Sure! {"customer_id": "C", "priority": "low"}', "prose_before"),
        ('{"customer_id": "C", "priority": "low", "gift": True}', "python_literal"),
    ],
)
def test_syntax_is_repaired_and_recorded(validator, raw, repair):
    checked = validator.check(raw)
    assert checked.value["customer_id"] == "C"
    assert repair in kinds(checked.repairs)
    for record in checked.repairs:
        assert set(record) == {"kind", "offset", "count", "last_offset"}
        assert isinstance(record["offset"], int) and record["count"] >= 1
        assert record["last_offset"] >= record["offset"]


def test_an_exact_call_has_an_empty_report(validator):
    checked = validator.check('{"customer_id": "C", "priority": "low", "gift": true}')
    assert checked.value == {"customer_id": "C", "priority": "low", "gift": True}
    assert checked.repairs == [] and checked.coercions == []
    assert "Checked(value=" in repr(checked)


# The model's choice is never coerced: each of these is a rejection naming its path.
@pytest.mark.parametrize(
    "raw, path, code",
    [
        ('{"customer_id": "C", "priority": "urgent"}', "/priority", "enum"),
        ('{"priority": "low"}', "/customer_id", "missing"),
        ('{"customer_id": "C", "priority": "low", "colour": "red"}', "/colour", "unknown_field"),
        ('{"customer_id": "C", "priority": "low", "quantity": 0}', "/quantity", "range"),
        ('{"customer_id": "C", "priority": "low", "quantity": 2.5}', "/quantity", "type"),
        ('{"customer_id": "C", "priority": "low", "quantity": "many"}', "/quantity", "type"),
        ('{"customer_id": 5, "priority": "low"}', "/customer_id", "type"),
        ('{"customer_id": "C", "priority": "low", "address": {}}', "/address/city", "missing"),
        ('{"customer_id": "C", "priority": "low", "gift": "maybe"}', "/gift", "type"),
        ('{"customer_id": "C", "priority": "low", "quantity": 1e400}', "/quantity", "range"),
        ("{'customer_id': 'C', 'priority': 'low', 'quantity': -1e999}", "/quantity", "range"),
    ],
)
def test_choices_are_rejected_at_their_path(validator, raw, path, code):
    with pytest.raises(Rejection) as caught:
        validator.check(raw)
    rejection = caught.value
    assert rejection.kind == "invalid"
    assert (path, code) in [(error["path"], error["code"]) for error in rejection.errors]
    for error in rejection.errors:
        assert {"path", "code", "message"} <= set(error)
        assert error["message"]
    assert path in str(rejection)


def test_rejection_fields_and_message(validator):
    with pytest.raises(Rejection) as caught:
        validator.check('{"priority": "urgnt", "custmer_id": "C"}')
    rejection = caught.value
    assert isinstance(rejection, Exception)
    by_path = {error["path"]: error for error in rejection.errors}
    assert by_path["/priority"]["options"] == ["low", "high"]
    assert by_path["/priority"]["value"] == '"urgnt"'
    assert by_path["/custmer_id"]["suggestion"] == "customer_id"
    assert "value" not in by_path["/customer_id"]
    message = str(rejection)
    assert message == rejection.message
    assert message.startswith("The arguments for tool `create_order` were rejected")
    assert '/priority: "urgnt" is not one of "low", "high"' in message


@pytest.mark.parametrize(
    "raw, kind",
    [
        ('{"customer_id": "C", "tags": ["a', "truncated"),
        ("[1, 2]", "not_object"),
        ('"just text"', "not_object"),
        ('{"a" 1 2}', "parse"),
        (b'{"a": \xff}', "parse"),
        ("[" * 300 + "]" * 300, "too_deep"),
    ],
)
def test_whole_input_rejections(validator, raw, kind):
    with pytest.raises(Rejection) as caught:
        validator.check(raw)
    assert caught.value.kind == kind
    assert len(caught.value.errors) == 1 and caught.value.errors[0]["path"] == ""


def test_errors_past_the_limit_are_counted(validator):
    # 60 unknown properties: the engine lists 50 and counts the rest, as the CLI prints
    # (`"omitted_errors": 10`); the message counts all 60. The count survives pickling.
    raw = json.dumps({"customer_id": "C", "priority": "low", **{f"x{i}": i for i in range(60)}})
    with pytest.raises(Rejection) as caught:
        validator.check(raw)
    rejection = caught.value
    assert (len(rejection.errors), rejection.omitted_errors) == (50, 10)
    assert "rejected (60 errors)" in str(rejection)
    assert "omitted_errors=10" in repr(rejection)
    assert pickle.loads(pickle.dumps(rejection)).omitted_errors == 10
    with pytest.raises(Rejection) as caught:
        validator.check('{"customer_id": "C", "priority": "urgent"}')
    assert caught.value.omitted_errors == 0


def test_limits_are_set_by_name_and_the_rest_keep_their_defaults():
    schema = {"type": "object", "additionalProperties": {"type": "integer"}}
    defaults = Validator(schema).limits
    assert defaults == {
        "max_bytes": 8 * 1024 * 1024,
        "max_depth": 128,
        "max_echo_chars": 80,
        "max_string_bytes": 4 * 1024 * 1024,
        "max_errors": 50,
        "max_coercions": 100,
    }
    small = Validator(schema, limits={"max_bytes": 64, "max_errors": 2, "max_coercions": 1})
    assert small.limits == {**defaults, "max_bytes": 64, "max_errors": 2, "max_coercions": 1}
    with pytest.raises(Rejection) as caught:
        small.check(json.dumps({"a": "x" * 64}))
    assert caught.value.kind == "too_large"
    with pytest.raises(Rejection) as caught:
        small.check('{"a": "x", "b": "y", "c": "z"}')
    assert (len(caught.value.errors), caught.value.omitted_errors) == (2, 1)
    checked = small.check('{"a": "1", "b": "2"}')
    assert (checked.value, len(checked.coercions), checked.omitted_coercions) == ({"a": 1, "b": 2}, 1, 1)
    with pytest.raises(Rejection) as caught:
        Validator(schema, limits={"max_depth": 2}).check('{"a": [[1]]}')
    assert caught.value.kind == "too_deep"
    with pytest.raises(Rejection) as caught:
        Validator({"type": "object"}, limits={"max_string_bytes": 3}).check('{"a": "four"}')
    assert caught.value.errors[0]["code"] == "too_long"
    echoed = Validator({"type": "object", "properties": {"a": {"enum": ["b"]}}}, limits={"max_echo_chars": 5})
    with pytest.raises(Rejection) as caught:
        echoed.check(json.dumps({"a": "a long value the model sent"}))
    assert "a long value the model sent" not in str(caught.value)


@pytest.mark.parametrize(
    "limits, error",
    [
        ({"max_byte": 10}, ValueError),
        ({"max_bytes": -1}, ValueError),
        ({"max_bytes": 2**70}, ValueError),
        ({"max_errors": 0}, ValueError),
        ({"max_depth": True}, TypeError),
        ({"max_depth": 1.5}, TypeError),
        ({"max_depth": "8"}, TypeError),
        ({1: 8}, TypeError),
    ],
)
def test_a_limit_that_is_not_one_is_refused_by_name(limits, error):
    with pytest.raises(error) as caught:
        Validator({"type": "object"}, limits=limits)
    assert str(next(iter(limits))) in str(caught.value) or "str" in str(caught.value)
    if "max_byte" in limits:
        assert "max_bytes" in str(caught.value)


def test_empty_arguments_are_an_empty_object(validator):
    # As absent arguments: the required fields are missing, not a syntax error.
    for raw in ("", "  ", None):
        with pytest.raises(Rejection) as caught:
            validator.check(raw)
        assert caught.value.kind == "invalid"
        assert [error["code"] for error in caught.value.errors] == ["missing", "missing"]


def test_too_large():
    with pytest.raises(Rejection) as caught:
        Validator({"type": "object"}).check('{"a": "' + "x" * (9 * 1024 * 1024) + '"}')
    assert caught.value.kind == "too_large"


def test_raw_types(validator):
    text = '{"customer_id": "C", "priority": "low"}'
    expected = {"customer_id": "C", "priority": "low", "gift": False}
    assert validator.check(text).value == expected
    assert validator.check(text.encode()).value == expected
    # An already parsed dict (Anthropic's `input`), coerced the same way.
    assert validator.check({"customer_id": "C", "priority": "LOW", "quantity": "2"}).value == {**expected, "quantity": 2}
    with pytest.raises(Rejection) as caught:
        validator.check([1])
    assert caught.value.kind == "not_object"


def test_values_python_cannot_send_as_json_are_refused(validator):
    with pytest.raises(ValueError):
        validator.check({"customer_id": "C", "priority": "low", "price": float("nan")})
    with pytest.raises(ValueError):
        validator.check({"customer_id": "C", "priority": "low", "quantity": 2**70})
    with pytest.raises(TypeError):
        validator.check({"customer_id": "C", "priority": "low", "note": object()})
    with pytest.raises(TypeError):
        validator.check({1: "C"})
    deep: list = []
    for _ in range(2000):
        deep = [deep]
    with pytest.raises(ValueError):
        validator.check({"customer_id": deep})


def test_lone_surrogates_are_invalid_utf8(validator):
    with pytest.raises(Rejection) as caught:
        validator.check('{"customer_id": "\ud800", "priority": "low"}')
    assert caught.value.kind == "parse"
    # In a dict (what `json.loads` makes of the escape), as a value or a key: a ValueError
    # that says why, not Python's codec error text.
    for given in ({"customer_id": "\ud800", "priority": "low"}, {"\udfff": 1}):
        with pytest.raises(ValueError, match="lone surrogate"):
            validator.check(given)
    # As JSON text, the escape is repaired and recorded.
    checked = validator.check('{"customer_id": "C\\ud800", "priority": "low"}')
    assert checked.value["customer_id"] == "C\ufffd"
    assert [repair["kind"] for repair in checked.repairs] == ["lone_surrogate"]


def test_policies():
    raw = '{"customer_id": "C", "priority": "High"}'
    with pytest.raises(Rejection) as caught:
        Validator(SCHEMA, "strict").check(raw)
    assert caught.value.errors[0]["code"] == "enum"
    assert Validator(SCHEMA, policy="default").check(raw).value["priority"] == "high"
    lenient = Validator(SCHEMA, "lenient")
    assert lenient.policy == "lenient"
    assert lenient.check('{"customer_id": 7, "priority": "low"}').value["customer_id"] == "7"
    with pytest.raises(ValueError):
        Validator(SCHEMA, "sloppy")


def test_schema_as_text_and_its_errors():
    assert Validator(json.dumps(SCHEMA)).check('{"customer_id": "C", "priority": "low"}').value["gift"] is False
    assert Validator(json.dumps(SCHEMA).encode()).name == "create_order"
    with pytest.raises(SchemaError) as caught:
        Validator({"type": "object", "properties": {"a": {"minimum": "x"}}})
    assert caught.value.pointer == "/properties/a"
    assert "minimum" in str(caught.value)
    assert isinstance(caught.value, ValueError)
    with pytest.raises(SchemaError) as caught:
        Validator("{not json")
    assert caught.value.pointer == ""


def test_the_tool_name_in_messages():
    untitled = {key: value for key, value in SCHEMA.items() if key != "title"}
    with pytest.raises(Rejection) as caught:
        Validator(untitled).check("{}")
    assert "the tool" in str(caught.value)
    with pytest.raises(Rejection) as caught:
        Validator(untitled, name="place_order").check("{}")
    assert "tool `place_order`" in str(caught.value)
    assert Validator(SCHEMA).name == "create_order"
    assert repr(Validator(SCHEMA)) == 'Validator(name="create_order", policy="default")'
    assert Validator(SCHEMA).schema == SCHEMA


def test_rejections_pickle(validator):
    import pickle

    with pytest.raises(Rejection) as caught:
        validator.check('{"priority": "urgent"}')
    copy = pickle.loads(pickle.dumps(caught.value))
    assert (copy.kind, copy.errors, str(copy)) == (caught.value.kind, caught.value.errors, str(caught.value))


def test_large_calls_and_threads(validator):
    # Above 32 KiB the check runs with the GIL released; results are the same.
    tags = json.dumps(["t%d" % i for i in range(8000)])
    raw = '{"customer_id": "C", "priority": "High", "tags": ' + tags + "}"
    results = []

    def work():
        results.append(validator.check(raw).value)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 4 and all(result["tags"][-1] == "t7999" for result in results)
    assert results[0]["priority"] == "high"


def test_module_exports():
    for name in tool_input.__all__:
        assert getattr(tool_input, name) is not None
    assert tool_input.__version__
    assert tool_input.Checked.__module__ == "tool_input"


def test_formats_are_asserted_unless_switched_off():
    schema = {"type": "object", "properties": {"event_id": {"type": "string", "format": "uuid"}}}
    with pytest.raises(tool_input.Rejection) as raised:
        tool_input.Validator(schema).check('{"event_id": "not-a-uuid"}')
    assert [(e["path"], e["code"]) for e in raised.value.errors] == [("/event_id", "format")]
    checked = tool_input.Validator(schema, formats=False).check('{"event_id": "not-a-uuid"}')
    assert checked.value == {"event_id": "not-a-uuid"}


def test_a_default_its_own_schema_refuses_is_a_schema_error_unless_defaults_are_annotations():
    schema = {"type": "object", "properties": {"n": {"type": "integer", "default": "ten"}}}
    with pytest.raises(SchemaError) as caught:
        tool_input.Validator(schema)
    assert caught.value.pointer == "/properties/n/default"
    checked = tool_input.Validator(schema, defaults=False).check("{}")
    assert checked.value == {}
    filled = tool_input.Validator({"type": "object", "properties": {"n": {"type": "integer", "default": 3}}}).check("{}")
    assert filled.value == {"n": 3}


def test_properties_are_listed_in_the_order_the_schema_writes_them():
    # A dict keeps its keys' order, and so does JSON text: messages list the properties so,
    # whatever features the engine was built with.
    schema = {"type": "object", "properties": {"zeta": {}, "alpha": {}, "mid": {}}, "additionalProperties": False}
    for given in (schema, json.dumps(schema), json.dumps(schema).encode()):
        with pytest.raises(Rejection) as caught:
            Validator(given).check('{"zetta": 1}')
        assert caught.value.errors[0]["options"] == ["zeta", "alpha", "mid"]


def test_documents_a_schema_refers_to_are_given_never_fetched():
    schema = {"type": "object", "properties": {"id": {"$ref": "https://example.com/defs.json#/$defs/id"}}}
    defs = {"$defs": {"id": {"type": "string", "pattern": "^ord_"}}}
    with pytest.raises(SchemaError):
        Validator(schema)
    for given in (defs, json.dumps(defs), json.dumps(defs).encode()):
        validator = Validator(schema, resources={"https://example.com/defs.json": given})
        assert validator.check('{"id": "ord_1"}').value == {"id": "ord_1"}
        with pytest.raises(Rejection) as caught:
            validator.check('{"id": "1"}')
        assert caught.value.errors[0]["path"] == "/id"
    with pytest.raises(SchemaError):
        Validator(schema, resources={"https://example.com/defs.json": "{not json"})


def test_a_given_document_lists_its_properties_as_written():
    schema = {"type": "object", "properties": {"place": {"$ref": "https://example.com/place.json"}}}
    place = {"properties": {"zone": {}, "area": {}, "mid": {}}, "additionalProperties": False}
    for given in (place, json.dumps(place), json.dumps(place).encode()):
        validator = Validator(schema, resources={"https://example.com/place.json": given})
        with pytest.raises(Rejection) as caught:
            validator.check('{"place": {"zoen": 1}}')
        assert caught.value.errors[0]["options"] == ["zone", "area", "mid"]


def test_a_given_document_is_read_as_the_schema_is():
    # As a dict, a document is taken as the schema is: nested deeper than serde_json reads
    # text (128 levels, here 141) it is still a schema, and a float that is not finite or an
    # integer beyond 64 bits is refused with a ValueError rather than written out and read
    # back as something else.
    deep = {"type": "integer"}
    for _ in range(70):
        deep = {"type": "object", "properties": {"a": deep}}
    schema = {"$ref": "https://example.com/deep.json"}
    Validator(deep)
    validator = Validator(schema, resources={"https://example.com/deep.json": deep})
    inner = "x"
    for _ in range(70):
        inner = {"a": inner}
    with pytest.raises(Rejection) as caught:
        validator.check(json.dumps(inner))
    assert caught.value.errors[0]["path"] == "/a" * 70
    for bad in (float("nan"), 2**70):
        with pytest.raises(ValueError) as refused:
            Validator(schema, resources={"https://example.com/deep.json": {"maximum": bad}})
        assert not isinstance(refused.value, SchemaError)


def test_the_readme_example_prints_what_the_readme_shows():
    # README "From Python": the records shown there, key for key.
    schema = {
        "title": "create_order",
        "type": "object",
        "properties": {
            "customer_id": {"type": "string"},
            "priority": {"enum": ["low", "high"]},
            "tags": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["customer_id", "priority"],
        "additionalProperties": False,
    }
    v = Validator(schema, policy="default")
    checked = v.check("Sure! {'customer_id': 'C-1', 'priority': 'High', 'tags': '[\"vip\"]'}")
    assert checked.value == {"customer_id": "C-1", "priority": "high", "tags": ["vip"]}
    assert checked.repairs == [
        {"kind": "prose_before", "offset": 0, "count": 1, "last_offset": 0},
        {"kind": "single_quotes", "offset": 7, "count": 6, "last_offset": 57},
    ]
    assert checked.coercions[0] == {"path": "/priority", "kind": "enum_case", "from": '"High"', "to": '"high"'}
    assert checked.coercions[1]["path"] == "/tags"
    with pytest.raises(Rejection) as caught:
        v.check('{"customer_id": "C-1", "priority": "urgent"}')
    r = caught.value
    assert (r.kind, r.omitted_errors) == ("invalid", 0)
    assert r.errors == [
        {
            "path": "/priority",
            "code": "enum",
            "message": '"urgent" is not one of "low", "high"',
            "value": '"urgent"',
            "options": ["low", "high"],
        }
    ]
    assert str(r).startswith("The arguments for tool `create_order` were rejected (1 error); ")
