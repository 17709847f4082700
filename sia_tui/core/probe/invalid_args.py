"""Invalid arguments, one per kind, generated from the input schema and a valid instance.

Each kind changes exactly one member of valid arguments: remove a required member, give a
member the wrong type, add a member where ``additionalProperties`` is false, put a value
outside an ``enum``, or put a number outside its bounds. Only the kinds the schema makes
possible are built; the others come back with the reason they are skipped. Every mutation
is confirmed by the validator, which must reject it at the pointer the probe will expect
in the agent's ``details`` (RULES INV3, ERR5).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from sia_tui.core.jsonkit.pointer import join, resolve
from sia_tui.core.probe.results import ProbeKind
from sia_tui.core.schemas.validation import CompiledSchema, json_type

#: The member the extra-member probe adds; unlikely to be declared by anyone.
EXTRA_MEMBER = "sia_tui_probe_unexpected"
#: How deep the walk follows the schema alongside the instance.
_MAX_DEPTH = 32
_WRONG_TYPE_VALUES: tuple[Any, ...] = ("sia-tui probe: wrong type", 12345, True, None, [], {})


@dataclass(frozen=True)
class Location:
    """A member of the valid instance with the schema (after local ``$ref``) that governs it."""

    path: tuple[str, ...]
    schema: dict[str, Any]
    value: Any

    @property
    def pointer(self) -> str:
        """The member's JSON Pointer relative to the arguments."""
        return join(self.path)


@dataclass(frozen=True)
class InvalidArguments:
    """One kind's invalid arguments, the pointers ``details`` may name, and what changed."""

    kind: ProbeKind
    arguments: Any
    pointers: tuple[str, ...]
    note: str


def _follow(root: Any, schema: Any) -> Any:
    """``schema`` with local ``$ref`` chains resolved (RULES SR7: nothing remote)."""
    for _ in range(16):
        ref = schema.get("$ref") if isinstance(schema, dict) else None
        if not isinstance(ref, str) or not ref.startswith("#"):
            return schema
        try:
            target = resolve(root, ref[1:])
        except (KeyError, ValueError, IndexError, TypeError):
            return schema
        if not isinstance(target, dict):
            return schema
        schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
    return schema


def locations(root: Any, instance: Any) -> Iterator[Location]:
    """Every member of ``instance`` with its governing schema(s), in document order.

    Follows ``properties``, ``items`` and ``allOf`` (each branch applies in full);
    ``anyOf``/``oneOf`` are not entered, since which branch governs is not known.
    """
    stack: list[tuple[tuple[str, ...], Any, Any]] = [((), root, instance)]
    while stack:
        path, schema, value = stack.pop(0)
        schema = _follow(root, schema)
        if not isinstance(schema, dict) or len(path) > _MAX_DEPTH:
            continue
        yield Location(path, schema, value)
        children: list[tuple[tuple[str, ...], Any, Any]] = []
        branches = schema.get("allOf")
        for branch in branches if isinstance(branches, list) else []:
            children.append((path, branch, value))
        properties = schema.get("properties")
        if isinstance(value, dict) and isinstance(properties, dict):
            children.extend(
                ((*path, name), properties[name], member)
                for name, member in value.items()
                if name in properties
            )
        items = schema.get("items")
        if isinstance(value, list) and isinstance(items, dict | bool):
            children.extend(((*path, str(i)), items, member) for i, member in enumerate(value))
        stack[:0] = children


def _replace(instance: Any, path: tuple[str, ...], change: Callable[[Any, str], None]) -> Any:
    """A deep copy of ``instance`` where ``change(parent, key)`` edited the member at ``path``."""
    out = copy.deepcopy(instance)
    parent = out
    for key in path[:-1]:
        parent = parent[int(key)] if isinstance(parent, list) else parent[key]
    change(parent, path[-1])
    return out


def _set(instance: Any, path: tuple[str, ...], value: Any) -> Any:
    if not path:
        return value

    def assign(parent: Any, key: str) -> None:
        parent[int(key) if isinstance(parent, list) else key] = value

    return _replace(instance, path, assign)


Candidate = tuple[Any, tuple[str, ...], str]


def _missing_required(loc: Location) -> Iterator[Candidate]:
    required = loc.schema.get("required")
    if not isinstance(loc.value, dict) or not isinstance(required, list):
        return
    for name in required:
        if isinstance(name, str) and name in loc.value:
            mutated = {k: v for k, v in loc.value.items() if k != name}
            member = join([*loc.path, name])
            # Validators locate "required" at the object; naming the member is as good.
            yield mutated, (loc.pointer, member), f"required member {member} removed"


