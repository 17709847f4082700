"""``sia-tui serve-demo``: run the reference agent in the foreground."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from sia_tui.cli.argument_types import port


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add ``serve-demo``."""
    parser = sub.add_parser(
        "serve-demo",
        help="run the reference A2A agent (optionally with one fault)",
        description="Run the reference A2A 1.0 agent. The base URL is printed on the first "
        "line of stdout (with --grpc-port, 'gRPC HOST:PORT' on the second). Ctrl-C or "
        "SIGTERM stops it.",
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to bind (default: loopback only)"
    )
    parser.add_argument("--port", type=port, default=0, help="port (default: a free one)")
    parser.add_argument(
        "--fault", metavar="NAME", help="simulate one fault; 'list' prints every fault and exits"
    )
    parser.add_argument(
        "--binding",
        choices=("both", "jsonrpc", "http-json"),
        default="both",
        help="which A2A bindings to serve (default: both)",
    )
    parser.add_argument(
        "--grpc-port",
        type=port,
        metavar="P",
        help="serve the gRPC binding too, on port P (0: a free one); the card lists it "
        "last, and its address is printed on the second line",
    )
    parser.add_argument(
        "--step-delay",
        type=float,
        default=1.0,
        help="seconds between the long-running skill's steps",
    )
    parser.add_argument(
        "--ask",
        choices=("input", "auth"),
        help="each domain task asks its caller once, in INPUT_REQUIRED (input) or "
        "AUTH_REQUIRED (auth), and goes on when a follow-up message names its taskId",
    )
    parser.add_argument(
        "--drop-stream",
        action="store_true",
        help="close every SendStreamingMessage stream after its first update, before the "
        "task ends (clients must resubscribe with SubscribeToTask, or poll)",
    )
    parser.add_argument(
        "--sign-key",
        metavar="JWK",
        help="serve the card signed (A2A 1.0 section 8.4) with this private JWK file",
    )
    parser.add_argument(
        "--push",
        choices=("off", "on", "refuse-loopback"),
        default="off",
        help="push notifications: 'on' declares capabilities.pushNotifications and POSTs each "
        "event of a task to the webhook a send registers, with its token; 'refuse-loopback' "
        "refuses loopback and private webhook URLs as agents SHOULD (default: off)",
    )
    parser.add_argument(
        "--plain-reply",
        choices=("task", "message"),
        default="task",
        help="how a text message that names no skill is answered: 'task' (a conversation "
        "task that echoes and waits for input, the default) or 'message' (a bare Message, "
        "no task: the other answer a plain A2A client must read)",
    )
    parser.add_argument(
        "--write-jwks",
        metavar="FILE",
        help="write the public JWKS that verifies the card's signature (with no --sign-key, "
        "a new ES256 key is generated for this run)",
    )
    parser.add_argument(
        "--write-key",
        metavar="FILE",
        help="keep the private key generated for this run's signed card: write it to FILE "
        "with mode 0600 (never over an existing file), to sign later with "
        "`sign-card --key FILE`; not with --sign-key (that key is yours already)",
    )
    parser.add_argument(
        "--oauth2",
        action="store_true",
        help="protect the A2A routes with OAuth2 client credentials: a token endpoint on "
        "the same origin (/oauth2/token), a card that requires the scheme, 401 without a "
        "valid token; the demo client id and secret are printed on stderr",
    )
    parser.set_defaults(func=run)


def signing_key(args: argparse.Namespace) -> dict[str, Any] | None:
    """The private JWK the card is signed with (read, or generated for --write-jwks or
    --write-key), after the private key (--write-key) and the public JWKS are written; None
    when the card is served unsigned."""
    if not (args.sign_key or args.write_jwks or args.write_key):
        return None
    import json
    from pathlib import Path

    from sia_tui.cli.flags import UsageError
    from sia_tui.core.jsonkit import load_path
    from sia_tui.core.trust import (
        new_signing_key,
        public_key_set,
        read_private_key,
        write_private_key,
    )

    if args.sign_key and args.write_key:
        raise UsageError("--write-key keeps a generated key; with --sign-key the key is yours")
    if args.sign_key:
        key = read_private_key(load_path(args.sign_key), args.sign_key)
    else:
        key = new_signing_key()
    if args.write_key:
        write_private_key(args.write_key, key)  # 0600; refused when the file exists
    if args.write_jwks:
        Path(args.write_jwks).write_text(json.dumps(public_key_set(key), indent=2) + "\n")
    return key


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted; exit 2 on a bad fault name or an unusable address."""
    from sia_tui.agent.config import AgentConfig
    from sia_tui.agent.faults import UnknownFault, fault_named, list_faults

    if args.fault == "list":
        print(list_faults())
        return 0
    try:
        fault = fault_named(args.fault) if args.fault is not None else None
    except UnknownFault as exc:
        print(f"sia-tui: {exc}; try --fault list", file=sys.stderr)
        return 2
    from sia_tui.agent.serving import serve_forever
    from sia_tui.core.errors import SiaError

    try:
        key = signing_key(args)
    except (SiaError, OSError) as exc:  # a UsageError is a SiaError
        print(f"sia-tui: {exc}", file=sys.stderr)
        return 2
    config = AgentConfig(
        fault=fault,
        bindings=args.binding,
        step_delay=args.step_delay,
        sign_key=key,
        grpc_port=args.grpc_port,
        oauth2=args.oauth2,
        ask=args.ask,
        drop_stream=args.drop_stream,
        push=args.push,
        plain_reply=args.plain_reply,
    )
    if args.oauth2:
        from sia_tui.agent.oauth2 import DEMO_CLIENT_ID, DEMO_CLIENT_SECRET

        # stderr: stdout's first lines are the addresses scripts read.
        print(
            f"OAuth2 demo client: --oauth2-client-id {DEMO_CLIENT_ID}, "
            f"SIA_TUI_OAUTH2_CLIENT_SECRET={DEMO_CLIENT_SECRET}",
            file=sys.stderr,
        )
    try:
        return serve_forever(config, args.host, args.port)
    except OSError as exc:
        where = f"{args.host}:{args.port}"
        print(f"sia-tui: cannot listen on {where}: {exc.strerror or exc}", file=sys.stderr)
        return 2
