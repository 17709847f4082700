"""The loopback push receiver: what an agent posts is recorded bounded and checked, and a
hostile sender can neither hold it open nor make it fetch anything."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import httpx
import pytest

from sia_tui.core import limits
from sia_tui.core.a2a.push.receiver import TOKEN_HEADER, PushReceiver

TOKEN = "run-token"
STATUS = {
    "statusUpdate": {
        "taskId": "t-1",
        "contextId": "c-1",
        "status": {"state": "TASK_STATE_COMPLETED"},
    }
}


@pytest.fixture
async def receiver() -> AsyncIterator[PushReceiver]:
    receiver = PushReceiver(token=TOKEN, max_body_bytes=4096, max_depth=16)
    await receiver.start()
    yield receiver
    await receiver.stop()


async def _post(url: str, body: bytes, headers: dict[str, str] | None = None) -> int:
    async with httpx.AsyncClient(trust_env=False) as client:
        reply = await client.post(url, content=body, headers=headers or {})
    return reply.status_code


async def test_a_delivery_with_the_token_is_recorded_with_its_task_and_state(
    receiver: PushReceiver,
) -> None:
    receiver.expect("t-1")
    status = await _post(receiver.url, json.dumps(STATUS).encode(), {TOKEN_HEADER: TOKEN})
    assert status == 200
    (delivery,) = receiver.deliveries
    assert (delivery.kind, delivery.task_id, delivery.task_state) == (
        "status",
        "t-1",
        "TASK_STATE_COMPLETED",
    )
    assert delivery.token_ok and delivery.task_id_ok and delivery.problem is None
    assert delivery.size == len(json.dumps(STATUS))


async def test_a_wrong_or_missing_token_is_refused_apart_and_answered_401(
    receiver: PushReceiver,
) -> None:
    assert await _post(receiver.url, json.dumps(STATUS).encode(), {TOKEN_HEADER: "x"}) == 401
    assert await _post(receiver.url, json.dumps(STATUS).encode()) == 401
    assert receiver.deliveries == []
    assert [(d.number, d.token_ok) for d in receiver.refused] == [(1, False), (2, False)]
    assert receiver.refused_count == 2


async def test_refused_deliveries_cannot_push_the_agents_out(
    receiver: PushReceiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Any local process can post to the loopback port: a flood without the token used to
    fill the same list as the agent's deliveries, so the agent's were counted, not kept.
    Refused ones have a small list of their own and are all counted."""
    monkeypatch.setattr(limits, "MAX_PUSH_DELIVERIES", 3)
    monkeypatch.setattr(limits, "MAX_PUSH_REFUSED_KEPT", 2)
    for _ in range(5):
        await _post(receiver.url, json.dumps(STATUS).encode())
    assert await _post(receiver.url, json.dumps(STATUS).encode(), {TOKEN_HEADER: TOKEN}) == 200
    (delivery,) = receiver.deliveries
    assert delivery.token_ok and delivery.number == 1 and receiver.not_listed == 0
    assert len(receiver.refused) == 2 and receiver.refused_count == 5


async def test_a_refused_completed_does_not_end_the_wait_for_the_final_push(
    receiver: PushReceiver,
) -> None:
    """A fake COMPLETED without the token used to end the grace period, so the agent's real
    final push was missed; only a token-checked delivery settles the run."""
    receiver.expect("t-1")
    assert await _post(receiver.url, json.dumps(STATUS).encode(), {TOKEN_HEADER: "x"}) == 401
    final = lambda d: d.task_state == "TASK_STATE_COMPLETED"  # noqa: E731
    assert not await receiver.wait_for(final, 0.3)
    await _post(receiver.url, json.dumps(STATUS).encode(), {TOKEN_HEADER: TOKEN})
    assert await receiver.wait_for(final, 5)


async def test_a_delivery_before_the_task_is_known_is_checked_once_it_is(
    receiver: PushReceiver,
) -> None:
    """A sync send's answer may come after the agent's first push: the task check waits."""
    await _post(receiver.url, json.dumps(STATUS).encode(), {TOKEN_HEADER: TOKEN})
    assert not receiver.deliveries[0].task_id_ok
    receiver.expect("t-1")
    assert receiver.deliveries[0].task_id_ok
    receiver.expect("another")
    assert not receiver.deliveries[0].task_id_ok


async def test_a_body_over_the_limit_is_not_read(receiver: PushReceiver) -> None:
    status = await _post(receiver.url, b"[" * 5000, {TOKEN_HEADER: TOKEN})
    assert status == 413
    (delivery,) = receiver.deliveries
    assert (
        delivery.body == ""
        and delivery.size == 5000
        and "over the limit" in (delivery.problem or "")
    )


