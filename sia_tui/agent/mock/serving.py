"""Run a mock agent: in a background thread (tests, the TUI) or in the foreground (CLI).

The reference agent's serving pieces (``agent/threaded.py``): a socket bound first, so the
card can name the port before uvicorn starts; uvicorn without lifespan; a clean exit on
Ctrl-C or SIGTERM.
"""

from __future__ import annotations

from collections.abc import Callable

from sia_tui.agent.mock.app import MockConfig, create_mock_app
from sia_tui.agent.threaded import (
    Companion,
    ThreadedServer,
    base_url,
    bind_socket,
    serve_in_thread,
    serve_until_signal,
    uvicorn_server,
)

#: A mock agent serving in a background thread (``url``, ``stop()``).
RunningMock = ThreadedServer


def start_mock(
    config: MockConfig,
    host: str = "127.0.0.1",
    port: int = 0,
    *,
    grpc_port: int = 0,
    quiet: bool = True,
) -> RunningMock:
    """Serve ``config``'s recording on ``host:port`` (0: a free port), and its gRPC calls
    on ``grpc_port`` when it holds some (``RunningMock.companion_address``); return once
    it serves."""
    return serve_in_thread(
        lambda url: create_mock_app(config, url),
        host,
        port,
        name="sia-mock-agent",
        on_stop=config.stopping.set,
        quiet=quiet,
        companion=_grpc_side(config, host, grpc_port),
    )


def _grpc_side(config: MockConfig, host: str, port: int) -> Companion | None:
    """The gRPC server beside the HTTP one, for a session that recorded gRPC calls (grpc
    loads only then)."""
    if not config.recording.grpc_calls:
        return None
    from sia_tui.agent.mock.grpc_side import serving_mock_grpc

    return lambda: serving_mock_grpc(config, host, port)


def serve_mock_forever(
    config: MockConfig,
    host: str,
    port: int,
    listening: Callable[[str], None],
    *,
    grpc_port: int = 0,
) -> int:
    """Serve in the foreground until Ctrl-C or SIGTERM (exit 0); ``listening`` gets the
    base URL once the socket is bound, then ``gRPC host:port`` when gRPC is served
    (``OSError`` when a port cannot be bound)."""
    sock = bind_socket(host, port)
    url = base_url(sock)
    server = uvicorn_server(create_mock_app(config, url))
    listening(url)

    def grpc_listening(address: str | None) -> None:
        if address is not None:
            listening(f"gRPC {address}")

    try:
        serve_until_signal(server, sock, _grpc_side(config, host, grpc_port), grpc_listening)
    finally:
        config.stopping.set()
        sock.close()
    return 0
