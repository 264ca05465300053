"""The exceptions of ``tool_input``.

They are plain Python classes (the extension module builds them), so they have real
signatures, pickle, and read like any other exception.
"""

from __future__ import annotations

from typing import Any, Dict, List

__all__ = ["Rejection", "SchemaError", "ParseError"]


class Rejection(Exception):
    """Arguments that were refused, with every reason.

    ``str(rejection)`` is the text to send back to the model: compact, bounded, one line
    per error with its path, what was wrong and what would work.

    Attributes:
        kind: ``"parse"``, ``"truncated"``, ``"not_object"``, ``"invalid"``,
            ``"too_large"`` or ``"too_deep"``.
        errors: every error, as the CLI prints them: ``{"path", "code", "message"}``, with
            ``"value"``, ``"options"`` and ``"suggestion"`` when they have something to say.
            ``path`` is a JSON Pointer in the keys the model sent (``"/items/1/quantity"``);
            a whole-input failure has one error at ``""``.
        message: the text for the model (the same as ``str(rejection)``).
        omitted_errors: how many errors were left out of ``errors`` past the engine's limit
            (50 listed at most), as the message counts them (``… and N more errors``); ``0``
            when every error is listed. The CLI prints it as ``"omitted_errors"`` when not 0.
    """

    kind: str
    errors: List[Dict[str, Any]]
    message: str
    omitted_errors: int

    def __init__(self, message: str, kind: str, errors: List[Dict[str, Any]], omitted_errors: int = 0) -> None:
        # All four in `args`, so a pickled rejection comes back with its count.
        super().__init__(message, kind, errors, omitted_errors)
        self.message = message
        self.kind = kind
        self.errors = errors
        self.omitted_errors = omitted_errors

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        if self.omitted_errors:
            return f"Rejection(kind={self.kind!r}, errors={self.errors!r}, omitted_errors={self.omitted_errors!r})"
        return f"Rejection(kind={self.kind!r}, errors={self.errors!r})"


class SchemaError(ValueError):
    """A schema the engine cannot compile (or read), with where in it.

    Attributes:
        pointer: JSON Pointer of the offending subschema (``""`` is the root).
        message: what is wrong (the same as ``str(error)``).
    """

    pointer: str
    message: str

    def __init__(self, message: str, pointer: str = "") -> None:
        super().__init__(message, pointer)
        self.message = message
        self.pointer = pointer

    def __str__(self) -> str:
        return self.message


class ParseError(ValueError):
    """Text that ``repair`` could not read as JSON.

    Attributes:
        kind: ``"parse"`` (syntax, or bytes that are not UTF-8), ``"invalid"`` (a number
            beyond the range of a float, ``1e400``: JSON, but no float holds it),
            ``"truncated"`` (cut off inside a value), ``"too_large"`` or ``"too_deep"``: a
            rejection's kinds.
        message: what was wrong and where (the same as ``str(error)``).
    """

    kind: str
    message: str

    def __init__(self, message: str, kind: str = "parse") -> None:
        super().__init__(message, kind)
        self.message = message
        self.kind = kind

    def __str__(self) -> str:
        return self.message
