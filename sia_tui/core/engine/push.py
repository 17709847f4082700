"""Push notifications for one invocation: register a webhook with the send, record what
arrives, and say clearly when the agent will not push (A2A 1.0 section 3.1.7, 13.2).

The read model is ``PushLog`` (``Run.push``): every surface (check's text and JSON, the
TUI's timeline, sessions) reads it. ``PushChannel`` is its runtime side: the loopback
receiver, started before step 8 sends and stopped when step 9 ends.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from sia_tui.core import limits
from sia_tui.core.a2a.push.receiver import Delivery, PushReceiver, new_token
from sia_tui.core.errors import A2AProtocolError
from sia_tui.core.needs import Need, word
from sia_tui.core.redaction.userinfo import strip_credentials
from sia_tui.core.run.push_log import LOOPBACK, PushLog
from sia_tui.core.task_state import FINISHED_STATES

if TYPE_CHECKING:
    from sia_tui.core.a2a.options import ClientOptions
    from sia_tui.core.a2a.views import AgentCard
    from sia_tui.core.wire import WireVerdict

T = TypeVar("T")


def _refusal(log: PushLog, exc: A2AProtocolError) -> str:
    what = "sia-tui's loopback receiver" if log.sees_deliveries else f"the push URL {log.url}"
    if exc.code == -32003 or "PUSH_NOTIFICATION_NOT_SUPPORTED" in str(exc):
        # Another URL would not help: the agent has no push at all, whatever its card says.
        advice = (
            "The agent does not support push notifications although its card declares "
            "capabilities.pushNotifications (A2A 1.0 section 3.1.7)."
        )
    elif log.sees_deliveries:
        advice = (
            "Agents SHOULD refuse loopback and private addresses (A2A 1.0 section 13.2): run "
            f"a receiver the agent can reach and pass {word(Need.PUSH_URL)} (sia-tui then cannot "
            "see the deliveries)."
        )
    else:
        advice = "Check that the agent can reach that URL and accepts webhooks."
    return (
        f"the agent refused the send that registered {what} ({str(exc)[:300]}); the "
        f"invocation was sent again without push. {advice}"
    )


class PushChannel:
    """The runtime side of ``Run.push``: the receiver, and what the send learns."""

    def __init__(self, log: PushLog, options: ClientOptions, changed: Callable[[], None]):
        self.log = log
        self._options = options
        self._changed = changed
        self._token = new_token()
        self._receiver: PushReceiver | None = None

    @classmethod
    def open(
        cls,
        wanted: str,
        card: AgentCard | None,
        options: ClientOptions,
        changed: Callable[[], None],
    ) -> PushChannel:
        """The channel of ``Target.push`` (``wanted``); its log says why there is no push
        when the card does not declare it (``disabled``)."""
        log = PushLog(receiver=LOOPBACK if wanted == LOOPBACK else "external")
        channel = cls(log, options, changed)
        if card is not None and not card.push_notifications:
            log.error = (
                "the Agent Card does not declare capabilities.pushNotifications, so no "
                "webhook was registered (such an agent answers PushNotificationNotSupported); "
                "the invocation goes on without push (to test an agent that under-declares: "
                f"{word(Need.IGNORE_CAPABILITIES)})"
            )
        elif not log.sees_deliveries:
            log.url = strip_credentials(wanted)
        return channel

    async def config(self) -> dict[str, Any]:
        """The webhook to register (``{url, token}``), starting the loopback receiver."""
        if self.log.sees_deliveries and self._receiver is None:
            self._receiver = PushReceiver(
                token=self._token,
                max_body_bytes=min(self._options.max_event_bytes, limits.MAX_JSON_BYTES),
                max_depth=self._options.max_depth,
                on_delivery=self._arrived,
            )
            self.log.deliveries = self._receiver.deliveries
            self.log.refused = self._receiver.refused
            self.log.url = await self._receiver.start()
        return {"url": self.log.url or "", "token": self._token}

    @property
    def token(self) -> str:
        """The token registered with the webhook: a credential for the receiver."""
        return self._token

    def _arrived(self, delivery: Delivery) -> None:
        if self._receiver is not None:
            self.log.not_listed = self._receiver.not_listed
            self.log.refused_count = self._receiver.refused_count
        self._changed()

    async def send(self, attempt: Callable[[dict[str, Any] | None], Awaitable[T]]) -> T:
        """``attempt(config)``; an agent that refuses it gets ``attempt(None)`` once, and
        ``log.error`` says why. Only an A2A error answer (with its code) is retried: it
        means no task was made, so nothing runs twice.
        A channel the card rules out sends ``attempt(None)`` only."""
        if self.log.error is not None:
            return await attempt(None)
        try:
            answer = await attempt(await self.config())
        except A2AProtocolError as exc:
            if exc.code is None:
                # Not an error the agent answered (a JSON-RPC or HTTP error names a code) but
                # an answer sia-tui cannot read: a task may exist, so it is never sent twice.
                raise
            self.log.error = _refusal(self.log, exc)
            await self.close()
            self._changed()
            try:
                return await attempt(None)
            except A2AProtocolError:
                self.log.error += (
                    " The send failed without the webhook too, so the refusal may not be "
                    "about push."
                )
                raise
        self.log.registered = True
        return answer

    def task_known(self, task_id: str) -> None:
        """The run's task: every delivery is checked against it."""
        if self._receiver is not None:
            self._receiver.expect(task_id)

    async def settle(self, task_state: str) -> None:
        """The task ended: give a final delivery a moment to arrive (a sync answer may come
        before the agent's last push), then stop the receiver."""
        receiver = self._receiver
        if receiver is not None and self.log.registered and task_state in FINISHED_STATES:
            await receiver.wait_for(
                lambda d: d.task_state in FINISHED_STATES, limits.PUSH_GRACE_SECONDS
            )
        await self.close()

    async def close(self) -> None:
        """Stop the receiver (safe to call twice)."""
        receiver, self._receiver = self._receiver, None
        if receiver is not None:
            await receiver.stop()
            self.log.not_listed = receiver.not_listed
            self.log.refused_count = receiver.refused_count


