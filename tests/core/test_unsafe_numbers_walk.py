"""``unsafe_numbers`` first asks whether a value holds any number beyond +/-(2**53 - 1)
without building a path per value (the paths were most of step 10's time on a 5 MB
result): it must report exactly what the walk over every path reports (RULES SR4)."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from sia_tui.core.jsonkit.numbers import MAX_SAFE_INTEGER, unsafe_numbers
from sia_tui.core.jsonkit.pointer import join


def _beyond(number: float) -> bool:
    return abs(number) > MAX_SAFE_INTEGER and not (type(number) is float and math.isinf(number))


def _reference(value: Any, limit: int) -> list[tuple[str, int | float]]:
    """The walk before the quick test: every value with its path, in document order."""
    found: list[tuple[str, int | float]] = []
    pending: list[tuple[tuple[str | int, ...], Any]] = [((), value)]
    while pending and len(found) < limit:
        path, node = pending.pop()
        if type(node) is dict:
            pending.extend(((*path, k), v) for k, v in reversed(node.items()))
        elif type(node) is list:
            pending.extend(((*path, i), v) for i, v in reversed(list(enumerate(node))))
        elif type(node) in (int, float) and _beyond(node):
            found.append((join(path), node))
    return found


#: Numbers on both sides of the bound, the infinities and NaN, and non-numbers (a bool is
#: an int subclass: never a number here).
_EDGE = st.sampled_from(
    [MAX_SAFE_INTEGER, MAX_SAFE_INTEGER + 1, -MAX_SAFE_INTEGER - 1, 2.0**53, 2.0**60, -1e300]
)
_SCALARS = st.one_of(
    st.integers(),
    _EDGE,
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.none(),
    st.text(max_size=3),
)
_JSON = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=2), inner),
    max_leaves=30,
)


@given(_JSON, st.integers(min_value=1, max_value=4))
def test_the_quick_test_reports_what_the_full_walk_reports(value: Any, limit: int) -> None:
    assert unsafe_numbers(value, limit) == _reference(value, limit)


def test_a_safe_5mb_like_result_reports_nothing_and_an_unsafe_one_its_pointer() -> None:
    samples = [{"sample": n, "value": n % 100, "note": "padding"} for n in range(5000)]
    assert unsafe_numbers({"x_samples": samples}) == []
    samples[4321]["value"] = 2**64
    assert unsafe_numbers({"x_samples": samples}) == [("/x_samples/4321/value", 2**64)]
