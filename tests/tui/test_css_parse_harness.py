"""The harness parses each CSS source once per process (tests/support/css_parse.py): a second
app parses nothing, new CSS variables (a theme) are parsed anew, and the guard refuses a
Textual whose parse it does not know. And the collector walks only what the tests made."""

from __future__ import annotations

import gc
from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.css import stylesheet
from textual.widgets import Static

from tests.support.css_parse import known_parse_rules
from tests.support.frames import TextualChanged
from tests.support.garbage import YOUNG_COLLECTION_THRESHOLD


class Styled(Static):
    DEFAULT_CSS = "Styled { color: $accent; }"


class StyledApp(App[None]):
    CSS = "Screen { background: $panel; }"

    def compose(self) -> ComposeResult:
        yield Styled("styled")


async def _parses_while_an_app_runs(monkeypatch: pytest.MonkeyPatch, theme: str) -> list[str]:
    """The CSS texts Textual parsed while a ``StyledApp`` in ``theme`` started."""
    parsed: list[str] = []
    parse = getattr(stylesheet, "parse")  # noqa: B009 (not in the module's __all__)

    def counting(scope: str, css: str, *args: Any, **kwargs: Any) -> Any:
        parsed.append(css)
        return parse(scope, css, *args, **kwargs)

    monkeypatch.setattr("textual.css.stylesheet.parse", counting)
    app = StyledApp()
    app.theme = theme
    async with app.run_test(size=(40, 5)) as pilot:
        await pilot.pause()
    monkeypatch.setattr("textual.css.stylesheet.parse", parse)
    return parsed


async def test_a_second_app_parses_no_css_and_a_new_theme_parses_anew(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    await _parses_while_an_app_runs(monkeypatch, "textual-dark")
    assert await _parses_while_an_app_runs(monkeypatch, "textual-dark") == []
    # Other variables, other rules: the app's CSS (which uses them) is parsed again.
    again = await _parses_while_an_app_runs(monkeypatch, "textual-light")
    assert StyledApp.CSS in again
    assert Styled.DEFAULT_CSS in again


def test_the_guard_refuses_a_parse_it_does_not_know() -> None:
    def other_parameters(self: Any, css: str, read_from: Any) -> Any:
        return self._parse_cache, self._variable_tokens, self.parse

    def no_variables(
        self: Any, css: str, read_from: Any, is_default_rules: bool, tie_breaker: int, scope: str
    ) -> Any:
        return self._parse_cache, self.parse  # parses without the variables

    for changed in (other_parameters, no_variables, None):
        with pytest.raises(TextualChanged):
            known_parse_rules(changed)


def test_what_collection_imported_is_out_of_the_collectors_way() -> None:
    """tests/conftest.py froze what collection imported and collects young objects less
    often: a full collection in a test walks only what the tests made."""
    assert gc.get_freeze_count() > 10_000
    assert gc.get_threshold()[0] == YOUNG_COLLECTION_THRESHOLD
