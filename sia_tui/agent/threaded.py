"""Serving an ASGI app with uvicorn in a background thread, on a socket bound first."""

from __future__ import annotations

import asyncio
import signal
import socket
import threading
import time
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager, nullcontext
from dataclasses import dataclass, field
from types import FrameType

import uvicorn
from starlette.types import ASGIApp

#: How long serve_in_thread waits for the server to accept connections, and stop() for it
#: to end.
START_TIMEOUT = 10.0
#: In-flight requests (a ``slow`` fault, an open stream) get this long at shutdown.
GRACEFUL_SECONDS = 1


def bind_socket(host: str, port: int) -> socket.socket:
    """Bind first, so an ephemeral port is known before uvicorn starts."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP, not 0: asyncio turns on TCP_NODELAY only for sockets whose proto is TCP.
    # Without it every response after the first on a keep-alive connection waited about
    # 40 ms for Nagle and the client's delayed ACK.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    # Listen now: a client that reads the printed URL can connect before uvicorn is up.
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def base_url(sock: socket.socket) -> str:
    """``http://host:port`` of a bound socket."""
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


#: Idle keep-alive connections stay open this long (uvicorn's 5 s default races clients
#: that reuse a connection after a pause, e.g. a person reading a screen).
KEEPALIVE_SECONDS = 75


def uvicorn_server(
    app: ASGIApp, *, quiet: bool = False, keep_alive: int = KEEPALIVE_SECONDS
) -> uvicorn.Server:
    """A uvicorn server for ``app`` (no lifespan, short graceful shutdown).

    ``quiet`` sends nothing to the terminal, not even error tracebacks: in ``sia-tui demo``
    the agent shares the terminal with the TUI, and stray output would corrupt the screen.
    """
    return uvicorn.Server(
        uvicorn.Config(
            app,
            log_level="critical" if quiet else "warning",
            access_log=False,
            lifespan="off",
            log_config=None if quiet else uvicorn.config.LOGGING_CONFIG,
            timeout_graceful_shutdown=GRACEFUL_SECONDS,
            timeout_keep_alive=keep_alive,
        )
    )


@dataclass
class ThreadedServer:
    """An app serving in a background thread until :meth:`stop`."""

    url: str
    #: Seconds from the call until connections were accepted.
    startup_seconds: float
    _server: uvicorn.Server = field(repr=False)
    _thread: threading.Thread = field(repr=False)
    _socket: socket.socket = field(repr=False)
    #: Called first on stop, e.g. to end requests that are deliberately slow.
    _on_stop: Callable[[], None] | None = field(default=None, repr=False)
    #: What the companion server reported once it listened (the gRPC ``host:port``).
    companion_address: str | None = None

    def stop(self) -> None:
        """Stop serving and wait for the thread; safe to call twice."""
        if self._on_stop is not None:
            self._on_stop()
        self._server.should_exit = True
        self._thread.join(timeout=START_TIMEOUT)
        self._socket.close()


#: A server to run beside the ASGI app on the same event loop (the reference agent's
#: gRPC server shares its tasks); it yields the address it listens on.
Companion = Callable[[], AbstractAsyncContextManager[str | None]]


async def serve_with(
    server: uvicorn.Server,
    sock: socket.socket,
    companion: Companion | None = None,
    listening: Callable[[str | None], None] = lambda _address: None,
) -> None:
    """Run ``server`` on ``sock``, inside ``companion`` when one is given; ``listening``
    gets the companion's address before the server starts."""
    async with companion() if companion is not None else nullcontext(None) as address:
        listening(address)
        await server.serve(sockets=[sock])


class _Stopped(Exception):
    """Raised by our signal handler once uvicorn has shut down and re-raised the signal."""


def _raise_stopped(signum: int, frame: FrameType | None) -> None:
    raise _Stopped(signum)


def serve_until_signal(
    server: uvicorn.Server,
    sock: socket.socket,
    companion: Companion | None = None,
    listening: Callable[[str | None], None] = lambda _address: None,
) -> None:
    """Serve in the foreground until Ctrl-C or SIGTERM, then return (a clean exit)."""
    # uvicorn shuts down gracefully on SIGINT/SIGTERM, then re-raises the signal to the
    # previous handler: make that handler ours so the exit is clean (status 0).
    previous = {sig: signal.signal(sig, _raise_stopped) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        asyncio.run(serve_with(server, sock, companion, listening))
    except (_Stopped, KeyboardInterrupt):
        pass
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def serve_in_thread(
    make_app: Callable[[str], ASGIApp],
    host: str = "127.0.0.1",
    port: int = 0,
    *,
    name: str = "asgi-server",
    on_stop: Callable[[], None] | None = None,
    quiet: bool = False,
    keep_alive: int = KEEPALIVE_SECONDS,
    companion: Companion | None = None,
) -> ThreadedServer:
    """Serve ``make_app(base_url)`` on ``host:port`` (0 = ephemeral); return once it serves.

    The app is built after binding, so it may embed its own URL (an Agent Card does).
    ``companion`` starts first on the server's loop and stops after it.
    """
    began = time.perf_counter()
    sock = bind_socket(host, port)
    server = uvicorn_server(make_app(base_url(sock)), quiet=quiet, keep_alive=keep_alive)
    address: list[str | None] = []
    thread = threading.Thread(
        target=lambda: asyncio.run(serve_with(server, sock, companion, address.append)),
        name=name,
        daemon=True,
    )
    thread.start()
    deadline = began + START_TIMEOUT
    while not server.started:
        if not thread.is_alive() or time.perf_counter() > deadline:
            server.should_exit = True
            thread.join(timeout=START_TIMEOUT)
            sock.close()
            raise RuntimeError(f"{name} did not start")
        time.sleep(0.005)
    return ThreadedServer(
        base_url(sock),
        time.perf_counter() - began,
        server,
        thread,
        sock,
        on_stop,
        address[0] if address else None,
    )
