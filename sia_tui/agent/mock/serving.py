"""Run a mock agent: in a background thread (tests, the TUI) or in the foreground (CLI).

The reference agent's serving pieces (``agent/threaded.py``): a socket bound first, so the
card can name the port before uvicorn starts; uvicorn without lifespan; a clean exit on
Ctrl-C or SIGTERM.
"""

from __future__ import annotations

from collections.abc import Callable

from sia_tui.agent.mock.app import MockConfig, create_mock_app
from sia_tui.agent.threaded import (
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
    config: MockConfig, host: str = "127.0.0.1", port: int = 0, *, quiet: bool = True
) -> RunningMock:
    """Serve ``config``'s recording on ``host:port`` (0: a free port); return once it serves."""
    return serve_in_thread(
        lambda url: create_mock_app(config, url),
        host,
        port,
        name="sia-mock-agent",
        on_stop=config.stopping.set,
        quiet=quiet,
    )


def serve_mock_forever(
    config: MockConfig, host: str, port: int, listening: Callable[[str], None]
) -> int:
    """Serve in the foreground until Ctrl-C or SIGTERM (exit 0); ``listening`` gets the
    base URL once the socket is bound (``OSError`` when it cannot be)."""
    sock = bind_socket(host, port)
    url = base_url(sock)
    server = uvicorn_server(create_mock_app(config, url))
    listening(url)
    try:
        serve_until_signal(server, sock)
    finally:
        config.stopping.set()
        sock.close()
    return 0
