"""OAuth2 client credentials (RFC 6749 section 4.4): an access token for the agent.

A card must not choose where the client secret goes (RULES SR7): a token endpoint the card
names (``tokenUrl``, ``oauth2MetadataUrl``, OIDC discovery) is used only on the card's own
origin; one the user names (``--oauth2-token-url``) anywhere. The token request carries no
agent header, and its recorded exchange has the secret and the token already replaced.
"""

from __future__ import annotations

import base64
import time
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import quote, urlencode, urljoin

from sia_tui.core.a2a.http.recorder import ExchangeRecorder, Reply
from sia_tui.core.a2a.options import OAuth2Settings
from sia_tui.core.a2a.origin import origin_of, origin_text
from sia_tui.core.a2a.security import SchemeKind, SecurityScheme
from sia_tui.core.errors import SiaError, TransportError
from sia_tui.core.jsonkit.strictjson import loads as load_json
from sia_tui.core.redaction.issued import IssuedSecrets
from sia_tui.core.redaction.redact import placeholder
from sia_tui.core.redaction.secret_forms import encoded_forms

#: A token is renewed this long before it expires (a request in flight must not carry a
#: token that expires on the way).
EXPIRY_MARGIN = 30.0
#: Where OIDC discovery looks on the card's origin.
OIDC_DISCOVERY = "/.well-known/openid-configuration"
#: Largest token or metadata answer read: reading stops past it, before anything scrubs it.
MAX_TOKEN_ANSWER_BYTES = 256 * 1024
#: The members of a token answer whose string value is a secret (RFC 6749 5.1, OIDC).
_TOKEN_NAMES = (b'"access_token"', b'"refresh_token"', b'"id_token"')
_JSON_SPACE = b" \t\r\n"


@dataclass(frozen=True)
class TokenEndpoint:
    """Where the client secret would go, who named it, and why it is not used (if not)."""

    url: str
    source: str
    refused: str = ""


def same_origin(url: str, card_location: str | None) -> bool:
    """True when ``url`` is on the card's origin (a local card file trusts any origin)."""
    if not card_location or "://" not in card_location:
        return True
    try:
        return origin_of(url) == origin_of(card_location)
    except SiaError:  # an ambiguous port is never the card's origin
        return False


def card_endpoint(url: str, source: str, card_location: str | None) -> TokenEndpoint:
    """A URL the card named, refused unless it is on the card's origin (RULES SR7)."""
    if card_location and "://" in card_location:
        url = urljoin(card_location, url)
    if same_origin(url, card_location):
        return TokenEndpoint(url, source)
    home = origin_text(origin_of(card_location)) if card_location else "?"
    return TokenEndpoint(
        url,
        source,
        refused=f"the card's {source} {url[:300]!r} is not on the card's origin {home}: "
        "no client secret is sent there (RULES SR7); name the token endpoint with "
        "--oauth2-token-url if you trust it",
    )


def scrubber(settings: OAuth2Settings) -> Callable[[bytes], bytes]:
    """Replaces the client secret and every token member in a recorded body."""
    secrets = sorted(
        {f.encode() for f in encoded_forms(settings.client_secret) if len(f) >= 4},
        key=len,
        reverse=True,
    )
    secret_mark = placeholder("oauth2-client-secret").encode()

    def scrub(body: bytes) -> bytes:
        for form in secrets:
            body = body.replace(form, secret_mark)
        return scrub_token_members(body)

    return scrub


def scrub_token_members(body: bytes) -> bytes:
    """``body`` with the string value of every token member replaced, in one pass (no
    regular expression: an answer's text is the endpoint's). A value whose string does not
    end (an answer cut at its limit) is replaced to the end."""
    mark = placeholder("access_token").encode()
    out, kept, at = [], 0, 0
    while (found := body.find(b'_token"', at)) >= 0:
        at = found + len(b'_token"')
        if not any(body.endswith(name, 0, at) for name in _TOKEN_NAMES):
            continue
        value = _string_value_at(body, at)
        if value is None:
            continue
        end = _string_end(body, value)
        out += [body[kept:value], mark]
        if end < 0:  # unterminated: the rest may be the token
            return b"".join(out)
        kept = at = end
    return b"".join([*out, body[kept:]])


def _string_value_at(body: bytes, at: int) -> int | None:
    """Where the string value starts after a member name ending at ``at`` (``: "``)."""
    at = _skip_space(body, at)
    if body[at : at + 1] != b":":
        return None
    at = _skip_space(body, at + 1)
    return at + 1 if body[at : at + 1] == b'"' else None


def _skip_space(body: bytes, at: int) -> int:
    while body[at : at + 1] and body[at] in _JSON_SPACE:
        at += 1
    return at


def _string_end(body: bytes, start: int) -> int:
    """The quote that ends the JSON string whose text starts at ``start``; -1 if none.
    Each byte is looked at at most twice: backslashes are counted back only to ``start``
    or the last quote tried."""
    at = start
    while (quote := body.find(b'"', at)) >= 0:
        slash = quote
        while slash > at and body[slash - 1] == 0x5C:  # a backslash
            slash -= 1
        if (quote - slash) % 2 == 0:
            return quote
        at = quote + 1
    return -1