def _wrong_type(loc: Location) -> Iterator[Candidate]:
    declared = loc.schema.get("type")
    types = {declared} if isinstance(declared, str) else set(declared or [])
    if not loc.path or not types or not all(isinstance(t, str) for t in types):
        return  # the root is what every wrong envelope already breaks; locate a member
    for value in _WRONG_TYPE_VALUES:
        kind = json_type(value)
        if kind in types or (kind == "integer" and "number" in types):
            continue
        yield value, (loc.pointer,), f"{loc.pointer} is {kind}, declared {'/'.join(sorted(types))}"
        return


def extra_member(loc: Location, keyword: str = "additionalProperties") -> Iterator[Candidate]:
    """An undeclared member added to an object ``keyword`` (set to false) closes."""
    closed = loc.schema.get(keyword) is False
    if not closed or not isinstance(loc.value, dict) or EXTRA_MEMBER in loc.value:
        return
    member = join([*loc.path, EXTRA_MEMBER])
    yield (
        {**loc.value, EXTRA_MEMBER: True},
        (loc.pointer, member),
        f"undeclared member {member} added where {keyword} is false",
    )


def _enum_miss(loc: Location) -> Iterator[Candidate]:
    options = loc.schema.get("enum")
    if not loc.path or not isinstance(options, list) or not options:
        return
    numbers = [o for o in options if isinstance(o, int | float) and not isinstance(o, bool)]
    value: Any = "sia-tui-probe-not-in-enum"
    if numbers and len(numbers) == len(options):
        value = max(numbers) + 1  # same type as the enum: only the enum is broken
    if value not in options:
        yield value, (loc.pointer,), f"{loc.pointer} is {value!r}, outside its enum"


def _bound(schema: dict[str, Any], keyword: str) -> float | None:
    value = schema.get(keyword)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def _out_of_range(loc: Location) -> Iterator[Candidate]:
    if not loc.path or isinstance(loc.value, bool) or not isinstance(loc.value, int | float):
        return
    integer = loc.schema.get("type") == "integer"
    low, low_ex = _bound(loc.schema, "minimum"), _bound(loc.schema, "exclusiveMinimum")
    high, high_ex = _bound(loc.schema, "maximum"), _bound(loc.schema, "exclusiveMaximum")
    outside: list[float] = []
    if low is not None:
        outside.append(math.floor(low) - 1 if integer else low - 1)
    if low_ex is not None:
        outside.append(math.floor(low_ex) if integer else low_ex)
    if high is not None:
        outside.append(math.ceil(high) + 1 if integer else high + 1)
    if high_ex is not None:
        outside.append(math.ceil(high_ex) if integer else high_ex)
    for number in outside:
        value = int(number) if integer or float(number).is_integer() else number
        yield value, (loc.pointer,), f"{loc.pointer} is {value}, outside its declared bounds"


_BUILDERS: dict[ProbeKind, tuple[Callable[[Location], Iterator[Candidate]], str]] = {
    ProbeKind.INVALID_MISSING_REQUIRED: (_missing_required, "no required member"),
    ProbeKind.INVALID_WRONG_TYPE: (_wrong_type, "no member with a declared type"),
    ProbeKind.INVALID_EXTRA_MEMBER: (
        extra_member,
        "no object closed by additionalProperties: false",
    ),
    ProbeKind.INVALID_ENUM_MISS: (_enum_miss, "no member with an enum"),
    ProbeKind.INVALID_OUT_OF_RANGE: (
        _out_of_range,
        "no number with minimum, maximum, exclusiveMinimum or exclusiveMaximum",
    ),
}
#: The invalid-argument kinds, in the order the probes run.
INVALID_KINDS = tuple(_BUILDERS)


def invalid_arguments(
    compiled: CompiledSchema, base: Any, kind: ProbeKind
) -> InvalidArguments | str:
    """``kind``'s invalid arguments built from the valid ``base``, or why it cannot be built."""
    build, absent = _BUILDERS[kind]
    found_location = False
    for loc in locations(compiled.schema, base):
        for replacement, pointers, note in build(loc):
            found_location = True
            mutated = _set(base, loc.path, replacement)
            rejected_at = {f.pointer for f in compiled.validate(mutated)}
            if rejected_at & set(pointers):
                return InvalidArguments(kind, mutated, pointers, note)
    if found_location:
        return f"no {kind.value.removeprefix('invalid-')} change the validator rejects"
    return f"the input schema (as far as the valid arguments reach) declares {absent}"


#: Each kind's candidate mutations at one location; ``sia-tui fuzz`` tries every one.
CANDIDATE_BUILDERS: dict[ProbeKind, Callable[[Location], Iterator[Candidate]]] = {
    kind: build for kind, (build, _) in _BUILDERS.items()
}


def with_member(instance: Any, path: tuple[str, ...], value: Any) -> Any:
    """A deep copy of ``instance`` with the member at ``path`` set to ``value``."""
    return _set(instance, path, value)
