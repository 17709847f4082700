"""Replay: today's procedure on the recorded bytes, with no network, and what changed.

Each invocation of a session is replayed on its own: steps 1-6 and its own exchanges,
with its own arguments, and its diagnosis compared step by step (``diagnosis.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import tempfile
from collections import defaultdict, deque
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

import httpx

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.engine.report_json import blame_to_json, error_to_json
from sia_tui.core.errors import (
    SiaError,
)
from sia_tui.core.exchange import Exchange
from sia_tui.core.needs import Need, words
from sia_tui.core.run.read_model import Invocation, Run, Step, StepStatus, Target
from sia_tui.core.run.verdicts import worst_exit_code
from sia_tui.core.session.diagnosis import StepChange, compare_plain, compare_steps
from sia_tui.core.session.format import LoadedSession
from sia_tui.core.session.invocations import pick_invocations
from sia_tui.core.session.recorded_ending import recorded_ending
from sia_tui.core.session.served import served_body, wire_headers

if TYPE_CHECKING:
    from sia_tui.core.a2a.grpc.calls import GrpcTransport
    from sia_tui.core.run.turns import Reply
    from sia_tui.core.session.replay_cancel import RecordedCancel
    from sia_tui.core.session.replay_grpc import GrpcReplay

#: Recorded limits: each bounds what an agent may cost (bytes, nesting, seconds, polls).
#: A session file is someone else's input: it never raises one (see ``session_options``).
RECORDED_LIMITS = (
    "connect_timeout",
    "read_timeout",
    "total_timeout",
    "deadline",
    "stream_idle_timeout",
    "max_response_bytes",
    "max_depth",
    "max_event_bytes",
    "poll_max",
)
#: Recorded consents (RULES SR7): a session file never gives one.
RECORDED_CONSENTS = ("follow_redirects", "allow_cross_origin")


def request_key(method: str, url: str) -> tuple[str, str]:
    """Method + URL without userinfo, percent-decoded: recorded URLs were redacted."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port else ""
        normal = f"{parts.scheme}://{host}{port}{unquote(parts.path)}"
        if parts.query:
            normal += "?" + unquote(parts.query)
    except ValueError:
        normal = url
    return method.upper(), normal


class _EndsInFailure(httpx.AsyncByteStream):
    """The recorded bytes of a body, then the failure that ended it live."""

    def __init__(self, body: bytes, failure: SiaError) -> None:
        self._body, self._failure = body, failure

    async def __aiter__(self) -> AsyncIterator[bytes]:
        if self._body:
            yield self._body
        raise self._failure


class ReplayTransport(httpx.AsyncBaseTransport):
    """Answers each request with the recorded response for the same method+URL, in order."""

    def __init__(self, exchanges: list[Exchange], cancel: RecordedCancel | None = None) -> None:
        self._queues: dict[tuple[str, str], deque[Exchange]] = defaultdict(deque)
        # In the order the requests were sent (``seq`` is the order they ended: a cancel
        # sent while a stream is open can end first).
        for ex in sorted(exchanges, key=lambda ex: ex.started_at):
            self._queues[request_key(ex.method, ex.url)].append(ex)
        #: The user's cancel, when the run recorded one: what came after it waits for it.
        self._cancel = cancel
        #: Every URL asked for, in order (tests assert no unrecorded URL was requested).
        self.requested: list[str] = []
        #: Requests with no recorded answer left.
        self.unmatched: list[str] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        """The next recorded response for this request; a connect error when none is left."""
        method, url = request_key(request.method, str(request.url))
        self.requested.append(f"{method} {url}")
        queue = self._queues.get((method, url))
        if queue and self._cancel is not None:
            await self._cancel.turn(queue[0])
        if not queue:
            self.unmatched.append(f"{method} {url}")
            raise httpx.ConnectError(
                f"replay: no recorded response for {method} {url}", request=request
            )
        ex = queue.popleft()
        ending = recorded_ending(ex)
        if ex.status is None:  # the recorded exchange failed in transport: fail again
            if ending is not None:
                raise ending
            raise httpx.ConnectError(ex.error or "recorded transport error", request=request)
        held = self._cancel.held_stream(ex, ending) if self._cancel is not None else None
        if held is not None:
            return httpx.Response(ex.status, headers=wire_headers(ex), stream=held, request=request)
        if ending is not None:
            body = _EndsInFailure(served_body(ex), ending)
            return httpx.Response(ex.status, headers=wire_headers(ex), stream=body, request=request)
        return httpx.Response(
            ex.status, headers=wire_headers(ex), content=served_body(ex), request=request
        )


