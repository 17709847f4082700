"""``sia-tui mock``: serve a saved session as the agent it recorded."""

from __future__ import annotations

import argparse
import sys
from typing import Any

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
    parser.add_argument("--port", type=int, default=0, help="port (default 0: a free one)")
    parser.add_argument(
        "--grpc-port",
        type=int,
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
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted; exit 2 on an unreadable session or an unusable address."""
    from sia_tui.agent.mock import MockConfig, recording, serve_mock_forever
    from sia_tui.core.errors import SiaError
    from sia_tui.core.session import load_session

    try:
        session = load_session(args.session)
    except SiaError as exc:  # a SessionError, located ("at /exchanges/3/...")
        print(f"sia-tui: error: {printable(str(exc))}", file=sys.stderr)
        return 2
    config = MockConfig(
        recording(session, loose=args.match == "loose"),
        timing=args.timing,
        require_auth=args.require_auth,
        on_unmatched=lambda text: print(printable(text, keep_newlines=True), file=sys.stderr),
    )

    def listening(url: str) -> None:
        print(url, flush=True)

    try:
        return serve_mock_forever(config, args.host, args.port, listening, grpc_port=args.grpc_port)
    except OSError as exc:
        where = f"{args.host}:{args.port}"
        print(f"sia-tui: cannot listen on {where}: {exc.strerror or exc}", file=sys.stderr)
        return 2
