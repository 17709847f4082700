"""Run the reference agent: uvicorn in a background thread, or standalone until a signal."""

from __future__ import annotations

import asyncio
import signal
import threading
from types import FrameType

from sia_tui.agent.app import create_app
from sia_tui.agent.config import AgentConfig
from sia_tui.agent.threaded import (
    ThreadedServer,
    base_url,
    bind_socket,
    serve_in_thread,
    uvicorn_server,
)

#: A reference agent serving in a background thread (``url``, ``stop()``).
RunningAgent = ThreadedServer


def start_agent(
    config: AgentConfig | None = None,
    host: str = "127.0.0.1",
    port: int = 0,
    *,
    quiet: bool = False,
) -> RunningAgent:
    """Start the agent on ``host:port`` (0 = ephemeral) and return once it serves.

    ``quiet``: write nothing to the terminal (the TUI's ``demo`` shares it).
    """
    app = create_app(config or AgentConfig())
    stopping: threading.Event = app.state.agent.stopping
    return serve_in_thread(
        lambda _url: app, host, port, name="sia-reference-agent", on_stop=stopping.set, quiet=quiet
    )


class _Stopped(Exception):
    """Raised by our signal handler once uvicorn has shut down and re-raised the signal."""


def _raise_stopped(signum: int, frame: FrameType | None) -> None:
    raise _Stopped(signum)


def serve_forever(config: AgentConfig, host: str, port: int) -> int:
    """Serve in the foreground; print the URL first; exit 0 on Ctrl-C or SIGTERM."""
    server = uvicorn_server(create_app(config))
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