class TokenSource:
    """Fetches and caches one access token; ``refresh`` forgets it after a 401."""

    def __init__(
        self,
        settings: OAuth2Settings,
        recorder: ExchangeRecorder,
        *,
        scheme: SecurityScheme | None,
        scopes: tuple[str, ...],
        card_location: str | None,
        issued: IssuedSecrets | None = None,
    ) -> None:
        self.settings = settings
        self._issued = issued
        self.scheme = scheme
        self.scopes = settings.scopes or scopes
        self._recorder = recorder
        self._card_location = card_location
        self._token: str | None = None
        self._expires = 0.0
        #: Why no token could be had (shown with a 401), empty while none was tried.
        self.problem = ""
        self._scrub = scrubber(settings)

    async def token(self) -> str | None:
        """The cached token, or a new one; None (with ``problem``) when none can be had."""
        if self._token is not None and time.monotonic() < self._expires:
            return self._token
        self._token = None
        try:
            endpoint = await self.endpoint()
            if endpoint.refused:
                self.problem = endpoint.refused
                return None
            reply = await self._post(endpoint.url)
            self._token, lifetime = _read_token(reply)
            if self._issued is not None:  # masked and redacted before any use of it
                self._issued.add(self._token, "access_token")
        except SiaError as exc:
            self.problem = f"no OAuth2 token: {exc}"
            return None
        self.problem = ""
        margin = EXPIRY_MARGIN if lifetime > 2 * EXPIRY_MARGIN else lifetime / 2
        self._expires = time.monotonic() + lifetime - margin
        return self._token

    def refresh(self) -> bool:
        """Forget the token (the agent answered 401); True when there was one to forget."""
        had = self._token is not None
        self._token, self._expires = None, 0.0
        return had

    async def endpoint(self) -> TokenEndpoint:
        """The token endpoint: the user's, the card's tokenUrl, RFC 8414 metadata, or OIDC
        discovery on the card's origin, in that order."""
        if self.settings.token_url:
            return TokenEndpoint(self.settings.token_url, "--oauth2-token-url")
        scheme, card = self.scheme, self._card_location
        if scheme is not None and scheme.token_url:
            return card_endpoint(scheme.token_url, "tokenUrl", card)
        if scheme is not None and scheme.metadata_url:
            source = "openIdConnectUrl" if scheme.kind is SchemeKind.OPENID else "oauth2MetadataUrl"
            found = card_endpoint(scheme.metadata_url, source, card)
            return found if found.refused else await self._discover(found.url, source)
        if card and "://" in card:
            return await self._discover(urljoin(card, OIDC_DISCOVERY), "OIDC discovery")
        raise TransportError("the card names no token endpoint: name it with --oauth2-token-url")

    async def _discover(self, url: str, source: str) -> TokenEndpoint:
        """``token_endpoint`` of an RFC 8414 or OIDC metadata document (the card's origin)."""
        request = self._recorder.build("GET", url, [("Accept", "application/json")], b"")
        request.headers.pop("Cookie", None)
        reply = await self._recorder.request(
            "oauth2 metadata", request, max_bytes=MAX_TOKEN_ANSWER_BYTES
        )
        found = _json(reply).get("token_endpoint")
        if not isinstance(found, str) or not found:
            raise TransportError(f"the {source} document names no token_endpoint")
        return card_endpoint(found, f"{source} token_endpoint", self._card_location)

    async def _post(self, url: str) -> Reply:
        """The token request: client_secret_basic (RFC 6749 2.3.1), nothing of the agent's."""
        form = {"grant_type": "client_credentials"}
        if self.scopes:
            form["scope"] = " ".join(self.scopes)
        client_id, secret = self.settings.client_id, self.settings.client_secret
        pair = f"{quote(client_id, safe='')}:{quote(secret, safe='')}"
        headers = [
            ("Authorization", "Basic " + base64.b64encode(pair.encode()).decode("ascii")),
            ("Content-Type", "application/x-www-form-urlencoded"),
            ("Accept", "application/json"),
        ]
        request = self._recorder.build("POST", url, headers, urlencode(form).encode())
        # Cookies the agent set are the agent's credentials: never sent to the IdP.
        request.headers.pop("Cookie", None)
        # Bounded while read: an answer past the limit is refused before it is scrubbed.
        return await self._recorder.request(
            "oauth2 token", request, scrub=self._scrub, max_bytes=MAX_TOKEN_ANSWER_BYTES
        )


def _json(reply: Reply) -> dict[str, object]:
    if not 200 <= reply.status < 300:
        raise TransportError(f"the token endpoint answered HTTP {reply.status}")
    payload = load_json(reply.body, source=reply.exchange.url, max_bytes=MAX_TOKEN_ANSWER_BYTES)
    if not isinstance(payload, dict):
        raise TransportError("the token endpoint's answer is not a JSON object")
    return payload


def _read_token(reply: Reply) -> tuple[str, float]:
    """The access token and its lifetime in seconds (an hour when not said)."""
    payload = _json(reply)
    token, lifetime = payload.get("access_token"), payload.get("expires_in", 3600)
    if not isinstance(token, str) or not token or not token.isprintable():
        raise TransportError("the token endpoint's answer has no usable access_token")
    if isinstance(lifetime, bool) or not isinstance(lifetime, int | float) or lifetime <= 0:
        lifetime = 3600
    return token, float(min(lifetime, 86400))
