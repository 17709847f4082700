"""RFC 6901 pointers and the pointer -> (line, column) index (RULES FMT2)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from sia_tui.core.jsonkit.pointer import (
    PositionIndex,
    Segment,
    container_pointer_at,
    escape,
    join,
    locate_values,
    resolve,
    split,
    unescape,
    walk,
)

DOC = {
    "foo": ["bar", "baz"],
    "": 0,
    "a/b": 1,
    "c%d": 2,
    "e^f": 3,
    "g|h": 4,
    "i\\j": 5,
    'k"l': 6,
    " ": 7,
    "m~n": 8,
}


@pytest.mark.parametrize(
    "pointer, expected",
    [
        ("", DOC),
        ("/foo", ["bar", "baz"]),
        ("/foo/0", "bar"),
        ("/", 0),
        ("/a~1b", 1),
        ("/c%d", 2),
        ("/e^f", 3),
        ("/g|h", 4),
        ("/i\\j", 5),
        ('/k"l', 6),
        ("/ ", 7),
        ("/m~0n", 8),
    ],
)
def test_rfc6901_section5_examples(pointer: str, expected: object) -> None:
    assert resolve(DOC, pointer) == expected


@pytest.mark.parametrize("pointer", ["/foo/2", "/foo/01", "/foo/-", "/nope", "/foo/0/x"])
def test_missing_targets_raise_key_error(pointer: str) -> None:
    with pytest.raises(KeyError):
        resolve(DOC, pointer)


def test_escape_round_trip_and_order() -> None:
    assert escape("a/b~c") == "a~1b~0c"
    assert unescape("~01") == "~1"  # RFC 6901 section 4: ~1 before ~0 would give "/"
    assert join(["a/b", 0, "~"]) == "/a~1b/0/~0"
    assert split("/a~1b/0/~0") == ["a/b", "0", "~"]
    with pytest.raises(ValueError):
        split("no-slash")


TEXT = """{
  "name": "x",
  "items": [
    1,
    {"a/b": true, "c": [null, "s"]}
  ],
  "esc\\"q": "v"
}"""


#: Where each value of TEXT starts (1-based line, column).
WHERE = [
    ("", (1, 1)),
    ("/name", (2, 11)),
    ("/items", (3, 12)),
    ("/items/0", (4, 5)),
    ("/items/1", (5, 5)),
    ("/items/1/a~1b", (5, 13)),
    ("/items/1/c/1", (5, 31)),
    ('/esc"q', (7, 13)),
]


@pytest.mark.parametrize("pointer, where", WHERE)
def test_position_index_finds_values(pointer: str, where: tuple[int, int]) -> None:
    assert PositionIndex(TEXT).position(pointer) == where


def test_position_index_keys_and_fallback() -> None:
    index = PositionIndex(TEXT)
    assert index.position("/items/1/c", key=True) == (5, 19)
    assert index.position("/items/1/missing") == (5, 5)  # nearest existing ancestor
    assert index.position("/items/1/missing", fallback=False) is None


@pytest.mark.parametrize("pointer, where", WHERE)
def test_locate_values_finds_what_the_index_finds(pointer: str, where: tuple[int, int]) -> None:
    assert locate_values(TEXT, [pointer]) == {pointer: where}


def test_locate_values_falls_back_to_the_nearest_ancestor() -> None:
    found = locate_values(TEXT, ["/items/1/missing", "/items/7", "/name/deeper", "bad"])
    assert found == {
        "/items/1/missing": (5, 5),
        "/items/7": (3, 12),
        "/name/deeper": (2, 11),
        "bad": (1, 1),  # no pointer: the root, as PositionIndex places it
    }


def test_locate_values_takes_text_the_decoder_rejects_to_the_index() -> None:
    text = '{"a": [1, 2,, 3], "b": NaNx}'
    pointers = ["/a/1", "/b", ""]
    index = PositionIndex(text)
    assert locate_values(text, pointers) == {p: index.position(p) for p in pointers}


def test_locate_values_stops_once_every_pointer_is_found(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The editor's errors sit before a 1 MB member: decoding that member to skip it was
    # most of the time between a keystroke and its error on screen.
    from sia_tui.core.jsonkit import pointer as module

    scanned: list[int] = []
    scan = module._SCAN_VALUE

    def counting(text: str, pos: int) -> Any:
        scanned.append(pos)
        return scan(text, pos)

    monkeypatch.setattr(module, "_SCAN_VALUE", counting)
    text = '{"a": {"b": 1, "c": 2}, "pad": [' + ", ".join(["{}"] * 1000) + "]}"
    assert locate_values(text, ["/a/b", ""]) == {"": (1, 1), "/a/b": (1, 13)}
    assert scanned == []  # found where they start: /a/c and the pad are never decoded


def _pointers(value: Any, path: tuple[str | int, ...] = ()) -> list[str]:
    found = [join(path)]
    if isinstance(value, dict):
        for key, child in value.items():
            found += _pointers(child, (*path, key))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            found += _pointers(child, (*path, i))
    return found


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)
@given(value=_JSON, indent=st.sampled_from([None, 0, 2]), ascii_only=st.booleans())
def test_locate_values_agrees_with_the_position_index(
    value: Any, indent: int | None, ascii_only: bool
) -> None:
    """The fast locator (C decoder skips what no pointer needs) places every value, and
    every absent one under it, where the tokenizer-based index does."""
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    pointers = _pointers(value)
    pointers += [p + "/absent" for p in pointers] + [p + "/0" for p in pointers]
    index = PositionIndex(text)
    assert locate_values(text, pointers) == {p: index.position(p) for p in pointers}


def _container_pointer_by_walk(text: str, offset: int) -> str:
    """The innermost container open at ``offset`` by the tokenizer, token by token (how
    ``container_pointer_at`` read it until a cut 1 MB array took it 1.5 s)."""
    inside: tuple[Segment, ...] = ()
    for token in walk(text):
        if token.offset >= offset:
            break
        if token.kind == "close":
            inside = token.path[:-1]
        elif text[token.offset] in "{[":
            inside = token.path
    return join(inside)


#: JSON texts and the broken ones an error is located in: cut anywhere, a character
#: dropped or doubled, brackets unbalanced, bad escapes in member names, bare words.
_PIECES = st.lists(
    st.sampled_from(['"', "\\", ",", ":", "{", "}", "[", "]", " ", "\t", "0", "a", '"\\x"']),
    max_size=3,
).map("".join)


@st.composite
def _texts_and_offsets(draw: st.DrawFn) -> tuple[str, int]:
    text = json.dumps(draw(_JSON), indent=draw(st.sampled_from([None, 2])))
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(text)))
        cut = draw(st.integers(0, 2))
        text = text[:at] + draw(_PIECES) + text[at + cut :]
    return text, draw(st.integers(0, len(text) + 1))


#: 100 generated texts with the two places where the tokenizer stops early (an unterminated
#: string, a member name with a bad escape) given: every branch of the reader is reached.
@settings(max_examples=100)
@given(case=_texts_and_offsets())
@example(case=('[0, ["abc, [1', 13))
@example(case=('{"a": [0, 1], "\\x": [1', 23))
def test_container_pointer_at_says_what_the_tokenizer_says(case: tuple[str, int]) -> None:
    """Where a parse error is located (its container's pointer): the comma-counting reader
    agrees with the tokenizer on valid, cut and broken texts alike."""
    text, offset = case
    assert container_pointer_at(text, offset) == _container_pointer_by_walk(text, offset)


def test_container_pointer_at_counts_the_elements_before_a_cut() -> None:
    """An error in a cut array names the array it is in, by its index in its parent."""
    text = '{"a": [1, [2, 3], {"b": [' + "0," * 100_000
    assert container_pointer_at(text, len(text)) == "/a/2/b"
    assert container_pointer_at(text, text.index("3")) == "/a/1"
    assert container_pointer_at(text, text.index("{", 1)) == "/a"
