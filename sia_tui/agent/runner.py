"""Run the reference agent: uvicorn in a background thread, or standalone until a signal."""

from __future__ import annotations

import asyncio
import signal
import socket
import threading
import time
from dataclasses import dataclass, field
from types import FrameType

import uvicorn

from sia_tui.agent.app import create_app
from sia_tui.agent.config import AgentConfig

#: How long start_agent waits for the server to accept connections.
START_TIMEOUT = 10.0
#: In-flight requests (a ``slow`` fault, an open stream) get this long at shutdown.
GRACEFUL_SECONDS = 1


def bind_socket(host: str, port: int) -> socket.socket:
    """Bind first, so an ephemeral port is known before uvicorn starts."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    # Listen now: a client that reads the printed URL can connect before uvicorn is up.
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def _server(config: AgentConfig) -> tuple[uvicorn.Server, threading.Event]:
    """The uvicorn server and the agent's stopping flag."""
    app = create_app(config)
    uv_config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off",
                               timeout_graceful_shutdown=GRACEFUL_SECONDS)
    stopping: threading.Event = app.state.agent.stopping
    return uvicorn.Server(uv_config), stopping


def base_url(sock: socket.socket) -> str:
    """``http://host:port`` of a bound socket."""
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


@dataclass
class RunningAgent:
    """A reference agent serving in a background thread."""

    url: str
    #: Seconds from the call to the first accepted connection being possible.
    startup_seconds: float
    _server: uvicorn.Server = field(repr=False)
    _thread: threading.Thread = field(repr=False)
    _socket: socket.socket = field(repr=False)
    _stopping: threading.Event = field(repr=False)

    def stop(self) -> None:
        """Stop serving and wait for the thread; safe to call twice."""
        self._stopping.set()
        self._server.should_exit = True
        self._thread.join(timeout=START_TIMEOUT)
        self._socket.close()


def start_agent(config: AgentConfig | None = None, host: str = "127.0.0.1",
                port: int = 0) -> RunningAgent:
    """Start the agent on ``host:port`` (0 = ephemeral) and return once it serves."""
    began = time.perf_counter()
    server, stopping = _server(config or AgentConfig())
    sock = bind_socket(host, port)
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])),
                              name="sia-reference-agent", daemon=True)
    thread.start()
    deadline = began + START_TIMEOUT
    while not server.started:
        if not thread.is_alive() or time.perf_counter() > deadline:
            server.should_exit = True
            thread.join(timeout=START_TIMEOUT)
            sock.close()
            raise RuntimeError("the reference agent did not start")
        time.sleep(0.005)
    return RunningAgent(base_url(sock), time.perf_counter() - began, server, thread, sock,
                        stopping)


class _Stopped(Exception):
    """Raised by our signal handler once uvicorn has shut down and re-raised the signal."""


def _raise_stopped(signum: int, frame: FrameType | None) -> None:
    raise _Stopped(signum)


def serve_forever(config: AgentConfig, host: str, port: int) -> int:
    """Serve in the foreground; print the URL first; exit 0 on Ctrl-C or SIGTERM."""
    server, _ = _server(config)
    sock = bind_socket(host, port)
    print(base_url(sock), flush=True)
    # uvicorn shuts down gracefully on SIGINT/SIGTERM, then re-raises the signal to the
    # previous handler: make that handler ours so the exit is clean (status 0).
    previous = {sig: signal.signal(sig, _raise_stopped) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        asyncio.run(server.serve(sockets=[sock]))
    except (_Stopped, KeyboardInterrupt):
        pass
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        sock.close()
    return 0
