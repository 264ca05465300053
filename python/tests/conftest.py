"""Shared fixtures: where the test data is, and the schemas the tests check against."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List

import pytest

DATA = Path(__file__).parent / "data"
# The CLI's recorded output (tool-input-cli/tests/cli_output), when the tests run in a checkout.
CLI_OUTPUT = Path(__file__).resolve().parents[2] / "tool-input-cli" / "tests" / "cli_output"


def read_json(path: Path) -> Any:
    with open(path, encoding="utf-8") as file:
        return json.load(file)


def read_jsonl(path: Path) -> List[Dict[str, Any]]:
    with open(path, encoding="utf-8") as file:
        return [json.loads(line) for line in file if line.strip()]


@pytest.fixture(scope="session")
def order_schema() -> Dict[str, Any]:
    """The benchmark's create_order schema: enums, a pattern, bounds, nested objects,
    defaults, optional nullable fields, no additional properties."""
    return read_json(DATA / "workloads" / "create_order.schema.json")