@pytest.mark.parametrize(
    "body",
    [b"{not json", b"[" * 40 + b"]" * 40, b'{"a":1,"a":2}', b'{"url":"http://example.com"}'],
)
async def test_an_unreadable_body_is_recorded_with_its_problem(
    receiver: PushReceiver, body: bytes
) -> None:
    """Not JSON, too deep, duplicate members, not an event: recorded as unreadable; a URL in
    a body is only text (nothing is fetched, RULES SR7)."""
    assert await _post(receiver.url, body, {TOKEN_HEADER: TOKEN}) == 200
    (delivery,) = receiver.deliveries
    assert delivery.kind == "unreadable" and delivery.problem


async def test_other_paths_and_methods_are_not_recorded(receiver: PushReceiver) -> None:
    base = receiver.url.rsplit("/a2a/push", 1)[0]
    assert await _post(base + "/other", b"{}") == 404
    async with httpx.AsyncClient(trust_env=False) as client:
        assert (await client.get(receiver.url)).status_code == 405
    assert receiver.deliveries == []


async def test_a_slow_drip_is_cut_off(
    receiver: PushReceiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Headers that never end cannot hold a connection past the read limit."""
    monkeypatch.setattr(limits, "PUSH_READ_SECONDS", 0.2)
    port = int(receiver.url.split(":")[2].split("/")[0])
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"POST /a2a/push HTTP/1.1\r\nHost: x\r\n")
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(100), 5)
    writer.close()
    assert answer.startswith(b"HTTP/1.1 408")
    assert receiver.deliveries == []


async def test_oversized_headers_are_refused(receiver: PushReceiver) -> None:
    port = int(receiver.url.split(":")[2].split("/")[0])
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"POST /a2a/push HTTP/1.1\r\nX: " + b"a" * (limits.MAX_PUSH_HEADER_BYTES * 2))
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(100), 5)
    writer.close()
    assert answer.startswith(b"HTTP/1.1 431")
    assert receiver.deliveries == []


async def test_deliveries_past_the_limit_are_counted(
    receiver: PushReceiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "MAX_PUSH_DELIVERIES", 2)
    for _ in range(4):
        await _post(receiver.url, json.dumps(STATUS).encode(), {TOKEN_HEADER: TOKEN})
    assert len(receiver.deliveries) == 2 and receiver.not_listed == 2


async def test_a_stopped_receiver_no_longer_listens(receiver: PushReceiver) -> None:
    await receiver.stop()
    with pytest.raises(httpx.ConnectError):
        await _post(receiver.url, b"{}")


async def test_a_long_body_is_parsed_whole_but_kept_cut(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each delivery keeps at most MAX_PUSH_BODY_KEPT bytes of text (a thousand bodies of
    2 MiB would be 2 GB), and is still read from the whole body."""
    monkeypatch.setattr(limits, "MAX_PUSH_BODY_KEPT", 64)
    receiver = PushReceiver(token=TOKEN, max_body_bytes=65536)
    await receiver.start()
    try:
        padded = {**STATUS, "metadata": {"pad": "x" * 1000}}
        await _post(receiver.url, json.dumps(padded).encode(), {TOKEN_HEADER: TOKEN})
    finally:
        await receiver.stop()
    (delivery,) = receiver.deliveries
    assert len(delivery.body) == 64 and delivery.body_cut
    assert delivery.task_state == "TASK_STATE_COMPLETED" and delivery.size > 1000


async def test_stop_does_not_wait_for_a_slow_sender(receiver: PushReceiver) -> None:
    """From Python 3.12 ``Server.wait_closed`` waits for open connections: the receiver
    closes them itself, so a run ends without the read limit's wait."""
    port = int(receiver.url.split(":")[2].split("/")[0])
    _, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"POST /a2a/push HTTP/1.1\r\n")
    await writer.drain()
    await asyncio.sleep(0.05)
    await asyncio.wait_for(receiver.stop(), 2)
    writer.close()


_HOLD_CONNECTIONS = """
import asyncio, sys
from sia_tui.core.a2a.push.receiver import PushReceiver

async def main(stop: bool) -> None:
    receiver = PushReceiver(token="t", max_body_bytes=4096)
    await receiver.start()
    port = int(receiver.url.split(":")[2].split("/")[0])
    held = [await asyncio.open_connection("127.0.0.1", port) for _ in range(40)]
    for _, writer in held[:20]:  # half have begun a request, half sent nothing
        writer.write(b"POST /a2a/push HTTP/1.1\\r\\n")
    await asyncio.sleep(0.3)
    if stop:
        await receiver.stop()

asyncio.run(main(sys.argv[1] == "stop"))
print("ended")
"""


@pytest.mark.parametrize("ending", ["stop", "loop-ends"])
def test_connections_held_open_end_quietly_with_the_run(ending: str) -> None:
    """40 connections held open (more than the 8 served at once) when the run ends: each
    printed an asyncio traceback on stderr (300 connections, 302 tracebacks). The receiver
    ends its handlers itself, whether it is stopped or the event loop ends first."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", _HOLD_CONNECTIONS, ending],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0 and done.stdout.strip() == "ended", done.stderr
    assert "Traceback" not in done.stderr and "Exception" not in done.stderr, done.stderr
