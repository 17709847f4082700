"""Lenient object reading: enum spellings, part discrimination, the 0.3 REST data wrapper."""

from __future__ import annotations

from typing import Any

import pytest

from sia_tui.core.a2a.http.codec import make_user_message, read_task
from sia_tui.core.a2a.objects import normalize_role, normalize_state, parse_part
from sia_tui.core.errors import A2AProtocolError


@pytest.mark.parametrize(
    ("raw", "state"),
    [
        ("completed", "TASK_STATE_COMPLETED"),
        ("input-required", "TASK_STATE_INPUT_REQUIRED"),
        ("auth-required", "TASK_STATE_AUTH_REQUIRED"),
        ("unknown", "TASK_STATE_UNSPECIFIED"),
        ("TASK_STATE_REJECTED", "TASK_STATE_REJECTED"),
        (3, "TASK_STATE_COMPLETED"),
        (7.0, "TASK_STATE_REJECTED"),
        (None, "TASK_STATE_UNSPECIFIED"),
        (True, "TASK_STATE_UNSPECIFIED"),
        # A later A2A state keeps its name; what is not a name is no state.
        ("TASK_STATE_PAUSED", "TASK_STATE_PAUSED"),
        ("TASK_STATE_\x1b]52;c;cHduZWQ=\x07", "TASK_STATE_UNSPECIFIED"),
        ("completed\u202e", "TASK_STATE_UNSPECIFIED"),
        ("TASK_STATE_" + "X" * 10_000, "TASK_STATE_UNSPECIFIED"),
        (42, "TASK_STATE_UNSPECIFIED"),
        (10**400, "TASK_STATE_UNSPECIFIED"),
    ],
)
def test_states_normalized(raw: Any, state: str) -> None:
    assert normalize_state(raw) == state


@pytest.mark.parametrize(
    ("raw", "role"),
    [
        ("user", "ROLE_USER"),
        ("agent", "ROLE_AGENT"),
        ("ROLE_AGENT", "ROLE_AGENT"),
        (1, "ROLE_USER"),
        ("robot", "ROLE_UNSPECIFIED"),
        (None, "ROLE_UNSPECIFIED"),
    ],
)
def test_roles_normalized(raw: Any, role: str) -> None:
    assert normalize_role(raw) == role


@pytest.mark.parametrize(
    ("raw", "kind", "value"),
    [
        ({"data": {"a": 1}, "mediaType": "application/json"}, "data", {"a": 1}),
        ({"kind": "data", "data": {"a": 1}}, "data", {"a": 1}),
        ({"kind": "text", "text": "hi"}, "text", "hi"),
        ({"url": "https://x/y"}, "url", "https://x/y"),
        ({"raw": "AAE="}, "raw", "AAE="),
        (
            {"kind": "file", "file": {"uri": "https://x/f", "mimeType": "text/csv"}},
            "url",
            "https://x/f",
        ),
        ({"kind": "file", "file": {"bytes": "AAE="}}, "raw", "AAE="),
        ({"mystery": 1}, "unknown", {"mystery": 1}),
    ],
)
def test_parts_by_member_or_kind(raw: dict[str, Any], kind: str, value: Any) -> None:
    part = parse_part(raw)
    assert (part.kind, part.value) == (kind, value)


def test_a_v1_data_part_holding_data_is_not_unwrapped() -> None:
    task = {
        "id": "t",
        "status": {"state": "TASK_STATE_COMPLETED"},
        "artifacts": [{"artifactId": "a", "parts": [{"data": {"data": 5}}]}],
    }
    assert read_task(task, jsonrpc=False).artifacts[0].data_parts() == [{"data": 5}]
    # The same bytes from a 0.3 REST interface are ProtoJSON: the DataPart wraps a Struct.
    assert read_task(task, jsonrpc=False, proto03=True).artifacts[0].data_parts() == [5]


@pytest.mark.parametrize("bad", [{"id": "t"}, {"id": "t", "status": "done"}, [], "task"])
def test_task_shapes_that_cannot_be_read(bad: Any) -> None:
    with pytest.raises(A2AProtocolError):
        read_task(bad, jsonrpc=False)


def test_user_messages_per_dialect() -> None:
    v1 = make_user_message({"skill": "x"}, dialect="1.0")
    v03 = make_user_message({"skill": "x"}, dialect="0.3")
    assert v1["role"] == "ROLE_USER" and "kind" not in v1
    assert v1["parts"] == [{"data": {"skill": "x"}, "mediaType": "application/json"}]
    assert v03["role"] == "user" and v03["kind"] == "message"
    assert v03["parts"] == [{"kind": "data", "data": {"skill": "x"}}]
    assert v1["messageId"] != make_user_message({}, dialect="1.0")["messageId"]
