"""The type stubs (tool_input/__init__.pyi) say what the module has: every public name, every
method and property, every parameter by name and kind."""

from __future__ import annotations

import ast
import importlib
import inspect
import sys
from pathlib import Path

import tool_input

STUB = Path(tool_input.__file__).with_name("__init__.pyi")
RECORDS = {"FieldError", "Repair", "ToolCall", "CallError", "MissingCall", "Calls", "OpenCall", "DialectProblem", "Limits"}


def stub_tree() -> ast.Module:
    return ast.parse(STUB.read_text(encoding="utf-8"))


def parameters(function: ast.FunctionDef):
    args = function.args
    names = [(arg.arg, "positional") for arg in args.posonlyargs + args.args if arg.arg != "self"]
    names += [(arg.arg, "keyword") for arg in args.kwonlyargs]
    return names


def runtime_parameters(function):
    kinds = {inspect.Parameter.KEYWORD_ONLY: "keyword"}
    return [
        (name, kinds.get(parameter.kind, "positional"))
        for name, parameter in inspect.signature(function).parameters.items()
        if name != "self"
    ]


def test_the_stub_is_installed_with_py_typed():
    assert STUB.is_file()
    assert STUB.with_name("py.typed").is_file()


def test_every_public_name_is_in_the_stub_and_nothing_more():
    declared = set()
    for node in stub_tree().body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            declared.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            declared.add(node.target.id)
    public = set(tool_input.__all__)
    assert public <= declared
    # The rest are the shapes of the returned dicts (TypedDicts), not runtime names.
    assert declared - public <= RECORDS


def test_classes_and_functions_match():
    for node in stub_tree().body:
        if isinstance(node, ast.FunctionDef):
            assert parameters(node) == runtime_parameters(getattr(tool_input, node.name)), node.name
        if isinstance(node, ast.ClassDef) and node.name not in RECORDS:
            runtime = getattr(tool_input, node.name)
            for member in node.body:
                if not isinstance(member, ast.FunctionDef):
                    continue
                assert hasattr(runtime, member.name), f"{node.name}.{member.name}"
                is_property = any(isinstance(d, ast.Name) and d.id == "property" for d in member.decorator_list)
                if is_property or member.name == "__init__" and issubclass(runtime, Exception):
                    continue
                target = runtime if member.name == "__init__" else getattr(runtime, member.name)
                try:
                    actual = runtime_parameters(target)
                except ValueError:
                    # Python 3.9 cannot read the signature of an extension class.
                    assert member.name == "__init__" and sys.version_info < (3, 10)
                    continue
                assert parameters(member) == actual, f"{node.name}.{member.name}"
            declared = {member.name for member in node.body if isinstance(member, ast.FunctionDef)}
            public = {name for name in vars(runtime) if not name.startswith("_")}
            if not issubclass(runtime, Exception):
                assert public <= declared, f"{node.name}: {public - declared} missing from the stub"


def test_everything_public_has_a_docstring():
    for name in tool_input.__all__:
        item = getattr(tool_input, name)
        if callable(item):
            assert (item.__doc__ or "").strip(), name
        if isinstance(item, type):
            for member, value in vars(item).items():
                if not member.startswith("_") and callable(value):
                    assert (value.__doc__ or "").strip(), f"{name}.{member}"
    helper = importlib.import_module("tool_input.pydantic")
    assert tool_input.__doc__ and helper.__doc__
    assert helper.validate.__doc__ and helper.validator_for.__doc__
