"""Hypothesis strategies for a skill's arguments: the only module that imports hypothesis.

hypothesis-jsonschema targets draft-07, so each value it draws is confirmed by the project's
2020-12 validator (``CompiledSchema``) and kept only when it agrees; values beyond the size
bound are dropped too. Invalid arguments are one mutation of a valid value
(``mutations.py``), drawn so that hypothesis shrinks the valid value and the choice of
mutation together.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

from sia_tui.core.fuzz.mutations import Mutation, mutations
from sia_tui.core.schemas.validation import CompiledSchema

#: Keywords hypothesis-jsonschema does not know and the confirmation step enforces.
_DRAFT_2020_ONLY = ("$schema", "$id", "unevaluatedProperties", "unevaluatedItems", "examples")


def compact_size(value: Any) -> int:
    """The bytes of ``value`` as compact JSON (what a request carries)."""
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())


def _draft07_view(schema: Any) -> Any:
    """The schema without the 2020-12 keywords the generator cannot read (the validator
    confirms every value, so a dropped keyword only costs a refused draw)."""
    if isinstance(schema, dict):
        return {k: _draft07_view(v) for k, v in schema.items() if k not in _DRAFT_2020_ONLY}
    if isinstance(schema, list):
        return [_draft07_view(v) for v in schema]
    return schema


def valid_arguments(
    compiled: CompiledSchema, max_bytes: int, on_refused: Callable[[], None]
) -> st.SearchStrategy[Any]:
    """Values of the input schema, each confirmed by the 2020-12 validator and at most
    ``max_bytes`` long; ``on_refused`` is called for each one the validator refused.
    Raises hypothesis' InvalidArgument (or another error) when no strategy can be built."""

    def keep(value: Any) -> bool:
        if compact_size(value) > max_bytes:
            return False
        if not compiled.is_valid(value):
            on_refused()
            return False
        return True

    return from_schema(_draft07_view(compiled.schema)).filter(keep)


def invalid_arguments(
    compiled: CompiledSchema, max_bytes: int, on_refused: Callable[[], None]
) -> st.SearchStrategy[Mutation]:
    """One mutation of a valid value, chosen among every mutation the validator confirms."""
    listed = valid_arguments(compiled, max_bytes, on_refused).map(
        lambda value: mutations(compiled, value)
    )
    return listed.filter(bool).flatmap(st.sampled_from)
