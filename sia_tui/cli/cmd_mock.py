"""``sia-tui mock``: serve a saved session as the agent it recorded."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from sia_tui.cli.argument_types import port
from sia_tui.core.output import printable


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add ``mock``."""
    parser = sub.add_parser(
        "mock",
        help="serve a saved session as the agent it recorded",
        description="Serve a saved session as the agent it recorded: its Agent Card (the "
        "interfaces pointed here, nothing else changed), describe_skill and each recorded "
        "answer (sync results, SSE streams, polls, cancel, follow-ups, errors and HTTP "
        "statuses), matched by method, skill and the JCS digest of the arguments (a "
        "follow-up by its task). A request the session holds no answer to gets an A2A "
        "error listing what it holds, also printed on stderr. The base URL is printed on "
        "the first line of stdout (for a session that recorded gRPC calls, 'gRPC "
        "HOST:PORT' on the second). Ctrl-C or SIGTERM stops it.",
    )
    parser.add_argument("session", help="a session file (check --save, probe --save...)")
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to bind (default: loopback only)"
    )
    parser.add_argument("--port", type=port, default=0, help="port (default 0: a free one)")
    parser.add_argument(
        "--grpc-port",
        type=port,
        default=0,
        metavar="P",
        help="where a session that recorded gRPC calls serves them (default 0: a free "
        "port; 'gRPC HOST:PORT' is printed on the second line)",
    )
    parser.add_argument(
        "--match",
        choices=("exact", "loose"),
        default="exact",
        help="exact: method, skill and the arguments' digest (default); loose: method and "
        "skill only (any arguments get the recorded answer)",
    )
    parser.add_argument(
        "--timing",
        choices=("fast", "recorded"),
        default="fast",
        help="fast: answer at once (default); recorded: wait each answer's recorded "
        "duration, a stream's events spread over it",
    )
    parser.add_argument(
        "--require-auth",
        action="store_true",
        help="refuse a request without the credential headers the recorded client sent "
        "(any value is accepted; the recorded refusal is served, else 401)",
    )
    parser.add_argument(
        "--push-to",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="a session that recorded push notifications delivers them to the webhook the "
        "live client registers, on a loopback address only; this allows one more origin "
        "(scheme://host:port; repeatable). Any other webhook is refused and printed",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted; exit 2 on an unreadable session or an unusable address."""
    from sia_tui.agent.mock import MockConfig, recording, serve_mock_forever
    from sia_tui.core.errors import SiaError
    from sia_tui.core.session import load_session

    try:
        session = load_session(args.session)
        push_to = _push_origins(args.push_to)
    except SiaError as exc:  # a SessionError, located ("at /exchanges/3/..."), an origin
        print(f"sia-tui: error: {printable(str(exc))}", file=sys.stderr)
        return 2

    def said(text: str) -> None:
        print(printable(text, keep_newlines=True), file=sys.stderr)

    config = MockConfig(
        recording(session, loose=args.match == "loose"),
        timing=args.timing,
        require_auth=args.require_auth,
        on_unmatched=said,
        push_to=push_to,
        on_push_refused=said,
    )

    def listening(url: str) -> None:
        print(url, flush=True)

    try:
        return serve_mock_forever(config, args.host, args.port, listening, grpc_port=args.grpc_port)
    except OSError as exc:
        where = f"{args.host}:{args.port}"
        print(f"sia-tui: cannot listen on {where}: {exc.strerror or exc}", file=sys.stderr)
        return 2


def _push_origins(values: list[str]) -> frozenset[str]:
    """``--push-to`` origins as ``scheme://host:port`` (the URL library loads only when
    one is named)."""
    if not values:
        return frozenset()
    from sia_tui.agent.mock.push import checked_origin
    from sia_tui.core.errors import SiaError

    origins = set()
    for value in values:
        try:
            origins.add(checked_origin(value))
        except SiaError as exc:
            raise SiaError(f"--push-to {value[:200]!r}: {exc}") from None
    return frozenset(origins)
