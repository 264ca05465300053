"""`limits={"max_depth": N}` past the default: a call nested as deep as the limit allows is
read, checked and handed back, never a stack overflow that kills the interpreter.

The engine descends a value a level at a time on the stack, and so do the conversions to
Python objects and back, so each case runs in a child interpreter: an overflow there is a
crash this test sees (a signal for an exit code), not the end of the test run."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from tool_input import StreamAssembler, Validator, parse_calls

# The deepest `max_depth` the module takes.
DEEPEST = 10_000

PRELUDE = """
import json, sys, threading
from tool_input import Rejection, StreamAssembler, Validator, parse_calls

def nested(depth, bottom="1"):
    # `{"a": [[...1...]]}`: `depth` levels, the object one of them.
    return '{"a": ' + "[" * (depth - 1) + bottom + "]" * (depth - 1) + "}"

def nested_value(depth):
    value = 1
    for _ in range(depth - 1):
        value = [value]
    return {"a": value}

def depth_of(value):
    # Walked without recursion: Python's own recursion limit is far below these depths.
    depth = 0
    while isinstance(value, (dict, list)):
        depth, value = depth + 1, value["a"] if isinstance(value, dict) else value[0]
    assert value == 1, value
    return depth

def openai_body(arguments):
    call = {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": arguments}}
    return {"choices": [{"message": {"role": "assistant", "tool_calls": [call]}}]}

def openai_events(arguments):
    start = {"index": 0, "id": "call_1", "type": "function", "function": {"name": "f", "arguments": ""}}
    return [
        {"choices": [{"index": 0, "delta": {"tool_calls": [start]}}]},
        {"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": arguments}}]}}]},
        {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]},
    ]

def summary(calls):
    return [[depth_of(call["arguments"]) for call in calls["calls"]], [e["kind"] for e in calls["errors"]]]

def say(*values):
    print(json.dumps(values))
