"""What `check` says when the user's choice does not fit the agent: the skills the card
advertises, the interfaces it declares, and a card URL that answered with an error status."""

from __future__ import annotations

import pytest

from sia_tui.cli import main
from tests.support.agents import StartAgent


def _outcome(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["check", *argv]) == 1
    [line] = [x for x in capsys.readouterr().out.splitlines() if x.startswith("outcome:")]
    return line


def test_an_unadvertised_skill_lists_the_advertised_ones(
    reference_agent: StartAgent, capsys: pytest.CaptureFixture[str]
) -> None:
    line = _outcome(capsys, reference_agent().url, "--skill", "no_such_skill")
    assert "skill 'no_such_skill' is not advertised" in line  # RULES CP2
    assert "it advertises evaluate_resource_condition, check_link_capacity" in line


def test_a_card_url_that_answers_404_was_reached(
    reference_agent: StartAgent, capsys: pytest.CaptureFixture[str]
) -> None:
    url = reference_agent().url + "/no-card-here.json"
    line = _outcome(capsys, url, "--skill", "evaluate_resource_condition")
    assert f"{url} was reached and answered HTTP 404" in line
    assert "could not be reached" not in line


def test_a_binding_the_card_lacks_lists_what_it_declares(
    reference_agent: StartAgent, capsys: pytest.CaptureFixture[str]
) -> None:
    url = reference_agent().url
    argv = [url, "--skill", "evaluate_resource_condition", "--binding", "grpc"]
    line = _outcome(capsys, *argv)
    assert "the card declares no callable grpc interface; it declares" in line
    assert f"JSONRPC 1.0 {url}/a2a/jsonrpc, HTTP+JSON 1.0 {url}/a2a/rest" in line
