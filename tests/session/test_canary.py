"""A canary secret planted through every input path appears in no output."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

import pytest

from sia_tui.cli.parser import run as cli
from sia_tui.core.bugreport.report_html import render_html
from sia_tui.core.bugreport.report_markdown import render_markdown
from sia_tui.core.session import autosave, load_session, save_session
from tests.hostile.honest import ARGUMENTS, SKILL
from tests.hostile.measure import serving
from tests.support.disguises import disguises, leaked
from tests.support.sessions import (
    CANARIES,
    CANARY_ARGUMENT,
    CANARY_BEARER,
    CANARY_HEADER,
    CANARY_MARKED_HEADER,
    CANARY_QUERY,
    CANARY_USERINFO,
    canary_options,
    digest_card_run,
    run_session_cli,
)


def _assert_clean(text: str, where: str) -> None:
    found = [c for c in CANARIES if c in text]
    assert not found, f"{found} leaked into {where}"


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    path = tmp_path / "canary.session.json"
    save_session(
        digest_card_run(),
        canary_options(),
        path,
        secret_values=[CANARY_ARGUMENT],
        secret_headers=["X-Tenant-Key"],
    )
    return path


def test_canaries_are_nowhere_in_the_saved_file(saved: Path) -> None:
    text = saved.read_text(encoding="utf-8")
    _assert_clean(text, "the session file")
    assert "«redacted:authorization»" in text and "«redacted:userinfo»" in text
    assert "«redacted:token»" in text and "«redacted:secret»" in text
    assert "«redacted:x-tenant-key»" in text
    assert "visible-1" in text  # a non-secret header is kept


def test_redacted_file_still_loads_and_says_what_was_redacted(saved: Path) -> None:
    loaded = load_session(saved)
    wheres = {h.where for h in loaded.redactions}
    assert "exchange 1 request header Authorization" in wheres
    assert "run /arguments/password" in wheres
    assert loaded.run.arguments == {"resource_id": "r-1", "password": "«redacted:secret»"}


def test_canaries_are_nowhere_in_the_reports(saved: Path) -> None:
    loaded = load_session(saved)
    _assert_clean(render_markdown(loaded, saved.name), "the Markdown report")
    _assert_clean(render_html(loaded, saved.name), "the HTML report")


def test_canaries_are_nowhere_in_cli_output_or_logs(
    saved: Path,
    tmp_path: Path,
    data_dir: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    autosave(digest_card_run(), canary_options())
    for argv in (
        ["report", str(saved)],
        ["report", str(saved), "--format", "html"],
        ["report", str(saved), "-o", str(tmp_path / "r.md")],
        ["history"],
        ["history", "--json"],
    ):
        # The status is the recorded verdict (the run failed at step 4); history lists.
        assert run_session_cli(argv) == (0 if argv[0] == "history" else 1)
    out, err = capsys.readouterr()
    _assert_clean(out + err, "stdout/stderr")
    _assert_clean(caplog.text, "the logs")
    _assert_clean((tmp_path / "r.md").read_text(encoding="utf-8"), "report -o")


def test_history_file_is_redacted_too(data_dir: Path) -> None:
    """Autosave has no preview: redaction applies by construction, marked or not."""
    path = autosave(digest_card_run(), canary_options())
    text = path.read_text(encoding="utf-8")
    for canary in CANARIES:
        if canary != CANARY_ARGUMENT:  # an argument is only secret when the user marks it
            assert canary not in text


# -- every path, every form, every output --------------------------------------------------

#: Secrets by the input path that plants them.
PLANTED = {
    "--bearer": CANARY_BEARER,
    "--header (credential name)": CANARY_HEADER,
    "--header + --secret-header": CANARY_MARKED_HEADER,
    "URL userinfo": CANARY_USERINFO,
    "query token": CANARY_QUERY,
    "--secret (an argument)": CANARY_ARGUMENT,
}
FLAGS = [
    "--bearer", CANARY_BEARER,
    "--header", f"X-Tenant-Key: {CANARY_HEADER}",
    "--header", f"X-Tenant: {CANARY_MARKED_HEADER}",
    "--secret-header", "X-Tenant",
    "--secret", CANARY_ARGUMENT,
    "--deadline", "10",
]  # fmt: skip


def _planted_url(base: str) -> str:
    """The card URL with the userinfo password and the query token typed half escaped."""
    forms_of = {name: disguises(secret) for name, secret in PLANTED.items()}
    password = forms_of["URL userinfo"]["percent-some"]
    token = forms_of["query token"]["percent-some"]
    return (
        base.replace("http://", f"http://alice:{password}@")
        + f"/.well-known/agent-card.json?token={token}"
    )


def _every_file(root: Path) -> dict[str, str]:
    return {
        str(path.relative_to(root)): path.read_text(encoding="utf-8", errors="replace")
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def _assert_nothing_leaked(texts: dict[str, str]) -> None:
    found = {where: leaked(text, PLANTED) for where, text in texts.items()}
    assert not {where: forms for where, forms in found.items() if forms}
    assert texts


@pytest.mark.usefixtures("log_redaction")
def test_canaries_in_every_form_through_every_path_reach_no_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    """Each secret is planted through its flag (the URL ones typed half percent-encoded);
    the agent echoes everything it was sent in every form (literal, \\u in both cases,
    percent, base64, base64url, hex, HTML entities, userinfo), in the card, the describe
    answer outside the document, the result, an error's details and a header. No output,
    saved file or data file holds any form of any of them."""
    caplog.set_level(logging.DEBUG)
    arguments = tmp_path / "arguments.json"
    arguments.write_text(json.dumps({**ARGUMENTS, "resource_id": CANARY_ARGUMENT}))
    out = tmp_path / "out"
    out.mkdir()
    printed: dict[str, str] = {}

    def run(*argv: str) -> int:
        code = cli(list(argv))
        captured = capsys.readouterr()
        printed[" ".join(argv[:3])] = captured.out + captured.err
        return code

    session, probed = out / "check.session.json", out / "probe.session.json"
    for attack in ("echo-secrets", "echo-secrets-failing"):
        with serving(attack) as server:
            url = _planted_url(server.url)
            given = ["--skill", SKILL, "--args", str(arguments), *FLAGS]
            run("check", url, *given, "--save", str(session), "--json")
            run("check", url, *given, "--cache")  # the document cache is a data file too
            run(
                "probe", url, *given, "--allow-valid-invocations",
                "--junit", str(out / f"{attack}.junit.xml"), "--save", str(probed),
            )  # fmt: skip
            run("probe", url, *given, "--json")
            run("compose", url, SKILL, url, SKILL, *FLAGS)
            run("diff", f"{url}#{SKILL}", str(session), *FLAGS)
            rerun = ["--bearer", CANARY_BEARER, "--header", f"X-Tenant-Key: {CANARY_HEADER}"]
            run("rerun", str(session), *rerun, "--json")
            # replay's status is the recorded verdict (the echoed secrets, redacted, fail
            # step 10): this test is about what it prints, not about the verdict.
            assert run("replay", str(session)) != 2, printed["replay " + str(session)]
        assert run("replay", str(probed)) != 2
        run("replay", str(session), "--json")
        run("report", str(session))
        run("report", str(session), "--format", "html", "-o", str(out / f"{attack}.html"))
        run("report", str(session), "-o", str(out / f"{attack}.md"))
    run("history", "--json")
    data = Path(os.environ["SIA_TUI_DATA_DIR"]).parent  # data, cache and config dirs
    _assert_nothing_leaked(
        {**printed, "logs": caplog.text, **_every_file(out), **_every_file(data)}
    )
    saved = session.read_text(encoding="utf-8")
    for placeholder in ("authorization", "x-tenant-key", "x-tenant", "userinfo", "token"):
        assert f"«redacted:{placeholder}»" in saved


@pytest.mark.slow  # started first (tests/conftest.py)
async def test_canaries_typed_on_the_connect_screen_reach_no_saved_file(tmp_path: Path) -> None:
    """The TUI path: URL, headers, bearer and secret values typed on the connect screen;
    the run is autosaved into the history, which holds none of them in any form."""
    from textual.widgets import Input

    from sia_tui.tui.app import SiaApp
    from sia_tui.tui.screens.results import ResultsScreen
    from sia_tui.tui.storage import UserDirs
    from tests.support.tui import SIZE, enter_arguments, settle, wait_until

    data = Path(os.environ["SIA_TUI_DATA_DIR"])
    with serving("echo-secrets") as server:
        app = SiaApp(dirs=UserDirs(tmp_path / "config", tmp_path / "data"))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            fields = {
                "#location": _planted_url(server.url),
                "#headers": f"X-Tenant-Key: {CANARY_HEADER}",
                "#bearer": CANARY_BEARER,
                "#secrets": CANARY_ARGUMENT,
            }
            for selector, value in fields.items():
                app.screen.query_one(selector, Input).value = value
            await pilot.press("ctrl+j")
            await settle(pilot)
            await pilot.press("2", "r")
            await settle(pilot)
            await enter_arguments(pilot, json.dumps({**ARGUMENTS, "resource_id": CANARY_ARGUMENT}))
            await pilot.press("ctrl+j")
            await wait_until(pilot, lambda: isinstance(app.screen, ResultsScreen))
            await settle(pilot)
            await wait_until(pilot, lambda: any((data / "history").glob("*.session.json")))
    history = _every_file(data / "history")
    typed = {k: v for k, v in PLANTED.items() if k != "--header + --secret-header"}
    found = {where: leaked(text, typed) for where, text in history.items()}
    assert not {where: forms for where, forms in found.items() if forms}
    assert any("«redacted:authorization»" in text for text in history.values())


@pytest.mark.slow  # started first (tests/conftest.py)
async def test_recent_targets_and_edits_hold_no_credential(tmp_path: Path) -> None:
    from textual.widgets import Input

    from sia_tui.tui.app import SiaApp
    from sia_tui.tui.storage import UserDirs
    from tests.support.tui import SIZE, enter_arguments, settle

    with serving("echo-secrets") as server:
        app = SiaApp(dirs=UserDirs(tmp_path / "config", tmp_path / "data"))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            app.screen.query_one("#location", Input).value = _planted_url(server.url)
            await pilot.press("ctrl+j")
            await settle(pilot)
            await pilot.press("2", "r")
            await settle(pilot)
            await enter_arguments(pilot, json.dumps(ARGUMENTS))
    _assert_nothing_leaked(_every_file(tmp_path))