@dataclass
class ReplayResult:
    """Today's run of one invocation on its recorded bytes, and how its diagnosis compares."""

    run: Run
    #: The recorded invocation this replays (its number, and the run as it ended).
    recorded: Invocation
    changes: list[StepChange]
    unmatched: list[str]
    requested: list[str]
    notes: list[str] = field(default_factory=list)

    @property
    def same(self) -> bool:
        """True when every step's diagnosis matches the recording."""
        return not self.changes

    def to_json(self) -> dict[str, Any]:
        """One invocation of the ``replay --json`` report."""
        recorded = self.recorded
        return {
            "invocation": recorded.number,
            "of": recorded.total,
            "same": self.same,
            "recorded_outcome": recorded.run.verdict.outcome.value,
            "outcome": self.run.verdict.outcome.value,
            "headline": self.run.verdict.headline,
            "at_fault": blame_to_json(self.run.verdict.at_fault),
            "error": error_to_json(self.run),
            "changes": [dataclasses.asdict(c) for c in self.changes],
            "steps": [
                {"step": s.step, "status": s.status.value, "code": s.code, "message": s.message}
                for s in self.run.steps
            ],
            "unmatched_requests": self.unmatched,
            "notes": self.notes,
        }


@dataclass
class SessionReplay:
    """Every invocation asked for, replayed in order."""

    results: list[ReplayResult]

    @property
    def same(self) -> bool:
        """True when every invocation replays to its recorded diagnosis."""
        return all(r.same for r in self.results)

    @property
    def exit_code(self) -> int:
        """The worst of today's outcomes (0 passed, 3 incomplete, 1 failed), and 1 when a
        diagnosis is not the recorded one."""
        return worst_exit_code(
            [*(r.run.verdict.outcome.exit_code for r in self.results), int(not self.same)]
        )

    def to_json(self) -> dict[str, Any]:
        """The ``replay --json`` report: one entry per invocation."""
        return {
            "same": self.same,
            "exit_code": self.exit_code,
            "invocations": [r.to_json() for r in self.results],
        }


async def run_recorded(
    target: Target,
    options: ClientOptions,
    recorded: Run,
    transport: httpx.AsyncBaseTransport | None,
    *,
    consent: bool,
    grpc_transport: GrpcTransport | None = None,
    last: int | None = None,
    user_cancel: RecordedCancel | None = None,
) -> Run:
    """A fresh procedure with the recorded arguments, run as far as it goes (replay, rerun).

    ``consent``: the invocation may be sent to a skill that asks for consent (replay: as
    recorded, nothing reaches an agent; rerun: only with ``--allow-execute``). ``last``:
    the last step to run (replay of a run the user stopped: ``stopped_after``).
    ``user_cancel``: the recorded user's cancel, sent again where ``transport`` holds it.
    """
    proc = Procedure(target, options, transport=transport, grpc_transport=grpc_transport)
    # The recorded run's credential names (no values): the same requests follow (the
    # extended card is fetched only by a run that had credentials).
    proc.run.credentials = proc.run.credentials or recorded.credentials
    if recorded.plain is not None:  # `sia-tui send`: the same message, the same gate
        from sia_tui.core.engine.plain_send import plain_request, send_plain

        try:
            return await send_plain(
                proc, plain_request(recorded.plain), consent=recorded.plain.consent
            )
        finally:
            await proc.aclose()
    try:
        if recorded.arguments is not None:
            proc.set_arguments(recorded.arguments, send_anyway=recorded.send_anyway)
        if consent:
            proc.consent_to_send()
        if last is not None:
            await proc.run_until(last)
            return proc.run
        # The replies the recorded run sent, in order, to the questions its task asked.
        replies = (reply for turn in recorded.turns if (reply := turn.sent_reply()) is not None)
        if user_cancel is None:
            await proc.run_replying(replies)
        else:
            await _run_cancelling(proc, replies, user_cancel)
    finally:
        await proc.aclose()
    return proc.run


