"""A saved session as the answers a mock agent gives: each recorded exchange by its key.

The session is read by the project's session reader (``load_session``: bounded, every
problem a located ``SessionError``), and its exchanges are every invocation's, once each,
in the order sent (``session_exchanges``). Each answers the request whose key
(``keys.request_key``) its own recorded request has, in the order recorded; once a key's
answers are used up, its last one answers again (a client that polls once more than the
recorded one gets the final state, as from the agent).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from sia_tui.agent.mock.keys import RequestKey, grpc_call_key, path_of, request_key
from sia_tui.agent.mock.push import RecordedPush, recorded_pushes
from sia_tui.core.a2a.defaults import MAX_RESPONSE_BYTES
from sia_tui.core.exchange import Exchange
from sia_tui.core.session.format import LoadedSession
from sia_tui.core.session.invocations import session_exchanges

#: The largest request body the mock reads (the reference agent's own bound is 1 MiB;
#: arguments a client under test sends may be bigger, and are refused with 413 past this).
MAX_REQUEST_BYTES = 16 * 1024 * 1024
#: How many recorded requests an unmatched request's error lists (the rest are counted).
MAX_LISTED = 12
#: Where a client looks for an Agent Card (A2A 1.0, then 0.3).
CARD_PATHS = ("/.well-known/agent-card.json", "/.well-known/agent.json")
#: Headers that carry credentials whatever the session's redactor named them.
_CREDENTIAL_HEADERS = frozenset({"authorization", "x-api-key", "api-key"})


@dataclass
class Recording:
    """The recorded answers of a session, by key, and its Agent Card."""

    answers: dict[RequestKey, list[Exchange]]
    #: The recorded card fetch (or the card file's bytes): served at the well-known paths.
    card: Exchange | None
    #: Names (lower case) of the credential headers the recorded client sent.
    credential_headers: frozenset[str]
    #: Recorded refusals of a request without credentials (HTTP 401 or 403).
    refusal: Exchange | None
    #: Recorded gRPC calls (the mock then serves gRPC too).
    grpc_calls: int
    loose: bool = False
    #: The response limit the recorded client had: an answer it cut is served past it.
    max_response_bytes: int = MAX_RESPONSE_BYTES
    #: The deliveries of each registration the agent accepted, by the registering send's seq.
    pushes: dict[int, RecordedPush] = field(default_factory=dict)
    _used: dict[RequestKey, int] = field(default_factory=lambda: defaultdict(int))

    def key(self, http_method: str, path: str, body: bytes, max_bytes: int) -> RequestKey:
        """The key a live request is matched by (``--match loose``: no arguments digest)."""
        key = request_key(http_method, path, body, max_bytes)
        return key.loose() if self.loose else key

    def answer(self, key: RequestKey) -> Exchange | None:
        """The next recorded answer to ``key``: in order, then the last one again."""
        listed = self.answers.get(key)
        if not listed:
            return None
        used = self._used[key]
        self._used[key] = used + 1
        return listed[min(used, len(listed) - 1)]

    def give_back(self, key: RequestKey) -> None:
        """The answer ``answer(key)`` gave was not served (the mock refused the request):
        the next request of that key gets it."""
        if self._used[key]:
            self._used[key] -= 1

    def holdings(self) -> str:
        """What the session holds, one request per line (for an unmatched request)."""
        keys = [str(key) for key in self.answers]
        shown = keys[:MAX_LISTED]
        more = len(keys) - len(shown)
        lines = [f"  {each}" for each in shown] or ["  (no recorded requests)"]
        if more:
            lines.append(f"  ... and {more} more")
        return "\n".join(lines)


def recording(
    session: LoadedSession, *, loose: bool = False, max_request_bytes: int = MAX_REQUEST_BYTES
) -> Recording:
    """The answers of ``session`` by key."""
    answers: dict[RequestKey, list[Exchange]] = {}
    card: Exchange | None = None
    credentials: set[str] = set()
    refusal: Exchange | None = None
    grpc_calls = 0
    every = session_exchanges(session.run)
    for ex in every:
        if ex.grpc:
            grpc_calls += 1
        whole = ex.method == "FILE" or ex.status == 200
        if ex.purpose == "agent card" and card is None and whole:
            card = ex
        if ex.method == "FILE":
            continue
        key = (
            grpc_call_key(ex, max_request_bytes)
            if ex.grpc
            else request_key(ex.method, path_of(ex.url), ex.request_body, max_request_bytes)
        )
        answers.setdefault(key.loose() if loose else key, []).append(ex)
        credentials.update(
            name.lower()
            for name, value in ex.request_headers
            if name.lower() in _CREDENTIAL_HEADERS or "«redacted:" in value
        )
        if refusal is None and ex.status in (401, 403):
            refusal = ex
    limit = session.options.get("max_response_bytes")
    limit = limit if isinstance(limit, int) and 0 < limit <= MAX_RESPONSE_BYTES else None
    return Recording(
        answers,
        card,
        frozenset(credentials),
        refusal,
        grpc_calls,
        loose,
        limit or MAX_RESPONSE_BYTES,
        recorded_pushes((i.run for i in session.run.invocations), every, max_request_bytes),
    )


def is_card_path(path: str) -> bool:
    """True for the paths a client fetches an Agent Card from."""
    return path in CARD_PATHS
