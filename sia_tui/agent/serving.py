"""Run the reference agent: uvicorn in a background thread, or standalone until a signal."""

from __future__ import annotations

import logging
import sys
import threading

from sia_tui.agent.app import AgentApp, create_app
from sia_tui.agent.config import AgentConfig
from sia_tui.agent.threaded import (
    Companion,
    ThreadedServer,
    base_url,
    bind_socket,
    serve_in_thread,
    serve_until_signal,
    uvicorn_server,
)
from sia_tui.agent.tracing import LOG as TRACE_LOG

#: A reference agent serving in a background thread (``url``, ``stop()``).
RunningAgent = ThreadedServer


def start_agent(
    config: AgentConfig | None = None,
    host: str = "127.0.0.1",
    port: int = 0,
    *,
    quiet: bool = False,
) -> RunningAgent:
    """Start the agent on ``host:port`` (0 = ephemeral) and return once it serves; with
    ``config.grpc_port`` its gRPC server too (``RunningAgent.companion_address``).

    ``quiet``: write nothing to the terminal (the TUI's ``demo`` shares it).
    """
    config = config or AgentConfig()
    app = create_app(config)
    stopping: threading.Event = app.state.agent.stopping
    return serve_in_thread(
        lambda _url: app,
        host,
        port,
        name="sia-reference-agent",
        on_stop=stopping.set,
        quiet=quiet,
        companion=_grpc_companion(app.state.agent, config, host),
    )


def _grpc_companion(agent: AgentApp, config: AgentConfig, host: str) -> Companion | None:
    """The gRPC server beside the HTTP one, when the config asks for it (grpc loads then)."""
    if not config.serves_grpc or config.grpc_port is None:
        return None
    from sia_tui.agent.grpc_server import serving_grpc

    port = config.grpc_port
    return lambda: serving_grpc(agent, host, port)


def show_trace_log() -> None:
    """Write the agent's log of incoming trace ids on stderr (``serve-demo``): the lines a
    vendor searches for the trace id a client's bug report names."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(message)s"))
    TRACE_LOG.addHandler(handler)
    TRACE_LOG.setLevel(logging.INFO)


def serve_forever(config: AgentConfig, host: str, port: int) -> int:
    """Serve in the foreground; print the URL first (then the gRPC address, when served);
    exit 0 on Ctrl-C or SIGTERM."""
    app = create_app(config)
    server = uvicorn_server(app)
    show_trace_log()
    sock = bind_socket(host, port)
    print(base_url(sock), flush=True)

    def listening(address: str | None) -> None:
        if address is not None:
            print(f"gRPC {address}", flush=True)

    try:
        serve_until_signal(server, sock, _grpc_companion(app.state.agent, config, host), listening)
    finally:
        sock.close()
    return 0
