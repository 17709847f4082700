"""The wire check of one recorded exchange: each error kind named at its pointer, with the
message kind and the specification's field name; warnings for unknown members; hostile
bodies answered in bounded issues, never a crash."""

from __future__ import annotations

import json
from typing import Any

import pytest

from sia_tui.core import limits
from sia_tui.core.exchange import Exchange
from sia_tui.core.wire import WireSeverity, WireVerdict, check_exchange, check_push_body

CARD = {
    "name": "a",
    "description": "b",
    "version": "1",
    "supportedInterfaces": [
        {"url": "http://x/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
    ],
    "capabilities": {"streaming": True},
    "defaultInputModes": ["application/json"],
    "defaultOutputModes": ["application/json"],
    "skills": [{"id": "s", "name": "s", "description": "d", "tags": []}],
}
TASK = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}
V1 = (("A2A-Version", "1.0"),)


def _json(value: Any) -> bytes:
    return json.dumps(value).encode()


def card_exchange(card: Any) -> Exchange:
    body = card if isinstance(card, bytes) else _json(card)
    return Exchange(1, "agent card", "GET", "http://x/.well-known/agent-card.json", (), b"",
                    status=200, response_body=body)  # fmt: skip


def rpc_exchange(method: str, answer: Any = None, events: tuple[Any, ...] = ()) -> Exchange:
    request = {"jsonrpc": "2.0", "id": 1, "method": method, "params": {"id": "t-1"}}
    if method in ("SendMessage", "SendStreamingMessage"):
        message = {"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "hi"}]}
        request["params"] = {"message": message}
    return Exchange(
        2, "invoke", "POST", "http://x/a2a", V1, _json(request), status=200,
        response_body=b"" if answer is None else _json(answer),
        events=tuple(_json(e) for e in events),
    )  # fmt: skip


def rest_exchange(path: str, answer: Any, *, status: int = 200, method: str = "GET") -> Exchange:
    return Exchange(3, "poll", method, f"http://x/rest{path}", V1, b"", status=status,
                    response_body=_json(answer))  # fmt: skip


def only(verdict: WireVerdict | None) -> tuple[str, str, str, str | None, str]:
    assert verdict is not None
    assert len(verdict.issues) == 1, [i.line() for i in verdict.issues]
    i = verdict.issues[0]
    return (i.severity.value, i.pointer, i.kind, i.field, i.problem)


def test_a_correct_card_is_ok_under_a2a_1_0() -> None:
    verdict = check_exchange(card_exchange(CARD))
    assert verdict is not None
    assert (verdict.revision, verdict.kinds, verdict.word) == ("1.0", ("AgentCard",), "ok")


def test_an_interface_without_protocol_binding_is_a_missing_member_at_its_pointer() -> None:
    card = json.loads(json.dumps(CARD))
    del card["supportedInterfaces"][0]["protocolBinding"]
    assert only(check_exchange(card_exchange(card))) == (
        "error",
        "/supportedInterfaces/0/protocolBinding",
        "AgentInterface",
        "AgentInterface.protocol_binding",
        "missing",
    )


def test_a_0_3_state_spelling_in_a_1_0_task_is_an_unknown_enum_value() -> None:
    task = dict(TASK, status={"state": "completed"})
    verdict = check_exchange(rpc_exchange("GetTask", {"jsonrpc": "2.0", "id": 1, "result": task}))
    assert only(verdict) == (
        "error",
        "/result/status/state",
        "TaskStatus",
        "TaskStatus.state",
        "unknown value",
    )
    assert verdict is not None and "completed" in verdict.issues[0].message


def test_a_wrong_type_names_the_field() -> None:
    task = dict(TASK, id=7)
    assert only(check_exchange(rest_exchange("/tasks/t-1", task))) == (
        "error", "/id", "Task", "Task.id", "wrong type"
    )  # fmt: skip


def test_an_event_that_is_no_a2a_kind_is_an_error_and_its_member_a_warning() -> None:
    good = {"statusUpdate": {"taskId": "t", "contextId": "c", "status": TASK["status"]}}
    odd = {"progressUpdate": {"percent": 50}}
    envelope = [{"jsonrpc": "2.0", "id": 1, "result": e} for e in (odd, good)]
    verdict = check_exchange(rpc_exchange("SendStreamingMessage", events=tuple(envelope)))
    assert verdict is not None
    lines = [(i.severity.value, i.where, i.pointer, i.kind, i.problem) for i in verdict.issues]
    assert lines == [
        ("error", "event 1", "/result", "StreamResponse", "exactly one"),
        ("warning", "event 1", "/result/progressUpdate", "StreamResponse", "unknown member"),
    ]
    assert "task, message, statusUpdate, artifactUpdate" in verdict.issues[0].message
    assert verdict.word == "1 error"


def test_an_unknown_member_is_only_a_warning() -> None:
    verdict = check_exchange(rest_exchange("/tasks/t-1", dict(TASK, vendorExtra=1)))
    assert only(verdict) == ("warning", "/vendorExtra", "Task", None, "unknown member")
    assert verdict is not None and (verdict.errors, verdict.warnings) == (0, 1)
    assert verdict.word == "1 warning"


def test_http_json_errors_and_json_rpc_errors_are_checked_as_errors() -> None:
    rest = rest_exchange("/tasks/nope", {"error": {"code": 404}}, status=404)
    assert only(check_exchange(rest)) == (
        "error", "/error/message", "Status", "Status.message", "missing"
    )  # fmt: skip
    rpc = rpc_exchange("GetTask", {"jsonrpc": "2.0", "id": 1, "error": {"code": "x"}})
    verdict = check_exchange(rpc)
    assert verdict is not None
    assert sorted((i.pointer, i.field, i.problem) for i in verdict.issues) == [
        ("/error/code", "JSONRPCError.code", "wrong type"),
        ("/error/message", "JSONRPCError.message", "missing"),
    ]


def test_a_0_3_card_is_checked_against_a2a_0_3() -> None:
    card = {k: v for k, v in CARD.items() if k != "supportedInterfaces"}
    card |= {"url": "http://x/a2a", "protocolVersion": "0.3.0"}
    verdict = check_exchange(card_exchange(card))
    assert verdict is not None and (verdict.revision, verdict.word) == ("0.3", "ok")


def test_a_0_3_task_is_checked_against_a2a_0_3() -> None:
    request = {"jsonrpc": "2.0", "id": 1, "method": "tasks/get", "params": {"id": "t"}}
    task = {
        "kind": "task",
        "id": "t",
        "contextId": "c",
        "status": {"state": "TASK_STATE_COMPLETED"},
    }
    answer = _json({"jsonrpc": "2.0", "id": 1, "result": task})
    exchange = Exchange(1, "poll", "POST", "http://x/a2a", (("A2A-Version", "0.3"),),
                        _json(request), status=200, response_body=answer)  # fmt: skip
    verdict = check_exchange(exchange)
    assert verdict is not None and verdict.revision == "0.3"
    assert [(i.pointer, i.problem) for i in verdict.issues] == [
        ("/result/status/state", "unknown value")
    ]


@pytest.mark.parametrize("url", ["http://x/a2a", "http://x/v1/message:send"])
def test_what_sia_tui_sends_a_0_3_agent_is_checked_against_a2a_0_3(url: str) -> None:
    """A request to a tolerated 0.3 agent (JSON-RPC ``message/send`` or the HTTP+JSON body)
    is checked like the answers: a message without its ``kind`` is named at its pointer."""
    message = {"messageId": "m", "role": "user", "parts": [{"kind": "text", "text": "hi"}]}
    params = {"message": message}
    if url.endswith("a2a"):
        body: dict[str, Any] = {"jsonrpc": "2.0", "id": 1, "method": "message/send"}
        body["params"] = params
        pointer = "/params/message/kind"
    else:
        body, pointer = params, "/message/kind"
    exchange = Exchange(1, "invoke", "POST", url, (("A2A-Version", "0.3"),), _json(body))
    verdict = check_exchange(exchange)
    assert verdict is not None and verdict.revision == "0.3"
    assert [
        (i.where, i.pointer, i.problem) for i in verdict.issues if i.severity.value == "error"
    ] == [("request", pointer, "missing")]


def test_grpc_messages_are_checked_as_protojson() -> None:
    answer = {"task": dict(TASK, status={"state": "TASK_STATE_DONE"})}
    exchange = Exchange(
        1, "invoke", "GRPC", "grpc://x:1/lf.a2a.v1.A2AService/SendMessage", (),
        _json({"message": {"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "x"}]}}),
        status=0, response_body=_json(answer),
    )  # fmt: skip
    verdict = check_exchange(exchange)
    assert verdict is not None
    assert verdict.kinds == ("SendMessageRequest", "SendMessageResponse")
    assert [(i.where, i.pointer, i.field) for i in verdict.issues] == [
        ("response", "/task/status/state", "TaskStatus.state")
    ]


def test_a_push_delivery_is_a_stream_response() -> None:
    verdict = check_push_body(json.dumps({"statusUpdate": {"taskId": "t", "status": {}}}))
    assert [(i.where, i.pointer, i.problem) for i in verdict.issues] == [
        ("push", "/statusUpdate/contextId", "missing"),
        ("push", "/statusUpdate/status/state", "missing"),
    ]


def test_exchanges_that_carry_no_a2a_message_get_no_verdict() -> None:
    token = Exchange(1, "oauth2 token", "POST", "http://x/token", (), b"grant_type=x",
                     status=200, response_body=b'{"access_token": "t"}')  # fmt: skip
    refused = Exchange(2, "agent card", "GET", "http://x/c.json", (), b"", error="refused")
    assert check_exchange(token) is None
    assert check_exchange(refused) is None


@pytest.mark.parametrize(
    "body",
    [
        b"not json",
        b"[" * 100_000,
        b'{"a": "\\ud800"}',
        _json({f"m{n}": n for n in range(20_000)}),
        _json({"supportedInterfaces": [{"url": 1}] * 5_000}),
        _json({"skills": [[[[[[[[[[[[{}]]]]]]]]]]]] * 100}),
        b"\xff\xfe",
    ],
    ids=["text", "deep", "surrogate", "members", "interfaces", "nested", "bytes"],
)
def test_hostile_cards_get_a_bounded_verdict_never_a_crash(body: bytes) -> None:
    """RULES SR7: whatever the agent sends, the check answers with located issues, at most
    ``MAX_WIRE_ISSUES`` of them kept and the rest counted."""
    verdict = check_exchange(card_exchange(body))
    assert verdict is not None and verdict.errors >= 1
    assert len(verdict.issues) <= limits.MAX_WIRE_ISSUES
    assert verdict.issues[0].severity is WireSeverity.ERROR
    assert len(verdict.issues) + verdict.more == verdict.errors + verdict.warnings


def test_twenty_thousand_unknown_members_are_counted_not_listed() -> None:
    verdict = check_exchange(
        rest_exchange("/tasks/t-1", TASK | {f"x{n}": n for n in range(20_000)})
    )
    assert verdict is not None
    assert (verdict.errors, len(verdict.issues)) == (0, limits.MAX_WIRE_ISSUES)
    assert verdict.warnings >= limits.MAX_WIRE_ISSUES
