"""The module's dicts against the `tool-input` program's recorded output
(tool-input-cli/tests/cli_output, which the Rust tests keep byte for byte): the same records,
the same shapes. Skipped outside a checkout."""

from __future__ import annotations

import json

import pytest

from conftest import CLI_OUTPUT, read_json
from tool_input import Rejection, StreamAssembler, Validator, check_tool, parse_calls, tool_definition

pytestmark = pytest.mark.skipif(not CLI_OUTPUT.is_dir(), reason="the CLI's recorded output is in the checkout only")


def recorded(name):
    return json.loads((CLI_OUTPUT / f"{name}.out").read_text(encoding="utf-8"))


def given(name):
    return (CLI_OUTPUT / f"{name}.in").read_bytes()


def check_result(validator, raw):
    """What `tool-input check` prints, from the module's objects."""
    try:
        checked = validator.check(raw)
    except Rejection as rejection:
        result = {"ok": False, "kind": rejection.kind, "errors": rejection.errors, "message": str(rejection)}
        # The CLI prints the count of errors past the limit only when there are some.
        return {**result, "omitted_errors": rejection.omitted_errors} if rejection.omitted_errors else result
    return {"ok": True, "value": checked.value, "repairs": checked.repairs, "coercions": checked.coercions}


def test_check_results_are_the_clis():
    schema = read_json(CLI_OUTPUT / "schema.json")
    validator = Validator(schema)
    for name in ("check_accepted", "check_rejected"):
        assert check_result(validator, given(name)) == recorded(name)
    assert check_result(Validator(schema, name="other"), given("check_rejected_named")) == recorded("check_rejected_named")
    lines = (CLI_OUTPUT / "check_jsonl.out").read_text(encoding="utf-8").splitlines()
    cases = (CLI_OUTPUT / "cases.jsonl").read_text(encoding="utf-8").splitlines()
    for case, line in zip(cases, lines):
        case = json.loads(case)
        assert {"id": case.get("id"), **check_result(validator, case.get("raw"))} == json.loads(line)


def test_calls_are_the_clis():
    assert parse_calls(given("calls_body"), tools=["get_weather"]) == recorded("calls_body")
    assert parse_calls(given("calls_body_error"), format="openai") == recorded("calls_body_error")
    stream = StreamAssembler()
    stream.push_sse_bytes(given("calls_stream"))
    assert stream.finish() == recorded("calls_stream")


def test_definitions_are_the_clis():
    titled = read_json(CLI_OUTPUT / "schema.json")
    described = read_json(CLI_OUTPUT / "described.schema.json")
    assert tool_definition(titled, "openai-strict") == recorded("schema_openai_strict")
    assert tool_definition(described, "gemini", name="notify") == recorded("schema_gemini_named")
    # The CLI names an untitled tool after its file; the module has no file, so asks.
    assert tool_definition(described, "anthropic", name="described") == recorded("schema_anthropic_file_name")
    with pytest.raises(ValueError):
        tool_definition(described, "anthropic")
    assert check_tool(described, "gemini", name="described") == recorded("schema_check")["problems"]
    assert check_tool(described, "gemini", name="bad name!") == recorded("schema_check_problems")["problems"]
