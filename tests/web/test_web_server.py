"""`sia-tui web` in-process on 127.0.0.1: token refusal, Host/Origin checks, offline page,
and the real app starting behind the websocket with its arguments intact."""

from __future__ import annotations

import asyncio
import os
import re
import signal
from collections.abc import AsyncIterator, Awaitable, Callable
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import aiohttp
import httpx
import pytest
from textual_serve.app_service import AppService

from sia_tui.web import server as web_server
from sia_tui.web import session as web_session
from sia_tui.web.server import WebServer, start_web
from tests.support.processes import live_descendants, still_running

StartWeb = Callable[..., Awaitable[WebServer]]

#: ESC sequences (CSI, OSC, two-character) stripped to read the app's text from its frames.
ANSI = re.compile(rb"\x1b(\[[0-9;?$<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_])")

#: Seconds to wait for the app's first frame (a fresh interpreter importing Textual).
APP_START_SECONDS = 60


@pytest.fixture
async def start() -> AsyncIterator[StartWeb]:
    """A factory: ``await start(tui_argv)``; every server is stopped after the test."""
    servers: list[WebServer] = []

    async def run(tui_argv: list[str] | None = None, reports: list[str] | None = None) -> WebServer:
        sink = reports if reports is not None else []
        server = await start_web("127.0.0.1", 0, tui_argv or ["open"], report=sink.append)
        servers.append(server)
        return server

    yield run
    for server in servers:
        await server.stop()


def _origin(server: WebServer) -> str:
    parts = urlsplit(server.url)
    return f"{parts.scheme}://{parts.netloc}"


def _token(server: WebServer) -> str:
    return urlsplit(server.url).path.strip("/")


class _References(HTMLParser):
    """Every URL the page makes the browser load or link to."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.style = ""
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._in_style = tag == "style"
        for name, value in attrs:
            if name in ("src", "href", "action", "data", "poster") and value is not None:
                self.urls.append(value)

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self.style += data


def _css_urls(css: str) -> list[str]:
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    assert "@import" not in css
    return [url.strip("'\"") for url in re.findall(r"url\(\s*([^)]*?)\s*\)", css)]


async def test_page_loads_only_local_assets(start: StartWeb) -> None:
    """Offline: the page, its CSS and textual.js name no remote origin (no Google Fonts),
    every asset they name is served here under the token, and the CSP forbids the rest."""
    server = await start()
    async with httpx.AsyncClient(timeout=30) as client:
        page = await client.get(server.url)
        assert page.status_code == 200
        assert "://" not in page.text  # no absolute URL at all, remote or not
        refs = _References()
        refs.feed(page.text)
        urls = refs.urls + _css_urls(refs.style)
        assert "static/js/textual.js" in urls
        assert "static/fonts/RobotoMono-VariableFont_wght.ttf" in urls
        for url in urls:
            parts = urlsplit(url)
            assert parts.netloc == "" and parts.scheme in ("", "data"), url
            if parts.scheme == "data":
                continue
            asset = await client.get(urljoin(server.url, url))
            assert asset.status_code == 200, url
            if url.endswith(".css"):
                assert all(urlsplit(u).netloc == "" for u in _css_urls(asset.text)), url
            if url.endswith(".js"):
                assert not re.search(r"https?://", asset.text), url
    csp = page.headers["content-security-policy"]
    assert "default-src 'none'" in csp and "script-src 'self';" in csp
    assert f"connect-src 'self' ws://{urlsplit(server.url).netloc};" in csp
    assert page.headers["referrer-policy"] == "no-referrer"  # the URL holds the token
    assert page.headers["cache-control"] == "no-store"


async def test_every_route_without_the_right_token_is_refused(start: StartWeb) -> None:
    """No token, a wrong one, a truncated or extended one: 403 for the page, the websocket,
    the static files and downloads; the refusal is reported without echoing the token."""
    reports: list[str] = []
    server = await start(reports=reports)
    origin, token = _origin(server), _token(server)
    wrong = "A" * len(token)
    paths = [
        "/",
        "/ws",
        "/static/js/textual.js",
        "/download/key",
        f"/{wrong}/",
        f"/{wrong}/ws",
        f"/{wrong}/static/js/textual.js",
        f"/{token[:-1]}/",
        f"/{token}x/",
        f"/{token.swapcase()}/",
        f"//{token}/",
        f"/x/{token}/",
        f"/?token={token}",
    ]
    async with httpx.AsyncClient(timeout=30) as client:
        for path in paths:
            response = await client.get(origin + path)
            assert response.status_code == 403, path
            assert token not in response.text
        upgrade = {"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13"}
        upgrade["Sec-WebSocket-Key"] = "dGhlIHNhbXBsZSBub25jZQ=="
        for path in ("/ws", f"/{wrong}/ws"):
            response = await client.get(origin + path, headers=upgrade)
            assert response.status_code == 403, path
        assert (await client.get(server.url)).status_code == 200
    async with aiohttp.ClientSession() as session:
        for path in ("/ws", f"/{wrong}/ws"):
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await session.ws_connect(origin.replace("http", "ws") + path)
            assert refused.value.status == 403
    assert len(reports) == 11  # the first ten, then one line saying it goes quiet
    assert reports[-1] == "further refusals are not reported"
    assert all(token not in line for line in reports)
    assert "missing or wrong token" in reports[0]


async def test_dns_rebinding_host_is_refused_even_with_the_token(start: StartWeb) -> None:
    """A page on evil.example whose name resolves to 127.0.0.1 sends Host: evil.example;
    loopback names are accepted."""
    server = await start()
    port = urlsplit(server.url).port
    async with httpx.AsyncClient(timeout=30) as client:
        evil = await client.get(server.url, headers={"Host": f"evil.example:{port}"})
        assert evil.status_code == 403 and "Host" in evil.text
        local = await client.get(server.url, headers={"Host": f"localhost:{port}"})
        assert local.status_code == 200


async def test_cross_origin_websocket_is_refused_even_with_the_token(start: StartWeb) -> None:
    """Cross-site WebSocket hijacking: a browser names the page's origin; another one is
    refused before any app process starts."""
    server = await start()
    socket_url = server.url.replace("http", "ws") + "ws"
    async with aiohttp.ClientSession() as session:
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await session.ws_connect(socket_url, headers={"Origin": "http://evil.example"})
    assert refused.value.status == 403
    assert live_descendants(os.getpid()) == []


async def test_the_app_starts_behind_the_websocket_with_its_arguments_intact(
    start: StartWeb, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The real sia-tui starts per websocket and draws its first frames; a card argument
    full of shell syntax arrives as one argv item (the header shows it verbatim) and
    runs nothing. Stopping the server ends the session and its process."""
    monkeypatch.chdir(tmp_path)  # the app runs here: a relative marker stays short
    card = "x'; touch pwned; '$(touch pwned)`touch pwned`\"|&>pwned"
    server = await start(["open", card])
    socket_url = server.url.replace("http", "ws") + "ws?width=200&height=40"
    headers = {"Origin": _origin(server)}
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(socket_url, headers=headers) as ws,
    ):
        frames = b""
        expected = [card.encode(), "✘ step 1 failed: Retrieve the Agent Card".encode()]
        async with asyncio.timeout(APP_START_SECONDS):
            while not all(part in ANSI.sub(b"", frames) for part in expected):
                message = await ws.receive()
                assert message.type == aiohttp.WSMsgType.BINARY, message
                frames += message.data
        apps = live_descendants(os.getpid())
        assert apps != []  # /bin/sh -c and the app
        await server.stop()
        closed = await ws.receive()
        while closed.type == aiohttp.WSMsgType.BINARY:  # frames already on their way
            closed = await ws.receive()
        assert closed.type == aiohttp.WSMsgType.CLOSE
        assert closed.data == aiohttp.WSCloseCode.GOING_AWAY
    # textual-serve told the app to quit; it exits on its own, just after stop() returns.
    async with asyncio.timeout(APP_START_SECONDS):
        while still_running(apps, until_reaped=True):
            await asyncio.sleep(0.05)
    assert list(tmp_path.iterdir()) == []  # nothing ran: no file named pwned


