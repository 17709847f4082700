"""One ``[[agent]]`` of the plugfest file: its card, its credentials, its client options.

Credentials come from the environment: ``bearer_env = "VENDOR_A_TOKEN"`` and
``header_env = { "X-Api-Key" = "VENDOR_A_KEY" }`` name variables, never values. The file
does not choose which of the user's variables are read and sent: only a variable the command
names (``matrix --env VENDOR_A_TOKEN``, ``Consents.env``) is; any other is a located problem
that names the flag and the agent it would go to, and is never read. A credential
written in the file itself (``bearer``, a credential-like header in ``headers``, a password
in the card URL) is refused unless the file says ``allow_inline_secrets = true``; then it is
used and warned about.

A plugfest file is often handed to the person who runs it, so it gives no consent and no
trust: its ``allow_cross_origin`` and ``insecure``, and the keys and lock it names (which would
make a card "verified" or an interface "as pinned"), take effect only with the command's own
flags (``Consents``); without them the file's request is warned about and not used.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from sia_tui.core.a2a import defaults
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.matrix.toml_lines import KeyPath
from sia_tui.core.matrix.toml_reader import TableReader, key_label
from sia_tui.core.output.policy import printable
from sia_tui.core.redaction.redact import is_credential_header
from sia_tui.core.redaction.userinfo import strip_credentials
from sia_tui.core.trust.keys import load_trusted_keys
from sia_tui.core.trust.lock import read_lock
from sia_tui.core.trust.records import ContractLock, TrustAnchors, TrustedKey, TrustFileError

#: An HTTP header name (RFC 9110 token).
_HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
AGENT_KEYS = (
    "name",
    "card",
    "skills",
    "headers",
    "header_env",
    "bearer",
    "bearer_env",
    "timeout",
    "connect_timeout",
    "insecure",
    "cacert",
    "allow_cross_origin",
    "trusted_keys",
    "require_signature",
    "lock",
)


@dataclass(frozen=True)
class Consents:
    """What the person running ``matrix`` consented to with its flags (never the file)."""

    #: ``--allow-cross-origin``: an agent's ``allow_cross_origin = true`` may be used.
    allow_cross_origin: bool = False
    #: ``--insecure``: an agent's ``insecure = true`` may be used.
    insecure: bool = False
    #: ``--env NAME``: the environment variables the file's ``bearer_env`` and
    #: ``header_env`` may read and send; the file names which agent gets each.
    env: frozenset[str] = frozenset()
    #: ``--env NAME=ORIGIN``: (NAME, ORIGIN) pairs; NAME goes only to an agent whose card
    #: URL is on ORIGIN, whichever agent the file names.
    env_origins: tuple[tuple[str, str], ...] = ()
    #: ``--trust-file-anchors``: an agent's ``trusted_keys`` and ``lock`` may be used.
    file_anchors: bool = False


#: The flags' answer when none was given.
NO_CONSENT = Consents()


def _consented(
    reader: TableReader,
    table: dict[str, Any],
    path: KeyPath,
    key: str,
    given: bool,
    warnings: list[str],
) -> bool:
    """The file's ``key = true`` when the command's flag consents to it; else a warning."""
    asked = reader.boolean(table, path, key, False)
    if asked and not given:
        flag = "--" + key.replace("_", "-")
        warnings.append(
            f"{key_label((*path, key))}: not used: a plugfest file gives no consent, "
            f"only `sia-tui matrix {flag}` does"
        )
    return asked and given


@dataclass(frozen=True)
class AgentEntry:
    """One ``[[agent]]``: a vendor's agent and how to reach it."""

    name: str
    #: A base URL, a card URL or a card file (made absolute relative to the plugfest file).
    card: str
    options: ClientOptions = field(default_factory=ClientOptions)
    #: The skills this agent must offer; None: the ones its card advertises.
    skills: tuple[str, ...] | None = None
    #: Values read from the environment for header_env: redacted in every output.
    secret_values: tuple[str, ...] = ()
    secret_headers: tuple[str, ...] = ()
    #: Trusted keys, a required signature and a contract lock (docs/TRUST.md), if any.
    anchors: TrustAnchors | None = None


