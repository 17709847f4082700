"""`sia-tui open [CARD]` and `sia-tui demo`: the Textual debugger (imported lazily)."""

from __future__ import annotations

import argparse
import contextlib
import gc
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from sia_tui.cli.flags import UsageError, add_connection_flags, client_options
from sia_tui.cli.trust_flags import add_trust_flags, anchors_from
from sia_tui.core.invocation_mode import InvocationMode
from sia_tui.core.session import readable_range

if TYPE_CHECKING:
    from textual.app import App

    from sia_tui.core.a2a import ClientOptions


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add `open` and `demo`."""
    parser = sub.add_parser(
        "open",
        help="open the debugger (no CARD: the connect screen)",
        description="Open the Textual debugger on an Agent Card, or a "
        f"saved session file ({readable_range()}) read-only (no network at all).",
    )
    parser.add_argument(
        "card",
        nargs="?",
        help="base URL, Agent Card URL (.json), card file, or a saved session file",
    )
    parser.add_argument("--skill", help="skill id (default: the one advertised domain skill)")
    parser.add_argument("--mode", choices=[m.value for m in InvocationMode], help="response mode")
    parser.add_argument(
        "--cache",
        action="store_true",
        help="reuse a cached document bound to this target, skill, version and digest "
        "(RULES CP12) instead of calling describe_skill; step 3 and the header say so",
    )
    _add_args_flag(parser)
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
    demo.add_argument(
        "--oauth2",
        action="store_true",
        help="the reference agent behind OAuth2 client credentials (serve-demo --oauth2), "
        "debugged with its demo client: the token is fetched from its own endpoint",
    )
    _add_args_flag(demo)
    demo.set_defaults(func=demo_main)


def _add_args_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--args",
        metavar="FILE",
        help="start the argument editor (Invoke screen) with this JSON file's text, read as "
        "`check --args` reads it (f2 in the editor loads another)",
    )


def _given_arguments(args: argparse.Namespace) -> tuple[str, str] | None:
    """(file, text) of ``--args``; a file that is not JSON stops here, located (exit 2)."""
    given = getattr(args, "args", None)  # a Namespace built by hand may lack it
    if not given:
        return None
    if given == "-":  # the TUI reads its keys there
        raise UsageError("--args: a file, not - (the debugger reads the keyboard there)")
    from sia_tui.cli.flags import read_json_input
    from sia_tui.core.errors import SiaError
    from sia_tui.core.output import printable

    try:
        return given, read_json_input(given)[1]
    except SiaError as exc:
        raise UsageError(f"--args: {printable(str(exc))}") from None


@contextlib.contextmanager
def _loading_modules() -> Iterator[None]:
    """No garbage collection while the TUI's modules load (about 15 ms of
    start-up). Importing creates modules, classes and tables that live as long as the
    process, not garbage: each collection would only walk them again. They are frozen as
    loading ends (as ``run_app`` freezes what it finds): else the first young collection
    after it walked every one of them (11 ms before the card was on screen)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.freeze()
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
        arguments = _given_arguments(args)
    except UsageError as exc:
        print(f"sia-tui open: {exc}")
        return 2
    # Only what opening a live target needs: a session file or --cache load their own.
    with _loading_modules():
        from sia_tui.core.run import Target
        from sia_tui.tui.app import SiaApp
        from sia_tui.tui.engine_port import EngineFactory, build_procedure
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
        target,
        options,
        engine_factory=factory,
        secret_values=values,
        secret_headers=headers,
        arguments=arguments,
    )
    return run_app(app)


def demo_options(oauth2: bool) -> ClientOptions | None:
    """The demo's client options: with ``--oauth2``, the reference agent's demo client."""
    if not oauth2:
        return None
    from sia_tui.agent.oauth2 import DEMO_CLIENT_ID, DEMO_CLIENT_SECRET
    from sia_tui.core.a2a import ClientOptions, OAuth2Settings

    return ClientOptions(oauth2=OAuth2Settings(DEMO_CLIENT_ID, DEMO_CLIENT_SECRET))


def demo_main(args: argparse.Namespace) -> int:
    """Start the reference agent, run the debugger against it, stop the agent."""
    with _loading_modules():
        from sia_tui.agent.config import AgentConfig
        from sia_tui.agent.faults import UnknownFault, fault_named
        from sia_tui.agent.serving import start_agent
        from sia_tui.core.run import Target
        from sia_tui.tui.app import SiaApp

    try:
        fault = fault_named(args.fault) if args.fault is not None else None
        arguments = _given_arguments(args)
    except (UnknownFault, UsageError) as exc:
        print(f"sia-tui demo: {exc}")
        return 2
    oauth2 = getattr(args, "oauth2", False)  # a Namespace built by hand may lack it
    # Push on, so the Push checkbox shows deliveries (the card then declares it).
    config = AgentConfig(fault=fault, grpc_port=0, oauth2=oauth2, push="on")
    agent = start_agent(config, quiet=True)
    try:
        # Its port dies with it: a demo target never goes into the recent targets.
        options = demo_options(oauth2)
        app = SiaApp(Target(agent.url), options, remember_targets=False, arguments=arguments)
        return run_app(app)
    finally:
        agent.stop()
