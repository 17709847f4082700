"""`sia-tui web`: the same Textual app in a browser, through textual-serve, behind the gate.

What this relies on in textual-serve 1.1.3 (pinned exactly in pyproject.toml):
- ``Server._make_app()`` (private) builds its aiohttp application: routes ``/`` (index, a
  Jinja template given ``application.name`` and ``font_size``), ``/ws`` (one app process per
  websocket, launched with ``asyncio.create_subprocess_shell(command)``), ``/static`` and
  ``/download/{key}``. We mount that application, unpatched, under ``/TOKEN/`` inside our
  own, whose middleware (guard.py) refuses every request without the token.
- ``Server(templates_path=...)`` to use our page (templates/app_index.html), and
  ``Server.on_startup``, overridden because it prints the command (which may hold a
  ``--bearer`` token).
- ``Server.handle_websocket``, overridden by ``session.run_session`` (terminal size capped,
  the app process ended with its websocket), which uses ``AppService`` and the server's
  ``download_manager`` and ``debug``.
- textual.js reads ``data-session-websocket-url`` and connects in ``window.onload``.
"""

from __future__ import annotations

import ipaddress
import shlex
import socket
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import aiohttp_jinja2
from aiohttp import web
from textual_serve.server import Server

from sia_tui.web.guard import LOOPBACK_NAMES, Gate, new_token, security_headers, url_host
from sia_tui.web.session import run_session

TEMPLATES = Path(__file__).parent / "templates"
STATIC = Path(__file__).parent / "static"

#: Seconds aiohttp waits for open requests at shutdown before cancelling them.
SHUTDOWN_TIMEOUT = 5.0


def app_command(tui_argv: Sequence[str]) -> str:
    """The shell command textual-serve runs per browser session: this same sia-tui (same
    interpreter), with ``tui_argv`` quoted so no argument is ever read by the shell. ``exec``:
    the app replaces the shell, so ending the session's process ends the app."""
    return "exec " + shlex.join([sys.executable, "-m", "sia_tui", *tui_argv])


def is_loopback(address: str) -> bool:
    """True for 127.0.0.0/8 and ::1 (an address as the socket reports it)."""
    try:
        return ipaddress.ip_address(address.split("%", 1)[0]).is_loopback
    except ValueError:
        return False


def bind_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host:port`` (port 0: a free one). Binding here, before the
    server exists, gives the real port for the URL and the Host check without a race."""
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError:
        sock.close()
        raise
    return sock


def exposure_warning(address: str) -> str | None:
    """The warning shown when the server is reachable from other machines, or None."""
    if is_loopback(address):
        return None
    return (
        f"sia-tui web is listening on {address}, not on loopback: anyone who can reach "
        "this address and has the URL drives the debugger with the credentials it was given"
    )


def accepted_hosts(address: str, port: int) -> frozenset[str]:
    """Host header values a loopback server answers (DNS rebinding guard); empty (any)
    for other binds, where the token alone protects."""
    if not is_loopback(address):
        return frozenset()
    names = {*LOOPBACK_NAMES, url_host(address)}
    hosts = {f"{name}:{port}" for name in names}
    if port == 80:
        hosts |= names
    return frozenset(hosts)


class SiaServe(Server):
    """textual-serve's Server with our page and without its start-up banner."""

    def __init__(self, command: str, public_url: str) -> None:
        super().__init__(command, title="sia-tui", public_url=public_url, templates_path=TEMPLATES)

    async def on_startup(self, app: web.Application) -> None:
        """Print nothing: textual-serve would print the command, secrets included."""

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """One browser session, bounded (``session.run_session``)."""
        return await run_session(request, self.command, self.download_manager, debug=self.debug)


@dataclass
class WebServer:
    """A running ``sia-tui web`` server."""

    url: str
    address: str
    warning: str | None
    gate: Gate
    runner: web.AppRunner

    async def stop(self) -> None:
        """End every browser session and close the port."""
        await self.runner.cleanup()


async def start_web(
    host: str, port: int, tui_argv: Sequence[str], *, report: Callable[[str], None]
) -> WebServer:
    """Listen on ``host:port`` and serve ``sia-tui TUI_ARGV`` to browsers that hold the token.

    ``report`` receives one line per refused request (the first few). Raises OSError when the
    address cannot be bound.
    """
    sock = bind_socket(host, port)
    address, port = sock.getsockname()[:2]
    base = f"http://{url_host(address)}:{port}"
    token = new_token()
    warning = exposure_warning(address)

    serve = SiaServe(app_command(tui_argv), public_url=base)
    inner = await serve._make_app()  # textual-serve 1.1.3: see the module docstring
    inner.router.add_static("/sia", STATIC)
    aiohttp_jinja2.get_env(inner).globals["exposed_warning"] = warning or ""

    gate = Gate(token=token, hosts=accepted_hosts(address, port), report=report)
    root = web.Application(middlewares=[gate.middleware])
    root.on_response_prepare.append(security_headers)
    root.on_response_prepare.append(gate.on_prepare)
    root.on_shutdown.append(gate.close_sockets)
    root.add_subapp(f"/{token}/", inner)

    runner = web.AppRunner(
        root, access_log=None, shutdown_timeout=SHUTDOWN_TIMEOUT, logger=gate.http_logger()
    )
    await runner.setup()
    try:
        await web.SockSite(runner, sock).start()
    except BaseException:
        await runner.cleanup()
        sock.close()
        raise
    return WebServer(f"{base}/{token}/", address, warning, gate, runner)
