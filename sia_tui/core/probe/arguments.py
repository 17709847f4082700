"""Valid arguments to start from, arguments that break the schema, and oversized valid ones.

Every helper here confirms its result with the validator instead of trusting its own reading
of the schema: a value is only called valid (or invalid) once ``CompiledSchema`` says so.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

from sia_tui.core.errors import CanonicalizationError
from sia_tui.core.jsonkit.canonical import canonical_bytes
from sia_tui.core.jsonkit.pointer import display, join
from sia_tui.core.run.answer_types import ExampleArguments
from sia_tui.core.schemas.skeleton import skeleton_for
from sia_tui.core.schemas.validation import CompiledSchema

#: The largest request a probe builds to exceed ``max_input_bytes`` (a larger declared limit
#: skips the probe rather than sending megabytes to someone's agent).
MAX_OVERSIZED_BYTES = 4 * 1024 * 1024


def example_arguments(
    compiled: CompiledSchema, example: ExampleArguments | None = None
) -> tuple[Any, str] | None:
    """Valid arguments to start from: ``example`` (the run's, ``Run.answers.example_arguments``)
    when it validates, else the input schema's skeleton when that validates.

    Returns (arguments, "example" | "skeleton"), or None when neither validates.
    """
    if example is not None and compiled.is_valid(example.value):
        return copy.deepcopy(example.value), "example"
    skeleton = skeleton_for(compiled.schema)
    if compiled.is_valid(skeleton):
        return skeleton, "skeleton"
    return None


def jcs_size(value: Any) -> int | None:
    """Bytes of ``value`` in RFC 8785 form (the most compact JSON), None if not representable."""
    try:
        return len(canonical_bytes(value))
    except CanonicalizationError:
        return None


def _string_leaves(value: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """Paths of every string inside ``value``, in document order."""
    if isinstance(value, str):
        yield path
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _string_leaves(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _string_leaves(item, (*path, str(index)))


def _with(value: Any, path: tuple[str, ...], new: Any) -> Any:
    """A deep copy of ``value`` with the member at ``path`` replaced by ``new``."""
    if not path:
        return new
    out = copy.deepcopy(value)
    node = out
    for key in path[:-1]:
        node = node[int(key)] if isinstance(node, list) else node[key]
    if isinstance(node, list):
        node[int(path[-1])] = new
    else:
        node[path[-1]] = new
    return out


def _get(value: Any, path: tuple[str, ...]) -> Any:
    for key in path:
        value = value[int(key)] if isinstance(value, list) else value[key]
    return value


def oversized_arguments(compiled: CompiledSchema, base: Any, limit: int) -> tuple[Any, str] | str:
    """Arguments that still validate but exceed ``limit`` bytes, and what was padded.

    One string member of ``base`` is lengthened until the RFC 8785 form is a little over
    the limit (JCS is the most compact serialization, so any other count is larger too).
    Returns (arguments, note), or the reason it cannot be done.
    """
    size = jcs_size(base)
    if size is None:
        return "the valid arguments cannot be serialized as RFC 8785 JSON"
    target = limit + max(16, limit // 100)  # clearly over, whatever the agent counts
    if target > MAX_OVERSIZED_BYTES:
        return f"max_input_bytes is {limit}; a probe sends at most {MAX_OVERSIZED_BYTES} bytes"
    if size > limit:
        return (base, f"the valid arguments are already {size} bytes")
    for path in _string_leaves(base):
        padded = _with(base, path, _get(base, path) + "x" * (target - size))
        if compiled.is_valid(padded):
            return padded, f"{display(join(list(path)))} padded to {jcs_size(padded)} bytes"
    return "no string member of the valid arguments can grow and stay valid"


def breaking_arguments(compiled: CompiledSchema) -> tuple[Any, str] | None:
    """A value the input schema rejects at its root, so no agent can act on it.

    Wrong envelopes carry these (the safety rule): even an agent that skips validation
    has nothing to work with. None when the schema accepts every candidate.
    """
    candidates: tuple[tuple[Any, str], ...] = (
        ("sia-tui probe: not valid arguments", "a string where the schema wants arguments"),
        ([], "an empty array where the schema wants arguments"),
        ({}, "an empty object"),
        (None, "null"),
    )
    for value, note in candidates:
        if not compiled.is_valid(value):
            return value, note
    return None
