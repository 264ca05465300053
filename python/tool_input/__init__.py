"""tool-input for Python: tool-call arguments into checked values, or into errors a model
can act on.

A model never hands a tool a typed value: it hands over text that claims to describe one.
``tool_input`` parses that text leniently, coerces its *representation* to the JSON Schema
the model was shown, and validates it, with the engine of the Rust crate ``tool-input``. It
never changes the model's *choice*: an unknown enum value, a missing field or a number out of
range raises :class:`Rejection` with the path, what was wrong and what would have worked.

>>> import tool_input
>>> v = tool_input.Validator({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]})
>>> v.check("{'n': '3'}").value
{'n': 3}

Everything returned has exactly the shape the ``tool-input`` command line prints. For
pydantic models, see :mod:`tool_input.pydantic`.
"""

from ._errors import ParseError, Rejection, SchemaError
from ._native import (
    Checked,
    StreamAssembler,
    Validator,
    __version__,
    check_tool,
    parse_calls,
    repair,
    tool_definition,
)

__all__ = [
    "Checked",
    "ParseError",
    "Rejection",
    "SchemaError",
    "StreamAssembler",
    "Validator",
    "__version__",
    "check_tool",
    "parse_calls",
    "repair",
    "tool_definition",
]
