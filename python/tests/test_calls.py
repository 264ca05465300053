"""parse_calls on the recorded provider responses, and its shape (the CLI's)."""

from __future__ import annotations

import json

import pytest

from conftest import DATA, read_json
from tool_input import parse_calls

FILES = ["vercel-ai.json", "openai-python.json", "anthropic-sdk-python.json", "litellm.json", "qwen-text-vllm-recordings.json"]
FORMATS = {
    "chat.completions": "openai",
    "responses": "responses",
    "anthropic.messages": "anthropic",
    "gemini": "gemini",
    "text": "text",
}


def non_streaming_cases():
    for file in FILES:
        for index, case in enumerate(read_json(DATA / "provider-responses" / file)):
            if not case["streaming"] and "expected_calls" in case:
                yield pytest.param(case, id=f"{file}[{index}]")


def summary(result):
    return [{"name": call["name"], "arguments": call["arguments"]} for call in result["calls"]]


@pytest.mark.parametrize("case", list(non_streaming_cases()))
def test_every_recorded_response_gives_exactly_its_calls(case):
    payload = case["payload"]
    fmt = FORMATS[case["api"]]
    # The body as a dict, as text, and as bytes; its format given or detected.
    bodies = [payload] if fmt == "text" else [payload, json.dumps(payload), json.dumps(payload).encode()]
    for body in bodies:
        for given in (fmt, "auto"):
            result = parse_calls(body, format=given)
            assert summary(result) == case["expected_calls"], (given, result["errors"])
            ids = [call["id"] for call in result["calls"]]
            assert all(ids) and len(set(ids)) == len(ids)


def test_the_corpus_ran():
    assert len(list(non_streaming_cases())) >= 120


def test_the_shape_is_the_clis():
    body = {
        "choices": [
            {
                "message": {
                    "role": "assistant",
                    "tool_calls": [
                        {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}},
                        {"id": "call_2", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Ro'}},
                        {"id": "call_3", "type": "function", "function": {"name": "send", "arguments": "{}"}},
                    ],
                }
            }
        ]
    }
    result = parse_calls(body, tools=["get_weather"])
    assert list(result) == ["calls", "errors", "content", "reasoning"]
    assert result["calls"] == [{"id": "call_1", "name": "get_weather", "arguments": {"city": "Paris"}}]
    assert [error["kind"] for error in result["errors"]] == ["truncated", "unknown_tool"]
    keys = ["kind", "message", "id", "id_generated", "name", "arguments", "arguments_cut"]
    assert all(list(error) == keys for error in result["errors"])
    assert [(e["id"], e["name"], e["arguments"]) for e in result["errors"]] == [
        ("call_2", "get_weather", '{"city": "Ro'),
        ("call_3", "send", "{}"),
    ]
    assert "Available tools: get_weather." in result["errors"][1]["message"]
    # Tools as the CLI's --tools: names separated by commas.
    assert parse_calls(body, tools="get_weather, other")["errors"][1]["kind"] == "unknown_tool"
    assert len(parse_calls(body)["errors"]) == 1


def test_a_body_that_cannot_be_read_is_one_error():
    assert parse_calls("not json", format="openai") == {
        "calls": [],
        "errors": [{"kind": "body", "message": "the body is not JSON: expected ident at line 1 column 2"}],
    }
    result = parse_calls(b"\xff\xfe", format="anthropic")
    assert result["calls"] == [] and result["errors"][0]["kind"] == "body"


def test_text_calls():
    text = 'Let me check. <tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>'
    result = parse_calls(text, format="text", tools=["get_weather"])
    assert summary(result) == [{"name": "get_weather", "arguments": {"city": "Paris"}}]
    assert result["content"] == "Let me check. "
    assert result["reasoning"] is None
    # Text that merely looks like a call to another tool stays text.
    assert parse_calls(text, format="text", tools=["search"])["calls"] == []


def test_text_formats_by_name_and_reasoning_apart():
    text = (
        '<think>Maybe <tool_call>{"name": "ping", "arguments": {}}</tool_call></think>Checking.'
        '<minimax:tool_call><invoke name="get_weather"><parameter name="city">Oslo</parameter></invoke>'
        "</minimax:tool_call>"
    )
    for options in ({}, {"text_format": "minimax_m2"}, {"format": "text:minimax_m2"}):
        result = parse_calls(text, **{"format": "text", **options})
        assert summary(result) == [{"name": "get_weather", "arguments": {"city": "Oslo"}}], options
        assert result["content"] == "Checking."
        assert result["reasoning"] == 'Maybe <tool_call>{"name": "ping", "arguments": {}}</tool_call>'
    # Named, another format's markers are content.
    assert parse_calls(text, format="text", text_format="hermes")["calls"] == []
    with pytest.raises(ValueError):
        parse_calls(text, format="text", text_format="nope")


def test_bad_options():
    with pytest.raises(ValueError):
        parse_calls("{}", format="cohere")
    with pytest.raises(TypeError):
        parse_calls("{}", tools=5)
    with pytest.raises(TypeError):
        parse_calls(object())


def test_limits_bound_each_calls_arguments():
    body = {
        "choices": [
            {
                "message": {
                    "role": "assistant",
                    "tool_calls": [
                        {
                            "id": "call_1",
                            "type": "function",
                            "function": {"name": "f", "arguments": json.dumps({"a": {"b": {"c": 1}}})},
                        }
                    ],
                }
            }
        ]
    }
    assert len(parse_calls(body)["calls"]) == 1
    shallow = parse_calls(body, limits={"max_depth": 2})
    assert shallow["calls"] == []
    assert [(error["kind"], error["id"]) for error in shallow["errors"]] == [("too_deep", "call_1")]
    with pytest.raises(ValueError):
        parse_calls(body, limits={"depth": 2})
