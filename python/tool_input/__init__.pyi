# Type stubs of the `tool_input` package (the extension module `tool_input._native` and the
# exceptions of `tool_input._errors`, re-exported here). tests/test_stubs.py keeps them in
# step with the module.
from typing import Any, Dict, Iterable, List, Literal, Optional, TypedDict, Union

from typing_extensions import NotRequired

__version__: str

JSON = Any
Policy = Literal["strict", "default", "lenient"]
RejectionKind = Literal["parse", "truncated", "not_object", "invalid", "too_large", "too_deep"]
Format = Literal["auto", "openai", "chat", "responses", "anthropic", "gemini", "ollama", "text"]
Dialect = Literal["openai", "openai-strict", "responses", "responses-strict", "anthropic", "gemini", "mcp"]
Tools = Union[str, Iterable[str], None]

class Limits(TypedDict, total=False):
    """The limits that keep hostile input cheap to refuse; each one left out keeps its default.

    `max_depth` (default 128) is at most 10000: each level of nesting takes stack, and past
    the default each call is read on a thread made with a stack for the limit (some tens of
    microseconds more a call; the calling thread waits without the GIL); a larger value
    raises `ValueError`."""

    max_bytes: int
    max_depth: int
    max_echo_chars: int
    max_string_bytes: int
    max_errors: int
    max_coercions: int

class FieldError(TypedDict):
    path: str
    code: str
    message: str
    value: NotRequired[str]
    options: NotRequired[List[JSON]]
    suggestion: NotRequired[JSON]

class Repair(TypedDict):
    kind: str
    offset: int
    count: int
    last_offset: int

# `from` is a Python keyword, hence the functional form.
Coercion = TypedDict("Coercion", {"path": str, "kind": str, "from": NotRequired[str], "to": NotRequired[str]})

class ToolCall(TypedDict):
    id: str
    name: str
    arguments: Dict[str, JSON]

class CallError(TypedDict):
    kind: str
    message: str
    # A body that cannot be read at all has `kind` "body" and `message` only.
    id: NotRequired[str]
    id_generated: NotRequired[bool]
    name: NotRequired[Optional[str]]
    arguments: NotRequired[Optional[str]]
    arguments_cut: NotRequired[bool]

class MissingCall(TypedDict):
    kind: str  # "missing_call"
    reason: str
    message: str

class Calls(TypedDict):
    calls: List[ToolCall]
    errors: List[CallError]
    content: Optional[str]
    reasoning: Optional[str]
    # Only when the response says the model called a tool but holds no call (Gemini's
    # MALFORMED_FUNCTION_CALL, finish_reason "tool_calls" with none): send `message` back
    # to the model as a user turn; there is no call id to answer.
    missing_call: NotRequired[MissingCall]

class OpenCall(TypedDict):
    position: int
    id: Optional[str]
    name: Optional[str]
    arguments_text: Optional[str]
    arguments_value: Optional[JSON]
    arguments_partial: Optional[JSON]
    bytes: int

class DialectProblem(TypedDict):
    pointer: str
    code: str
    message: str

class Rejection(Exception):
    """Arguments that were refused, with every reason; `str()` is the text for the model."""

    kind: RejectionKind
    errors: List[FieldError]
    message: str
    omitted_errors: int
    def __init__(self, message: str, kind: str, errors: List[FieldError], omitted_errors: int = 0) -> None: ...

class SchemaError(ValueError):
    """A schema the engine cannot compile (or read), at `pointer`."""

    pointer: str
    message: str
    def __init__(self, message: str, pointer: str = "") -> None: ...

class ParseError(ValueError):
    """Text that `repair` could not read as JSON."""

    kind: Literal["parse", "invalid", "truncated", "too_large", "too_deep"]
    message: str
    def __init__(self, message: str, kind: str = "parse") -> None: ...

class Checked:
    """Arguments that passed every check: the value the tool runs with, and what it took."""

    @property
    def value(self) -> Dict[str, JSON]: ...
    @property
    def repairs(self) -> List[Repair]: ...
    @property
    def coercions(self) -> List[Coercion]: ...
    @property
    def omitted_coercions(self) -> int: ...

class Validator:
    """A JSON Schema compiled once; `check` turns raw arguments into a `Checked` or raises
    `Rejection`."""

    def __init__(
        self,
        schema: Union[Dict[str, JSON], str, bytes],
        policy: Policy = "default",
        *,
        name: Optional[str] = None,
        formats: bool = True,
        defaults: bool = True,
        resources: Optional[Dict[str, Union[Dict[str, JSON], str, bytes]]] = None,
        limits: Optional[Limits] = None,
    ) -> None: ...
    def check(self, raw: Union[str, bytes, Dict[str, JSON], None]) -> Checked: ...
    @property
    def schema(self) -> Dict[str, JSON]: ...
    @property
    def policy(self) -> Policy: ...
    @property
    def name(self) -> Optional[str]: ...
    @property
    def limits(self) -> Dict[str, int]: ...

class StreamAssembler:
    """The tool calls of one streamed response, assembled event by event."""

    def __init__(
        self,
        *,
        tools: Tools = None,
        format: Union[Format, str] = "auto",
        text_format: Optional[str] = None,
        limits: Optional[Limits] = None,
    ) -> None: ...
    def push_sse_bytes(self, data: Union[bytes, str]) -> None: ...
    def push_sse_line(self, line: str) -> None: ...
    def push_event(self, event: JSON) -> None: ...
    def push_text(self, chunk: str) -> None: ...
    def push_done(self) -> None: ...
    def cut_off(self, reason: str) -> None: ...
    def open_calls(self) -> List[OpenCall]: ...
    def calls(self) -> List[ToolCall]: ...
    def errors(self) -> List[CallError]: ...
    @property
    def format(self) -> str: ...
    def finish(self) -> Calls: ...

def repair(
    text: Union[str, bytes],
    *,
    strict: bool = False,
    complete_truncated: bool = False,
    settled: bool = False,
    style: Literal["jsonrepair", "json_repair"] = "jsonrepair",
) -> JSON: ...
def parse_calls(
    body: Union[str, bytes, Dict[str, JSON], List[JSON]],
    *,
    format: Union[Format, str] = "auto",
    tools: Tools = None,
    text_format: Optional[str] = None,
    limits: Optional[Limits] = None,
) -> Calls: ...
def tool_definition(
    schema: Union[Dict[str, JSON], str, bytes],
    dialect: Dialect,
    *,
    name: Optional[str] = None,
    description: Optional[str] = None,
) -> Dict[str, JSON]: ...
def check_tool(
    schema: Union[Dict[str, JSON], str, bytes],
    dialect: Dialect,
    *,
    name: Optional[str] = None,
    description: Optional[str] = None,
) -> List[DialectProblem]: ...

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