def delivery_line(delivery: Delivery, wire: WireVerdict | None = None) -> str:
    """One delivery on the timeline: which, when, what, and whether it was the run's own
    (agent text in it is not made printable here: each surface does that its own way).
    A refused delivery is numbered apart: ``refused #1``. ``wire``: its wire check
    (``Run.answers.wire``), said last when it found something (``wire 1 error``); a clean one is
    counted in the report's wire line, not repeated on every delivery."""
    what = f" {delivery.task_state}" if delivery.task_state else ""
    if delivery.problem:
        what = f" unreadable ({delivery.problem})"
    number = f"#{delivery.number}" if delivery.token_ok else f"refused #{delivery.number}"
    return (
        f"{number} +{delivery.offset_seconds:.2f} s {delivery.kind}{what}: "
        f"token {'ok' if delivery.token_ok else 'WRONG'}, "
        f"task {'ok' if delivery.task_id_ok else 'OTHER'}, {delivery.size} B"
        + (f", wire {wire.word}" if wire is not None and (wire.errors or wire.warnings) else "")
    )


def push_to_json(log: PushLog | None) -> dict[str, Any] | None:
    """The ``push`` member of ``check --json`` (a contract: README names each member)."""
    if log is None:
        return None

    def listed(deliveries: list[Delivery]) -> list[dict[str, Any]]:
        return [
            {
                "number": d.number,
                "received_at": d.received_at,
                "offset_seconds": d.offset_seconds,
                "kind": d.kind,
                "task_id": d.task_id,
                "task_state": d.task_state,
                "token_ok": d.token_ok,
                "task_id_ok": d.task_id_ok,
                "size": d.size,
                "problem": d.problem,
            }
            for d in deliveries
        ]

    return {
        "receiver": log.receiver,
        "url": log.url,
        "registered": log.registered,
        "sees_deliveries": log.sees_deliveries,
        "deliveries": listed(log.deliveries),
        "deliveries_not_listed": log.not_listed,
        "refused": listed(log.refused),
        "refused_count": log.refused_count,
        "error": log.error,
    }
