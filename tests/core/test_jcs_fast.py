"""The JCS fast path (the C encoder) writes exactly rfc8785's bytes (RULES SR4, SR5).

rfc8785 is the reference. The fast path may decline (returns None) but must never differ:
checked on generated values, on the cyberphone vectors and on a sweep of number edges.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any

import pytest
import rfc8785
from hypothesis import event, given, settings
from hypothesis import strategies as st

from sia_tui.core import limits
from sia_tui.core.errors import CanonicalizationError
from sia_tui.core.jsonkit.canonical import canonical_bytes
from sia_tui.core.jsonkit.jcs_fast import encoder_bytes
from sia_tui.core.jsonkit.jsonshape import measure
from sia_tui.core.jsonkit.strictjson import load_path

#: Property tests and a sweep of numbers.
#: Slow: started first (tests/conftest.py), so it never ends a run alone.
pytestmark = pytest.mark.slow

JCS = Path(__file__).parent.parent / "vectors" / "jcs"


def fast(value: Any) -> bytes | None:
    return encoder_bytes(value, measure(value, limits.MAX_JSON_DEPTH))


def reference(value: Any) -> bytes | None:
    """rfc8785's bytes, or None when it refuses the value."""
    try:
        return rfc8785.dumps(value)
    except (ValueError, RecursionError):  # incl. UnicodeEncodeError for a lone-surrogate key
        return None


def assert_same_as_reference(value: Any) -> None:
    expected = reference(value)
    got = fast(value)
    event("fast path" if got is not None else "reference")
    assert got is None or got == expected, (value, got, expected)
    if expected is None:
        with pytest.raises(CanonicalizationError):
            canonical_bytes(value)
    else:
        assert canonical_bytes(value) == expected


# Leaves JCS and the C encoder write alike, some only after the fast path's rewrite:
# controls (escaped), DEL, U+2028, BMP characters above the surrogates, integral floats,
# exponent forms from 1e21 up, fixed forms down to 1e-4, integers up to 2**53 - 1.
_BMP_TEXT = st.text(
    st.one_of(
        st.characters(min_codepoint=0, max_codepoint=0x7F),
        st.characters(min_codepoint=0x80, max_codepoint=0xFFFF, exclude_categories=["Cs"]),
        st.sampled_from("é€\x7f\u2028\ufb33\uffff\ue000"),
    ),
    max_size=8,
)
_FAST_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    _BMP_TEXT,
    st.integers(-(2**53 - 1), 2**53 - 1),
    st.sampled_from([0, 2**53 - 1, -(2**53 - 1), 0.0, -0.0, 1e-4, -1e-4, 1e21, 2.0**53 - 1]),
    st.integers(-(2**53 - 1), 2**53 - 1).map(float),  # integral: rewritten as integers
    st.floats(min_value=1e-4, max_value=1e22).map(lambda x: x if x < 2**53 else 1e21 + x),
    st.floats(min_value=1e21, allow_infinity=False).map(lambda x: -x),
)
# Leaves that send a value to the reference: astral keys, lone surrogates, floats below
# 1e-4 or integral between 2**53 and 1e21, NaN and infinities, integers past 2**53 - 1.
_OTHER_LEAVES = st.one_of(
    st.text(st.sampled_from("a\U0001f600\U0010ffff\ud800\udfff"), min_size=1, max_size=4),
    st.floats(min_value=-1e-4, max_value=1e-4),
    st.floats(),
    st.integers(2**53, 2**70).map(float),
    st.sampled_from([2**53, -(2**53), 10**400, 1e-7, 5e-324, float("nan")]),
)


def _documents(leaves: st.SearchStrategy[Any], keys: st.SearchStrategy[str]) -> Any:
    values = st.recursive(
        leaves,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
        max_leaves=15,
    )
    return st.one_of(st.lists(values, max_size=5), st.dictionaries(keys, values, max_size=5))


# 100 documents (was 300; hypothesis's drawing was nearly all the time): every character a
# string can hold is checked below, and numbers by the sweep, so the generated documents
# need to cover shapes (nesting, keys beside keys, rewritten floats deep inside), not leaves.
@settings(max_examples=100, deadline=None, database=None)
@given(_documents(_FAST_LEAVES, _BMP_TEXT))
def test_fast_path_writes_rfc8785_bytes_for_tricky_plain_values(value: Any) -> None:
    """Every leaf here is one the fast path must handle itself, and byte-identically."""
    assert fast(value) == rfc8785.dumps(value)
    assert canonical_bytes(value) == rfc8785.dumps(value)


