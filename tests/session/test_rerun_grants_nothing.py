"""A session file grants nothing: every limit and consent of ``rerun`` comes from its flags.

Session files are shared as bug reports, so they are someone else's input. Each test edits
one recorded option of a saved session upwards and shows that rerun does not use it, and
says what the file recorded (RULES SR7 for the cross-origin credentials).
"""

from __future__ import annotations

import asyncio
import gzip
import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.run.read_model import Target
from sia_tui.core.session import load_session, save_session
from sia_tui.core.session import rerun as rerun_module
from sia_tui.core.session.replay import (
    RECORDED_CONSENTS,
    RECORDED_LIMITS,
    replay_options,
    session_options,
)
from sia_tui.core.session.rerun import rerun_session
from tests.support.scripted_agent import BASE, SKILL, ScriptedAgent
from tests.support.sessions import run_session_cli

BEARER = "canary-rerun-grant-3f9e21"
OTHER = "http://elsewhere.test"
#: Each recorded option raised as far as an edited file could: none of it may be used.
RAISED: dict[str, Any] = {
    "connect_timeout": 1e6,
    "read_timeout": 1e6,
    "total_timeout": 1e6,
    "deadline": 1e6,
    "stream_idle_timeout": 1e6,
    "max_response_bytes": 2**41,
    "max_depth": 10**6,
    "max_event_bytes": 2**41,
    "poll_max": 10**9,
    "follow_redirects": True,
    "allow_cross_origin": True,
}


def moved_agent() -> ScriptedAgent:
    """The scripted agent whose card puts its JSON-RPC interface on another origin."""
    agent = ScriptedAgent()
    card = agent.card()
    card["supportedInterfaces"][0]["url"] = f"{OTHER}/rpc"
    agent.card = lambda: card  # type: ignore[method-assign]
    return agent


def recorded_session(tmp_path: Path, edits: dict[str, Any]) -> Path:
    """A real run against the moved agent, saved, then its options edited as ``edits``."""
    agent = moved_agent()

    async def record() -> Any:
        options = ClientOptions(bearer=BEARER)
        proc = Procedure(
            Target(BASE, skill_id=SKILL), options, transport=httpx.MockTransport(agent.handle)
        )
        try:
            return await proc.run_until(3)
        finally:
            await proc.aclose()

    path = tmp_path / "shared.session.json"
    save_session(asyncio.run(record()), ClientOptions(bearer=BEARER), path)
    document = json.loads(path.read_text())
    document["options"].update(edits)
    path.write_text(json.dumps(document))
    return path


def rerun_with(
    path: Path, handler: Callable[[httpx.Request], httpx.Response], given: ClientOptions
) -> Any:
    transport = httpx.MockTransport(handler)
    return asyncio.run(
        rerun_session(load_session(path), bearer=BEARER, transport=transport, given=given)
    )


def test_every_recorded_limit_and_consent_is_covered() -> None:
    """The list of edited fields is the list of options a session records that bound or
    consent: a new one must be added here (and to docs/SECURITY.md)."""
    assert set(RAISED) == {*RECORDED_LIMITS, *RECORDED_CONSENTS}


@pytest.mark.parametrize("name", sorted(RAISED))
def test_rerun_ignores_each_raised_option_and_says_so(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each field raised in the file: rerun runs with the default, and its notes say what
    the file recorded and what this run uses."""
    path = recorded_session(tmp_path, {name: RAISED[name]})
    used: list[ClientOptions] = []
    real = rerun_module.run_recorded  # type: ignore[attr-defined]

    async def spy(target: Any, options: ClientOptions, *args: Any, **kw: Any) -> Any:
        used.append(options)
        return await real(target, options, *args, **kw)

    monkeypatch.setattr(rerun_module, "run_recorded", spy)
    result = rerun_with(path, moved_agent().handle, ClientOptions())
    assert used and all(getattr(o, name) == getattr(ClientOptions(), name) for o in used)
    [note] = [n for n in result.notes if name in n]
    assert "the session recorded" in note and "this run uses" in note


def test_edited_allow_cross_origin_does_not_send_the_bearer_elsewhere(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """RULES SR7: a file edited to say allow_cross_origin true; `rerun FILE --bearer T`
    still withholds the bearer from the interface the card put on another origin."""
    path = recorded_session(tmp_path, {"allow_cross_origin": True})
    agent, seen = moved_agent(), []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return agent.handle(request)

    rerun_with(path, handler, ClientOptions())
    elsewhere = [r for r in seen if r.url.host == "elsewhere.test"]
    assert elsewhere, "describe_skill went to the interface's origin"
    assert all("authorization" not in r.headers for r in elsewhere)
    # The command line says so, and only the flag gives the consent.
    assert run_session_cli(["rerun", str(path), "--bearer", BEARER, "--target", BASE]) in (0, 1)
    out = capsys.readouterr().out
    assert "note: the session recorded allow_cross_origin yes; this run uses no" in out


def test_raised_size_limit_does_not_let_a_gzip_bomb_through(tmp_path: Path) -> None:
    """max_response_bytes raised to 2 TiB in the file: the card's gzip bomb (24 MiB inflated)
    is still refused at the default 8 MiB."""
    path = recorded_session(tmp_path, {"max_response_bytes": 2**41, "max_event_bytes": 2**41})
    bomb = gzip.compress(b'{"name": "' + b"a" * (24 * 2**20) + b'"}')

    def handler(request: httpx.Request) -> httpx.Response:
        headers = {"content-encoding": "gzip", "content-type": "application/json"}
        return httpx.Response(200, content=bomb, headers=headers)

    [result] = rerun_with(path, handler, ClientOptions()).results
    assert result.run.failed_step is not None and result.run.failed_step.step == 1
    assert result.run.failed_step.error_kind == "response_too_large"


class Drip(httpx.AsyncByteStream):
    """A card sent one byte every 0.2 s, for 8 s in all."""

    async def __aiter__(self) -> AsyncIterator[bytes]:
        yield b'{"name": "'
        for _ in range(40):
            await asyncio.sleep(0.2)
            yield b"a"
        yield b'"}'


def test_raised_timeouts_do_not_extend_a_drip(tmp_path: Path) -> None:
    """Timeouts and the deadline raised to 11 days in the file: the drip ends at the
    command's total timeout (2 s here), not after the 8 s it drips."""
    timeouts = ("connect_timeout", "read_timeout", "total_timeout", "deadline")
    path = recorded_session(tmp_path, {name: 1e6 for name in timeouts})

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, stream=Drip(), headers={"content-type": "application/json"})

    [result] = rerun_with(path, handler, ClientOptions(total_timeout=2.0)).results
    assert result.run.failed_step is not None and result.run.failed_step.step == 1
    assert result.run.failed_step.error_kind == "timeout"


