"""``A2AClient``: card retrieval and the A2A calls, each exchange recorded with raw bytes.

The client only requests the card location and the interface URLs of that card; it never
follows a URL an agent names (RULES SR7), and redirects are refused unless same-origin and
allowed by the options. The calls live in sibling modules: the shared state, one recorded
call and the choice of binding in ``client_base.py``, the task calls in ``client_tasks.py``,
the streams in ``client_streams.py``; the card and SendMessage here. Each call is written
once: the interface's binding (``binding.Binding``) builds, sends and reads it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from sia_tui.core.a2a.card import parse_card
from sia_tui.core.a2a.client_base import FollowUpOf as FollowUpOf
from sia_tui.core.a2a.client_base import user_message
from sia_tui.core.a2a.client_streams import StreamingCalls
from sia_tui.core.a2a.client_tasks import TaskCalls
from sia_tui.core.a2a.http.codec import codec_for
from sia_tui.core.a2a.origin import origin_of
from sia_tui.core.a2a.views import AgentCard, Interface
from sia_tui.core.constants import CARD_PATHS
from sia_tui.core.errors import FileInputError, ResponseTooLarge, TransportError
from sia_tui.core.exchange import Exchange
from sia_tui.core.jsonkit.strictjson import loads as load_json
from sia_tui.core.local_file import read_regular_file

if TYPE_CHECKING:
    from sia_tui.core.a2a.task_views import Message, Task


@dataclass(frozen=True)
class CardFetch:
    """A retrieved card, where it came from, and the exchange that carried it."""

    card: AgentCard
    url: str
    exchange: Exchange


class A2AClient(StreamingCalls, TaskCalls):
    """Talks A2A 1.0 (and 0.3) to one agent; every exchange lands in ``exchanges``."""

    # -- the card ---------------------------------------------------------------------------

    async def fetch_card(self, location: str) -> CardFetch:
        """A base URL (well-known paths, agent.json on 404), a ``.json`` URL, or a local file."""
        scheme, sep, _ = location.partition("://")
        if not sep:
            return self._card_from_file(location)
        if scheme.lower() not in ("http", "https"):
            raise TransportError(
                f"unsupported URL scheme {scheme!r}: use http or https, or a local card file",
                url=location,
            )
        try:
            host = urlsplit(location).hostname
        except ValueError as exc:
            raise TransportError(f"not a valid URL: {exc}", url=location) from None
        if not host:
            raise TransportError("the URL has no host", url=location)
        self.bind_card_location(location)
        if urlsplit(location).path.endswith(".json"):
            candidates = [location]
        else:
            candidates = [location.rstrip("/") + path for path in CARD_PATHS]
        for index, url in enumerate(candidates):
            reply = await self.call("agent card", "GET", url, self.request_headers("1.0", url))
            if reply.status != 404 or index == len(candidates) - 1:
                break
        payload = self.decode(reply.status, reply.content_type, reply.body, reply.exchange.url)
        final_url = str(reply.exchange.url)
        card = parse_card(payload, source_url=final_url)
        self.auth.use_card(card, self._card_location)
        return CardFetch(card, final_url, reply.exchange)

    def _card_from_file(self, location: str) -> CardFetch:
        path = Path(location).expanduser()
        limit = self.options.max_response_bytes
        started = time.time()
        try:
            data = read_regular_file(path, limit).data
        except FileInputError as exc:  # a FIFO too: refused, never waited on
            self._recorder.record(
                purpose="agent card",
                method="FILE",
                url=str(path),
                request_headers=(),
                request_body=b"",
                started_at=started,
                error=f"cannot read: {exc.reason}",
            )
            raise TransportError(f"cannot read card file: {exc.reason}", url=str(path)) from None
        too_large = len(data) > limit
        exchange = self._recorder.record(
            purpose="agent card",
            method="FILE",
            url=str(path),
            request_headers=(),
            request_body=b"",
            response_body=data[:limit],
            started_at=started,
            error=f"file larger than {limit} bytes" if too_large else None,
            truncated=too_large,
        )
        if too_large:
            raise ResponseTooLarge(f"card file larger than {limit} bytes", url=str(path))
        self.bind_card_location(str(path))
        payload = load_json(
            data, source=str(path), max_bytes=limit, max_depth=self.options.max_depth
        )
        card = parse_card(payload)
        self.auth.use_card(card, None)
        return CardFetch(card, str(path), exchange)

    def bind_card_location(self, location: str, card: AgentCard | None = None) -> None:
        """Credentials go to this card location's origin; elsewhere only when allowed (SR7).

        The card location is the user's choice. A local card file is trusted like a user
        setting: there is no origin to compare interfaces with. A client that did not fetch
        the card itself (the probe's) binds the location the card came from, and the card
        (whose security schemes say which credentials go where).
        """
        self._card_origin = origin_of(location) if "://" in location else None
        self._card_location = location
        if card is not None:
            self.auth.use_card(card, location if "://" in location else None)

    # -- A2A calls --------------------------------------------------------------------------

    def trust_card_origin(self, location: str) -> None:
        """Credentials go to ``location``'s origin only, as after ``fetch_card(location)``
        (a client that did not fetch the card itself; a local card file trusts any origin)."""
        self._card_origin = origin_of(location) if "://" in location else None
        self._card_location = location

    async def send(
        self,
        iface: Interface,
        data: Any = None,
        *,
        purpose: str,
        return_immediately: bool = False,
        text: str | None = None,
        follows: FollowUpOf | None = None,
        push: dict[str, Any] | None = None,
    ) -> Task | Message:
        """SendMessage with one user data part (or, given ``text``, one text part); the
        answer as a Task or Message. ``follows`` names the task a follow-up continues.

        By default the agent answers when the task is final; ``return_immediately`` (poll
        mode) asks for the task as soon as it exists. ``push`` (``{url, token}``) registers
        a webhook for the task in the same request.
        """
        message = user_message(codec_for(iface.dialect), data, text, follows)
        return await self.binding(iface).send(iface, message, purpose, return_immediately, push)
