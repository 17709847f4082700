"""A usage error under --json: the message on stderr, one JSON error object on stdout (a CI
job reads stdout), exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sia_tui.cli import main

CASES = [
    # argparse refuses the flag
    (["check", "http://127.0.0.1:9", "--json", "--mode", "bogus"], "invalid choice: 'bogus'"),
    # the command refuses the value
    (["check", "http://127.0.0.1:9", "--json", "--timeout", "0"], "must be positive"),
    (["replay", "missing.session.json", "--json"], "cannot read missing.session.json"),
    (["probe", "http://127.0.0.1:9", "--json"], "--skill"),
]


@pytest.mark.parametrize(("argv", "message"), CASES)
def test_a_usage_error_under_json_prints_a_json_error_object(
    argv: list[str],
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    try:
        code = main(argv)
    except SystemExit as exit:
        code = exit.code  # type: ignore[assignment]
    assert code == 2
    out, err = capsys.readouterr()
    assert message in err
    error = json.loads(out)["error"]
    assert error["kind"] == "usage" and error["exit_code"] == 2
    assert message in error["message"] and not error["message"].startswith("usage:")


def test_without_json_stdout_stays_empty(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "http://127.0.0.1:9", "--timeout", "0"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "must be positive" in err