class _Secrets:
    """Collects one agent's credentials and applies the inline-secret rule."""

    def __init__(
        self,
        reader: TableReader,
        environ: Mapping[str, str],
        inline_ok: bool,
        warnings: list[str],
        allowed: frozenset[str] = frozenset(),
        bound: Mapping[str, str] | None = None,
    ) -> None:
        self.reader, self.environ, self.allowed = reader, environ, allowed
        self.bound = bound or {}
        #: Where this agent's credentials go (its card), for the refusal's message.
        self.destination = ""
        #: The card URL's origin (``scheme://host:port``); None for a card file.
        self.origin: str | None = None
        self.inline_ok, self.warnings = inline_ok, warnings
        self.values: list[str] = []
        self.headers: list[str] = []

    def inline(self, path: KeyPath, what: str) -> bool:
        """A secret written in the file: refused, or (when allowed) used with a warning."""
        if not self.inline_ok:
            self.reader.problem(
                path,
                f"{what} is a secret written in the file; put it in an environment variable "
                "and name the variable (bearer_env, header_env), or set "
                "allow_inline_secrets = true",
            )
            return False
        self.warnings.append(
            f"WARNING: {key_label(path)}: {what} is a secret written in the plugfest file "
            "(allow_inline_secrets = true); anyone who can read the file has it"
        )
        return True

    def from_env(self, path: KeyPath, variable: Any) -> str | None:
        """The value of the environment variable named at ``path``, or None (a problem)."""
        if not isinstance(variable, str) or not variable:
            self.reader.problem(path, "must name an environment variable")
            return None
        if variable not in self.allowed:
            # A plugfest file is often someone else's: it may not pick GITHUB_TOKEN for its
            # own agent. The variable is not even read (docs/SECURITY.md).
            self.reader.problem(
                path,
                f"environment variable {printable(variable)} was not allowed: a plugfest file "
                "does not choose which of your environment variables are sent; if its value "
                f"is meant for this agent ({self.destination}), run "
                f"`sia-tui matrix --env {printable(variable)}`",
            )
            return None
        if variable in self.bound and self.bound[variable] != self.origin:
            self.reader.problem(
                path,
                f"environment variable {printable(variable)} is allowed only for "
                f"{printable(self.bound[variable])} (`sia-tui matrix --env "
                f"{printable(variable)}=ORIGIN`), and this agent's card is "
                f"{self.destination}; it was not read",
            )
            return None
        value = self.environ.get(variable, "").strip()
        if not value:
            self.reader.problem(path, f"environment variable {variable} is not set (or empty)")
            return None
        if "\n" in value or "\r" in value:
            self.reader.problem(path, f"environment variable {variable} holds a line break")
            return None
        return value


def read_agent(
    reader: TableReader,
    table: dict[str, Any],
    path: KeyPath,
    base: Path,
    environ: Mapping[str, str],
    inline_ok: bool,
    warnings: list[str],
    consents: Consents = NO_CONSENT,
) -> AgentEntry | None:
    """The checked ``[[agent]]`` at ``path``; None when a required member is unusable."""
    reader.known_keys(table, path, AGENT_KEYS)
    secrets = _Secrets(
        reader, environ, inline_ok, warnings, consents.env, dict(consents.env_origins)
    )
    name = reader.string(table, path, "name", required=True)
    card = _card(reader, secrets, table, path, base)
    secrets.destination = _destination(card)
    secrets.origin = card_origin(card)
    headers = _headers(reader, secrets, table, path)
    bearer = None
    if "bearer" in table:
        inline = reader.string(table, path, "bearer")
        if inline is not None and secrets.inline((*path, "bearer"), "bearer"):
            bearer = inline
    if "bearer_env" in table:
        bearer = secrets.from_env((*path, "bearer_env"), table["bearer_env"]) or bearer
    skills = reader.strings(table, path, "skills")
    options = ClientOptions(
        read_timeout=reader.number(
            table, path, "timeout", defaults.READ_TIMEOUT, low=0.05, high=600
        ),
        connect_timeout=reader.number(
            table, path, "connect_timeout", defaults.CONNECT_TIMEOUT, low=0.05, high=600
        ),
        verify=_verify(reader, table, path, base, warnings, consents.insecure),
        headers=tuple(headers),
        bearer=bearer,
        allow_cross_origin=_consented(
            reader, table, path, "allow_cross_origin", consents.allow_cross_origin, warnings
        ),
    )
    anchors = _anchors(reader, table, path, base, consents.file_anchors, warnings)
    if name is None or card is None:
        return None
    return AgentEntry(
        name=name,
        card=card,
        options=options,
        skills=tuple(skills) if skills is not None else None,
        secret_values=tuple(secrets.values),
        secret_headers=tuple(secrets.headers),
        anchors=anchors,
    )


