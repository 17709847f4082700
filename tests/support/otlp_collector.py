"""A fake OpenTelemetry collector for tests: OTLP/HTTP on 127.0.0.1 (an ephemeral port),
keeping every request it receives, answering as the test says."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Received:
    """One request the collector received."""

    path: str
    content_type: str
    body: bytes


@dataclass
class Collector:
    """Where it listens and what it received."""

    url: str
    received: list[Received] = field(default_factory=list)


@contextmanager
def fake_collector(
    status: int = 200, answer: bytes = b"", location: str | None = None
) -> Iterator[Collector]:
    """A collector answering every POST with ``status``, ``answer`` (an OTLP/HTTP
    protobuf ExportTraceServiceResponse; none is a full success) and, for a redirect,
    ``location``; stopped after."""
    collector = Collector("")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            size = int(self.headers.get("content-length") or 0)
            body = self.rfile.read(size)
            kind = self.headers.get("content-type") or ""
            collector.received.append(Received(self.path, kind, body))
            self.send_response(status)
            self.send_header("content-type", "application/x-protobuf")
            if location is not None:
                self.send_header("location", location)
            self.send_header("content-length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            return  # quiet

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    collector.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield collector
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
