"""Secret redaction by construction: every secret becomes a stable «redacted:NAME» placeholder."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import unquote, urlsplit

from sia_tui.core.exchange import Headers
from sia_tui.core.redaction.url_scan import has_userinfo, userinfo_spans

# Where a secret hides (its encodings, its escaped forms) is read only once there is a
# secret to look for: a run without credentials never loads secret_forms.
if TYPE_CHECKING:
    from sia_tui.core.redaction.container_text import ContainerTexts, Finder
    from sia_tui.core.redaction.secret_forms import Span

#: Headers whose value is always a credential, whatever it looks like.
SENSITIVE_HEADERS = frozenset(
    {"authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key"}
)
#: Header names that look like credentials are treated as secret even when nobody marked them
#: (autosave has no preview; over-redacting a header is cheap, leaking one is not).
CREDENTIAL_NAME = re.compile(
    r"(?i)auth|token|secret|passw|api[-_]?key|[-_]key$|cookie|session|"
    r"signature|credential"
)
#: Query parameter names that carry credentials in URLs.
TOKEN_PARAMS = frozenset(
    {
        "token",
        "access_token",
        "id_token",
        "refresh_token",
        "api_key",
        "apikey",
        "api-key",
        "key",
        "secret",
        "client_secret",
        "password",
        "passwd",
        "pwd",
        "sig",
        "signature",
        "auth",
        "code",
        "x-api-key",
        "session",
        "sessionid",
    }
)
#: Ranges of a text where values the user marked are kept (see ``Redactor.text``).
Keep = Callable[[str], list[tuple[int, int]]]
#: Literal values shorter than this are only redacted where they are known credentials
#: (headers, URLs): replacing "ab" everywhere would corrupt every body.
MIN_LITERAL_LENGTH = 4
#: A container whose JSON text is at least this long is written once for a whole walk
#: (``container_text``); below it each container asked about is written on its own.
WRITE_ONCE_FROM = 64 * 1024
#: A longer array's members are asked about in chunks of this many (a chunk's text holds
#: each member's): one scan per chunk, and one per member only in a chunk that may change.
CHUNK = 128
#: A header only *named* like a credential has its value scrubbed from bodies from this length.
HEURISTIC_MIN_LENGTH = 12

QUERY_TOKEN = re.compile(
    r"(?i)([?&;](?:" + "|".join(re.escape(p) for p in sorted(TOKEN_PARAMS)) + r")=)"
    r"([^&#\s\"'<>\\]+)"
)


def _chunks(items: Sequence[Any]) -> list[tuple[int, Sequence[Any]]]:
    """``items`` whole when short, else in lists of ``CHUNK`` members; each with the index
    of its first member."""
    if len(items) <= CHUNK:
        return [(0, items)]
    return [(at, list(items[at : at + CHUNK])) for at in range(0, len(items), CHUNK)]


def _plain_json_text(value: Any) -> str | None:
    """``value``'s JSON text as a container scan reads it, or None when it is not plain JSON
    (a type ``json`` cannot write, a NaN key, nesting past Python's calls)."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return None


def _find_at_sign(text: str, start: int) -> int:
    return text.find("@", start)


def _pattern_finder(pattern: re.Pattern[str]) -> Finder:
    """A :data:`~container_text.Finder` for ``pattern`` (which has no anchor and no
    lookbehind: what it finds from a position does not depend on the text before it)."""

    def find(text: str, start: int) -> int:
        match = pattern.search(text, start)
        return -1 if match is None else match.start()

    return find


def _has_userinfo(text: str) -> bool:
    """True when ``text`` holds ``scheme://userinfo@`` (``url_scan``: linear, no regex
    that could backtrack over agent text)."""
    return has_userinfo(text)


def is_credential_header(name: str) -> bool:
    """True for a header whose value is a credential by its name alone (the one rule the
    screen, the reports and the session files all use)."""
    lowered = name.lower()
    return lowered in SENSITIVE_HEADERS or CREDENTIAL_NAME.search(lowered) is not None


def placeholder(name: str) -> str:
    """The stable placeholder for a secret called ``name`` (a header name or a source)."""
    return f"«redacted:{name.lower()}»"


def mask_headers(
    headers: Iterable[tuple[str, str]], secret_names: Iterable[str] = ()
) -> list[tuple[str, str]]:
    """Headers with every credential value masked, for display on screen and in text reports."""
    extra = {n.lower() for n in secret_names}
    return [
        (name, placeholder(name) if is_credential_header(name) or name.lower() in extra else value)
        for name, value in headers
    ]


class Credentials(Protocol):
    """The credentials a redactor learns from the client options.

    ``a2a.options.ClientOptions`` is one; redaction sits below the A2A client, so it names
    the members it reads rather than the class.
    """

    @property
    def headers(self) -> tuple[tuple[str, str], ...]:
        """The user's extra request headers."""
        ...

    @property
    def bearer(self) -> str | None:
        """The bearer token for ``Authorization: Bearer ...``."""
        ...

    @property
    def secret_values(self) -> tuple[tuple[str, str], ...]:
        """Other credentials (an API key, an OAuth2 client secret) with their names."""
        ...


@dataclass(frozen=True)
class RedactionHit:
    """One redaction: which secret (placeholder name) and where it was found."""

    name: str
    where: str


@dataclass
class Redactor:
    """Replaces known secrets everywhere and remembers what it replaced and where.

    Build it with :meth:`from_options`; call :meth:`learn_headers` on every recorded
    exchange first so a credential a transport added is also scrubbed from bodies.
    """

    #: Extra header names the user marked secret (lower-case).
    secret_headers: set[str] = field(default_factory=set)
    #: literal form -> placeholder name; longest forms are replaced first.
    literals: dict[str, str] = field(default_factory=dict)
    #: Every redaction once, in the order found; a dict, not a list: an agent echoing a
    #: secret 8,000 times made ``hit not in list`` cost seconds.
    _hits: dict[RedactionHit, None] = field(default_factory=dict, repr=False)
    #: Forms of values the user marked secret (not credentials): redacted everywhere except
    #: in the bytes a digest is computed over (``marked=False``).
    marked: set[str] = field(default_factory=set)
    #: ``_forms`` by ``marked``, rebuilt after a secret is added.
    _patterns: dict[bool, tuple[list[tuple[str, str]], re.Pattern[str] | None]] = field(
        default_factory=dict, repr=False, compare=False
    )

    @classmethod
    def from_options(
        cls,
        options: Credentials,
        *,
        location: str | None = None,
        secret_values: Iterable[str] = (),
        secret_headers: Iterable[str] = (),
        issued: Iterable[tuple[str, str]] = (),
    ) -> Redactor:
        """A redactor for the client options (headers, bearer), the secrets issued during
        the run (``IssuedSecrets.pairs``), the values and header names the user marked
        secret, and the target."""
        redactor = cls()
        redactor.secret_headers.update(name.lower() for name in secret_headers)
        redactor.learn_headers(options.headers)
        if options.bearer:
            redactor.add_secret(options.bearer, "authorization", force=True)
        for name, secret in (*options.secret_values, *issued):
            redactor.add_secret(secret, name, force=True)
        for value in secret_values:
            redactor.add_secret(value, "secret", marked=True)
        if location:
            redactor.learn_url(location)
        return redactor

    def add_secret(
        self, value: str, name: str, *, force: bool = False, marked: bool = False
    ) -> None:
        """Redact ``value`` (and its encodings) from now on; ``marked``: a value the user
        marked secret rather than a credential (see ``marked``)."""
        value = value.strip()
        if len(value) < MIN_LITERAL_LENGTH and not force:
            return
        if not value or "«redacted:" in value:
            return  # nothing, or a value from a session that was redacted already
        from sia_tui.core.redaction.secret_forms import encoded_forms

        forms = encoded_forms(value)
        # "Bearer X": the scheme's token alone is the secret too.
        scheme, _, token = value.partition(" ")
        if token and scheme.isalpha() and len(token) >= MIN_LITERAL_LENGTH:
            forms |= encoded_forms(token)
        for form in forms:
            self._add_form(form, name, marked=marked)

    def _add_form(self, form: str, name: str, *, marked: bool) -> None:
        known = form in self.literals
        self.literals.setdefault(form, name)
        if marked and not known:
            self.marked.add(form)
        elif not marked:
            self.marked.discard(form)  # a credential is redacted everywhere
        self._patterns.clear()

    def merge(self, other: Redactor) -> None:
        """Redact ``other``'s secrets too (one shared log filter for several clients)."""
        self.secret_headers.update(other.secret_headers)
        for form, name in other.literals.items():
            self._add_form(form, name, marked=form in other.marked)

    def _forms(self, marked: bool) -> tuple[list[tuple[str, str]], re.Pattern[str] | None]:
        """``(form, name)`` pairs, longest first, and one pattern that finds any of them
        (a quick test before the forms are looked for one by one)."""
        if marked not in self._patterns:
            pairs = sorted(
                ((f, n) for f, n in self.literals.items() if marked or f not in self.marked),
                key=lambda pair: len(pair[0]),
                reverse=True,
            )
            pattern = re.compile("|".join(re.escape(f) for f, _ in pairs)) if pairs else None
            self._patterns[marked] = (pairs, pattern)
        return self._patterns[marked]

    def _spans(self, text: str, marked: bool, keep: Keep | None = None) -> list[Span]:
        """Where a secret is in ``text``; ``keep`` gives ranges of ``text`` in which values
        the user marked are kept (the document a digest is computed over)."""
        pairs, pattern = self._forms(marked)
        if pattern is None:
            return []
        from sia_tui.core.redaction.secret_forms import find_spans, has_escape, merge_spans

        if not (pattern.search(text) or has_escape(text)):
            return []
        if keep is None or not marked or not self.marked:
            return find_spans(text, pairs)
        ranges = keep(text)
        credentials = self._spans(text, False)
        values = find_spans(text, [(f, n) for f, n in pairs if f in self.marked])
        outside = [s for s in values if not any(a <= s[0] and s[1] <= b for a, b in ranges)]
        return merge_spans(credentials + outside)

    def is_secret_header(self, name: str) -> bool:
        """True for a header whose whole value is a credential (listed, marked or named so)."""
        return is_credential_header(name) or name.lower() in self.secret_headers

    def learn_headers(self, headers: Iterable[tuple[str, str]]) -> None:
        """Remember the value of every credential header (before redacting anything)."""
        for name, value in headers:
            lowered = name.lower()
            if lowered in SENSITIVE_HEADERS or lowered in self.secret_headers:
                self.add_secret(value, lowered, force=True)
                if lowered in ("cookie", "set-cookie"):
                    self._learn_cookie(value, lowered)
            elif self.is_secret_header(name) and len(value) >= HEURISTIC_MIN_LENGTH:
                # Named like a credential but nobody said so: a short value ("stream")
                # is more likely a setting, and replacing it everywhere would corrupt bodies.
                self.add_secret(value, lowered)

    def _learn_cookie(self, value: str, name: str) -> None:
        # Set-Cookie: only the first pair is the cookie; the rest are attributes (Path...).
        pairs = value.split(";")[:1] if name == "set-cookie" else value.split(";")
        for pair in pairs:
            _, eq, cookie_value = pair.partition("=")
            if eq:
                self.add_secret(cookie_value, name)

    def _without_userinfo(self, value: str, where: str) -> str:
        """``value`` with every URL's ``user:password`` replaced (``scheme://`` and ``@`` kept)."""
        spans = userinfo_spans(value)
        if not spans:
            return value
        pieces, kept = [], 0
        for start, end in spans:
            pieces += [value[kept:start], self._hit(placeholder("userinfo"), "userinfo", where)]
            kept = end
        pieces.append(value[kept:])
        return "".join(pieces)

    def learn_url(self, url: str) -> None:
        """Remember userinfo and token-like query values of ``url``."""
        try:
            parts = urlsplit(url)
        except ValueError:
            return
        if parts.password:
            self.add_secret(unquote(parts.password), "userinfo", force=True)
        if parts.username and parts.password is None:
            self.add_secret(unquote(parts.username), "userinfo", force=True)
        for match in QUERY_TOKEN.finditer(url):
            param = match.group(1)[1:-1].lower()
            self.add_secret(unquote(match.group(2)), param, force=True)

    # --- applying -------------------------------------------------------------------------

    def text(self, value: str, where: str, *, marked: bool = True, keep: Keep | None = None) -> str:
        """``value`` with URL credentials and every known secret replaced (``marked=False``:
        credentials only, values the user marked secret are kept; ``keep``: kept only in
        the ranges it gives)."""
        if not value:
            return value
        out = value
        if "@" in value:
            out = self._without_userinfo(value, where)
        out = QUERY_TOKEN.sub(
            lambda m: (
                m.group(1)
                + self._hit(placeholder(m.group(1)[1:-1]), m.group(1)[1:-1].lower(), where)
            ),
            out,
        )
        spans = self._spans(out, marked, keep)
        for _, _, name in spans:
            self._hit("", name, where)
        if not spans:
            return out
        from sia_tui.core.redaction.secret_forms import replace_spans

        return replace_spans(out, spans, placeholder)

    def data(
        self, body: bytes, where: str, *, marked: bool = True, keep: Keep | None = None
    ) -> bytes:
        """Raw body bytes with secrets replaced (decoded leniently so nothing is skipped)."""
        if not body:
            return body
        text = self.text(body.decode("utf-8", "surrogateescape"), where, marked=marked, keep=keep)
        return text.encode("utf-8", errors="surrogateescape")

    def carries_marked(self, body: bytes) -> bool:
        """True when ``body`` holds a value the user marked secret (in any form)."""
        pairs, _ = self._forms(True)
        marked = [(form, name) for form, name in pairs if form in self.marked]
        from sia_tui.core.redaction.secret_forms import find_spans

        return bool(find_spans(body.decode("utf-8", errors="surrogateescape"), marked))

    def headers(self, headers: Headers, where: str) -> list[list[str]]:
        """Headers as ``[name, value]`` pairs with credential headers wholly replaced."""
        out: list[list[str]] = []
        for name, value in headers:
            if self.is_secret_header(name):
                out.append([name, self._hit(placeholder(name), name.lower(), f"{where} {name}")])
            else:
                out.append([name, self.text(value, f"{where} {name}")])
        return out

    def value(self, value: Any, where: str, pointer: str = "", *, marked: bool = True) -> Any:
        """A JSON value with every string (keys included) redacted; hits name the pointer.

        RULES ERR6: an agent's error ``details`` may echo an argument the user marked secret;
        bodies go through here, so the echo is redacted like the original.
        """
        if not isinstance(value, list | tuple | dict):
            return self._value(value, where, pointer, marked, None)
        changes, texts = self._root_may_change(value, marked, urls=True)
        if not changes:
            return value  # nothing in it to redact: shared, not copied
        return self._members(value, where, pointer, marked, texts)

    def _value(
        self, value: Any, where: str, pointer: str, marked: bool, texts: ContainerTexts | None
    ) -> Any:
        if isinstance(value, str):
            return self.text(value, f"{where} {pointer}" if pointer else where, marked=marked)
        if not isinstance(value, list | tuple | dict):
            return value
        if not self._may_change(value, marked, texts=texts):
            return value  # nothing in it to redact: shared, not copied
        return self._members(value, where, pointer, marked, texts)

    def _members(
        self,
        value: list[Any] | tuple[Any, ...] | dict[Any, Any],
        where: str,
        pointer: str,
        marked: bool,
        texts: ContainerTexts | None,
    ) -> Any:
        """A container's members redacted (in document order: ``texts`` reads its text
        once when it is asked in that order)."""
        if isinstance(value, dict):
            return {
                self.text(str(k), f"{where} {pointer}/{k}", marked=marked): self._value(
                    v, where, f"{pointer}/{k}", marked, texts
                )
                for k, v in value.items()
            }
        out: list[Any] = []
        long = len(value) > CHUNK
        for first, chunk in _chunks(value):
            if long and not self._may_change(chunk, marked, texts=texts):
                out += chunk  # nothing in these to redact (a chunk's text holds each one's)
            else:
                out += [
                    self._value(item, where, f"{pointer}/{i}", marked, texts)
                    for i, item in enumerate(chunk, first)
                ]
        return out

    def leaks(self, text: str, *, marked: bool = True, keep: Keep | None = None) -> list[str]:
        """Placeholder names of any known secret still present in ``text``, in any form (a
        final check); ``marked=False`` looks for credentials only, ``keep`` as for
        :meth:`text`."""
        return sorted({name for _, _, name in self._spans(text, marked, keep)})

    def leaks_in(self, value: Any, *, marked: bool = True) -> list[str]:
        """:meth:`leaks` over every string (member names too) of a decoded JSON value: an
        escape the serializer adds or removes cannot hide a secret from it."""
        if self._forms(marked)[1] is None:
            return []  # no secret known: nothing can leak
        texts = None
        if isinstance(value, dict | list | tuple):
            changes, texts = self._root_may_change(value, marked, urls=False)
            if not changes:
                return []
        found: set[str] = set()
        stack = [value]
        while stack:  # depth first, in document order (see _members)
            item = stack.pop()
            if isinstance(item, str):
                found.update(self.leaks(item, marked=marked))
            elif not isinstance(item, dict | list | tuple) or (
                item is not value and not self._may_change(item, marked, urls=False, texts=texts)
            ):
                continue
            elif isinstance(item, dict):
                for key, member in reversed(item.items()):
                    stack += [member, key]
            elif len(item) > CHUNK:  # asked about in chunks, as in _members
                stack += reversed([chunk for _, chunk in _chunks(item)])
            else:
                stack += reversed(item)
        return sorted(found)

    def _root_may_change(
        self, value: Any, marked: bool, *, urls: bool
    ) -> tuple[bool, ContainerTexts | None]:
        """:meth:`_may_change` of the container a walk starts from and, for a large one
        that may change, its :class:`ContainerTexts` for the containers below."""
        text = _plain_json_text(value)
        if text is None:
            return True, None  # not plain JSON: the slow way decides
        if not self._text_may_change(text, marked, urls=urls):
            return False, None
        if len(text) < WRITE_ONCE_FROM:
            return True, None
        from sia_tui.core.redaction.container_text import ContainerTexts

        try:
            return True, ContainerTexts(value)
        except RecursionError:  # deeper than Python calls go: each container writes its own
            return True, None

    def _may_change(
        self, value: Any, marked: bool, *, urls: bool = True, texts: ContainerTexts | None = None
    ) -> bool:
        """False when no string of the container ``value`` (member names too) can hold a
        secret, a URL credential (``urls``) or an escape: one scan of its JSON text in C
        instead of one call per string (a 5 MB result holds a million).

        Sound because the C encoder writes a string verbatim unless it holds ``"``, ``\\``
        or a control character, each of which it escapes with a backslash, and an escape
        is a reason to look string by string. So a form or credential found in any string
        is found in the text too. Member names are compared as JSON writes them (str keys,
        as parsed JSON and ``to_json`` have). With ``texts`` the container's text is its
        span there (written once for the whole walk).
        """
        span = None if texts is None else texts.span(value)
        if texts is not None and span is not None:
            return self._span_may_change(texts, span, marked, urls=urls)
        text = _plain_json_text(value)
        if text is None:
            return True  # not plain JSON: the slow way decides
        return self._text_may_change(text, marked, urls=urls)

    def _text_may_change(self, text: str, marked: bool, *, urls: bool) -> bool:
        """:meth:`_may_change_where` of a text of its own."""
        return self._may_change_where(
            lambda _key, find: find(text, 0) >= 0, lambda: text, marked, urls=urls
        )

    def _span_may_change(
        self, texts: ContainerTexts, span: tuple[int, int], marked: bool, *, urls: bool
    ) -> bool:
        """:meth:`_may_change_where` of ``texts.text[start:end]``, or True where it would
        be False only because a match begins inside the span and ends after it."""
        start, end = span
        return self._may_change_where(
            lambda key, find: texts.found(key, find, start, end),
            lambda: texts.text[start:end],
            marked,
            urls=urls,
        )

    def _may_change_where(
        self,
        found: Callable[[object, Finder], bool],
        text: Callable[[], str],
        marked: bool,
        *,
        urls: bool,
    ) -> bool:
        """What makes a container's text worth reading string by string, listed once for
        both ways of reading it: a URL credential (``urls``), a form of a known secret, or an
        escape. ``found(key, find)`` says whether ``find`` finds something in the text
        (``key`` names the search, for reuse); ``text()`` is the text itself."""
        if urls:
            if found("@", _find_at_sign) and _has_userinfo(text()):
                return True
            if found(QUERY_TOKEN, _pattern_finder(QUERY_TOKEN)):
                return True
        pattern = self._forms(marked)[1]
        if pattern is None:
            return False
        from sia_tui.core.redaction.secret_forms import ANY_ESCAPE

        return found(pattern, _pattern_finder(pattern)) or found(
            ANY_ESCAPE, _pattern_finder(ANY_ESCAPE)
        )

    @property
    def hits(self) -> list[RedactionHit]:
        """Every redaction made so far, each once, in the order they were made."""
        return list(self._hits)

    def forget_hits(self) -> None:
        """Start a new list of redactions (a long-lived log filter keeps none)."""
        self._hits.clear()

    def _hit(self, replacement: str, name: str, where: str) -> str:
        self._hits.setdefault(RedactionHit(name, where))
        return replacement


#: Loggers of the HTTP stack; httpx logs every request URL at INFO, httpcore response
#: headers (Set-Cookie included) at DEBUG. A filter on a parent logger does not see
#: records of its children, so each one is listed.
HTTP_LOGGERS = (
    "httpx",
    "httpcore.connection",
    "httpcore.http11",
    "httpcore.http2",
    "httpcore.proxy",
)
#: The start of a credential header's value as httpcore logs it: ``(b'cookie', b'``. The
#: value's end is found by ``_scrub_logged_headers`` without a lazy ``.*?`` (which tried
#: every start against the rest of its line: quadratic on a long header an agent sends).
_LOGGED_HEADER = re.compile(
    r"(?i)(\(b?['\"](?:" + "|".join(sorted(SENSITIVE_HEADERS)) + r")['\"],\s*b?)(['\"])"
)


def _scrub_logged_headers(message: str) -> str:
    """Each logged credential header's value replaced, up to its quote and ``)`` on the same
    line. The next ``)``-ending quote and newline after a position are remembered, so the
    whole message is read a bounded number of times (linear)."""
    pieces, kept = [], 0
    found: dict[str, int] = {}  # what -> its next index (-1: none after the last look)
    for match in _LOGGED_HEADER.finditer(message):
        start, quote = match.end(), match.group(2)
        if match.start() < kept:
            continue  # inside a value already replaced
        for what in (quote + ")", "\n"):
            seen = found.get(what)
            if seen is None or 0 <= seen < start:
                found[what] = message.find(what, start)
        end, newline = found[quote + ")"], found["\n"]
        if end < 0 or 0 <= newline < end:
            continue
        pieces += [message[kept:start], placeholder("header")]
        kept = end
    return "".join([*pieces, message[kept:]]) if pieces else message


class RedactingLogFilter(logging.Filter):
    """Scrubs URL credentials and credential headers from HTTP library log records."""

    def __init__(self, redactor: Redactor | None = None) -> None:
        super().__init__()
        self.redactor = redactor or Redactor()

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the record's message in place; never drops a record."""
        message = record.getMessage()
        cleaned = self.redactor.text(_scrub_logged_headers(message), "log")
        if cleaned != message:
            record.msg, record.args = cleaned, None
        return True


def install_log_redaction(redactor: Redactor | None = None) -> RedactingLogFilter:
    """Attach one redacting filter to every HTTP logger; later calls add their secrets to it.

    The application calls it once as it starts (the CLI's ``run``, the TUI app); the core
    never does, so a program that embeds it keeps its loggers as they are. Several clients
    may be alive at once (compose talks to two agents), so secrets are merged into the one
    shared filter instead of replacing the previous client's.
    """
    shared = _installed_filter() or RedactingLogFilter()
    if redactor is not None:
        _merge(shared, redactor)
    for name in HTTP_LOGGERS:
        logger = logging.getLogger(name)
        if shared not in logger.filters:
            logger.addFilter(shared)
    return shared


def learn_log_secrets(options: Credentials) -> None:
    """Add the credentials of ``options`` to the filter the application installed; without
    one, nothing happens (an embedding program's loggers are left alone)."""
    shared = _installed_filter()
    if shared is not None:
        _merge(shared, Redactor.from_options(options))


def learn_log_secret(value: str, name: str) -> None:
    """Add one secret issued at run time (a token) to the installed filter, if any."""
    shared = _installed_filter()
    if shared is not None:
        shared.redactor.add_secret(value, name, force=True)


def _installed_filter() -> RedactingLogFilter | None:
    for name in HTTP_LOGGERS:
        for found in logging.getLogger(name).filters:
            if isinstance(found, RedactingLogFilter):
                return found
    return None


def _merge(shared: RedactingLogFilter, redactor: Redactor) -> None:
    shared.redactor.merge(redactor)
    shared.redactor.forget_hits()  # log traffic must not grow the hit list without bound