def stopped_after(recorded: Run) -> int | None:
    """The last step a run the user stopped (Ctrl-C, the TUI's stop) finished: its next step
    did not run though nothing waited for the user (arguments, consent, a reply). None for
    a run that went as far as it could. Replay runs no further: the recording holds no
    answer past it (the stopped exchange is no step's), so "no recorded response" would be
    a failure the agent never caused."""
    from sia_tui.core.run.verdicts import RunOutcome

    verdict = recorded.verdict
    if (
        verdict.outcome is not RunOutcome.INCOMPLETE
        or recorded.plain is not None
        or verdict.waiting_for_arguments
        or verdict.waiting_for_consent
        or verdict.open_turn is not None
    ):
        return None
    first = next((s.step for s in recorded.steps if s.status is StepStatus.NOT_RUN), None)
    return None if first is None else first - 1


async def _run_cancelling(
    proc: Procedure, replies: Iterable[Reply], user_cancel: RecordedCancel
) -> None:
    """Run as recorded, and cancel the task as the user did: when the replay reaches the
    point where the cancel was sent, or when the run stops first (a task that waits for a
    reply). The engine's own cancel grades it (RULES CP9: step 9 reports it as asked)."""
    running = asyncio.ensure_future(proc.run_replying(replies))
    reached = asyncio.ensure_future(user_cancel.reached())
    try:
        await asyncio.wait({running, reached}, return_when=asyncio.FIRST_COMPLETED)
        async with user_cancel.sending():
            # A cancel that failed live (shown to the user) left the run going on: same here.
            with contextlib.suppress(SiaError):
                await proc.cancel()
        await running
    finally:
        for each in (running, reached):
            each.cancel()


@dataclass(frozen=True)
class SessionOptions:
    """The options a replay or rerun uses, and what the session recorded otherwise."""

    options: ClientOptions
    #: One sentence per recorded limit or consent that is not used, and what is instead.
    notes: tuple[str, ...] = ()


def _shown(value: object) -> str:
    return ("yes" if value else "no") if isinstance(value, bool) else f"{value:g}"


def session_options(
    recorded: dict[str, Any], given: ClientOptions, *, offline: bool
) -> SessionOptions:
    """The options for a run of a session's requests: ``given`` (the flags of the person
    running the command, or the defaults) decides every limit and consent; the file grants
    nothing. ``offline`` (replay: recorded bytes, no network, no credentials): a recorded
    limit stricter than ``given``'s, or a consent the recorded run had, is kept, so that the
    recorded verdict replays; a raised limit is not. Live (rerun, reattach): only ``given``.
    Where the file recorded something else, a note says what and what is used now.
    """
    verb = "replay" if offline else "this run"
    changes: dict[str, Any] = {}
    notes = []
    for name in (*RECORDED_LIMITS, *RECORDED_CONSENTS):
        value, now = recorded.get(name), getattr(given, name)
        consent = name in RECORDED_CONSENTS
        if consent != isinstance(value, bool) or not isinstance(value, int | float):
            continue  # absent or not a value of its kind: nothing recorded to compare
        if value == now:
            continue
        if offline and (consent or 0 < value < now):
            # Offline a consent reaches no agent and sends no secret, and a stricter limit
            # is what the recorded verdict came from: both replay as recorded.
            changes[name] = value if consent else type(now)(value)
            continue
        notes.append(
            f"the session recorded {name} {_shown(value)}; {verb} uses {_shown(now)} "
            "(a session file sets no limit and gives no consent: the command's flags do)"
        )
    if isinstance(recorded.get("extensions"), bool):  # a header to send, not a permission
        changes["extensions"] = recorded["extensions"]
    security = recorded.get("grpc_security")
    if offline and security in ("tls", "plaintext"):  # as recorded: which channel it used
        changes["grpc_security"] = security
    elif security in ("tls", "plaintext") and security != given.grpc_security:
        notes.append(
            f"the session recorded gRPC over {security}; {verb} uses "
            f"{given.grpc_security or 'what the interface URL says'} "
            f"({words(Need.GRPC_TLS, Need.GRPC_PLAINTEXT)})"
        )
    return SessionOptions(dataclasses.replace(given, **changes), tuple(notes))


def replay_options(recorded: dict[str, Any], **changes: Any) -> SessionOptions:
    """The options of an offline replay of a session recorded with ``recorded`` options."""
    return session_options(recorded, ClientOptions(**changes), offline=True)


def target_for(run: Run) -> Target:
    """The recorded target, pinned to the mode the recorded run used.

    ``run.mode`` is the mode step 8 sent in; ``target.mode`` is only what was asked for
    next, and an earlier invocation's target carries the choice made for the one after it
    (the mode is set before the new arguments keep the old invocation). An invocation that
    sent nothing falls back to what was asked.
    """
    return dataclasses.replace(run.target, mode=run.mode or run.target.mode)


