"""A crash never prints the user's secrets: the bearer token, an API key header and a URL's
password, in any form, are in no traceback (the TUI's, the CLI's) and no log.

Textual's own crash report lists every frame's local variables, and the code that sends a
request holds the credentials in its locals; the CLI let an unexpected error reach Python's
traceback, whose message may quote one.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import pytest
import textual.constants
from textual.binding import Binding, BindingType

from sia_tui.cli.parser import run as cli
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.matrix import Consents, load_plugfest
from sia_tui.core.run.read_model import Target
from sia_tui.tui.app import SiaApp
from sia_tui.tui.matrix_app import MatrixApp
from sia_tui.tui.screens.matrix import MatrixLaunch
from sia_tui.tui.storage import UserDirs
from tests.support.disguises import leaked
from tests.support.plugfest import closed_port_url, plugfest_file
from tests.support.tui import settle

BEARER = "canary-bearer-crash-61f0a2d9"
API_KEY = "canary-api-key-crash-93b7c4e5"
PASSWORD = "canary-password-crash-2c8d71f0"
SECRETS = {"bearer": BEARER, "api key": API_KEY, "password": PASSWORD}


def _location() -> str:
    return closed_port_url().replace("http://", f"http://someone:{PASSWORD}@") + "/card.json"


def _options() -> ClientOptions:
    return ClientOptions(bearer=BEARER, headers=(("X-Api-Key", API_KEY),), deadline=2.0)


class CrashingApp(SiaApp):
    """The app with a key that fails the way a bug would: deep in code that holds the
    credentials in its locals, with an error message that quotes them."""

    BINDINGS: ClassVar[list[BindingType]] = [*SiaApp.BINDINGS, Binding("b", "boom", "Boom")]

    def action_boom(self) -> None:
        options = self.options
        headers = dict(options.headers)
        location = self.secret_location()
        raise RuntimeError(f"cannot send {options.bearer} {headers} to {location}")


def test_a_tui_crash_prints_no_secret(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """What Textual prints on the way out, as ``sia-tui open`` would show it."""
    dirs = UserDirs(tmp_path / "config", tmp_path / "data")
    app = CrashingApp(Target(_location()), _options(), dirs=dirs)

    async def crash(pilot: Any) -> None:
        await settle(pilot)  # step 1 has failed (nothing listens on the port)
        await pilot.press("b")

    app.run(headless=True, auto_pilot=crash)
    printed = "".join(capsys.readouterr())
    assert app.return_code == 1
    assert "RuntimeError: cannot send" in printed  # the crash is still reported
    assert not leaked(printed, SECRETS)
    assert "«redacted:authorization»" in printed


class CrashingMatrixApp(MatrixApp):
    BINDINGS: ClassVar[list[BindingType]] = [*MatrixApp.BINDINGS, Binding("b", "boom", "Boom")]

    def action_boom(self) -> None:
        agent = self.matrix_launch.plugfest.agents[0]
        raise RuntimeError(f"cannot send {agent.options.bearer} {agent.options.headers}")


def test_a_plugfest_crash_prints_no_agent_secret(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Plugfest mode: each agent's credentials come from the environment."""
    agent = 'bearer_env = "VENDOR_TOKEN"\nheader_env = { "X-Api-Key" = "VENDOR_KEY" }\n'
    path = plugfest_file(tmp_path, {"vendor": closed_port_url()}, head='modes = ["sync"]')
    path.write_text(path.read_text(encoding="utf-8") + agent, encoding="utf-8")
    environ = {"VENDOR_TOKEN": BEARER, "VENDOR_KEY": API_KEY}
    plugfest = load_plugfest(path, environ, Consents(env=frozenset(environ)))
    launch = MatrixLaunch(plugfest, tmp_path / "sessions")
    app = CrashingMatrixApp(launch, dirs=UserDirs(tmp_path / "config", tmp_path / "data"))

    async def crash(pilot: Any) -> None:
        await settle(pilot)
        await pilot.press("b")

    app.run(headless=True, auto_pilot=crash)
    printed = "".join(capsys.readouterr())
    assert "RuntimeError: cannot send" in printed
    assert not leaked(printed, SECRETS)


