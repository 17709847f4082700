"""Invalid arguments by exactly one mutation of valid ones, each confirmed by the validator.

The probe's five kinds (``probe/invalid_args.py``: a required member removed, a wrong type,
an extra member where ``additionalProperties`` is false, a value outside an enum, a number
outside its bounds) plus three more: a string that breaks its ``pattern`` or ``format``, and
an extra member where ``unevaluatedProperties`` is false. A mutation is kept only when the
2020-12 validator rejects it at a pointer the agent's ``details`` may name (RULES INV3, ERR5).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from sia_tui.core.probe.invalid_args import (
    CANDIDATE_BUILDERS,
    Candidate,
    Location,
    extra_member,
    locations,
    with_member,
)
from sia_tui.core.schemas.validation import CompiledSchema

#: Strings tried against a ``pattern``: most patterns refuse at least one of them.
_PATTERN_BREAKERS = ("", " ", "!", "\u00e9\u00e9", "sia-tui fuzz: not the pattern", "0")
#: Most mutations listed per valid value (a big value has many members).
MAX_MUTATIONS = 64


@dataclass(frozen=True)
class Mutation:
    """One invalid value made from a valid one: what changed and where ``details`` may point."""

    kind: str
    arguments: Any
    pointers: tuple[str, ...]
    note: str


def _pattern_broken(loc: Location) -> Iterator[Candidate]:
    pattern = loc.schema.get("pattern")
    if not loc.path or not isinstance(pattern, str) or not isinstance(loc.value, str):
        return
    for value in _PATTERN_BREAKERS:
        yield value, (loc.pointer,), f"{loc.pointer} is {value!r}, outside its pattern"


def _format_broken(loc: Location) -> Iterator[Candidate]:
    form = loc.schema.get("format")
    if not loc.path or not isinstance(form, str) or not isinstance(loc.value, str):
        return
    value = f"sia-tui fuzz: not a {form}"
    yield value, (loc.pointer,), f"{loc.pointer} is {value!r}, not a {form}"


def _unevaluated_member(loc: Location) -> Iterator[Candidate]:
    return extra_member(loc, "unevaluatedProperties")


_BUILDERS: dict[str, Callable[[Location], Iterator[Candidate]]] = {
    **{kind.value.removeprefix("invalid-"): build for kind, build in CANDIDATE_BUILDERS.items()},
    "pattern-broken": _pattern_broken,
    "format-broken": _format_broken,
    "unevaluated-member": _unevaluated_member,
}
#: Every mutation kind, in the order they are listed.
MUTATION_KINDS = tuple(_BUILDERS)


def mutations(compiled: CompiledSchema, valid: Any) -> list[Mutation]:
    """Every single mutation of ``valid`` the validator rejects where ``details`` may point
    (one per kind and location: the first candidate that is confirmed), at most
    :data:`MAX_MUTATIONS`."""
    out: list[Mutation] = []
    for loc in locations(compiled.schema, valid):
        for kind, build in _BUILDERS.items():
            for replacement, pointers, note in build(loc):
                mutated = with_member(valid, loc.path, replacement)
                rejected_at = {f.pointer for f in compiled.validate(mutated)}
                if rejected_at & set(pointers):  # invalid by construction (RULES INV3)
                    out.append(Mutation(kind, mutated, pointers, note))
                    break
            if len(out) >= MAX_MUTATIONS:
                return out
    return out