def test_replay_keeps_a_stricter_recorded_limit_and_refuses_a_raised_one() -> None:
    """Offline, a stricter recorded limit is what the verdict came from, so it replays; a
    raised one is not used (a depth of a million would reach Python's recursion limit)."""
    chosen = replay_options({"max_response_bytes": 1024, "max_depth": 10**6})
    assert chosen.options.max_response_bytes == 1024
    assert chosen.options.max_depth == ClientOptions().max_depth
    assert any("max_depth" in note and "replay uses 256" in note for note in chosen.notes)


def test_flags_decide_and_a_consent_given_now_is_used() -> None:
    """The person running rerun gives the consent with the flag; the file cannot take it
    away either (it is theirs to give)."""
    given = ClientOptions(allow_cross_origin=True, max_response_bytes=2**20)
    chosen = session_options({"allow_cross_origin": False}, given, offline=False)
    assert chosen.options.allow_cross_origin and chosen.options.max_response_bytes == 2**20


def _edit_targets(path: Path, **edits: Any) -> None:
    """Edit the recorded target of the run and of every invocation in the file."""
    document = json.loads(path.read_text())

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("target"), dict) and "location" in node["target"]:
                node["target"].update(edits)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(document)
    path.write_text(json.dumps(document))


@pytest.mark.parametrize("given", [None, "https://mine.example/hook"])
def test_rerun_registers_no_webhook_and_no_override_the_file_names(
    given: str | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A session edited to register push notifications at the editor's own URL, and to
    ignore the card's capabilities: a live rerun would have the user's agent deliver its
    task notifications there. Rerun registers only the webhook its own `--push-url` names
    (or none), respects the capabilities, and its notes say what the file recorded."""
    from sia_tui.core.session.rerun_target import LiveChoices

    path = recorded_session(tmp_path, {})
    _edit_targets(path, push="https://exfil.example/hook", ignore_capabilities=True)
    targets: list[Target] = []
    real = rerun_module.run_recorded  # type: ignore[attr-defined]

    async def spy(target: Target, *args: Any, **kw: Any) -> Any:
        targets.append(target)
        return await real(target, *args, **kw)

    monkeypatch.setattr(rerun_module, "run_recorded", spy)
    transport = httpx.MockTransport(moved_agent().handle)
    result = asyncio.run(
        rerun_session(
            load_session(path), bearer=BEARER, transport=transport, live=LiveChoices(given)
        )
    )
    assert targets and all(t.push == given and not t.ignore_capabilities for t in targets)
    webhook = [n for n in result.notes if "exfil.example" in n]
    assert len(webhook) == (1 if given is None else 0)
    assert any("ignored the card's capabilities; this run respects them" in n for n in result.notes)


def test_rerun_keeps_its_own_loopback_receiver(tmp_path: Path) -> None:
    """sia-tui's own receiver on 127.0.0.1 is no one's webhook: a rerun of a `--push` run
    listens again, and says nothing about it."""
    from sia_tui.core.run.state import Target as State
    from sia_tui.core.session.rerun_target import NO_CHOICES, live_target

    notes: list[str] = []
    target = live_target(State(BASE, skill_id=SKILL, push="loopback"), NO_CHOICES, notes)
    assert (target.push, notes) == ("loopback", [])
