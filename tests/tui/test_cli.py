"""The `open` and `demo` subcommands parse like `check` and refuse bad input with exit 2."""

from __future__ import annotations

import pytest

from sia_tui.cli.cmd_tui import demo_main, open_main
from sia_tui.cli.parser import build_parser, run


def test_open_takes_check_options() -> None:
    args = build_parser().parse_args(
        [
            "open",
            "card.json",
            "--skill",
            "evaluate_resource_condition",
            "--mode",
            "stream",
            "--binding",
            "http-json",
            "--bearer",
            "t",
            "--insecure",
        ]
    )
    assert args.func is open_main
    assert (args.card, args.skill, args.mode, args.binding) == (
        "card.json",
        "evaluate_resource_condition",
        "stream",
        "http-json",
    )


def test_open_without_card_means_the_connect_screen() -> None:
    args = build_parser().parse_args(["open"])
    assert args.func is open_main and args.card is None


def test_demo_rejects_an_unknown_fault(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["demo", "--fault", "no-such-fault"]) == 2
    assert "unknown fault" in capsys.readouterr().out
    assert build_parser().parse_args(["demo"]).func is demo_main


def test_demo_oauth2_debugs_the_protected_agent_with_its_demo_client() -> None:
    """`demo --oauth2`: the agent behind OAuth2, and the demo client's credentials given."""
    from sia_tui.agent.oauth2 import DEMO_CLIENT_ID
    from sia_tui.cli.cmd_tui import demo_options

    assert build_parser().parse_args(["demo", "--oauth2"]).oauth2 is True
    options = demo_options(True)
    assert options is not None and options.oauth2 is not None
    assert options.oauth2.client_id == DEMO_CLIENT_ID
    assert demo_options(False) is None
