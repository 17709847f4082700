"""RFC 6901 pointers and the pointer -> (line, column) index (RULES FMT2)."""

from __future__ import annotations

import pytest

from sia_tui.core.pointer import PositionIndex, escape, join, resolve, split, unescape

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


@pytest.mark.parametrize(
    "pointer, where",
    [
        ("", (1, 1)),
        ("/name", (2, 11)),
        ("/items", (3, 12)),
        ("/items/0", (4, 5)),
        ("/items/1", (5, 5)),
        ("/items/1/a~1b", (5, 13)),
        ("/items/1/c/1", (5, 31)),
        ('/esc"q', (7, 13)),
    ],
)
def test_position_index_finds_values(pointer: str, where: tuple[int, int]) -> None:
    assert PositionIndex(TEXT).position(pointer) == where


def test_position_index_keys_and_fallback() -> None:
    index = PositionIndex(TEXT)
    assert index.position("/items/1/c", key=True) == (5, 19)
    assert index.position("/items/1/missing") == (5, 5)  # nearest existing ancestor
    assert index.position("/items/1/missing", fallback=False) is None
