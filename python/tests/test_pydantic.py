"""tool_input.pydantic.validate: pydantic models checked by the engine."""

from __future__ import annotations

import datetime
import enum
import subprocess
import sys
from typing import Annotated, Dict, List, Literal, Optional, Union

import pytest

pydantic = pytest.importorskip("pydantic")

from pydantic import AfterValidator, BaseModel, Field, field_validator  # noqa: E402

import tool_input  # noqa: E402
from tool_input import Rejection, SchemaError  # noqa: E402
from tool_input.pydantic import validate, validator_for  # noqa: E402


class Priority(str, enum.Enum):
    low = "low"
    high = "high"


class Item(BaseModel):
    sku: str = Field(pattern=r"^[A-Z]{3}-\d{4}$")
    quantity: int = Field(ge=1, le=1000)


class CreateOrder(BaseModel):
    """Create an order for a customer."""

    customer_id: str
    priority: Priority
    tags: List[str]
    items: List[Item]
    gift: bool = False
    note: Optional[str] = None

    @field_validator("customer_id")
    @classmethod
    def known_prefix(cls, value: str) -> str:
        if not value.startswith("C-"):
            raise ValueError("must start with C-")
        return value


def test_a_mangled_call_becomes_the_model():
    raw = "Sure! {'customer_id': 'C-1', 'priority': 'HIGH', 'tags': '[\"vip\"]', 'items': [{'sku': 'ABC-1234', 'quantity': '2'}], 'note': None,}"
    order = validate(CreateOrder, raw)
    assert isinstance(order, CreateOrder)
    assert order.priority is Priority.high
    assert order.tags == ["vip"]
    assert order.items[0].quantity == 2
    assert order.note is None and order.gift is False
    assert validate(CreateOrder, {"customer_id": "C-2", "priority": "low", "tags": [], "items": []}).customer_id == "C-2"


def test_the_engines_rejection_never_a_pydantic_traceback():
    with pytest.raises(Rejection) as caught:
        validate(CreateOrder, '{"customer_id": "C-1", "priority": "urgent", "tags": [], "items": [{"sku": "x", "quantity": 0}]}')
    rejection = caught.value
    assert not isinstance(rejection, pydantic.ValidationError)
    paths = {(error["path"], error["code"]) for error in rejection.errors}
    assert {("/priority", "enum"), ("/items/0/sku", "pattern"), ("/items/0/quantity", "range")} <= paths
    assert "tool `CreateOrder`" in str(rejection)
    assert rejection.__cause__ is None


def test_what_only_the_model_checks_is_a_rejection_in_the_engines_words():
    with pytest.raises(Rejection) as caught:
        validate(CreateOrder, '{"customer_id": "X-1", "priority": "low", "tags": [], "items": []}')
    rejection = caught.value
    assert rejection.kind == "invalid"
    assert rejection.errors == [{"path": "/customer_id", "code": "deserialize", "message": "Value error, must start with C-"}]
    assert str(rejection).startswith("The arguments for tool `CreateOrder` were rejected (1 error)")
    assert "/customer_id: Value error, must start with C-" in str(rejection)
    # Raised from None: no pydantic error chained to it.
    assert rejection.__cause__ is None and rejection.__suppress_context__


def positive(value: int) -> int:
    if value <= 0:
        raise ValueError("must be positive")
    return value


class Cat(BaseModel):
    kind: Literal["cat"]
    lives: Annotated[int, AfterValidator(positive)]


class Dog(BaseModel):
    kind: Literal["dog"]


class Unions(BaseModel):
    count: Union[Annotated[int, AfterValidator(positive)], List[int]]
    pets: List[Annotated[Union[Cat, Dog], Field(discriminator="kind")]] = []
    sizes: List[Union[Annotated[int, AfterValidator(positive)], str]] = []


def test_a_union_members_name_is_not_part_of_the_path():
    # pydantic names the union member it tried in `loc` ("function-after[positive(), int]",
    # "list[int]", a tag "cat"); the path is the field's, in the keys the model sent.
    with pytest.raises(Rejection) as caught:
        validate(Unions, '{"count": -1}')
    assert {error["path"] for error in caught.value.errors} == {"/count"}
    with pytest.raises(Rejection) as caught:
        validate(Unions, '{"count": 1, "pets": [{"kind": "dog"}, {"kind": "cat", "lives": 0}]}')
    assert [error["path"] for error in caught.value.errors] == ["/pets/1/lives"]
    with pytest.raises(Rejection) as caught:
        validate(Unions, '{"count": 1, "sizes": [1, -2]}')
    assert {error["path"] for error in caught.value.errors} == {"/sizes/1"}


def test_validators_are_cached_per_model_and_policy():
    assert validator_for(CreateOrder) is validator_for(CreateOrder)
    strict = validator_for(CreateOrder, "strict")
    assert strict is not validator_for(CreateOrder) and strict.policy == "strict"
    with pytest.raises(Rejection):
        validate(CreateOrder, '{"customer_id": "C-1", "priority": "HIGH", "tags": [], "items": []}', policy="strict")


def test_a_schema_that_is_not_a_json_schema_is_refused():
    class Broken(BaseModel):
        model_config = {"json_schema_extra": {"minProperties": "many"}}
        a: int = 0

    with pytest.raises(SchemaError) as caught:
        validate(Broken, "{}")
    assert "minProperties" in str(caught.value)


def test_a_conditional_schema_is_checked():
    class Conditional(BaseModel):
        model_config = {
            "json_schema_extra": {
                "if": {"properties": {"a": {"const": 1}}, "required": ["a"]},
                "then": {"properties": {"b": {"minimum": 5}}},
            }
        }
        a: int = 0
        b: int = 0

    assert validate(Conditional, '{"a": 0, "b": 2}').b == 2
    assert validate(Conditional, '{"a": 1, "b": 7}').b == 7
    with pytest.raises(Rejection) as caught:
        validate(Conditional, '{"a": 1, "b": 2}')
    assert "/b" in str(caught.value)


def test_pydantic_is_imported_only_when_used(tmp_path):
    code = "import sys, tool_input, tool_input.pydantic; print('pydantic' in sys.modules)"
    # From an empty folder, so the installed package is imported, not a source tree.
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=tmp_path)
    assert result.stdout.strip() == "False"
    assert tool_input.pydantic.__name__ == "tool_input.pydantic"


class Cat(BaseModel):
    kind: Literal["cat"]
    lives: int = 9


class Dog(BaseModel):
    kind: Literal["dog"]


class Node(BaseModel):
    name: str
    children: List["Node"] = []


class Zoo(BaseModel):
    pet: Annotated[Union[Cat, Dog], Field(discriminator="kind")]
    counts: Dict[str, int]
    tree: Node
    seen: Optional[datetime.date] = None


def test_the_schemas_pydantic_writes_for_common_types():
    """Discriminated unions, `$ref`s (recursive too), maps, dates: the engine checks the
    schemas pydantic writes for them."""
    zoo = validate(Zoo, "{'pet': {'kind': 'cat', 'lives': '7'}, 'counts': {'a': '1'}, 'tree': {'name': 'r', 'children': [{'name': 'c'}]}, 'seen': '2025-01-02'}")
    assert zoo.pet == Cat(kind="cat", lives=7)
    assert zoo.counts == {"a": 1}
    assert zoo.tree.children[0].name == "c"
    assert zoo.seen == datetime.date(2025, 1, 2)
    with pytest.raises(Rejection) as caught:
        validate(Zoo, {"pet": {"kind": "cow"}, "counts": {}, "tree": {"name": "r"}})
    assert caught.value.errors[0]["path"].startswith("/pet")
