"""pydantic models, checked by the tool-input engine.

``validate(Model, raw)`` checks ``raw`` against ``Model.model_json_schema()`` with the
engine (the schema is compiled once per model and policy), then returns
``Model.model_validate(value)``. The model gets the engine's coercions (a quoted list, an
enum value in other letter case, ``"5"`` for an integer, Python literals, code fences,
prose around the JSON) and the engine's refusals: anything the engine rejects raises
:class:`tool_input.Rejection` with its paths and message for the model, never a pydantic
traceback. What only the model checks (a field validator, say) and fails raises a
``Rejection`` too, in the same words: kind ``"invalid"``, code ``"deserialize"`` at the
field's path.

pydantic is imported when this module is first used, not when ``tool_input`` is.
"""

from __future__ import annotations

import threading
import weakref
from typing import TYPE_CHECKING, Any, Dict, Tuple, Type, TypeVar, Union

from . import _native
from ._errors import Rejection
from ._native import Validator

if TYPE_CHECKING:
    from pydantic import BaseModel

    M = TypeVar("M", bound=BaseModel)

__all__ = ["validate", "validator_for"]

# Compiled schemas, per model class and policy; a model class that goes away takes its
# validators with it.
_validators: "weakref.WeakKeyDictionary[type, Dict[str, Validator]]" = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def validator_for(model: "Type[BaseModel]", policy: str = "default") -> Validator:
    """The engine's :class:`~tool_input.Validator` for ``model``'s JSON Schema (compiled once
    per model and policy, then cached). Its name in messages is the schema's ``title``.

    Raises :class:`tool_input.SchemaError` when the schema uses a keyword the engine does not
    check (it never half-checks a schema).
    """
    with _lock:
        per_policy = _validators.get(model)
        if per_policy is not None and policy in per_policy:
            return per_policy[policy]
    validator = Validator(model.model_json_schema(), policy)
    with _lock:
        return _validators.setdefault(model, {}).setdefault(policy, validator)


def validate(model: "Type[M]", raw: Union[str, bytes, Dict[str, Any], None], *, policy: str = "default") -> "M":
    """Check ``raw`` tool-call arguments with the engine against ``model``'s JSON Schema, then
    build the model from the checked value.

    ``raw`` is what the model sent: ``str``, ``bytes``, an already parsed ``dict``, or
    ``None`` for absent arguments. ``policy`` is ``"strict"``, ``"default"`` or
    ``"lenient"``, as for :class:`~tool_input.Validator`.

    Raises :class:`tool_input.Rejection` (never a pydantic ``ValidationError``).
    """
    from pydantic import ValidationError

    validator = validator_for(model, policy)
    checked = validator.check(raw)
    try:
        return model.model_validate(checked.value)
    except ValidationError as error:
        errors = [(_pointer(detail, checked.value), str(detail.get("msg", ""))) for detail in error.errors()]
        raise _native._residual_rejection(errors, validator.name) from None


def _pointer(detail: Any, value: Any) -> str:
    """A pydantic error's ``loc`` as a JSON Pointer (RFC 6901) into the arguments, the
    engine's way to say where.

    pydantic also names in ``loc`` the member of a union it tried (``("x", "int")``,
    ``("x", "function-after[check(), int]")``, a tagged union's tag: ``("pet", "cat",
    "age")``). Such a step is no key or index of the value, so it is left out: the path is
    the field's, in the keys the model sent. A key the value lacks is kept where the error
    says it is missing.
    """
    loc: Tuple[Union[str, int], ...] = tuple(detail.get("loc", ()))
    parts = []
    current = value
    for position, part in enumerate(loc):
        if isinstance(current, dict) and isinstance(part, str) and part in current:
            parts.append(part)
            current = current[part]
        elif isinstance(current, list) and isinstance(part, int) and 0 <= part < len(current):
            parts.append(part)
            current = current[part]
        elif position == len(loc) - 1 and detail.get("type") == "missing":
            parts.append(part)
        # Else a union member's name: not in the arguments, left out.
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in parts)
