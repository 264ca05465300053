"""StreamAssembler on the recorded streams: events one by one, and SSE bytes split anywhere."""

from __future__ import annotations

import json
import random

import pytest

from conftest import DATA, read_json
from tool_input import StreamAssembler, parse_calls

FILES = ["vercel-ai.json", "openai-python.json", "anthropic-sdk-python.json", "litellm.json"]


def streaming_cases():
    for file in FILES:
        for index, case in enumerate(read_json(DATA / "provider-responses" / file)):
            if case["streaming"] and "chunks" in case and ("expected_calls" in case or "expected_errors" in case):
                yield pytest.param(case, id=f"{file}[{index}]")


def sse_body(chunks) -> bytes:
    body = ": a comment\n"
    for chunk in chunks:
        if isinstance(chunk, dict) and isinstance(chunk.get("type"), str):
            body += f"event: {chunk['type']}\r\n"
        body += f"data: {json.dumps(chunk)}\r\n\r\n"
    return body.encode()


def summary(result):
    return [{"name": call["name"], "arguments": call["arguments"]} for call in result["calls"]]


def readings(case):
    chunks = case["chunks"]
    by_event = StreamAssembler()
    for chunk in chunks:
        by_event.push_event(chunk)
    yield "events", by_event.finish()
    body = sse_body(chunks)
    rng = random.Random(len(body))
    split = StreamAssembler()
    at = 0
    while at < len(body):
        end = min(len(body), at + rng.randint(1, 64))
        split.push_sse_bytes(body[at:end])
        at = end
    yield "sse bytes", split.finish()


@pytest.mark.parametrize("case", list(streaming_cases()))
def test_every_recorded_stream_assembles_to_its_calls(case):
    for how, result in readings(case):
        if "expected_calls" in case:
            assert summary(result) == case["expected_calls"], (how, result["errors"])
        for want in case.get("expected_errors", []):
            if want["kind"] == "sdk_partial_result":
                continue
            assert any(error["kind"] == want["kind"] for error in result["errors"]), (how, result["errors"])
            # A call cut off is never a call.
            assert result["calls"] == []


def test_the_corpus_ran():
    cases = list(streaming_cases())
    assert len(cases) >= 60
    assert any("expected_errors" in case.values[0] for case in cases)


def test_a_stream_gives_what_the_whole_body_gives():
    """The streamed response and the same response whole read the same calls."""
    pairs = 0
    for case in read_json(DATA / "provider-responses" / "openai-python.json"):
        if case["streaming"] and case.get("expected_calls"):
            stream = StreamAssembler(tools=[call["name"] for call in case["expected_calls"]])
            for chunk in case["chunks"]:
                stream.push_event(chunk)
            assert summary(stream.finish()) == case["expected_calls"]
            pairs += 1
    assert pairs >= 3


def test_open_calls_final_calls_and_finish():
    stream = StreamAssembler()
    stream.push_event(
        {"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "toolu_1", "name": "write_file", "input": {}}}
    )
    stream.push_event(
        {"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": '{"path": "a.md", "content": "# Ti'}}
    )
    assert stream.format == "anthropic"
    (open_call,) = stream.open_calls()
    assert open_call["id"] == "toolu_1" and open_call["name"] == "write_file"
    assert open_call["arguments_partial"] == {"path": "a.md", "content": "# Ti"}
    assert open_call["arguments_text"] == '{"path": "a.md", "content": "# Ti'
    assert open_call["bytes"] == len(open_call["arguments_text"])
    assert stream.calls() == []
    stream.push_event({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": 'tle"}'}})
    stream.push_event({"type": "content_block_stop", "index": 0})
    assert stream.open_calls() == []
    assert stream.calls() == [{"id": "toolu_1", "name": "write_file", "arguments": {"path": "a.md", "content": "# Title"}}]
    stream.push_event({"type": "message_stop"})
    result = stream.finish()
    assert result == {
        "calls": [{"id": "toolu_1", "name": "write_file", "arguments": {"path": "a.md", "content": "# Title"}}],
        "errors": [],
        "content": None,
        "reasoning": None,
    }
    with pytest.raises(RuntimeError):
        stream.finish()
    with pytest.raises(RuntimeError):
        stream.push_event({})
    assert repr(stream) == "StreamAssembler(finished)"


def test_a_cut_off_stream_is_an_error_not_a_call():
    stream = StreamAssembler(tools=["make_file"])
    stream.push_sse_bytes(
        b'data: {"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "toolu_1", "name": "make_file", "input": {}}}\n\n'
    )
    stream.push_sse_bytes(
        b'data: {"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "{\\"filename\\": \\"ta'
    )
    stream.push_sse_bytes(b'xes.txt\\", \\"text\\": \\"Filing"}}\n\n')
    stream.push_sse_line('data: {"type": "message_delta", "delta": {"stop_reason": "max_tokens"}}')
    stream.push_sse_line("")
    result = stream.finish()
    assert result["calls"] == []
    assert [error["kind"] for error in result["errors"]] == ["truncated"]
    assert "make_file" in result["errors"][0]["message"]

    dropped = StreamAssembler(format="text")
    dropped.push_text('<tool_call>{"name": "f", "arguments": {}}')
    dropped.cut_off("the connection dropped")
    assert dropped.finish()["errors"][0]["kind"] == "truncated"


def test_text_streams_split_anywhere_equal_the_whole_text():
    text = 'Checking. <tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>'
    whole = parse_calls(text, format="text")
    for size in (1, 3, 7, 50):
        stream = StreamAssembler()
        for at in range(0, len(text), size):
            stream.push_text(text[at : at + size])
        assert summary(stream.finish()) == summary(whole) == [{"name": "get_weather", "arguments": {"city": "Paris"}}]


def test_hostile_input_never_crashes():
    stream = StreamAssembler()
    for event in ({}, [], "text", None, 5, {"choices": "x"}, {"type": "content_block_delta", "index": 99}):
        stream.push_event(event)
    stream.push_sse_bytes(b"\xff\xfe\x00data: {\n\n")
    stream.push_done()
    assert set(stream.finish()) == {"calls", "errors", "content", "reasoning"}
    with pytest.raises(TypeError):
        StreamAssembler().push_sse_bytes(5)
    with pytest.raises(ValueError):
        StreamAssembler(format="nope")


def test_text_stream_with_a_named_format():
    from tool_input import StreamAssembler

    text = '<|channel|>analysis<|message|>Think.<|end|><|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Oslo"}<|call|>'
    stream = StreamAssembler(format="text", text_format="openai")
    for at in range(0, len(text), 5):
        stream.push_text(text[at : at + 5])
    result = stream.finish()
    assert [call["name"] for call in result["calls"]] == ["get_weather"]
    assert result["reasoning"] == "Think."


def test_limits_bound_a_streamed_calls_arguments():
    events = [
        {"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_1", "type": "function",
            "function": {"name": "f", "arguments": ""}}]}}]},
        {"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": '{"a": "' + "x" * 100 + '"}'}}]}}]},
        {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]},
    ]
    for limits, calls, kinds in [(None, 1, []), ({"max_bytes": 50}, 0, ["too_large"])]:
        assembler = StreamAssembler(limits=limits)
        for event in events:
            assembler.push_event(event)
        result = assembler.finish()
        assert (len(result["calls"]), [error["kind"] for error in result["errors"]]) == (calls, kinds)