def _local_card(target: Target, recorded: Run, folder: Path, notes: list[str]) -> Target:
    """A card the run read from a local file is read again from a temporary copy of the
    recorded bytes, whatever path or name the session gives: replay reads only the session
    (a FIFO named there would hang it, a name ``..`` is a directory)."""
    card_file = folder / "agent-card.json"
    read = next((ex for ex in recorded.exchanges if ex.method == "FILE" and ex.error is None), None)
    if read is not None:
        card_file.write_bytes(read.response_body)
        notes.append("the Agent Card came from a local file; replayed from its recorded bytes")
    else:  # as recorded: the file could not be read (or the session lost its bytes)
        notes.append("the Agent Card came from a local file the session holds no bytes of")
    return dataclasses.replace(target, location=str(card_file))


def own_exchanges(run: Run) -> list[Exchange]:
    """The exchanges the run's steps made: what its replay may answer with. An exchange no
    step made (an earlier invocation in a ``sia-session/3`` file, a probe's) is not this
    run's to answer with."""
    made = {seq for step in run.steps for seq in step.exchanges}
    if run.plain is not None:  # a plain message's exchanges belong to no step
        made.update(run.plain.exchanges)
    return [ex for ex in run.exchanges if ex.seq in made]


async def replay_session(session: LoadedSession, number: int | None = None) -> SessionReplay:
    """Replay every invocation of ``session`` (or the one numbered ``number``), no network."""
    invocations = pick_invocations(session.run, number)
    return SessionReplay([await replay_invocation(session, each) for each in invocations])


async def replay_invocation(session: LoadedSession, invocation: Invocation) -> ReplayResult:
    """A fresh Procedure with the invocation's arguments against its recorded exchanges."""
    recorded = invocation.run
    notes: list[str] = []
    exchanges = [
        ex for ex in own_exchanges(recorded) if ex.url.lower().startswith(("http:", "https:"))
    ]
    # Offline, no receiver listens: the recorded webhook URL is registered as an external
    # one (nothing waits for deliveries), so a recorded refusal replays as it happened.
    push = recorded.push.url if recorded.push is not None else None
    target = dataclasses.replace(target_for(recorded), push=push)
    grpc: GrpcReplay | None = None
    if any(ex.grpc for ex in recorded.exchanges):  # protobuf loads only for a gRPC session
        from sia_tui.core.session.replay_grpc import GrpcReplay

        grpc = GrpcReplay(recorded.exchanges)
    last = stopped_after(recorded)
    if last is not None:
        notes.append(f"the recorded run was stopped before step {last + 1}: replay stops there too")
    with tempfile.TemporaryDirectory(prefix="sia-replay-") as folder:
        if "://" not in target.location:
            target = _local_card(target, recorded, Path(folder), notes)
        user_cancel = None
        if recorded.cancel_requested:  # loaded only to replay a user's cancel
            from sia_tui.core.session.replay_cancel import RecordedCancel

            user_cancel = RecordedCancel.of(recorded)
        transport = ReplayTransport(exchanges, user_cancel)
        # poll_interval 0: the recorded answers are already there, waiting adds nothing.
        # The recorded answers stand in for the agent: step 8 is replayed where it was sent.
        sent = recorded.step(Step.DELEGATION).status not in (StepStatus.NOT_RUN, StepStatus.SKIPPED)
        chosen = replay_options(session.options, poll_interval=0.0)
        notes.extend(chosen.notes)
        today = await run_recorded(
            target,
            chosen.options,
            recorded,
            transport,
            consent=sent,
            grpc_transport=grpc,
            last=last,
            user_cancel=user_cancel,
        )
    not_kept = sum(ex.events_not_kept for ex in recorded.exchanges if ex.grpc)
    if not_kept:  # an HTTP stream replays from its whole body; gRPC from its kept messages
        notes.append(
            f"{not_kept} gRPC stream messages were counted, not kept, when recorded: replay "
            "served the kept ones (the first ones and the last)"
        )
    if "«redacted:" in repr(recorded.arguments):
        notes.append("some argument values were redacted; step 7 ran on the placeholders")
    unmatched = transport.unmatched + (grpc.unmatched if grpc is not None else [])
    changes = compare_steps(recorded, today) + compare_plain(recorded, today)
    return ReplayResult(today, invocation, changes, unmatched, transport.requested, notes)
