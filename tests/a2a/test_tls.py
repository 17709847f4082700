"""TLS through the per-scheme transports (transport.py): https is verified exactly as
before, and a plain http run never loads a CA bundle (~20 ms per client)."""

from __future__ import annotations

import ssl
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest

from sia_tui.core.a2a.http.recorder import ExchangeRecorder, Reply
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.errors import TransportError

TLS = Path(__file__).parent.parent / "fixtures" / "tls"
CERT = TLS / "localhost-cert.pem"  # self-signed for 127.0.0.1 (see its README)


class _Card(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = b'{"name": "tls"}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


def _serve(tls: bool) -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Card)
    if tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(CERT, TLS / "localhost-key.pem")
        server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"{'https' if tls else 'http'}://127.0.0.1:{server.server_address[1]}/card.json"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@pytest.fixture
def https_url() -> Iterator[str]:
    yield from _serve(tls=True)


@pytest.fixture
def http_url() -> Iterator[str]:
    yield from _serve(tls=False)


class _Spy(httpx.AsyncHTTPTransport):
    """httpx's transport, recording the TLS setting each one is built with."""

    built: list[ssl.SSLContext | str | bool] = []

    def __init__(self, verify: ssl.SSLContext | str | bool = True, **kwargs: Any) -> None:
        _Spy.built.append(verify)
        super().__init__(verify=verify, **kwargs)


@pytest.fixture
def transports(monkeypatch: pytest.MonkeyPatch) -> list[ssl.SSLContext | str | bool]:
    _Spy.built = []
    monkeypatch.setattr(httpx, "AsyncHTTPTransport", _Spy)
    return _Spy.built


async def _get(options: ClientOptions, url: str) -> Reply:
    recorder = ExchangeRecorder(options, transport=None, on_exchange=None)
    try:
        return await recorder.request("card", recorder.build("GET", url, [], b""))
    finally:
        await recorder.aclose()


async def test_https_is_verified_by_default(https_url: str) -> None:
    with pytest.raises(TransportError) as raised:
        await _get(ClientOptions(), https_url)
    causes, seen = [], raised.value.__cause__
    while seen is not None:
        causes.append(seen)
        seen = seen.__cause__ or seen.__context__
    assert any(isinstance(c, ssl.SSLCertVerificationError) for c in causes), causes


async def test_https_trusts_the_given_ca(https_url: str) -> None:
    reply = await _get(ClientOptions(verify=str(CERT)), https_url)
    assert (reply.status, reply.body) == (200, b'{"name": "tls"}')


async def test_an_http_run_loads_no_ca_and_could_not_speak_tls(
    http_url: str, transports: list[ssl.SSLContext | str | bool]
) -> None:
    reply = await _get(ClientOptions(), http_url)
    assert reply.status == 200
    [context] = transports  # one transport, for http only: no https one was built
    assert isinstance(context, ssl.SSLContext)
    assert context.cert_store_stats()["x509_ca"] == 0  # no CA bundle loaded
    assert context.verify_mode is ssl.CERT_REQUIRED and context.check_hostname


async def test_https_gets_the_clients_own_tls_setting(
    https_url: str, transports: list[ssl.SSLContext | str | bool]
) -> None:
    await _get(ClientOptions(verify=str(CERT)), https_url)
    [context] = transports
    assert isinstance(context, ssl.SSLContext)
    assert context.cert_store_stats()["x509_ca"] == 1  # exactly the given CA
    assert context.verify_mode is ssl.CERT_REQUIRED and context.check_hostname


async def test_an_unreadable_ca_bundle_from_the_environment_is_a_located_error(
    https_url: str, http_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SSL_CERT_FILE naming no file: https fails with a transport error (recorded, not a
    crash); plain http, which needs no CA, still works."""
    monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "missing.pem"))
    with pytest.raises(TransportError, match="cannot load TLS files"):
        await _get(ClientOptions(), https_url)
    assert (await _get(ClientOptions(), http_url)).status == 200