async def test_a_non_loopback_warning_is_shown_in_the_page(
    start: StartWeb, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When exposed, the page itself carries the warning (a banner and the title)."""
    monkeypatch.setattr(web_server, "exposure_warning", lambda address: "exposed on 10.0.0.7")
    server = await start()
    assert server.warning == "exposed on 10.0.0.7"
    async with httpx.AsyncClient(timeout=30) as client:
        page = (await client.get(server.url)).text
    assert 'role="alert">⚠ exposed on 10.0.0.7</div>' in page
    assert "<title>⚠ sia-tui</title>" in page


class _Intro(HTMLParser):
    """The text of the intro box a person sees while the session starts, by element id."""

    def __init__(self) -> None:
        super().__init__()
        self.text: dict[str, str] = {}
        self._id: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._id = dict(attrs).get("id")

    def handle_data(self, data: str) -> None:
        if self._id is not None and data.strip():
            self.text[self._id] = self.text.get(self._id, "") + data.strip()


async def test_the_page_says_the_session_is_starting_and_that_nothing_needs_a_click(
    start: StartWeb,
) -> None:
    """The page showed only a box labelled "sia-tui" while the app started, and people
    clicked it: the served page says the debugger is starting by itself (textual.js
    connects on load), and the button textual-serve shows with its "delay" parameter says
    "Click to start". In headless Chromium the session drew in about 7 s with no click, and
    the terminal then had the keyboard focus."""
    server = await start(["demo"])
    async with httpx.AsyncClient(timeout=30) as client:
        page = (await client.get(server.url)).text
        script = (await client.get(urljoin(server.url, "sia/web.js"))).text
    intro = _Intro()
    intro.feed(page)
    assert intro.text["starting"] == (
        "Starting the debugger: it opens here in a few seconds. Nothing to click."
    )
    assert 'role="status"' in page
    assert intro.text["start"] == "Click to start"
    assert ".intro:has(#start.-delay) .starting" in page  # with "delay", the click is needed
    assert '"-first-byte"' in script and "focus()" in script


async def test_the_token_url_without_its_slash_redirects_to_the_page(start: StartWeb) -> None:
    """The page's assets are relative to /TOKEN/, so /TOKEN sends the browser there."""
    server = await start()
    async with httpx.AsyncClient(timeout=30) as client:
        response = await client.get(server.url.rstrip("/"))
    assert response.status_code == 302
    assert response.headers["location"] == urlsplit(server.url).path


async def _raw(port: int, request: bytes) -> bytes:
    """The status line the server answers ``request`` (sent as is) with."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request)
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(400), 30)
    writer.close()
    return answer.split(b"\r\n", 1)[0]


async def test_no_host_or_two_hosts_is_answered_400_without_a_traceback(
    start: StartWeb, caplog: pytest.LogCaptureFixture
) -> None:
    """aiohttp answered 400 but logged a traceback per request (203 for 250 requests); now
    each is a counted refusal, reported like the others."""
    reports: list[str] = []
    server = await start(reports=reports)
    port, path = urlsplit(server.url).port, urlsplit(server.url).path
    assert port is not None
    host = f"Host: 127.0.0.1:{port}\r\n"
    for _ in range(20):
        for headers in ("", host * 2):
            request = f"GET {path} HTTP/1.1\r\n{headers}Connection: close\r\n\r\n"
            assert await _raw(port, request.encode()) == b"HTTP/1.0 400 Bad Request"
    assert [r.getMessage() for r in caplog.records if r.exc_info] == []
    malformed = "refused a malformed request from 127.0.0.1: 400"
    assert reports[0] == f"{malformed} Missing 'Host' header in request."
    assert reports[1] == f"{malformed} Duplicate 'Host' header found."
    assert len(reports) == 11 and reports[-1] == "further refusals are not reported"


async def test_an_absolute_form_target_cannot_pass_the_origin_check(start: StartWeb) -> None:
    """``GET http://evil.example/TOKEN/`` with ``Origin: http://evil.example`` was served:
    aiohttp takes the target's host as the request's, which the Origin then matched."""
    server = await start()
    port, path = urlsplit(server.url).port, urlsplit(server.url).path
    assert port is not None
    request = (
        f"GET http://evil.example{path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        "Origin: http://evil.example\r\nConnection: close\r\n\r\n"
    )
    assert await _raw(port, request.encode()) == b"HTTP/1.1 403 Forbidden"


async def test_the_terminal_size_is_capped_in_the_url_and_in_resize_messages(
    start: StartWeb, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A token holder asked for 20000x10000: that app process reached 1.85 GB."""
    sizes: list[tuple[str, int, int]] = []

    async def start_app(service: AppService, width: int, height: int) -> None:
        sizes.append(("start", width, height))

    async def resize(service: AppService, width: int, height: int) -> None:
        sizes.append(("resize", width, height))

    monkeypatch.setattr(AppService, "start", start_app)  # no process: the sizes are the point
    monkeypatch.setattr(AppService, "set_terminal_size", resize)
    server = await start()
    socket_url = server.url.replace("http", "ws") + "ws?width=20000&height=10000"
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(socket_url, headers={"Origin": _origin(server)}) as ws,
    ):
        for width, height in ((20000, 10000), (-5, 0), ("80", "x"), (120, 40)):
            await ws.send_json(["resize", {"width": width, "height": height}])
        await ws.send_str("not json")  # ignored, not a traceback
        await ws.send_json(["ping", "p1"])
        assert (await ws.receive_json()) == ["pong", "p1"]
    columns, rows = web_session.MAX_COLUMNS, web_session.MAX_ROWS
    assert sizes == [
        ("start", columns, rows),
        ("resize", columns, rows),
        ("resize", 1, 1),
        ("resize", 80, 24),
        ("resize", 120, 40),
    ]


async def test_an_app_that_does_not_quit_ends_with_its_websocket(
    start: StartWeb, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A session whose app was busy outlived its websocket (upstream waits for the app to
    quit forever). A stopped app stands for a busy one: it is killed after the grace."""
    monkeypatch.setattr(web_session, "QUIT_GRACE_SECONDS", 1.0)
    server = await start(["demo"])
    socket_url = server.url.replace("http", "ws") + "ws?width=100&height=30"
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(socket_url, headers={"Origin": _origin(server)}) as ws,
    ):
        async with asyncio.timeout(APP_START_SECONDS):
            message = await ws.receive()  # the app's first frame: it runs
        assert message.type == aiohttp.WSMsgType.BINARY, message
        apps = live_descendants(os.getpid())
        assert apps != []
        for pid in apps:
            os.kill(pid, signal.SIGSTOP)
    try:
        async with asyncio.timeout(30):
            while still_running(apps, until_reaped=True):
                await asyncio.sleep(0.05)
    finally:
        for pid in still_running(apps):
            os.kill(pid, signal.SIGKILL)