def test_a_cli_crash_prints_no_secret(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unexpected error in a command: a traceback without locals, redacted, exit 1."""

    def bug(self: Procedure) -> None:
        options = self.options
        raise RuntimeError(f"cannot send {options.bearer} {options.headers} to {_location()}")

    monkeypatch.setattr(Procedure, "run_all", bug)
    code = cli(["check", _location(), "--bearer", BEARER, "--header", f"X-Api-Key: {API_KEY}"])
    printed = "".join(capsys.readouterr())
    assert code == 1
    assert "Traceback" in printed and "RuntimeError: cannot send" in printed
    assert not leaked(printed, SECRETS)


def test_textual_logs_name_no_secret(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``TEXTUAL_LOG``: each worker is logged with its arguments (the target and the client
    options)."""
    log = tmp_path / "textual.log"
    monkeypatch.setattr(textual.constants, "LOG_FILE", str(log))
    dirs = UserDirs(tmp_path / "config", tmp_path / "data")
    app = SiaApp(Target(_location()), _options(), dirs=dirs)

    async def connect(pilot: Any) -> None:
        await settle(pilot)
        app.exit()

    app.run(headless=True, auto_pilot=connect)
    text = log.read_text(encoding="utf-8")
    assert "_start(" in text  # the worker that connects, with its arguments
    assert not leaked(text, SECRETS)


@pytest.mark.parametrize(
    "value",
    [_options, lambda: Target(_location())],
    ids=["client options", "target"],
)
def test_what_holds_a_secret_does_not_show_it_in_its_repr(value: Callable[[], object]) -> None:
    assert not leaked(repr(value()), SECRETS)


CLIENT_SECRET = "canary-oauth2-secret-crash-4e1a9b"
QUERY_KEY = "canary-query-key-crash-7d20c6"


def test_a_cli_crash_prints_no_oauth2_secret_or_api_key(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A crash quoting the OAuth2 client secret (from the environment) and the --api-key:
    neither is printed, and the options' repr holds neither."""
    monkeypatch.setenv("SIA_TUI_OAUTH2_CLIENT_SECRET", CLIENT_SECRET)

    def bug(self: Procedure) -> None:
        options = self.options
        assert options.oauth2 is not None
        raise RuntimeError(f"cannot send {options.oauth2.client_secret} {options.api_key}")

    monkeypatch.setattr(Procedure, "run_all", bug)
    code = cli(["check", _location(), "--oauth2-client-id", "client-1", "--api-key", QUERY_KEY])
    printed = "".join(capsys.readouterr())
    assert code == 1 and "RuntimeError: cannot send" in printed
    secrets = {"client secret": CLIENT_SECRET, "api key": QUERY_KEY}
    assert not leaked(printed, secrets)
    from sia_tui.core.a2a.options import OAuth2Settings

    shown = repr(ClientOptions(api_key=QUERY_KEY, oauth2=OAuth2Settings("c", CLIENT_SECRET)))
    assert not leaked(shown, secrets)


@pytest.mark.parametrize("header", [f"X-Api-Key {API_KEY}", f": {API_KEY}"])
def test_a_malformed_header_is_refused_without_its_text(
    header: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without its colon a header is all name: the usage error must not quote it, nor must
    the same refusal from `rerun`."""
    from sia_tui.cli.cmd_session import parse_headers
    from sia_tui.core.session import SessionError

    code = cli(["check", _location(), "--header", header])
    printed = "".join(capsys.readouterr())
    assert code == 2 and "'Name: value'" in printed
    assert not leaked(printed, SECRETS)
    with pytest.raises(SessionError) as refused:
        parse_headers([header])
    assert not leaked(str(refused.value), SECRETS) and "'Name: value'" in str(refused.value)
