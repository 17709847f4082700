"""Strict JSON loader: every rejection is a clear error with its position."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sia_tui.core import limits
from sia_tui.core.errors import JsonInputError
from sia_tui.core.jsonkit.jsonshape import measure
from sia_tui.core.jsonkit.strictjson import load_path, loads, parse


def _error(data: bytes | str, **kwargs: int) -> JsonInputError:
    with pytest.raises(JsonInputError) as info:
        loads(data, **kwargs)  # type: ignore[arg-type]
    return info.value


def test_numbers_keep_their_kind() -> None:
    value = loads(b'{"i": 3, "f": 3.0, "e": 1e2, "n": -0}')
    assert value == {"i": 3, "f": 3.0, "e": 100.0, "n": 0}
    assert type(value["i"]) is int and type(value["f"]) is float and type(value["e"]) is float


def test_duplicate_member_names_are_located() -> None:
    error = _error(b'{\n  "a": {"x": 1,\n        "x": 2}\n}')
    assert "duplicate member name 'x'" in error.message
    assert (error.line, error.column) == (3, 9)
    assert error.pointer == "/a"


def test_first_duplicate_in_text_order_is_reported() -> None:
    error = _error(b'{"a": 1, "a": {"b": 1, "b": 2}}')
    assert "'a'" in error.message and error.column == 10 and error.pointer == ""


def test_ten_thousand_deep_nesting_gives_a_clean_error() -> None:
    error = _error(b"[" * 10_000 + b"]" * 10_000)
    assert f"deeper than {limits.MAX_JSON_DEPTH}" in error.message
    assert (error.line, error.column) == (1, limits.MAX_JSON_DEPTH + 1)
    assert error.pointer == "/0" * (limits.MAX_JSON_DEPTH - 1)


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    text = '["' + "[" * 5000 + '"]'
    assert loads(text) == ["[" * 5000]


def test_nesting_at_the_limit_is_accepted() -> None:
    """The deepest text accepted is read whole: every level is in the value."""
    depth = limits.MAX_JSON_DEPTH
    text = "[" * depth + "]" * depth
    assert json.dumps(loads(text)) == text


def test_fifty_megabyte_input_is_refused_before_parsing(tmp_path: Path) -> None:
    big = b"[" + b"1," * (25 * 1024 * 1024) + b"1]"
    assert len(big) > 50_000_000
    error = _error(big)
    assert f"over the {limits.MAX_JSON_BYTES}-byte limit" in error.message
    assert error.offset == limits.MAX_JSON_BYTES and error.line == 1
    path = tmp_path / "big.json"
    path.write_bytes(big)
    with pytest.raises(JsonInputError, match="file is .* over the") as info:
        load_path(path)
    assert info.value.source == str(path)


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_rejected(literal: str) -> None:
    error = _error(f'{{"v": [1,\n {literal}]}}')
    assert f"{literal} is not valid JSON" in error.message
    assert (error.line, error.column, error.pointer) == (2, 2, "/v")


def test_overflowing_number_is_rejected() -> None:
    error = _error("[1e400]")
    assert "overflows" in error.message and error.column == 2


@pytest.mark.parametrize(
    "text, column, what",
    [
        ('{"k": "a\\ud800b"}', 7, "string"),
        ('{"\\udc00": 1}', 2, "member name"),
        ('["ok", "\\uDBFF"]', 8, "string"),
    ],
)
def test_lone_surrogates_are_rejected(text: str, column: int, what: str) -> None:
    error = _error(text.encode())
    assert error.message == f"{what} contains a lone UTF-16 surrogate"
    assert (error.line, error.column) == (1, column)


def test_surrogate_pair_and_escaped_backslash_are_fine() -> None:
    assert loads(b'["\\ud83d\\ude00", "\\\\ud800"]') == ["\U0001f600", "\\ud800"]


def test_lone_surrogate_in_a_str_input_is_rejected() -> None:
    assert "lone UTF-16 surrogate" in _error('["\ud800"]').message


def test_invalid_utf8_is_located() -> None:
    error = _error(b'{"a":\n ["ok", "\xff"]}')
    assert "invalid UTF-8: byte 0xff" in error.message
    assert (error.line, error.column, error.pointer) == (2, 10, "/a")


@pytest.mark.parametrize("data", [b"", b"  \n\t ", ""])
def test_empty_input_is_rejected(data: bytes | str) -> None:
    error = _error(data)
    assert error.message == "empty input: expected a JSON value"
    assert (error.line, error.column) == (1, 1)


def test_empty_file_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.json"
    path.write_bytes(b"")
    with pytest.raises(JsonInputError) as info:
        load_path(path)
    assert str(info.value) == f"{path}:1:1: empty input: expected a JSON value"


def test_trailing_garbage_is_rejected() -> None:
    error = _error(b'{"a": 1}\n  x')
    assert error.message == "unexpected data after the JSON value"
    assert (error.line, error.column) == (2, 3)


def test_syntax_error_names_the_container() -> None:
    error = _error(b'{"a": {"b": [1, 2,]}}')
    assert error.pointer == "/a/b" and error.column == 19


def test_overlong_number_literal_is_rejected() -> None:
    error = _error("[" + "1" * (limits.MAX_NUMBER_CHARS + 1) + "]")
    assert "longer than" in error.message and error.column == 2


def test_byte_order_mark_is_tolerated() -> None:
    assert loads("\ufeff[1]".encode()) == [1]


def test_missing_file_is_a_json_input_error(tmp_path: Path) -> None:
    with pytest.raises(JsonInputError, match="cannot read file"):
        load_path(tmp_path / "nope.json")


def test_source_prefixes_the_message() -> None:
    with pytest.raises(JsonInputError, match=r"^card\.json:1:2: "):
        loads(b"[NaN]", source="card.json")


def test_unterminated_string_of_escaped_quotes_is_refused_in_linear_time() -> None:
    """A hostile body (many brackets, then an endless run of \\") must not freeze the
    client: the scans that locate the error read the unterminated string once (regressed,
    this input takes hours instead of milliseconds)."""
    hostile = "[]" * 300 + '"' + '\\"' * 200_000
    with pytest.raises(JsonInputError):
        loads(hostile)


@pytest.mark.parametrize(
    "opener, closer, step, segment",
    [("[", "]", 1, "/0"), ('{"a":', "}", 5, "/a")],
)
def test_hundred_thousand_deep_nesting_gives_a_clean_error(
    opener: str, closer: str, step: int, segment: str
) -> None:
    """The C decoder recurses: past its limit the error must still be the located depth
    error, never a RecursionError."""
    error = _error(opener * 100_000 + "1" + closer * 100_000)
    assert f"deeper than {limits.MAX_JSON_DEPTH}" in error.message
    assert (error.line, error.column) == (1, limits.MAX_JSON_DEPTH * step + 1)
    assert error.pointer == segment * (limits.MAX_JSON_DEPTH - 1)


def test_nesting_the_c_decoder_accepts_is_still_refused_past_the_limit() -> None:
    error = _error("[" * 300 + "]" * 300)
    assert f"deeper than {limits.MAX_JSON_DEPTH}" in error.message
    assert error.column == limits.MAX_JSON_DEPTH + 1


def test_too_deep_is_reported_before_other_problems() -> None:
    error = _error("[" * 300 + '{"a": 1, "a": NaN}' + "]" * 300)
    assert f"deeper than {limits.MAX_JSON_DEPTH}" in error.message


def test_overflow_inside_a_container_is_located() -> None:
    error = _error('{"a": [1,\n  -1e400]}')
    assert error.message == "number -1e400 overflows an IEEE-754 double"
    assert (error.line, error.column, error.pointer) == (2, 3, "/a")


def test_overflow_without_an_exponent_is_rejected() -> None:
    literal = "1" + "0" * 400 + ".5"
    assert "overflows" in _error(f"[{literal}]").message


def test_big_integers_are_kept_exactly() -> None:
    """Strict loading keeps integers of any size (up to the literal length limit); it is
    JCS that refuses those past 2**53 - 1 (test_canonical)."""
    assert loads("[" + "1" + "0" * 400 + "]") == [10**400]


def test_long_digit_runs_inside_strings_are_not_numbers() -> None:
    digits = "1" * (limits.MAX_NUMBER_CHARS + 500)
    assert loads(f'{{"{digits}": ["{digits}", 1.5e3]}}') == {digits: [digits, 1500.0]}
    assert loads(f'["\\\\", "\\"{digits}"]') == ["\\", f'"{digits}']


def test_long_number_after_strings_with_escaped_quotes_is_found() -> None:
    error = _error('["a\\"b", "\\\\", ' + "1" * (limits.MAX_NUMBER_CHARS + 1) + "]")
    assert "longer than" in error.message and error.column == 16


def test_overlong_number_is_located_with_its_container() -> None:
    error = _error('{"a": {"b": -' + "9" * limits.MAX_NUMBER_CHARS + "}}")
    assert "longer than" in error.message
    assert (error.column, error.pointer) == (13, "/a")


def test_lone_surrogate_in_a_str_key_is_located() -> None:
    error = _error('{"ok": 1, "\ud800": 2}')
    assert error.message == "member name contains a lone UTF-16 surrogate"
    assert error.column == 11


def test_parse_returns_the_walk_of_the_value_it_parsed() -> None:
    parsed = parse(b'{"a": [1, 2.0, {"b": "x"}], "c": 3.5}')
    assert parsed.value == {"a": [1, 2.0, {"b": "x"}], "c": 3.5}
    assert parsed.shape == measure(parsed.value, limits.MAX_JSON_DEPTH)
    assert parsed.shape.depth == 3 and parsed.shape.encoder_safe
    assert id(parsed.value["a"]) in parsed.shape.rewrite  # 2.0 must be written as 2


def test_a_raw_control_character_is_named_not_left_at_a_dangling_at() -> None:
    """json says "Invalid control character at" and stops: the user is told which one."""
    error = _error(b'{"a": "x\x1b[31m"}')
    assert error.message == "raw control character U+001B in a string (write it as an escape)"
    assert (error.line, error.column) == (1, 9)
