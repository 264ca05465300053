"""Benchmark: the shared workloads through tool_input, and through what Python agents use
today (json_repair's schema mode, then pydantic), in the same process.

    python bench.py DIR [--passes N]

DIR holds the workloads written by the project's generator
(``cargo run -p tool-input-suite --bin workloads DIR``):
``create_order.schema.json``, ``mangled.jsonl`` with ``mangled.expected.jsonl``,
``clean.jsonl``, ``invalid.jsonl`` with ``invalid.expected.jsonl``. Needs ``tool_input``
(``pip install ./python``), and for the baselines ``json_repair``, ``jsonschema`` (which
json_repair's schema mode imports) and ``pydantic``.

Every contender turns each raw call into what a tool would run with, or an error:

- ``tool_input``: ``Validator(schema).check(raw).value`` (a dict);
- ``tool_input + pydantic``: ``tool_input.pydantic.validate(CreateOrder, raw)`` (the model);
- ``json_repair schema + pydantic``: ``repair_json(raw, schema=schema, return_objects=True)``,
  then ``CreateOrder.model_validate(...)``;
- ``json_repair + pydantic``: the same without the schema.

A mangled call counts as exact when the result is its canonical value (for a model:
``model_dump(mode="json", exclude_none=True)``); an invalid call counts when it is refused,
and for tool_input when the rejection names every expected path. After an untimed pass
that collects the outcomes counted, the contenders take turns on blocks of 200 calls (per
block, the median of ``--passes`` passes for tool_input and of ``--baseline-passes`` for
the baselines), so a change in the machine's load falls on all of them alike. The CPU time
of the process is printed beside the wall clock, which a shared machine stretches.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Literal, Optional, Tuple

# Run as a script, this folder comes first on sys.path, and the package's source here (which
# has no compiled module) would hide the installed package.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != _HERE]

import tool_input  # noqa: E402
import tool_input.pydantic  # noqa: E402

try:
    import pydantic
    from json_repair import repair_json
    from pydantic import BaseModel, ConfigDict, Field
except ImportError as missing:  # pragma: no cover - a usage error
    sys.exit(f"bench.py needs json_repair, jsonschema and pydantic for the baselines ({missing})")


class Item(BaseModel):
    """An order line, as the workload schema's `items`."""

    model_config = ConfigDict(extra="forbid")
    sku: str = Field(pattern=r"^[A-Z]{3}-\d{4}$")
    quantity: int = Field(ge=1, le=1000)
    note: Optional[str] = None


class CreateOrder(BaseModel):
    """Create an order for a customer (the workload schema, as a pydantic model)."""

    model_config = ConfigDict(extra="forbid", title="create_order")
    customer_id: str
    priority: Literal["low", "medium", "high"]
    tags: List[str] = Field(max_length=10)
    items: List[Item]
    ship_by: Optional[str] = None
    gift: bool = False


def read_jsonl(path: Path) -> List[Dict[str, Any]]:
    with open(path, encoding="utf-8") as file:
        return [json.loads(line) for line in file if line.strip()]


# A contender turns one raw call into ("ok", result) or ("error", what was named).
Outcome = Tuple[str, Any]


def contenders(schema: Dict[str, Any]) -> Dict[str, Callable[[Any], Outcome]]:
    validator = tool_input.Validator(schema)

    def engine(raw: Any) -> Outcome:
        try:
            return "ok", validator.check(raw).value
        except tool_input.Rejection as rejection:
            return "error", {error["path"] for error in rejection.errors}

    def engine_pydantic(raw: Any) -> Outcome:
        try:
            return "ok", tool_input.pydantic.validate(CreateOrder, raw)
        except tool_input.Rejection as rejection:
            return "error", {error["path"] for error in rejection.errors}

    def repaired_then_model(use_schema: bool) -> Callable[[Any], Outcome]:
        def run(raw: Any) -> Outcome:
            try:
                value = repair_json(raw, return_objects=True, schema=schema if use_schema else None)
                return "ok", CreateOrder.model_validate(value)
            except (pydantic.ValidationError, ValueError, TypeError) as error:
                return "error", error

        return run

    return {
        "tool_input": engine,
        "tool_input + pydantic": engine_pydantic,
        "json_repair schema + pydantic": repaired_then_model(True),
        "json_repair + pydantic": repaired_then_model(False),
    }


def as_value(result: Any) -> Any:
    return result.model_dump(mode="json", exclude_none=True) if isinstance(result, BaseModel) else result