@settings(max_examples=100, deadline=None, database=None)  # as above
@given(
    _documents(
        st.one_of(_FAST_LEAVES, _FAST_LEAVES, _OTHER_LEAVES),
        st.one_of(_BMP_TEXT, st.text(st.sampled_from("b\U0001f600\ud800"), max_size=3)),
    )
)
def test_fast_path_never_differs_from_rfc8785(value: Any) -> None:
    """On any value the fast path either declines or writes the reference's bytes, and
    canonical_bytes refuses exactly what rfc8785 refuses."""
    assert_same_as_reference(value)


# Which cyberphone vectors the fast path takes: 56.0 in structures.json is an integral
# float (rewritten as 56); values.json holds 1e-27 and weird.json an astral key.
FAST_VECTORS = {
    "arrays": True,
    "french": True,
    "structures": True,
    "unicode": True,
    "values": False,
    "weird": False,
}


@pytest.mark.parametrize("name", sorted(FAST_VECTORS))
def test_cyberphone_vectors_through_the_fast_path(name: str) -> None:
    value = load_path(JCS / "input" / f"{name}.json")
    expected = (JCS / "output" / f"{name}.json").read_bytes()
    got = fast(value)
    assert (got is not None) is FAST_VECTORS[name]
    assert got in (None, expected)
    assert canonical_bytes(value) == expected


def test_every_bmp_character_as_key_and_value_matches_rfc8785() -> None:
    """Every character below U+10000 but the surrogates, as a key (sorted among all the
    others) and as a value, alone and between an escape-needing and a plain one."""
    chars = [chr(c) for c in range(0x10000) if not 0xD800 <= c <= 0xDFFF]
    value: dict[str, Any] = {
        "keys": dict.fromkeys(chars, 0),
        "values": chars,
        "among": ["a" + c + "\u2028\x1f" + c for c in chars],
    }
    expected = rfc8785.dumps(value)
    assert fast(value) == expected
    assert canonical_bytes(value) == expected


def _number_sweep() -> list[float]:
    """ES6 number edges: every decade, mantissas with 1 to 17 digits, their neighbours,
    and each place where ECMAScript or Python switch notation."""
    mantissas = [1.0, 1.5, 2.5, 5.0, 9.999999999999998, 1.2345678901234567, 3.333333333333333]
    values = [float(f"{m}e{e}") for e in range(-325, 309) for m in mantissas]
    values += [
        1e-4, 1e-5, 1e-6, 1e-7, 1e15, 1e16, 1e17, 1e20, 1e21, 1e22,
        2.0**53 - 1, 2.0**53, 2.0**53 + 2, 2.0**63, 2.0**64,
        5e-324, 2.2250738585072014e-308, sys.float_info.max, 0.1, 0.2, 0.30000000000000004,
        333333333.3333333, 1424953923781206.2, 9007199254740993.0, 123456789012345680.0,
    ]  # fmt: skip
    values += [math.nextafter(v, math.inf) for v in values] + [
        math.nextafter(v, 0.0) for v in values
    ]
    values += [-v for v in values] + [0.0, -0.0]
    return [v for v in values if math.isfinite(v)]


def test_number_sweep_matches_rfc8785() -> None:
    taken = 0
    for number in _number_sweep():
        # With 0.0 beside it the container is one the fast path rewrites (0.0 -> 0).
        for value in ([number], {"n": number}, [0.0, number]):
            expected = rfc8785.dumps(value)
            got = fast(value)
            assert got in (None, expected), (number, got, expected)
            assert canonical_bytes(value) == expected, number
            taken += got is not None
    assert taken > 6000  # the sweep exercised the fast path, not only the reference


@pytest.mark.parametrize(
    "number, text",
    [(3.0, "3"), (-0.0, "0"), (56.0, "56"), (2.0**53 - 1, "9007199254740991"), (1e21, "1e+21")],
)
def test_integral_floats_are_written_as_jcs_integers(number: float, text: str) -> None:
    assert fast([number, {"x": number}]) == f'[{text},{{"x":{text}}}]'.encode()


def test_rewriting_integral_floats_copies_and_leaves_the_value_alone() -> None:
    shared = {"a": 1.0, "b": [2.0, "x"]}
    value = [shared, {"again": shared}, {"plain": [1, 2]}]
    assert fast(value) == b'[{"a":1,"b":[2,"x"]},{"again":{"a":1,"b":[2,"x"]}},{"plain":[1,2]}]'
    assert value == [shared, {"again": shared}, {"plain": [1, 2]}]
    assert type(shared["a"]) is float and type(shared["b"][0]) is float  # type: ignore[index]


def test_cyclic_value_is_refused_without_hanging() -> None:
    loop: list[Any] = [1.0]
    loop.append(loop)
    assert fast(loop) is None
    with pytest.raises(CanonicalizationError, match="nested too deeply"):
        canonical_bytes(loop)
