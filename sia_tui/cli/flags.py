"""Connection flags shared by every command that talks to an agent (check, open, compose...)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

# The engine API loads each name on first use: defaults are plain numbers, and SiaError
# is one light module, so building the parser stays light.
from sia_tui.core.engine import SiaError, defaults

if TYPE_CHECKING:  # imported where used: building the parser must stay light
    from collections.abc import Iterable

    from sia_tui.core.engine import ClientOptions
    from sia_tui.core.session import Redactor


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
        type=int,
        default=defaults.MAX_RESPONSE_BYTES,
        metavar="N",
        help=f"abort any response larger than N bytes "
        f"(default {defaults.MAX_RESPONSE_BYTES // 2**20} MiB)",
    )
    group.add_argument("--insecure", action="store_true", help="do not verify TLS certificates")
    group.add_argument("--cacert", metavar="FILE", help="verify TLS with this CA bundle")
    group.add_argument("--cert", metavar="FILE", help="client certificate (PEM)")
    group.add_argument("--key", metavar="FILE", help="client certificate key (PEM)")
    group.add_argument(
        "--allow-cross-origin",
        action="store_true",
        help="send credentials to interface URLs on another origin than the card",
    )
    group.add_argument(
        "--binding",
        choices=("jsonrpc", "http-json"),
        help="A2A binding to use (default: the card's first callable one)",
    )


def parse_header(text: str) -> tuple[str, str]:
    """``'Name: value'`` -> (name, value)."""
    name, sep, value = text.partition(":")
    if not sep or not name.strip():
        raise UsageError(f"--header wants 'Name: value', got {text.split(':')[0]!r}...")
    return name.strip(), value.strip()


def client_options(args: Any) -> ClientOptions:
    """ClientOptions from the parsed connection flags."""
    from sia_tui.core.engine import ClientOptions

    verify: bool | str = False if args.insecure else (args.cacert or True)
    cert: str | tuple[str, str] | None = None
    if args.cert:
        cert = (args.cert, args.key) if args.key else args.cert
    if args.timeout <= 0 or args.connect_timeout <= 0 or args.deadline <= 0:
        raise UsageError("timeouts and the deadline must be positive")
    return ClientOptions(
        connect_timeout=args.connect_timeout,
        read_timeout=args.timeout,
        deadline=args.deadline,
        max_response_bytes=args.max_response_bytes,
        verify=verify,
        cert=cert,
        headers=tuple(parse_header(h) for h in args.header),
        bearer=args.bearer,
        allow_cross_origin=args.allow_cross_origin,
    )


def command_redactor(args: Any, options: ClientOptions, locations: Iterable[str]) -> Redactor:
    """The one redactor of a command that talks to agents: the credentials of its flags and
    target URLs, the values of --secret and --secret-header. It is installed on the HTTP
    loggers before anything is sent (they print headers an agent may echo a secret in)."""
    from sia_tui.core.session import Redactor, install_log_redaction

    redactor = Redactor.from_options(
        options, secret_values=args.secret, secret_headers=args.secret_header
    )
    for location in locations:
        redactor.learn_url(location)
    install_log_redaction(redactor)
    return redactor


def read_json_input(spec: str) -> tuple[Any, str]:
    """A JSON value from a file or stdin ('-'), strictly parsed and size-bounded, with its
    text (so findings can name a line and column). Errors are JsonInputError, located."""
    from sia_tui.core.engine import limits, loads, read_json_file

    if spec == "-":
        data = sys.stdin.buffer.read(limits.MAX_JSON_BYTES + 1)
        source = "<stdin>"
    else:  # read once: the text shown is the text parsed
        data, source = read_json_file(spec), spec
    return loads(data, source=source), data.decode("utf-8", errors="replace")
