"""repair (the parser alone) and tool_definition / check_tool (a schema per API)."""

from __future__ import annotations

import pytest

from tool_input import ParseError, SchemaError, check_tool, repair, tool_definition


def test_repair_reads_what_models_write():
    assert repair("```json\n{'a': True, b: [1, 2,],} // done\n```") == {"a": True, "b": [1, 2]}
    assert repair(b'{"a": 1}') == {"a": 1}
    assert repair("[1, 2.5, null]") == [1, 2.5, None]
    assert repair('"text"') == "text"


def test_repair_refuses_cut_off_text_unless_asked():
    with pytest.raises(ParseError) as caught:
        repair('{"a": [1, 2, "thr')
    assert caught.value.kind == "truncated"
    assert isinstance(caught.value, ValueError)
    assert "cut off" in str(caught.value)
    assert repair('{"a": [1, 2, "thr', complete_truncated=True) == {"a": [1, 2, "thr"]}
    # Settled: the text will not grow, so a trailing line break inside the string goes.
    assert repair('{"note": "line\\n', complete_truncated=True) == {"note": "line\n"}
    assert repair('{"note": "line\\n', complete_truncated=True, settled=True) == {"note": "line"}


def test_repair_strict_and_styles():
    with pytest.raises(ParseError) as caught:
        repair("{'a': 1}", strict=True)
    assert caught.value.kind == "parse"
    assert repair('{"a": , "b": [{]}') == {"a": None, "b": [{}]}
    assert repair('{"a": , "b": [{]}', style="json_repair") == {"a": "", "b": []}
    with pytest.raises(ValueError):
        repair("{}", style="python")
    with pytest.raises(ParseError) as caught:
        repair(b'{"a": "\xff"}')
    assert caught.value.kind == "parse"
    with pytest.raises(ParseError) as caught:
        repair("[1, 1e400]")
    assert caught.value.kind == "invalid"
    assert str(caught.value) == "number out of range at line 1 column 5"
    with pytest.raises(ParseError) as caught:
        repair("[" * 1000)
    assert caught.value.kind in ("too_deep", "truncated")
    with pytest.raises(TypeError):
        repair(5)


SCHEMA = {
    "title": "get_weather",
    "description": "Get the weather.",
    "type": "object",
    "properties": {"city": {"type": "string"}, "days": {"type": "integer", "minimum": 1}},
    "required": ["city"],
}


@pytest.mark.parametrize(
    "dialect, where",
    [
        ("openai", ("function", "name")),
        ("openai-strict", ("function", "name")),
        ("responses", ("name",)),
        ("responses-strict", ("name",)),
        ("anthropic", ("name",)),
        ("gemini", ("name",)),
        ("mcp", ("name",)),
    ],
)
def test_tool_definition_per_dialect(dialect, where):
    definition = tool_definition(SCHEMA, dialect)
    node = definition
    for key in where:
        node = node[key]
    assert node == "get_weather"
    assert "Get the weather." in str(definition)
    # The title and description go beside the schema, not inside it.
    assert "'title'" not in str(definition)
    assert check_tool(SCHEMA, dialect) == []


def test_tool_definition_options_and_errors():
    strict = tool_definition(SCHEMA, "openai-strict", name="weather", description="Weather.")
    assert strict["function"]["name"] == "weather" and strict["function"]["description"] == "Weather."
    assert strict["function"]["strict"] is True
    assert strict["function"]["parameters"]["required"] == ["city", "days"]
    assert tool_definition('{"type": "object", "title": "t"}', "mcp")["name"] == "t"
    with pytest.raises(ValueError):
        tool_definition(SCHEMA, "cohere")
    with pytest.raises(ValueError):
        tool_definition({"type": "object"}, "openai")
    with pytest.raises(SchemaError):
        tool_definition("[not json", "openai")
    with pytest.raises(SchemaError):
        tool_definition([1], "openai", name="x")
    problems = check_tool({"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "string"}}}}, "openai-strict", name="f")
    assert problems and set(problems[0]) == {"pointer", "code", "message"}