def timed(
    runs: Dict[str, Callable[[Any], Outcome]], raws: List[Any], passes: Dict[str, int], block: int = 200
) -> Dict[str, Tuple[float, float]]:
    """Wall-clock and CPU seconds of each contender over all calls.

    The contenders take turns on blocks of `block` calls, so a change in the machine's load
    falls on all of them alike (on a shared machine a baseline pass takes many seconds);
    per block, the median of the contender's passes counts. Results are dropped as they
    come, as a caller would: 20,000 results kept alive would time Python's garbage
    collector instead.
    """
    totals = {name: [0.0, 0.0] for name in runs}
    for at in range(0, len(raws), block):
        calls = raws[at : at + block]
        for name, run in runs.items():
            wall, cpu = [], []
            for _ in range(passes[name]):
                start, start_cpu = time.perf_counter(), time.process_time()
                for raw in calls:
                    run(raw)
                wall.append(time.perf_counter() - start)
                cpu.append(time.process_time() - start_cpu)
            totals[name][0] += statistics.median(wall)
            totals[name][1] += statistics.median(cpu)
    return {name: (wall, cpu) for name, (wall, cpu) in totals.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path, help="the folder the workloads generator wrote")
    parser.add_argument("--passes", type=int, default=5, help="timed passes for tool_input (default 5)")
    parser.add_argument("--baseline-passes", type=int, default=1, help="timed passes for the baselines (default 1)")
    args = parser.parse_args()

    schema = json.loads((args.data / "create_order.schema.json").read_text(encoding="utf-8"))
    runs = contenders(schema)
    print(
        f"tool_input {tool_input.__version__}, pydantic {pydantic.VERSION}, "
        f"json_repair {_version('json_repair')}, Python {sys.version.split()[0]}"
    )
    workloads = {
        "mangled": read_jsonl(args.data / "mangled.jsonl"),
        "clean": read_jsonl(args.data / "clean.jsonl"),
        "invalid": read_jsonl(args.data / "invalid.jsonl"),
    }
    expected = {
        "mangled": [case["value"] for case in read_jsonl(args.data / "mangled.expected.jsonl")],
        "invalid": [set(case["paths"]) for case in read_jsonl(args.data / "invalid.expected.jsonl")],
    }
    speed: Dict[Tuple[str, str], Tuple[float, float]] = {}
    for workload, cases in workloads.items():
        raws = [case["raw"] for case in cases]
        print(f"\n{workload}: {len(raws):,} calls")
        print(f"  {'contender':<31} {'calls/s':>10} {'µs/call':>9} {'CPU µs':>8}  result")
        # Untimed: the outcomes to count (and, for tool_input, the warm-up pass).
        outcomes = {name: [run(raw) for raw in raws] for name, run in runs.items()}
        passes = {name: args.passes if name.startswith("tool_input") else args.baseline_passes for name in runs}
        for name, (wall, cpu) in timed(runs, raws, passes).items():
            speed[(workload, name)] = (wall, cpu)
            print(
                f"  {name:<31} {len(raws) / wall:>10,.0f} {wall / len(raws) * 1e6:>9.1f} {cpu / len(raws) * 1e6:>8.1f}"
                f"  {verdict(workload, name, outcomes[name], expected)}"
            )
    print()
    print("Speed against json_repair schema + pydantic (wall clock; CPU time):")
    for workload in workloads:
        base_wall, base_cpu = speed[(workload, "json_repair schema + pydantic")]
        ratios = ", ".join(
            f"{name} {base_wall / speed[(workload, name)][0]:.0f}x ({base_cpu / speed[(workload, name)][1]:.0f}x)"
            for name in runs
            if name.startswith("tool_input")
        )
        print(f"  {workload}: {ratios}")


def verdict(workload: str, name: str, outcomes: List[Outcome], expected: Dict[str, List[Any]]) -> str:
    accepted = sum(1 for status, _ in outcomes if status == "ok")
    if workload == "mangled":
        exact = sum(
            1 for (status, result), want in zip(outcomes, expected["mangled"]) if status == "ok" and as_value(result) == want
        )
        return f"{exact:,} of {len(outcomes):,} exact ({accepted:,} accepted)"
    if workload == "invalid":
        refused = len(outcomes) - accepted
        if name.startswith("tool_input"):
            named = sum(
                1
                for (status, result), paths in zip(outcomes, expected["invalid"])
                if status == "error" and paths <= result
            )
            return f"{refused:,} of {len(outcomes):,} refused, {named:,} naming every expected path"
        return f"{refused:,} of {len(outcomes):,} refused"
    return f"{accepted:,} of {len(outcomes):,} accepted"


def _version(module: str) -> str:
    try:
        from importlib.metadata import version

        return version(module)
    except Exception:  # pragma: no cover - metadata missing
        return "?"


if __name__ == "__main__":
    main()
