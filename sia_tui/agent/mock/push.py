"""The mock's push notifications: the recorded deliveries, sent where the LIVE client asks.

A recorded send that registered a webhook the agent accepted has the deliveries the run's
receiver got (``Run.push``). When a live request the mock answers with that request
registers a webhook too (inline, in the send's ``configuration``, as sia-tui registers
one, or by a CreateTaskPushNotificationConfig call where the session recorded one), the
recorded deliveries are POSTed, in their recorded order, to the URL and with the token the
live client sent now. The webhook URL and token written in the session are never used: a
file grants nothing (docs/SECURITY.md), and a recorded secret may be a redaction
placeholder, which is never sent as if it were the value.

Who may be delivered to is the consent of the person running ``mock``, never the file's
nor the client's: loopback addresses by default (sia-tui's own receiver listens on
127.0.0.1), and each origin named with ``mock --push-to ORIGIN``. The mock follows no URL
the session or an answer names (RULES SR7); this webhook is one the user's own client
registered with a mock the user started, on an origin the user allowed. A webhook on any
other origin is refused as an agent refuses an unusable push config (InvalidParams,
"Invalid push notification URL", as a2a-sdk's URL validator answers; A2A 1.0 section 13.2).

Every delivery is bounded: at most ``MAX_DELIVERIES`` per registration, each body at most
``MAX_DELIVERY_BYTES``, each POST within ``POST_TIMEOUT_SECONDS``, no redirect followed.
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sia_tui.core import limits
from sia_tui.core.a2a.push.receiver import Delivery
from sia_tui.core.exchange import Exchange
from sia_tui.core.run.read_model import Run

#: The header the token travels in (a2a-sdk 1.3.0's push sender; sia-tui's receiver reads it).
TOKEN_HEADER = "X-A2A-Notification-Token"
#: Most deliveries one registration gets (the run's own and the refused ones it kept).
MAX_DELIVERIES = limits.MAX_PUSH_DELIVERIES + limits.MAX_PUSH_REFUSED_KEPT
#: Largest body the mock posts (a delivery recorded over the receiver's limit is padded
#: to its recorded size, up to this).
MAX_DELIVERY_BYTES = limits.MAX_JSON_BYTES + 1
#: Seconds one POST may take, connecting included.
POST_TIMEOUT_SECONDS = 5.0
#: Registrations delivered to at once; more wait their turn.
MAX_CONCURRENT_REGISTRATIONS = 8
#: Where a send's configuration names its webhook: 1.0, then 0.3.
_CONFIG_MEMBERS = ("taskPushNotificationConfig", "pushNotificationConfig")
#: The answer to a webhook the user did not allow (a2a-sdk's words for an unusable URL).
REFUSED_MESSAGE = "Invalid push notification URL"


@dataclass(frozen=True)
class Webhook:
    """The webhook a live request registered: where, and what proves a delivery is its."""

    url: str
    token: str | None
    #: ``scheme credentials`` of the config's ``authentication``, when it names both.
    authorization: str | None = None


@dataclass(frozen=True)
class RecordedPush:
    """The deliveries one recorded registration received, in arrival order."""

    #: (seconds after the registering request started, delivery, the run's own).
    deliveries: tuple[tuple[float, Delivery, bool], ...]


def _text(value: Any, most: int) -> str | None:
    """A header-safe string of at most ``most`` characters, else None."""
    if isinstance(value, str) and 0 < len(value) <= most and value.isprintable():
        return value
    return None


def webhook_in(body: Any) -> Webhook | None:
    """The webhook a send's body registers (JSON-RPC ``params`` or the HTTP+JSON / gRPC
    ProtoJSON request itself), or None when it registers none."""
    if not isinstance(body, dict):
        return None
    params = body.get("params") if body.get("jsonrpc") is not None else body
    if not isinstance(params, dict):
        return None
    config = _config_of(params)
    if config is None:
        return None
    url = config.get("url")
    if not isinstance(url, str) or not url:
        return Webhook(url="", token=None)  # registered, but nowhere usable: refused
    auth = config.get("authentication")
    authorization = None
    if isinstance(auth, dict):
        scheme, credentials = auth.get("scheme"), auth.get("credentials")
        if isinstance(scheme, str) and isinstance(credentials, str):
            authorization = _text(f"{scheme} {credentials}", 2000)
    return Webhook(url[:2000], _text(config.get("token"), 1000), authorization)


def _config_of(params: dict[str, Any]) -> dict[str, Any] | None:
    """The push config a request carries: a send's inline one (1.0, then 0.3), or the
    one a CreateTaskPushNotificationConfig call creates (1.0: the request is the config;
    0.3's ``tasks/pushNotificationConfig/set``: its ``pushNotificationConfig``)."""
    configuration = params.get("configuration")
    if isinstance(configuration, dict):
        for member in _CONFIG_MEMBERS:
            if isinstance(configuration.get(member), dict):
                return dict(configuration[member])
        return None
    if "message" in params:
        return None
    if isinstance(params.get("pushNotificationConfig"), dict):
        return dict(params["pushNotificationConfig"])
    return params if "url" in params else None


def refusal(url: str, allowed: Iterable[str]) -> str | None:
    """Why the mock may not deliver to ``url`` (None: it may): loopback addresses, and
    the origins the user named with ``--push-to`` (``allowed``, as ``origin_text``)."""
    # RULES SR7: a client never follows a URL an agent (here: a session file) names. This
    # URL comes from the live client, and whether the mock may post to it is the consent of
    # the person who started the mock (loopback, or --push-to), never the file's.
    from sia_tui.core.a2a.origin import origin_of, origin_text  # httpx: loaded to deliver
    from sia_tui.core.errors import SiaError

    try:
        origin = origin_of(url)
    except SiaError as exc:
        return f"not a usable URL ({exc})"
    scheme, host, _ = origin
    if scheme not in ("http", "https"):
        return "not an http(s) URL"
    if origin_text(origin) in allowed or _loopback(host):
        return None
    return "not a loopback address, and not an origin allowed with --push-to"


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def checked_origin(text: str) -> str:
    """``--push-to ORIGIN`` as ``scheme://host:port`` (a SiaError when it is not one)."""
    from sia_tui.core.a2a.origin import origin_of, origin_text
    from sia_tui.core.errors import TransportError

    origin = origin_of(text)
    if origin[0] not in ("http", "https"):
        raise TransportError("an origin is http:// or https://", url=text[:300])
    return origin_text(origin)


def _arrival(delivery: Delivery, started_at: float) -> float:
    """Seconds from the registering request's start to the delivery's arrival (its wall
    clock time; else the receiver's offset, which started just before the request)."""
    try:
        arrived = datetime.strptime(delivery.received_at[:40], "%Y-%m-%dT%H:%M:%S.%fZ")
        gap = arrived.replace(tzinfo=UTC).timestamp() - started_at
    except (ValueError, TypeError, OverflowError):
        gap = delivery.offset_seconds
    return gap if 0.0 <= gap < float("inf") else 0.0


def recorded_pushes(
    runs: Iterable[Run], exchanges: list[Exchange], max_bytes: int
) -> dict[int, RecordedPush]:
    """Each accepted registration's deliveries, by the seq of the send that registered
    them: the last exchange whose request carried the webhook URL the run's log names."""
    from sia_tui.agent.mock.keys import json_body

    found: dict[int, RecordedPush] = {}
    seen: set[str] = set()
    for run in runs:
        log = run.push
        if log is None or not log.registered or not log.url or log.url in seen:
            continue
        seen.add(log.url)
        sent = [
            ex
            for ex in exchanges
            if (hook := webhook_in(json_body(ex.request_body, max_bytes))) and hook.url == log.url
        ]
        if not sent:
            continue
        ex = sent[-1]
        listed = [(d, True) for d in log.deliveries] + [(d, False) for d in log.refused]
        timed = sorted(
            ((_arrival(d, ex.started_at), d, own) for d, own in listed), key=lambda t: t[0]
        )
        found[ex.seq] = RecordedPush(tuple(timed[:MAX_DELIVERIES]))
    return found


def _body(delivery: Delivery) -> bytes:
    """The recorded body; one the receiver did not read (over its limit) is its recorded
    size of padding, so a receiver's limit refuses it again (nothing invented)."""
    kept = delivery.body.encode("utf-8", "replace")[:MAX_DELIVERY_BYTES]
    if not kept and delivery.size > 0:
        return b" " * min(delivery.size, MAX_DELIVERY_BYTES)
    return kept


@dataclass(frozen=True)
class Refused:
    """A live webhook the mock will not deliver to: the text printed, and the answer's."""

    printed: str
    answer: str


def live_push(
    pushes: dict[int, RecordedPush], allowed: Iterable[str], answered: Exchange, live: Any
) -> tuple[RecordedPush, Webhook] | Refused | None:
    """What a live request (``live``, its body as JSON) that the mock answers with the
    recorded ``answered`` does about push: the deliveries and where they go, a refusal
    of its webhook, or None (nothing to deliver: the recorded send registered none, or
    the live one registers none)."""
    recorded = pushes.get(answered.seq)
    webhook = webhook_in(live) if recorded is not None else None
    if recorded is None or webhook is None:
        return None
    why = refusal(webhook.url, allowed)
    if why is None:
        return recorded, webhook
    return Refused(
        f"sia-tui mock: refused the push notification webhook {webhook.url!r}: {why}; "
        "start the mock with --push-to ORIGIN to deliver there",
        f"{REFUSED_MESSAGE}: {why} (sia-tui mock --push-to ORIGIN allows one)",
    )


class PushDeliveries:
    """Delivers recorded pushes to live webhooks, in the background of the serving loop."""

    def __init__(self, *, timed: bool, pause: Callable[[float], Awaitable[None]], max_gap: float):
        self._timed, self._pause, self._max_gap = timed, pause, max_gap
        self._running: set[asyncio.Task[None]] = set()
        self._slots: asyncio.Semaphore | None = None

    def start(self, recorded: RecordedPush, webhook: Webhook) -> None:
        """Deliver ``recorded`` to ``webhook`` from now on (the request arrived now)."""
        runner = asyncio.create_task(self._deliver(recorded, webhook))
        self._running.add(runner)
        runner.add_done_callback(self._running.discard)

    async def _deliver(self, recorded: RecordedPush, webhook: Webhook) -> None:
        import httpx  # the mock's client side loads only when something is delivered

        if self._slots is None:
            self._slots = asyncio.Semaphore(MAX_CONCURRENT_REGISTRATIONS)
        async with (
            self._slots,
            httpx.AsyncClient(
                timeout=POST_TIMEOUT_SECONDS, trust_env=False, follow_redirects=False
            ) as client,
        ):
            previous = 0.0
            for at, delivery, own in recorded.deliveries:
                at = min(at, self._max_gap)
                if self._timed and at > previous:  # the recorded gap since the last one
                    await self._pause(at - previous)
                previous = max(previous, at)
                headers = {"Content-Type": "application/json"}
                if own:  # one the receiver refused came without the run's token
                    if webhook.token is not None:
                        headers[TOKEN_HEADER] = webhook.token
                    if webhook.authorization is not None:
                        headers["Authorization"] = webhook.authorization
                try:  # best effort, as an agent's sender: a failed delivery ends none
                    await client.post(webhook.url, content=_body(delivery), headers=headers)
                except httpx.HTTPError:
                    continue
