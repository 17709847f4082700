"""Connection flags shared by every command that talks to an agent (check, open, compose...)."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from typing import TYPE_CHECKING, Any

from sia_tui.cli.argument_types import from_one
from sia_tui.cli.needs import CONSENT_FLAG, OLD_CONSENT_FLAG

# The engine API loads each name on first use: defaults are plain numbers, and SiaError
# is one light module, so building the parser stays light.
from sia_tui.core.a2a import defaults
from sia_tui.core.errors import SiaError

if TYPE_CHECKING:  # imported where used: building the parser must stay light
    from collections.abc import Callable, Iterable
    from pathlib import Path

    from sia_tui.core.a2a import ClientOptions, OAuth2Settings
    from sia_tui.core.redaction import Redactor
    from sia_tui.core.run import Run


class UsageError(SiaError):
    """A flag value that cannot be used; the command prints it and exits 2."""


def add_connection_flags(parser: argparse.ArgumentParser) -> None:
    """--header, --bearer, --timeout, TLS and origin flags."""
    group = parser.add_argument_group("connection")
    group.add_argument(
        "--header",
        action="append",
        default=[],
        metavar="'NAME: VALUE'",
        help="extra request header (repeatable); values of credential-like "
        "headers (Authorization, *token*, *-key, ...) are never printed or "
        "saved, mark others with --secret-header",
    )
    group.add_argument(
        "--secret-header",
        action="append",
        default=[],
        metavar="NAME",
        help="treat this header's value as a secret in reports and sessions",
    )
    group.add_argument(
        "--secret",
        action="append",
        default=[],
        metavar="VALUE",
        help="a value (e.g. in the arguments) to redact from every output",
    )
    group.add_argument("--bearer", metavar="TOKEN", help="send Authorization: Bearer TOKEN")
    add_auth_flags(group)
    add_limit_flags(group)
    group.add_argument("--insecure", action="store_true", help="do not verify TLS certificates")
    group.add_argument("--cacert", metavar="FILE", help="verify TLS with this CA bundle")
    group.add_argument("--cert", metavar="FILE", help="client certificate (PEM)")
    group.add_argument("--key", metavar="FILE", help="client certificate key (PEM)")
    add_cross_origin_flag(group)
    add_trace_flags(group)
    group.add_argument(
        "--binding",
        choices=("jsonrpc", "http-json", "grpc"),
        help="A2A binding to use (default: the card's first callable one)",
    )
    add_grpc_security_flags(group)


def add_limit_flags(group: argparse._ArgumentGroup) -> None:
    """The limits a person running a command sets: timeouts, the deadline, response size."""
    group.add_argument(
        "--timeout",
        type=float,
        default=defaults.READ_TIMEOUT,
        metavar="S",
        help="read timeout in seconds (default %(default)g)",
    )
    group.add_argument(
        "--connect-timeout",
        type=float,
        default=defaults.CONNECT_TIMEOUT,
        metavar="S",
        help="connect timeout in seconds (default %(default)g)",
    )
    group.add_argument(
        "--deadline",
        type=float,
        default=defaults.DEADLINE,
        metavar="S",
        help="the whole run ends within S seconds, whatever max_duration_seconds the agent "
        "declares; a running task is cancelled (default %(default)g)",
    )
    group.add_argument(
        "--max-response-bytes",
        type=from_one,
        default=defaults.MAX_RESPONSE_BYTES,
        metavar="N",
        help=f"abort any response larger than N bytes "
        f"(default {defaults.MAX_RESPONSE_BYTES // 2**20} MiB)",
    )


def limit_options(args: Any) -> dict[str, Any]:
    """The ClientOptions members the limit, origin and gRPC security flags set."""
    if args.timeout <= 0 or args.connect_timeout <= 0 or args.deadline <= 0:
        raise UsageError("timeouts and the deadline must be positive")
    return {
        "connect_timeout": args.connect_timeout,
        "read_timeout": args.timeout,
        "deadline": args.deadline,
        "max_response_bytes": args.max_response_bytes,
        "allow_cross_origin": args.allow_cross_origin,
        "grpc_security": getattr(args, "grpc_security", None),
    }


def add_trace_flags(group: argparse._ArgumentGroup) -> None:
    """``--no-trace`` and ``--tracestate``: the W3C trace headers sent on every call."""
    group.add_argument(
        "--no-trace",
        action="store_true",
        help="send no W3C traceparent header (or gRPC metadata); by default every call "
        "carries one: one trace id per run, one span id per exchange",
    )
    group.add_argument(
        "--tracestate",
        metavar="KEY=VALUE[,...]",
        help="a W3C tracestate to pass on beside every traceparent (checked as W3C writes it)",
    )


def trace_options(args: Any) -> dict[str, Any]:
    """The ClientOptions members the trace flags set (defaults for a command without them)."""
    tracestate = getattr(args, "tracestate", None)
    no_trace = bool(getattr(args, "no_trace", False))
    if tracestate is None:
        return {"trace": not no_trace}
    if no_trace:
        raise UsageError("--tracestate travels with a traceparent: drop --no-trace or it")
    from sia_tui.core.trace_context import TraceStateError, checked_tracestate

    try:
        return {"trace": True, "tracestate": checked_tracestate(tracestate)}
    except TraceStateError as exc:
        raise UsageError(f"--tracestate is not a W3C tracestate: {exc}") from None


def add_otlp_flag(parser: argparse.ArgumentParser) -> None:
    """``--otlp-endpoint URL``: export the run's spans live (check, matrix)."""
    parser.add_argument(
        "--otlp-endpoint",
        metavar="URL",
        help="export the run's spans (a span per step and per exchange, redacted, with the "
        "run's trace and span ids) through the OpenTelemetry SDK to this collector over "
        "OTLP/HTTP (http://HOST:4318 posts to /v1/traces); only this flag names it, never "
        "a file or the agent",
    )


