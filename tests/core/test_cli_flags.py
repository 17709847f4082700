"""The connection flags start from the client's own defaults, written once."""

from __future__ import annotations

import pytest

from sia_tui.cli.flags import client_options
from sia_tui.cli.parser import build_parser
from sia_tui.core.a2a.options import ClientOptions


@pytest.mark.parametrize(
    "command",
    [
        ["check", "card.json"],
        ["open", "card.json"],
        ["compose", "up.json", "up", "down.json", "down"],
        ["diff", "a.json", "b.json"],
    ],
    ids=lambda c: c[0],
)
def test_no_flags_means_the_client_defaults(command: list[str]) -> None:
    assert client_options(build_parser().parse_args(command)) == ClientOptions()


def test_help_states_the_defaults_the_client_uses(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["check", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert f"(default {ClientOptions().read_timeout:g})" in text
    assert f"(default {ClientOptions().connect_timeout:g})" in text
    assert f"(default {ClientOptions().max_response_bytes // 2**20} MiB)" in text
