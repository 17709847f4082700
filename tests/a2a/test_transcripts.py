"""Replay every captured transcript (01-21) through the client and the codec of its dialect."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from sia_tui.core.a2a.card import parse_card
from sia_tui.core.a2a.http.codec import read_event
from sia_tui.core.a2a.task_views import Message, Task
from sia_tui.core.errors import A2AProtocolError
from tests.support.mock_a2a import (
    JSONRPC_V03,
    JSONRPC_V1,
    REST_V03,
    REST_V1,
    fixture,
    json_response,
    sse_bytes,
)


def _task(result: Task | Message) -> Task:
    assert isinstance(result, Task)
    return result


def test_01_hybrid_card_prefers_supported_interfaces() -> None:
    card = parse_card(fixture("01_agent_card.json"))
    assert card.card_dialect == "hybrid"
    assert [i.badge for i in card.interfaces] == [
        "JSONRPC 1.0",
        "HTTP+JSON 1.0",
        "JSONRPC 0.3",
        "HTTP+JSON 0.3",
    ]
    assert card.streaming is True
    assert card.schema_interface is None  # the tui-debug extension is not ours
    assert card.skill("peer-echo") is not None


async def test_02_jsonrpc_send_request_shape_and_completed_task(make_client: Any) -> None:
    captured = fixture("02_jsonrpc_send_complete_response.json")
    client, agent = make_client(
        lambda r: json_response({**captured["body"], "id": json.loads(r.content)["id"]})
    )
    async with client:
        task = _task(await client.send(JSONRPC_V1, {"action": "complete"}, purpose="invoke"))
    sent, sample = agent.body(), fixture("02_jsonrpc_send_complete_request.json")
    assert (sent["jsonrpc"], sent["method"]) == (sample["jsonrpc"], sample["method"])
    assert sent["params"]["message"]["role"] == "ROLE_USER"
    assert sent["params"]["message"]["parts"] == [
        {"data": {"action": "complete"}, "mediaType": "application/json"}
    ]
    assert "kind" not in sent["params"]["message"]  # 1.0: no kind discriminator
    assert task.state == "TASK_STATE_COMPLETED"
    assert [a.name for a in task.artifacts] == ["summary", "echo"]
    assert task.artifacts[0].data_parts()[0]["count"] == 2.0  # ints as floats tolerated
    assert client.exchanges[0].response_body == json.dumps({**captured["body"], "id": 1}).encode()


async def test_03_jsonrpc_failed_task_keeps_status_message(make_client: Any) -> None:
    body = fixture("03_jsonrpc_send_failed_response.json")
    client, _ = make_client(lambda r: json_response(body))
    async with client:
        task = _task(await client.send(JSONRPC_V1, {"action": "fail"}, purpose="invoke"))
    assert task.state == "TASK_STATE_FAILED"
    assert task.status_message is not None
    assert task.status_message.data_parts()[0]["error"]["code"] == "PEER_FAIL"


async def test_04_rest_send_uses_message_send_and_a2a_json(make_client: Any) -> None:
    capture = fixture("04_rest_send_rejected_response.json")
    client, agent = make_client(
        lambda r: json_response(capture["body"], content_type=capture["content-type"])
    )
    async with client:
        task = _task(await client.send(REST_V1, {"action": "reject"}, purpose="invoke"))
    request = agent.requests[0]
    assert (request.method, request.url.path) == ("POST", "/a2a/rest/message:send")
    assert request.headers["content-type"] == "application/a2a+json"
    assert agent.body()["message"]["parts"][0]["data"] == {"action": "reject"}
    assert task.state == "TASK_STATE_REJECTED"


async def test_05_rest_get_task_is_a_bare_task(make_client: Any) -> None:
    body = fixture("05_rest_get_task_response.json")
    client, agent = make_client(lambda r: json_response(body))
    async with client:
        task = await client.get_task(REST_V1, body["id"])
    assert agent.requests[0].method == "GET"
    assert agent.requests[0].url.path == f"/a2a/rest/tasks/{body['id']}"
    assert task.id == body["id"] and task.state == "TASK_STATE_COMPLETED"


@pytest.mark.parametrize(
    ("name", "iface", "kinds", "last_state"),
    [
        (
            "06_jsonrpc_stream_events.json",
            JSONRPC_V1,
            ["task", "status", "artifact", "artifact", "status"],
            "TASK_STATE_COMPLETED",
        ),
        (
            "07_rest_stream_events.json",
            REST_V1,
            ["task", "status", "status"],
            "TASK_STATE_REJECTED",
        ),
        (
            "12_v03_jsonrpc_stream_events.json",
            JSONRPC_V03,
            ["task", "status", "artifact", "artifact", "status"],
            "TASK_STATE_COMPLETED",
        ),
    ],
)
async def test_streams_arrive_in_order_and_end_at_the_final_event(
    make_client: Any, name: str, iface: Any, kinds: list[str], last_state: str
) -> None:
    payloads = [item["data"] for item in fixture(name)]
    client, _ = make_client(
        lambda r: httpx.Response(
            200, content=sse_bytes(payloads), headers={"content-type": "text/event-stream"}
        )
    )
    async with client:
        events = [e async for e in client.stream(iface, {"action": "x"}, purpose="invoke")]
    assert [e.kind for e in events] == kinds
    assert events[-1].state == last_state and events[-1].final
    assert not any(e.final for e in events[:-1])
    assert client.exchanges[0].events == tuple(json.dumps(p).encode() for p in payloads)


@pytest.mark.parametrize(
    ("name", "status", "iface", "code", "reason"),
    [
        ("08_jsonrpc_task_not_found.json", 200, JSONRPC_V1, -32001, "TASK_NOT_FOUND"),
        ("09_rest_task_not_found.json", 404, REST_V1, "NOT_FOUND", "TASK_NOT_FOUND"),
    ],
)
async def test_task_not_found_is_an_a2a_error(
    make_client: Any, name: str, status: int, iface: Any, code: Any, reason: str
) -> None:
    capture = fixture(name)
    client, _ = make_client(lambda r: json_response(capture.get("body", capture), status))
    async with client:
        with pytest.raises(A2AProtocolError) as caught:
            await client.get_task(iface, "missing")
    assert caught.value.code == code
    assert "Task not found" in str(caught.value) and reason in str(caught.value)
    assert client.exchanges[0].status == status  # recorded although it failed


async def test_10_version_not_supported_is_reported(make_client: Any) -> None:
    client, _ = make_client(lambda r: json_response(fixture("10_jsonrpc_no_version_header.json")))
    async with client:
        with pytest.raises(A2AProtocolError, match="VERSION_NOT_SUPPORTED") as caught:
            await client.send(JSONRPC_V1, {}, purpose="invoke")
    assert caught.value.code == -32009


async def test_11_v03_jsonrpc_send_matches_capture(make_client: Any) -> None:
    capture = fixture("11_v03_jsonrpc_message_send.json")
    client, agent = make_client(lambda r: json_response(capture["response"]))
    async with client:
        task = _task(await client.send(JSONRPC_V03, {"action": "reject"}, purpose="invoke"))
    sent, sample = agent.body(), capture["request"]
    assert sent["method"] == sample["method"] == "message/send"
    message = sent["params"]["message"]
    assert {k: message[k] for k in ("kind", "role", "parts")} == {
        k: sample["params"]["message"][k] for k in ("kind", "role", "parts")
    }
    assert task.state == "TASK_STATE_REJECTED"
    assert task.status_message is not None and task.status_message.role == "ROLE_AGENT"
    assert task.status_message.data_parts()[0]["reason"] == "POLICY"


async def test_13_v03_rest_reads_content_and_nested_data(make_client: Any) -> None:
    capture = fixture("13_v03_rest_message_send.json")
    client, agent = make_client(lambda r: json_response(capture["body"]))
    async with client:
        task = _task(await client.send(REST_V03, {"action": "fail"}, purpose="invoke"))
    assert agent.requests[0].url.path == "/a2a/rest/v1/message:send"
    assert agent.body()["message"]["content"] == [{"data": {"data": {"action": "fail"}}}]
    assert task.state == "TASK_STATE_FAILED"
    assert task.status_message is not None
    assert task.status_message.data_parts()[0]["error"]["code"] == "PEER_FAIL"


@pytest.mark.parametrize(
    ("name", "iface"),
    [("14_sdk_client_JSONRPC.json", JSONRPC_V1), ("14_sdk_client_HTTP_JSON.json", REST_V1)],
)
async def test_14_requests_match_the_sdk_client(make_client: Any, name: str, iface: Any) -> None:
    capture = fixture(name)
    seen = capture["requests_seen"][1]
    reply = (
        capture["events"][0]
        if iface is REST_V1
        else {"jsonrpc": "2.0", "id": 1, "result": capture["events"][0]}
    )
    client, agent = make_client(lambda r: json_response(reply))
    async with client:
        task = _task(await client.send(iface, {"action": "fail"}, purpose="invoke"))
    request = agent.requests[0]
    assert request.url.path == httpx.URL(seen["url"]).path
    assert request.headers["A2A-Version"] == seen["a2a-version"]
    ours = agent.body()
    theirs = seen["body"]
    assert ours.get("method") == theirs.get("method")
    inner = ours["params"]["message"] if "params" in ours else ours["message"]
    sdk = theirs["params"]["message"] if "params" in theirs else theirs["message"]
    assert inner["role"] == sdk["role"] and inner["parts"][0]["data"] == sdk["parts"][0]["data"]
    assert task.state == "TASK_STATE_FAILED"


def test_15_subscribe_events_read_as_rest_events() -> None:
    events = [
        read_event(item["data"], jsonrpc=False) for item in fixture("15_rest_subscribe_events.json")
    ]
    assert [e.kind for e in events] == ["task", "artifact", "artifact", "status"]
    assert events[1].artifact is not None and events[1].last_chunk
    assert events[-1].final and events[-1].state == "TASK_STATE_COMPLETED"


async def test_16_jsonrpc_cancel_returns_bare_task(make_client: Any) -> None:
    client, agent = make_client(lambda r: json_response(fixture("16_jsonrpc_cancel.json")))
    async with client:
        task = await client.cancel(JSONRPC_V1, "c5f7dfbc")
    assert agent.body()["method"] == "CancelTask"
    assert agent.body()["params"] == {"id": "c5f7dfbc"}
    assert task.state == "TASK_STATE_CANCELED"


async def test_17_rest_cancel_of_completed_task_is_refused(make_client: Any) -> None:
    capture = fixture("17_rest_cancel_completed.json")
    client, agent = make_client(lambda r: json_response(capture["body"], capture["status"]))
    async with client:
        with pytest.raises(A2AProtocolError, match="TASK_NOT_CANCELABLE"):
            await client.cancel(REST_V1, "t-1")
    assert (agent.requests[0].method, agent.requests[0].url.path) == (
        "POST",
        "/a2a/rest/tasks/t-1:cancel",
    )


async def test_20_genuine_v03_agent(make_client: Any) -> None:
    capture = fixture("20_genuine_v03_sdk0326.json")
    card = parse_card(capture["card"], source_url="http://127.0.0.1:49601/.well-known/agent.json")
    assert card.card_dialect == "0.3"
    assert [(i.url, i.badge) for i in card.interfaces] == [
        ("http://127.0.0.1:49601/", "JSONRPC 0.3")
    ]  # "0.3.0" normalized to Major.Minor
    iface = card.interfaces[0]
    replies = iter([capture["send"]["body"], capture["reject"], capture["v1_method_on_v03"]])
    client, agent = make_client(lambda r: json_response(next(replies)))
    async with client:
        done = _task(await client.send(iface, {"action": "complete"}, purpose="invoke"))
        rejected = _task(await client.send(iface, {"action": "reject"}, purpose="invoke"))
        with pytest.raises(A2AProtocolError) as caught:
            await client.get_task(iface, "x")
    assert done.state == "TASK_STATE_COMPLETED" and done.artifacts[0].data_parts() == [{"ok": True}]
    assert rejected.state == "TASK_STATE_REJECTED"
    assert caught.value.code == -32601
    assert [json.loads(r.content)["method"] for r in agent.requests] == [
        "message/send",
        "message/send",
        "tasks/get",
    ]
    events = [read_event(item, jsonrpc=True) for item in capture["stream"]]
    assert [e.final for e in events] == [False, False, False, True]


async def test_21_v03_stream_request_matches_sdk_compat_client(make_client: Any) -> None:
    capture = fixture("21_sdk13_client_vs_genuine_v03.json")
    sdk = capture["requests"][1]
    last = {
        "jsonrpc": "2.0",
        "id": 1,
        "result": {
            "kind": "status-update",
            "final": True,
            "taskId": "t",
            "contextId": "c",
            "status": {"state": "rejected"},
        },
    }
    client, agent = make_client(
        lambda r: httpx.Response(
            200, content=sse_bytes([last]), headers={"content-type": "text/event-stream"}
        )
    )
    async with client:
        events = [e async for e in client.stream(JSONRPC_V03, {"action": "reject"}, purpose="x")]
    ours = agent.body()
    assert ours["method"] == sdk["body"]["method"]
    assert ours["params"]["configuration"] == sdk["body"]["params"]["configuration"]
    assert agent.requests[0].headers["A2A-Version"] == sdk["a2a-version"]
    assert events[-1].state == "TASK_STATE_REJECTED"
    assert read_event(capture["events_last"], jsonrpc=False).state == "TASK_STATE_REJECTED"