def otlp_endpoint_from(args: Any) -> str | None:
    """The ``--otlp-endpoint`` URL, checked before anything is sent (UsageError)."""
    endpoint = getattr(args, "otlp_endpoint", None)
    if not endpoint:
        return None
    from sia_tui.core.session import OtlpEndpointRefused, traces_url  # only with the flag

    try:
        traces_url(endpoint)
    except OtlpEndpointRefused as exc:
        raise UsageError(f"--otlp-endpoint: {exc}") from None
    return str(endpoint)


def add_capabilities_flag(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """``--ignore-capabilities``: the user's override of the card's capabilities."""
    parser.add_argument(
        "--ignore-capabilities",
        action="store_true",
        help="use a mode the card's capabilities do not declare, to test an agent that "
        "under-declares: stream without capabilities.streaming (otherwise refused) and "
        "push without capabilities.pushNotifications (otherwise not registered)",
    )


def add_cross_origin_flag(group: argparse._ArgumentGroup) -> None:
    """``--allow-cross-origin``: the user's consent to credentials on another origin."""
    group.add_argument(
        "--allow-cross-origin",
        action="store_true",
        help="send credentials to interface URLs on another origin than the card",
    )


def add_grpc_security_flags(group: argparse._ArgumentGroup) -> None:
    """``--grpc-tls`` / ``--grpc-plaintext``."""
    security = group.add_mutually_exclusive_group()
    security.add_argument(
        "--grpc-tls",
        dest="grpc_security",
        action="store_const",
        const="tls",
        help="gRPC over TLS whatever the card says (default: an https:// interface URL, or "
        "a card read over https or from a file)",
    )
    security.add_argument(
        "--grpc-plaintext",
        dest="grpc_security",
        action="store_const",
        const="plaintext",
        help="gRPC without TLS whatever the card says (default: an http:// interface URL, "
        "or a card read over http); a TLS failure is never retried in plaintext",
    )


def add_auth_flags(group: argparse._ArgumentGroup) -> None:
    """The card-driven credentials: an API key, OAuth2 client credentials (docs: README)."""
    group.add_argument(
        "--api-key",
        metavar="KEY",
        help="API key for the card's apiKey scheme, sent in the header, query or cookie the "
        "scheme names (default: the SIA_TUI_API_KEY environment variable)",
    )
    group.add_argument(
        "--oauth2-client-id",
        metavar="ID",
        help="fetch an OAuth2 token (client credentials) and send it as the bearer; the "
        "secret comes from SIA_TUI_OAUTH2_CLIENT_SECRET or --oauth2-client-secret-file",
    )
    group.add_argument(
        "--oauth2-client-secret-file", metavar="FILE", help="the OAuth2 client secret's file"
    )
    group.add_argument(
        "--oauth2-scope",
        action="append",
        default=[],
        metavar="SCOPE",
        help="scope to ask for (repeatable; default: what the card requires)",
    )
    group.add_argument(
        "--oauth2-token-url",
        metavar="URL",
        help="the token endpoint (default: the card's, used only on the card's own origin)",
    )


def oauth2_settings(args: Any) -> OAuth2Settings | None:
    """OAuth2Settings from the flags and the environment; None without a client id."""
    from sia_tui.core.a2a import (
        CLIENT_SECRET_ENV,
        OAuth2Problem,
        OAuth2Refused,
        oauth2_credentials,
        read_secret_file,
    )

    client_id = getattr(args, "oauth2_client_id", None)
    if not client_id:
        return None
    bearer = getattr(args, "bearer", None)
    path = getattr(args, "oauth2_client_secret_file", None)
    try:
        secret = "" if bearer else _client_secret(path, CLIENT_SECRET_ENV, read_secret_file)
        return oauth2_credentials(
            client_id,
            secret,
            getattr(args, "oauth2_scope", None) or (),
            getattr(args, "oauth2_token_url", None) or "",
            bearer=bearer,
        )
    except OAuth2Refused as exc:
        said = {
            OAuth2Problem.WITH_BEARER: "give --bearer or --oauth2-client-id, not both",
            OAuth2Problem.NO_SECRET: f"--oauth2-client-id needs a secret: set "
            f"{CLIENT_SECRET_ENV} or give --oauth2-client-secret-file",
        }
        raise UsageError(said[exc.problem]) from None


def _client_secret(path: str | None, env: str, read: Callable[[str], str]) -> str:
    """The client secret from the file the user named, else from the environment."""
    try:
        return read(path) if path else os.environ.get(env, "")
    except SiaError as exc:
        raise UsageError(f"--oauth2-client-secret-file: {exc}") from None


def add_consent_flag(parser: argparse.ArgumentParser) -> None:
    """``--allow-execute``: the same consent flag on every command that invokes a skill."""
    parser.add_argument(
        CONSENT_FLAG,
        OLD_CONSENT_FLAG,
        action="store_true",
        dest="allow_execute",
        help="consent to invoking a skill whose document declares execute authority or "
        "approval_may_be_required: the document describes what the skill may do, it never "
        "authorizes it (RULES SID5), so without this flag such a skill is not invoked and "
        f"the outcome is incomplete ({OLD_CONSENT_FLAG} is the old name)",
    )


def parse_header(text: str) -> tuple[str, str]:
    """``'Name: value'`` -> (name, value)."""
    name, sep, value = text.partition(":")
    if not sep or not name.strip():
        # Never quoted: without its colon, 'X-Api-Key secret' is all name and secret.
        missing = "no ':'" if not sep else "no name before its ':'"
        raise UsageError(
            f"a --header must look like 'Name: value'; one has {missing} "
            "(not shown: it may hold a secret)"
        )
    return name.strip(), value.strip()


def client_options(args: Any) -> ClientOptions:
    """ClientOptions from the parsed connection flags."""
    from sia_tui.core.a2a import API_KEY_ENV, ClientOptions

    verify: bool | str = False if args.insecure else (args.cacert or True)
    cert: str | tuple[str, str] | None = None
    if args.cert:
        cert = (args.cert, args.key) if args.key else args.cert
    return ClientOptions(
        **limit_options(args),
        **trace_options(args),
        verify=verify,
        cert=cert,
        headers=tuple(parse_header(h) for h in args.header),
        bearer=args.bearer,
        api_key=getattr(args, "api_key", None) or os.environ.get(API_KEY_ENV) or None,
        oauth2=oauth2_settings(args),
    )


def command_redactor(args: Any, options: ClientOptions, locations: Iterable[str]) -> Redactor:
    """The one redactor of a command that talks to agents: the credentials of its flags and
    target URLs, the values of --secret and --secret-header. It is installed on the HTTP
    loggers before anything is sent (they print headers an agent may echo a secret in)."""
    from sia_tui.core.redaction import Redactor, install_log_redaction

    redactor = Redactor.from_options(
        options, secret_values=args.secret, secret_headers=args.secret_header
    )
    for location in locations:
        redactor.learn_url(location)
    install_log_redaction(redactor)
    return redactor


def crash_redactor(args: Any) -> Redactor:
    """What the report of a crash redacts: the credentials of the connection flags (as far
    as they parse), any URL's password among the arguments, --secret and --secret-header,
    and the secrets the HTTP log filter learned (a token fetched during the run)."""
    from sia_tui.core.a2a import API_KEY_ENV, ClientOptions
    from sia_tui.core.redaction import Redactor, install_log_redaction

    headers = []
    for header in getattr(args, "header", None) or ():
        with contextlib.suppress(UsageError):
            headers.append(parse_header(header))
    options = ClientOptions(
        headers=tuple(headers),
        bearer=getattr(args, "bearer", None),
        api_key=getattr(args, "api_key", None) or os.environ.get(API_KEY_ENV) or None,
        oauth2=_crash_oauth2(args),
    )
    redactor = Redactor.from_options(
        options,
        secret_values=getattr(args, "secret", None) or (),
        secret_headers=getattr(args, "secret_header", None) or (),
    )
    for value in vars(args).values():
        for text in value if isinstance(value, list) else [value]:
            if isinstance(text, str) and "://" in text:
                redactor.learn_url(text)
    # ``run`` installed the filter before any request: the run's issued tokens are there.
    redactor.merge(install_log_redaction().redactor)
    return redactor


def _crash_oauth2(args: Any) -> OAuth2Settings | None:
    """The client secret a crash report must not show, as far as it can be read."""
    try:
        return oauth2_settings(args)
    except SiaError:
        from sia_tui.core.a2a import CLIENT_SECRET_ENV, OAuth2Settings

        secret = os.environ.get(CLIENT_SECRET_ENV, "")
        return OAuth2Settings("", secret) if secret else None


def read_json_input(spec: str) -> tuple[Any, str]:
    """A JSON value from a file or stdin ('-'), strictly parsed and size-bounded, with its
    text (so findings can name a line and column). Errors are JsonInputError, located."""
    from sia_tui.core import limits
    from sia_tui.core.jsonkit import loads, read_json_text

    if spec != "-":
        return read_json_text(spec)
    data = sys.stdin.buffer.read(limits.MAX_JSON_BYTES + 1)
    return loads(data, source="<stdin>"), data.decode("utf-8", errors="replace")


def write_saved_files(
    command: str,
    args: Any,
    save: Callable[[Path], object],
    junit: Callable[[Path], None],
) -> int:
    """``--save FILE`` then ``--junit FILE`` of a command that grades (probe, fuzz): 0, or
    2 with the reason on stderr when a file cannot be written."""
    from pathlib import Path

    from sia_tui.core.session import SessionError

    try:
        if args.save:
            save(Path(args.save))
        if args.junit:
            junit(Path(args.junit))
    except SessionError as exc:
        print(f"sia-tui {command}: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(
            f"sia-tui {command}: cannot write {args.junit}: {exc.strerror or exc}", file=sys.stderr
        )
        return 2
    return 0


def save_run(args: Any, run: Run, options: ClientOptions) -> None:
    """``--save FILE``: the session of ``run``, redacted with the command's ``--secret`` and
    ``--secret-header`` (check, send); a file that cannot be written is a UsageError."""
    if not args.save:
        return
    from pathlib import Path

    from sia_tui.core.session import SessionError, save_session  # the format loads only here

    try:
        save_session(
            run,
            options,
            Path(args.save),
            secret_values=args.secret,
            secret_headers=args.secret_header,
        )
    except SessionError as exc:
        raise UsageError(str(exc)) from None
