"""The credentials the card's schemes ask for, as the client adds them to each request.

The client adds them only where the user's headers and bearer go (the card's origin,
RULES SR7); this module says what they are once the card is known: an OAuth2 token
(oauth2.py) as the bearer, and an API key in the header, query or cookie its scheme names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sia_tui.core.a2a.auth.plan import API_KEY, plan_for, provided, scheme_of_kind, scopes_for
from sia_tui.core.a2a.http.recorder import ExchangeRecorder
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.a2a.security import SchemeKind, SecurityScheme
from sia_tui.core.a2a.views import AgentCard
from sia_tui.core.errors import AuthorizationRefused
from sia_tui.core.redaction.issued import IssuedSecrets

if TYPE_CHECKING:  # the token client loads only for a run given OAuth2 credentials
    from sia_tui.core.a2a.auth.oauth2 import TokenSource

#: Where an API key goes when the card declares no apiKey scheme (a common default).
DEFAULT_KEY_HEADER = "X-API-Key"


class Authenticator:
    """Card-driven credentials for one client: ``use_card``, then ``prepare`` per request."""

    def __init__(
        self,
        options: ClientOptions,
        recorder: ExchangeRecorder,
        warnings: list[str],
        issued: IssuedSecrets,
    ) -> None:
        self.options = options
        self._issued = issued
        self._recorder = recorder
        #: The client's warnings: why no token is sent lands there once.
        self._warnings = warnings
        self.card: AgentCard | None = None
        self._tokens: TokenSource | None = None
        self._key_scheme: SecurityScheme | None = None
        self._token: str | None = None

    def use_card(self, card: AgentCard, location: str | None) -> None:
        """Read what the card asks for (its schemes); nothing is sent yet."""
        self.card = card
        self._key_scheme = scheme_of_kind(card, SchemeKind.API_KEY)
        if self.options.oauth2 is not None:
            from sia_tui.core.a2a.auth.oauth2 import TokenSource

            scheme = scheme_of_kind(card, SchemeKind.OAUTH2, SchemeKind.OPENID)
            self._tokens = TokenSource(
                self.options.oauth2,
                self._recorder,
                scheme=scheme,
                scopes=scopes_for(card, scheme.name) if scheme is not None else (),
                card_location=location,
                issued=self._issued,
            )

    async def prepare(self) -> None:
        """Fetch (or reuse) the OAuth2 token before a request to the agent."""
        if self._tokens is not None:
            self._token = await self._tokens.token()
            problem = self._tokens.problem
            if problem and problem not in self._warnings:
                self._warnings.append(problem)

    def refresh(self) -> bool:
        """After a 401: forget the token; True when a new one is worth one retry."""
        return self._tokens is not None and self._tokens.refresh()

    @property
    def problem(self) -> str:
        """Why no OAuth2 token is sent (a refused or failed token endpoint), if so."""
        return self._tokens.problem if self._tokens is not None else ""

    def headers(self) -> list[tuple[str, str]]:
        """The OAuth2 bearer and a header or cookie API key (for the card's origin only)."""
        found = []
        if self._token is not None:
            found.append(("Authorization", f"Bearer {self._token}"))
        where, name = self._key_place()
        if where == "header":
            found.append((name, self.options.api_key or ""))
        return found

    def cookie(self) -> tuple[str, str] | None:
        """The API key as a cookie, when its scheme says so."""
        where, name = self._key_place()
        return (name, self.options.api_key or "") if where == "cookie" else None

    def query(self) -> tuple[str, str] | None:
        """The API key as a query parameter, when its scheme says so."""
        where, name = self._key_place()
        return (name, self.options.api_key or "") if where == "query" else None

    def _key_place(self) -> tuple[str, str]:
        if not self.options.api_key:
            return "", ""
        scheme = self._key_scheme
        if scheme is None or scheme.key_location not in ("header", "query", "cookie"):
            return "header", DEFAULT_KEY_HEADER
        return scheme.key_location, scheme.key_name or DEFAULT_KEY_HEADER

    def sent(self) -> str:
        """The names of the credentials sent to the agent (never values)."""
        names = [n for n in provided(self.options) if n != API_KEY]
        if self.options.oauth2 is not None and self._token is None:
            names.remove("oauth2")
            names.append("no OAuth2 token")
        if self.options.api_key:
            where, name = self._key_place()
            names.append(f"API key in {where} {name}")
        return ", ".join(names) if names else "no credentials"

    def refused(self, status: int, url: str) -> AuthorizationRefused:
        """The agent's 401/403 as the authorization verdict: required and sent, by name."""
        return AuthorizationRefused(
            status, url=url, required=self.required(), sent=self.sent(), problem=self.problem
        )

    def required(self) -> str:
        """What the card requires, in one line."""
        if self.card is None:
            return "the card was not read"
        return plan_for(self.card, None, provided(self.options)).requires