def _anchors(
    reader: TableReader,
    table: dict[str, Any],
    path: KeyPath,
    base: Path,
    trusted: bool,
    warnings: list[str],
) -> TrustAnchors | None:
    """``trusted_keys`` (a JWKS file) and ``lock`` (relative to the file), read whole now:
    a key set or lock that cannot be used is a located problem before anything runs.

    Used only when the command trusts them (``trusted``): a key the file names would make a
    card it signed "verified". ``require_signature`` only asks for more, so it always holds."""
    required = reader.boolean(table, path, "require_signature", False)
    keys: tuple[TrustedKey, ...] = ()
    lock: ContractLock | None = None
    named = {}
    for key in ("trusted_keys", "lock"):
        name = reader.string(table, path, key)
        if name is None:
            continue
        if not trusted:
            warnings.append(
                f"{key_label((*path, key))}: not used: a plugfest file grants no trust (its "
                "keys would mark a card verified, its lock an interface as pinned); run "
                "`sia-tui matrix --trust-file-anchors` if you trust the file's author"
            )
            continue
        named[key] = _local_file(reader, (*path, key), base, name, "is not a file")
    try:
        if named.get("trusted_keys"):
            keys = load_trusted_keys(str(named["trusted_keys"]))[0]
        if named.get("lock"):
            lock = read_lock(str(named["lock"]))
    except TrustFileError as exc:
        reader.problem(path, str(exc))
        return None
    if not (keys or lock or required):
        return None
    return TrustAnchors(
        keys=keys,
        keys_source=named.get("trusted_keys"),
        require_signature=required,
        lock=lock,
        lock_source=named.get("lock"),
    )


def _card(
    reader: TableReader, secrets: _Secrets, table: dict[str, Any], path: KeyPath, base: Path
) -> str | None:
    """A URL as written (a password in it is an inline secret), or a card file made absolute."""
    card = reader.string(table, path, "card", required=True)
    if card is None:
        return None
    if "://" in card:
        parts = urlsplit(card)
        if (parts.username or parts.password) and not secrets.inline(
            (*path, "card"), "the user name or password in the card URL"
        ):
            return None
        return card
    return _local_file(reader, (*path, "card"), base, card, "is not a URL and no such file")


def card_origin(url: str | None) -> str | None:
    """``scheme://host:port`` of a card URL as httpx connects to it; None for a card file or
    a URL whose origin cannot be read (a bound variable then goes nowhere)."""
    if url is None or "://" not in url:
        return None
    from sia_tui.core.a2a.origin import origin_of, origin_text
    from sia_tui.core.errors import TransportError

    try:
        return origin_text(origin_of(url))
    except TransportError:
        return None


def _destination(card: str | None) -> str:
    """Where an agent's credentials go, said without a password: its card URL, or the card
    file (whose interfaces receive them)."""
    if card is None:
        return "no usable card"
    if "://" not in card:
        return f"card file {printable(card)}"
    return printable(strip_credentials(card))


def _headers(
    reader: TableReader, secrets: _Secrets, table: dict[str, Any], path: KeyPath
) -> list[tuple[str, str]]:
    """``headers`` (plain values) and ``header_env`` (values from the environment)."""
    out: list[tuple[str, str]] = []
    for name, value in reader.table(table, path, "headers").items():
        where = (*path, "headers", name)
        if not _HEADER_NAME.fullmatch(name):
            reader.problem(where, "is not a valid HTTP header name")
        elif not isinstance(value, str) or "\n" in value or "\r" in value:
            reader.problem(where, "must be a one-line string")
        elif not is_credential_header(name) or secrets.inline(where, f"header {name}"):
            out.append((name, value))
    for name, variable in reader.table(table, path, "header_env").items():
        value = secrets.from_env((*path, "header_env", name), variable)
        if not _HEADER_NAME.fullmatch(name):
            reader.problem((*path, "header_env", name), "is not a valid HTTP header name")
        elif value is not None:
            out.append((name, value))
            secrets.values.append(value)
            secrets.headers.append(name)
    return out


def _verify(
    reader: TableReader,
    table: dict[str, Any],
    path: KeyPath,
    base: Path,
    warnings: list[str],
    allowed: bool,
) -> bool | str:
    """TLS verification: on by default; ``cacert`` (relative to the file) or ``insecure``
    (only with the command's ``--insecure``)."""
    insecure = _consented(reader, table, path, "insecure", allowed, warnings)
    cacert = reader.string(table, path, "cacert")
    if insecure:
        warnings.append(f"WARNING: {key_label(path)}: insecure = true, TLS is not verified")
        return False
    if cacert is None:
        return True
    return _local_file(reader, (*path, "cacert"), base, cacert, "is not a file") or True


def _local_file(
    reader: TableReader, path: KeyPath, base: Path, name: str, missing: str
) -> str | None:
    """``name`` relative to the plugfest file's folder, made absolute; None (a problem) when
    there is no such file."""
    file = base / name
    if not file.is_file():
        reader.problem(path, f"{printable(name)!r} {missing}")
        return None
    return str(file)
