"""`sia-tui open [CARD]` and `sia-tui demo`: the Textual debugger (imported lazily)."""

from __future__ import annotations

import argparse
import contextlib
import gc
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from sia_tui.cli.flags import UsageError, add_connection_flags, client_options
from sia_tui.cli.trust_flags import add_trust_flags, anchors_from

if TYPE_CHECKING:
    from textual.app import App


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add `open` and `demo`."""
    parser = sub.add_parser(
        "open",
        help="open the debugger (no CARD: the connect screen)",
        description="Open the Textual debugger on an Agent Card, or a "
        "saved session file (sia-session/1 to /4) read-only (no network at all).",
    )
    parser.add_argument(
        "card",
        nargs="?",
        help="base URL, Agent Card URL (.json), card file, or a saved session file",
    )
    parser.add_argument("--skill", help="skill id (default: the one advertised domain skill)")
    parser.add_argument("--mode", choices=("sync", "stream", "poll"), help="response mode")
    parser.add_argument(
        "--cache",
        action="store_true",
        help="reuse a cached document bound to this target, skill, version and digest "
        "(RULES CP12) instead of calling describe_skill; step 3 and the header say so",
    )
    add_connection_flags(parser)
    add_trust_flags(parser)
    parser.set_defaults(func=open_main)

    demo = sub.add_parser(
        "demo",
        help="start the reference agent in-process and debug it",
        description="Start the reference agent on a free 127.0.0.1 port (its gRPC binding "
        "on another, listed last in its card) and open the debugger connected to it; the "
        "agent stops on exit.",
    )
    demo.add_argument("--fault", help="make the reference agent misbehave (see serve-demo)")
    demo.set_defaults(func=demo_main)


@contextlib.contextmanager
def _loading_modules() -> Iterator[None]:
    """No garbage collection while the TUI's modules load (about 15 ms of
    start-up). Importing creates modules, classes and tables that live as long as the
    process, not garbage: each collection would only walk them again."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def run_app(app: App[Any], *, headless: bool = False) -> int:
    """Run the app; a crash inside it exits non-zero (Textual sets return_code to 1)."""
    # What is loaded by now lives as long as the process: keep it out of every collection
    # the app's run triggers (start-up saw a 12 ms one before the card was on screen).
    gc.freeze()
    app.run(headless=headless)
    return app.return_code or 0


def open_main(args: argparse.Namespace) -> int:
    """Run the debugger on the given card (or the connect screen)."""
    try:
        options = client_options(args)
        anchors = anchors_from(args)
    except UsageError as exc:
        print(f"sia-tui open: {exc}")
        return 2
    # Only what opening a live target needs: a session file or --cache load their own.
    with _loading_modules():
        from sia_tui.core.engine import Target
        from sia_tui.tui.app import SiaApp
        from sia_tui.tui.engine import EngineFactory, build_procedure
        from sia_tui.tui.readonly import looks_like_session

    values, headers = tuple(args.secret), tuple(args.secret_header)
    if args.card and looks_like_session(args.card):
        from sia_tui.core.probe import load_checked_session
        from sia_tui.core.session import SessionError

        try:
            session = load_checked_session(args.card)
        except SessionError as exc:
            print(f"sia-tui open: {exc}")
            return 2
        app = SiaApp(None, options, session=session, secret_values=values, secret_headers=headers)
        return run_app(app)
    target = None
    if args.card:
        target = Target(
            args.card, skill_id=args.skill, binding=args.binding, mode=args.mode, anchors=anchors
        )
    factory: EngineFactory = build_procedure
    if args.cache:
        from functools import partial

        from sia_tui.core.engine import DocumentCache

        factory = partial(build_procedure, cache=DocumentCache())
    app = SiaApp(
        target, options, engine_factory=factory, secret_values=values, secret_headers=headers
    )
    return run_app(app)


def demo_main(args: argparse.Namespace) -> int:
    """Start the reference agent, run the debugger against it, stop the agent."""
    with _loading_modules():
        from sia_tui.agent.config import AgentConfig
        from sia_tui.agent.faults import UnknownFault, fault_named
        from sia_tui.agent.runner import start_agent
        from sia_tui.core.engine import Target
        from sia_tui.tui.app import SiaApp

    try:
        fault = fault_named(args.fault) if args.fault is not None else None
    except UnknownFault as exc:
        print(f"sia-tui demo: {exc}")
        return 2
    # Push on, so the Push checkbox shows deliveries (the card then declares it).
    agent = start_agent(AgentConfig(fault=fault, grpc_port=0, push="on"), quiet=True)
    try:
        # Its port dies with it: a demo target never goes into the recent targets.
        return run_app(SiaApp(Target(agent.url), remember_targets=False))
    finally:
        agent.stop()
