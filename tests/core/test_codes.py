"""The draft's ten error codes as one enum (RULES ERR2, ERR3)."""

from __future__ import annotations

import json

import pytest

from sia_tui.core.codes import (
    ERROR_CODES,
    ErrorCode,
    as_error_code,
    describe_code,
    expected_states,
)

#: The terminal states as the wire names them (WIRE.md), not as the code under test does.
FAILED, REJECTED = "TASK_STATE_FAILED", "TASK_STATE_REJECTED"

# Vendored from the draft's error-code table (shared spec WIRE.md), in its order.
DRAFT_TABLE = [
    ("skill_not_advertised", set()),
    ("interface_unavailable", {FAILED}),
    ("interface_invalid", {FAILED}),
    ("interface_mismatch", {REJECTED}),
    ("input_invalid", {REJECTED}),
    ("constraint_rejected", {REJECTED}),
    ("authorization_failed", {REJECTED}),
    ("resource_limit_exceeded", {REJECTED, FAILED}),
    ("execution_failed", {FAILED}),
    ("output_invalid", {FAILED}),
]


def test_the_enum_is_exactly_the_drafts_ten_codes_in_table_order() -> None:
    assert [c.value for c in ErrorCode] == [code for code, _ in DRAFT_TABLE]
    assert list(ERROR_CODES) == list(ErrorCode)


@pytest.mark.parametrize(("code", "states"), DRAFT_TABLE)
def test_each_code_pairs_with_the_drafts_terminal_states(code: str, states: set[str]) -> None:
    """RULES ERR3: the terminal state depends on when the failure happened."""
    assert expected_states(ErrorCode(code)) == states
    info = describe_code(code)
    assert info is not None and info.code == code and info.hint


def test_codes_are_plain_strings_on_the_wire() -> None:
    assert json.dumps({"code": ErrorCode.INTERFACE_INVALID}) == '{"code": "interface_invalid"}'
    assert f"{ErrorCode.OUTPUT_INVALID}" == "output_invalid"


@pytest.mark.parametrize(
    "value", ["Interface_Invalid", "transport", "", None, 3, ["input_invalid"]]
)
def test_anything_outside_the_ten_is_not_a_code(value: object) -> None:
    """RULES ERR2: an unknown code is never shown as a draft code."""
    assert as_error_code(value) is None
    if isinstance(value, str):
        assert describe_code(value) is None
