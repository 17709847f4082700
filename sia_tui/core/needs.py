"""What the user can give or change to get further, said as data: the core names a need, and
each surface words it (the CLI as its flag, the TUI as its key or field).

The core builds its messages with ``word(Need.TIMEOUT)``; a surface installs its words with
``use_wording`` for the time it runs, so that the core never spells a command-line flag to a
user who has none. Without a surface, the plain words below are used.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from enum import StrEnum


class Need(StrEnum):
    """Something the user can give or change."""

    OAUTH2_CLIENT = "oauth2_client"
    OAUTH2_TOKEN_URL = "oauth2_token_url"
    BEARER = "bearer"
    #: An OAuth2 scheme: client credentials, or a token the user already has.
    OAUTH2_OR_BEARER = "oauth2_or_bearer"
    HEADER = "header"
    API_KEY = "api_key"
    CLIENT_CERT = "client_cert"
    CLIENT_KEY = "client_key"
    CA_CERT = "ca_cert"
    INSECURE = "insecure"
    GRPC_TLS = "grpc_tls"
    GRPC_PLAINTEXT = "grpc_plaintext"
    TIMEOUT = "timeout"
    CONNECT_TIMEOUT = "connect_timeout"
    DEADLINE = "deadline"
    MAX_RESPONSE_BYTES = "max_response_bytes"
    ARGUMENTS_FILE = "arguments_file"
    ARGUMENTS = "arguments"
    ARGUMENTS_EXAMPLE = "arguments_example"
    SEND_ANYWAY = "send_anyway"
    SKILL = "skill"
    JSON_REPORT = "json_report"
    SAVE = "save"
    CACHE = "cache"
    LOCK = "lock"
    TRUSTED_KEYS = "trusted_keys"
    REQUIRE_SIGNATURE = "require_signature"
    TARGET = "target"
    INVOCATION = "invocation"
    SIGNING_KEY = "signing_key"
    KEY_ID = "key_id"
    PUSH_URL = "push_url"
    EXPECTED_DIGEST = "expected_digest"
    CONSENT = "consent"
    NO_TRACE = "no_trace"
    #: Use a mode (stream, push) the card's capabilities do not declare.
    IGNORE_CAPABILITIES = "ignore_capabilities"


#: The words of a library caller, who has neither flags nor screens.
PLAIN: Mapping[Need, str] = {
    Need.OAUTH2_CLIENT: "OAuth2 client credentials",
    Need.OAUTH2_TOKEN_URL: "the OAuth2 token URL",
    Need.BEARER: "a bearer token",
    Need.OAUTH2_OR_BEARER: "OAuth2 client credentials (or a bearer token with a token)",
    Need.HEADER: "a header",
    Need.API_KEY: "an API key",
    Need.CLIENT_CERT: "a client certificate",
    Need.CLIENT_KEY: "its key",
    Need.CA_CERT: "a CA certificate",
    Need.INSECURE: "insecure TLS",
    Need.GRPC_TLS: "gRPC over TLS",
    Need.GRPC_PLAINTEXT: "gRPC in plaintext",
    Need.TIMEOUT: "the response timeout",
    Need.CONNECT_TIMEOUT: "the connect timeout",
    Need.DEADLINE: "the run's deadline",
    Need.MAX_RESPONSE_BYTES: "the response size limit",
    Need.ARGUMENTS_FILE: "arguments from a file",
    Need.ARGUMENTS: "the arguments",
    Need.ARGUMENTS_EXAMPLE: "the document's example arguments",
    Need.SEND_ANYWAY: "a negative test",
    Need.SKILL: "a skill",
    Need.JSON_REPORT: "the JSON report",
    Need.SAVE: "a saved session",
    Need.CACHE: "the document cache",
    Need.LOCK: "a contract lock",
    Need.TRUSTED_KEYS: "trusted keys",
    Need.REQUIRE_SIGNATURE: "a required signature",
    Need.TARGET: "the target URL",
    Need.INVOCATION: "an invocation",
    Need.SIGNING_KEY: "a signing key",
    Need.KEY_ID: "a key id",
    Need.PUSH_URL: "a push URL",
    Need.EXPECTED_DIGEST: "the expected digest",
    Need.CONSENT: "consent to execute",
    Need.NO_TRACE: "turning trace headers off",
    Need.IGNORE_CAPABILITIES: "the choice to ignore the card's capabilities",
}

_WORDING: ContextVar[Mapping[Need, str]] = ContextVar("need_wording", default=PLAIN)


def word(need: Need) -> str:
    """``need`` in the words of the surface that runs."""
    return _WORDING.get().get(need) or PLAIN[need]


def words(*needs: Need) -> str:
    """Several needs, separated by commas."""
    return ", ".join(word(need) for need in needs)


@contextmanager
def use_wording(wording: Mapping[Need, str]) -> Iterator[None]:
    """Word every need as ``wording`` says while the block runs (and in the tasks it starts)."""
    token = _WORDING.set(wording)
    try:
        yield
    finally:
        _WORDING.reset(token)


def install_wording(wording: Mapping[Need, str]) -> None:
    """Word every need as ``wording`` says from now on in this context (a TUI's app task)."""
    _WORDING.set(wording)
