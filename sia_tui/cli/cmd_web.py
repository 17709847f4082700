"""`sia-tui web`: the debugger in a browser for demos (textual-serve, imported lazily)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from sia_tui.cli.argument_types import port

#: The subcommands a browser session may run: the TUI ones (never `web` itself, `check`...).
TUI_COMMANDS = ("open", "demo")


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add `web`."""
    parser = sub.add_parser(
        "web",
        help="serve the debugger in a browser (loopback, per-launch token)",
        description="Serve the same debugger in a browser through textual-serve. Each "
        "browser tab runs its own `sia-tui open ARGS` (or `sia-tui demo ARGS`). The URL "
        "printed at start holds a random token; every request without it is refused.",
        epilog="The TUI arguments come after web's own options, e.g. `sia-tui web --port "
        "8080 https://agent.example --bearer T` or `sia-tui web demo --fault digest-card`; "
        "put `--` before them when they start with an option: `sia-tui web -- --insecure "
        "URL`. Binding anything but loopback exposes the debugger and its credentials to "
        "whoever obtains the URL.",
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1; anything else is loudly warned about)",
    )
    parser.add_argument(
        "--port", type=port, default=0, help="port to listen on (default: a free port)"
    )
    parser.add_argument(
        "tui_args",
        nargs=argparse.REMAINDER,
        metavar="[open|demo] ARGS",
        help="what each browser session runs (default: open, the connect screen)",
    )
    parser.set_defaults(func=web_main)


def tui_argv(rest: Sequence[str]) -> list[str]:
    """The browser sessions' sia-tui arguments: ``open`` unless ``open``/``demo`` is named."""
    args = list(rest[1:] if rest[:1] == ["--"] else rest)
    if not args or args[0] not in TUI_COMMANDS:
        args.insert(0, "open")
    return args


def check_tui_argv(argv: list[str]) -> int | None:
    """Parse ``argv`` as sia-tui would in each session, so a typo fails now, not in every
    browser tab. None when it parses; else argparse's exit code (it printed why)."""
    from sia_tui.cli.parser import build_parser

    try:
        build_parser().parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    return None


def web_main(args: argparse.Namespace) -> int:
    """Check the arguments, then serve until Ctrl+C or SIGTERM."""
    if sys.platform == "win32":
        # textual-serve starts each session through the shell; we quote for POSIX sh only.
        print("sia-tui web: not supported on Windows (needs a POSIX shell)", file=sys.stderr)
        return 2
    if not 0 <= args.port <= 65535:
        print(f"sia-tui web: --port must be 0-65535, got {args.port}", file=sys.stderr)
        return 2
    argv = tui_argv(args.tui_args)
    failed = check_tui_argv(argv)
    if failed is not None:
        return failed
    import asyncio  # lazily: `sia-tui --help` imports only the standard parser

    return asyncio.run(_serve(args.host, args.port, argv))


def _report(line: str) -> None:
    print(f"sia-tui web: {line}", file=sys.stderr, flush=True)


async def _serve(host: str, port: int, argv: list[str]) -> int:
    import asyncio
    import signal

    from sia_tui.web.server import start_web

    try:
        server = await start_web(host, port, argv, report=_report)
    except OSError as exc:
        print(f"sia-tui web: cannot listen on {host}:{port}: {exc}", file=sys.stderr)
        return 2
    if server.warning:
        rule = "!" * 78
        print(f"{rule}\nWARNING: {server.warning}.\n{rule}", file=sys.stderr, flush=True)
    # The URL alone on stdout's first line (scripts read it, as with serve-demo); the
    # explanation on stderr.
    print(server.url, flush=True)
    hint = ""
    if server.address in ("0.0.0.0", "::"):
        hint = f" (from another machine, put its address in place of {server.address})"
    _report(
        f"open the URL above in a browser{hint}; it holds this launch's token. Each tab "
        f"runs its own `sia-tui {argv[0]}`. Ctrl+C stops the server and every session."
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    try:
        await stop.wait()
    finally:
        await server.stop()
    return 0
