"""The coercion contract on a sample of the benchmark workloads: every mangled call becomes
exactly its canonical value; every invalid call is rejected naming every expected path."""

from __future__ import annotations

from conftest import DATA, read_jsonl
from tool_input import Rejection, Validator

WORKLOADS = DATA / "workloads"


def test_every_mangled_call_is_exact(order_schema):
    validator = Validator(order_schema)
    cases = read_jsonl(WORKLOADS / "mangled.jsonl")
    expected = read_jsonl(WORKLOADS / "mangled.expected.jsonl")
    assert len(cases) == len(expected) >= 400
    wrong = []
    for case, want in zip(cases, expected):
        assert case["id"] == want["id"]
        checked = validator.check(case["raw"])
        if checked.value != want["value"]:
            wrong.append((case["id"], checked.value, want["value"]))
        # Something was mangled, so something was recorded.
        assert checked.repairs or checked.coercions, case["id"]
    assert wrong == []


def test_every_invalid_call_is_rejected_at_its_paths(order_schema):
    validator = Validator(order_schema)
    cases = read_jsonl(WORKLOADS / "invalid.jsonl")
    expected = read_jsonl(WORKLOADS / "invalid.expected.jsonl")
    assert len(cases) == len(expected) >= 200
    for case, want in zip(cases, expected):
        try:
            validator.check(case["raw"])
        except Rejection as rejection:
            named = {error["path"] for error in rejection.errors}
            assert set(want["paths"]) <= named, (case["id"], want["paths"], rejection.errors)
            assert all(path in str(rejection) for path in want["paths"])
        else:
            raise AssertionError(f"case {case['id']} was accepted")
