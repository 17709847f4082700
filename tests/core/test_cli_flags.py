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


@pytest.mark.parametrize(
    "command, flag",
    [
        (["serve-demo", "--port", "99999"], "--port"),
        (["serve-demo", "--grpc-port", "-5"], "--grpc-port"),
        (["mock", "bug.session.json", "--port", "70000"], "--port"),
        (["mock", "bug.session.json", "--grpc-port", "65536"], "--grpc-port"),
        (["web", "--port", "100000"], "--port"),
        (["check", "card.json", "--max-response-bytes", "0"], "--max-response-bytes"),
        (
            ["probe", "card.json", "--skill", "s", "--max-response-bytes", "-1"],
            "--max-response-bytes",
        ),
    ],
    ids=lambda c: " ".join(c) if isinstance(c, list) else None,
)
def test_a_number_out_of_range_is_a_located_usage_error(
    command: list[str], flag: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A port past 65535 was a traceback (OverflowError, exit 1) from the server's bind;
    --max-response-bytes 0 a FAILED verdict at step 1. Both are the flag's usage error."""
    from sia_tui.cli import main

    with pytest.raises(SystemExit) as stopped:  # argparse's own usage error
        main(command)
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {flag}: expected a" in err and "Traceback" not in err