"""


def run_alone(code: str, tmp_path, timeout: float = 600):
    """Run `code` after PRELUDE in a child interpreter; each line it says, read back."""
    # From an empty folder, so the installed package is imported, not a source tree.
    result = subprocess.run(
        [sys.executable, "-c", PRELUDE + textwrap.dedent(code)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=timeout,
    )
    assert result.returncode == 0, (result.returncode, result.stderr[-2000:])
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_validator_checks_a_call_as_deep_as_the_limit(tmp_path):
    said = run_alone(
        """
        validator = Validator({"type": "object"}, limits={"max_depth": 10000})
        say(depth_of(validator.check(nested(10000)).value))
        # Mangled: the lenient parser's path.
        say(depth_of(validator.check(nested(10000, "1,").replace('"a"', "a", 1)).value))
        say(depth_of(validator.check(nested(10000).encode()).value))
        # Already parsed: converted as deep as the limit, and the engine's to refuse deeper.
        say(depth_of(validator.check(nested_value(10000)).value))
        for deeper in (nested(10001), nested_value(10001)):
            try:
                validator.check(deeper)
            except Rejection as refused:
                say(refused.kind)
        try:
            validator.check(nested_value(20000))
        except ValueError as error:
            say(str(error))
        # Refused at the bottom, through a reference at every level.
        arrays = {"type": "array", "items": {"$ref": "#/$defs/n"}}
        schema = {"$defs": {"n": arrays}, "type": "object", "properties": {"a": {"$ref": "#/$defs/n"}}}
        try:
            Validator(schema, limits={"max_depth": 10000}).check(nested(10000, '"x"'))
        except Rejection as refused:
            say(refused.kind, [(error["path"].count("/0"), error["code"]) for error in refused.errors])
        """,
        tmp_path,
    )
    assert said == [
        [10000],
        [10000],
        [10000],
        [10000],
        ["too_deep"],
        ["too_deep"],
        ["nested deeper than 10384 lists and dicts"],
        ["invalid", [[9999, "type"]]],
    ]


def test_validator_holds_the_schema_that_takes_the_most_stack_a_level(tmp_path):
    # Each level through the longest chain of references a schema may have (61, then a
    # union: one more is a schema error), the most stack one level takes.
    said = run_alone(
        """
        defs = {f"n{i}": {"$ref": f"#/$defs/n{i + 1}"} for i in range(61)}
        defs["n61"] = {"anyOf": [{"type": "array", "items": {"$ref": "#/$defs/n0"}}, {"type": "integer"}]}
        schema = {"$defs": defs, "type": "object", "properties": {"a": {"$ref": "#/$defs/n0"}}}
        validator = Validator(schema, limits={"max_depth": 10000})
        say(depth_of(validator.check(nested(10000)).value))
        # Refused at the bottom: the check runs out of steps first, as at any depth where
        # the schema makes that many (two million), and says so at the root.
        try:
            validator.check(nested(10000, '"x"'))
        except Rejection as refused:
            say(refused.kind, [(error["path"], error["code"]) for error in refused.errors])
        """,
        tmp_path,
    )
    assert said == [[10000], ["invalid", [["", "too_deep"]]]]


def test_a_thread_with_a_small_stack_reads_as_deep_as_the_limit(tmp_path):
    # The depth's stack is made for the call, whatever the calling thread's: 256 KiB here.
    said = run_alone(
        """
        limits = {"max_depth": 10000}
        validator = Validator({"type": "object"}, limits=limits)
        events = openai_events(nested(10000))

        def work():
            say(depth_of(validator.check(nested(10000)).value))
            say(summary(parse_calls(openai_body(nested(10000)), limits=limits)))
            assembler = StreamAssembler(limits=limits)
            for event in events:
                assembler.push_event(event)
            say(summary(assembler.finish()))
            # Left unfinished with a call that deep in it, dropped here: the assembler's
            # state is dropped on a stack made for it too.
            for held in (events[:2], events):
                assembler = StreamAssembler(limits=limits)
                for event in held:
                    assembler.push_event(event)
                del assembler
            say("dropped")

        threading.stack_size(256 * 1024)
        thread = threading.Thread(target=work)
        thread.start()
        thread.join()
        """,
        tmp_path,
    )
    assert said == [[10000], [[[10000], []]], [[[10000], []]], ["dropped"]]


def test_parse_calls_reads_arguments_as_deep_as_the_limit(tmp_path):
    said = run_alone(
        """
        limits = {"max_depth": 10000}
        body = openai_body(nested(10000))
        say(summary(parse_calls(body, limits=limits)))
        say(summary(parse_calls(json.dumps(body), limits=limits)))
        # Arguments already parsed (Anthropic's `input`): converted as deep as the limit.
        call = {"type": "tool_use", "id": "toolu_1", "name": "f", "input": nested_value(10000)}
        anthropic = {"type": "message", "role": "assistant", "content": [call], "stop_reason": "tool_use"}
        say(summary(parse_calls(anthropic, limits=limits)))
        say(summary(parse_calls(openai_body(nested(10001)), limits=limits)))
        """,
        tmp_path,
    )
    assert said == [[[[10000], []]], [[[10000], []]], [[[10000], []]], [[[], ["too_deep"]]]]


def test_stream_assembler_reads_arguments_as_deep_as_the_limit(tmp_path):
    said = run_alone(
        """
        limits = {"max_depth": 10000}
        events = openai_events(nested(10000))
        assembler = StreamAssembler(limits=limits)
        for event in events[:2]:
            assembler.push_event(event)
        opened = assembler.open_calls()
        say([depth_of(call["arguments_partial"]) for call in opened], assembler.calls(), assembler.errors())
        assembler.push_event(events[2])
        say([depth_of(call["arguments"]) for call in assembler.calls()])
        say(summary(assembler.finish()))
        # As SSE bytes, split anywhere; and a call deeper than the limit.
        for depth in (10000, 10001):
            body = "".join(f"data: {json.dumps(event)}\\n\\n" for event in openai_events(nested(depth))).encode()
            assembler = StreamAssembler(limits=limits)
            for at in range(0, len(body), 4096):
                assembler.push_sse_bytes(body[at : at + 4096])
            assembler.push_done()
            say(summary(assembler.finish()))
        # Cut off with that call open.
        assembler = StreamAssembler(limits=limits)
        for event in events[:2]:
            assembler.push_event(event)
        assembler.cut_off("connection reset")
        say(summary(assembler.finish()))
        """,
        tmp_path,
    )
    assert said == [
        [[10000], [], []],
        [[10000]],
        [[[10000], []]],
        [[[10000], []]],
        [[[], ["too_deep"]]],
        [[[], ["truncated"]]],
    ]


@pytest.mark.parametrize(
    "make",
    [
        lambda limits: Validator({"type": "object"}, limits=limits),
        lambda limits: parse_calls("{}", limits=limits),
        lambda limits: StreamAssembler(limits=limits),
    ],
    ids=["Validator", "parse_calls", "StreamAssembler"],
)
def test_max_depth_is_at_most_the_deepest_a_stack_is_made_for(make):
    assert make({"max_depth": DEEPEST}) is not None
    for past in (DEEPEST + 1, 2**63):
        with pytest.raises(ValueError) as caught:
            make({"max_depth": past})
        assert str(caught.value) == f'limit "max_depth" must be an int from 0 to {DEEPEST}, not {past}'


def test_threads_share_a_stream_assembler_past_the_default_depth(tmp_path):
    # Past the default depth each call runs on a stack made for the limit, the GIL released
    # while it waits: a second thread's call on the same assembler waits its turn (it was
    # "Already borrowed"). Each feeder streams its own call (its own index), another thread
    # reads meanwhile; the result is a single thread's, feeding the same fragments.
    said = run_alone(
        """
        sys.setrecursionlimit(10_000)  # For `==` on values 1000 deep.
        limits, feeders, rounds = {"max_depth": 1000}, 4, 3

        def start(index):
            call = {"index": index, "id": f"call_{index}", "type": "function", "function": {"name": "f", "arguments": ""}}
            return {"choices": [{"index": 0, "delta": {"tool_calls": [call]}}]}

        def fragments(index):
            # Each call as deep as the limit, in its own pieces: 40 of them.
            text = nested(1000, str(index))
            step = -(-len(text) // 40)
            return [
                {"choices": [{"index": 0, "delta": {"tool_calls": [{"index": index, "function": {"arguments": text[at : at + step]}}]}}]}
                for at in range(0, len(text), step)
            ]

        stop = {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}

        def depth_or_bottom(value):
            depth = 0
            while isinstance(value, (dict, list)) and value:
                depth, value = depth + 1, value["a"] if isinstance(value, dict) else value[0]
            return depth, value

        def alone():
            assembler = StreamAssembler(limits=limits)
            for index in range(feeders):
                assembler.push_event(start(index))
            for index in range(feeders):
                for event in fragments(index):
                    assembler.push_event(event)
            assembler.push_event(stop)
            return assembler.calls(), assembler.finish()

        expected = alone()
        failures = []

        def feed(assembler, index):
            try:
                for event in fragments(index):
                    assembler.push_event(event)
                    # Read between fragments: what arrived of every call, and none final yet.
                    assert len(assembler.open_calls()) == feeders
                    assert assembler.calls() == []
            except BaseException as error:
                failures.append(f"feeder {index}: {error!r}")

        def read(assembler, done):
            try:
                while not done.is_set():
                    for call in assembler.open_calls():
                        # A prefix of the call, completed for display: never deeper than it.
                        assert depth_or_bottom(call["arguments_partial"])[0] <= 1000
                    assert assembler.errors() == []
                    assert assembler.format == "openai"
                    assert repr(assembler) == 'StreamAssembler(format="openai")'
            except BaseException as error:
                failures.append(f"reader: {error!r}")

        for _ in range(rounds):
            failures.clear()
            assembler = StreamAssembler(limits=limits)
            for index in range(feeders):
                assembler.push_event(start(index))
            done = threading.Event()
            threads = [threading.Thread(target=feed, args=(assembler, index)) for index in range(feeders)]
            threads.append(threading.Thread(target=read, args=(assembler, done)))
            for thread in threads:
                thread.start()
            for thread in threads[:-1]:
                thread.join()
            done.set()
            threads[-1].join()
            assembler.push_event(stop)
            got = assembler.calls(), assembler.finish()
            say(failures, got == expected, [depth_or_bottom(call["arguments"]) for call in got[1]["calls"]])
        """,
        tmp_path,
    )
    calls = [[1000, index] for index in range(4)]
    assert said == [[[], True, calls]] * 3


def test_threads_share_a_validator_past_the_default_depth(tmp_path):
    # A validator is frozen: threads check with it at once, each on a stack of its own.
    said = run_alone(
        """
        limits = {"max_depth": 1000}
        validator = Validator({"type": "object"}, limits=limits)
        results, failures = [], []

        def work(index):
            try:
                for _ in range(10):
                    results.append(depth_of(validator.check(nested(1000 - index)).value))
                    results.append(summary(parse_calls(openai_body(nested(1000 - index)), limits=limits))[0][0])
            except BaseException as error:
                failures.append(repr(error))

        threads = [threading.Thread(target=work, args=(index,)) for index in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        say(failures, sorted(results))
        """,
        tmp_path,
    )
    assert said == [[[], sorted([1000 - index for index in range(4)] * 20)]]


@pytest.mark.skipif(
    sys.version_info >= (3, 12), reason="from 3.12 the collector runs between bytecodes, never inside a call"
)
@pytest.mark.parametrize("depth", [100, 1000])
def test_a_stream_assembler_called_within_its_own_call_refuses(tmp_path, depth):
    # A collector callback (or a finalizer) that runs while a call holds the assembler, and
    # calls it, would wait for that call forever: it is refused. Past the default depth the
    # callback runs on the thread with the stack, which works for the call holding it.
    said = run_alone(
        f"""
        import gc
        assembler = StreamAssembler(limits={{"max_depth": {depth}}})
        # Arguments of many lists and dicts: building them collects garbage on the way.
        arguments = {{"a": [{{"b": [index]}} for index in range(100)]}}
        for event in openai_events(json.dumps(arguments))[:2]:
            assembler.push_event(event)
        inner = []

        def callback(phase, info):
            if phase == "start" and not inner:
                try:
                    inner.append(assembler.open_calls())
                except RuntimeError as error:
                    inner.append(str(error))

        gc.callbacks.append(callback)
        gc.set_threshold(1)
        outer = assembler.open_calls()
        gc.set_threshold(700)
        gc.callbacks.clear()
        say(inner, [call["arguments_partial"] == arguments for call in outer])
        # Usable after.
        say([call["arguments_partial"] == arguments for call in assembler.open_calls()])
        """,
        tmp_path,
        timeout=60,
    )
    refused = (
        "StreamAssembler called within one of its own calls (from a garbage collector callback or a "
        "finalizer?): it would wait for itself"
    )
    assert said == [[[refused], [True]], [[True]]]
