"""Each app a test process starts parses each CSS source once per process, not once per app.

Every Pilot test starts a new ``SiaApp``, and each one parsed all of its CSS again: every
widget type's ``DEFAULT_CSS`` and the app's own, once when it registers and again (from a
fresh stylesheet with an empty cache) on every ``refresh_css``. That was about a tenth of a
Pilot test's CPU, for rules that are the same in every app of the run. Here the rules a
``Stylesheet`` parses are kept for the whole process, keyed by everything the parse reads
(the text, where it came from, default or not, tie-breaker, scope, and the CSS variables),
so a later app, or a later restyle, takes the same ``RuleSet`` objects a first parse made.
Textual already shares them within one stylesheet (its own parse cache, which ``reparse``
starts empty), and nothing changes a ``RuleSet`` once parsed, so what an app shows does not
change (the snapshots prove it).

This replaces private Textual (``Stylesheet._parse_rules``), so it lives in the test harness
(sia_tui imports no private Textual; a user runs one app and gains nothing from a cache
across apps), and it checks the method before replacing it: a Textual that changed it fails
every test with a clear message instead of caching something else. uv.lock pins Textual.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

from tests.support.frames import known_method

#: ``Stylesheet._parse_rules``'s parameters in Textual 8.2: all the parse reads, with the
#: stylesheet's ``_variables`` (through ``_variable_tokens``).
_PARSE_RULES_PARAMETERS = ("self", "css", "read_from", "is_default_rules", "tie_breaker", "scope")
_PARSE_RULES_USES = {"parse", "_variable_tokens", "_parse_cache"}
#: Rules kept at most (each CSS source x each set of variables, i.e. theme); a process
#: needs a few hundred. Past this the memo starts again rather than grow.
_MOST_KEPT = 4096

_kept: dict[tuple[Any, ...], Any] = {}


@cache
def _parse_rules() -> Callable[..., Any]:
    """Textual's ``Stylesheet._parse_rules``, after checking it is the one we know."""
    from textual.css.stylesheet import Stylesheet

    return known_parse_rules(Stylesheet.__dict__.get("_parse_rules"))


def known_parse_rules(method: Any) -> Callable[..., Any]:
    """``method`` if it is the ``_parse_rules`` this harness knows; else ``TextualChanged``."""
    return known_method(
        method,
        "tests/support/css_parse.py replaces textual.css.stylesheet.Stylesheet._parse_rules, "
        "which parses with the stylesheet's variables",
        _PARSE_RULES_PARAMETERS,
        _PARSE_RULES_USES,
        reread="Stylesheet.parse and Stylesheet.reparse",
    )


def _parsed_once_per_process(parse_rules: Callable[..., Any]) -> Callable[..., Any]:
    def parse_rules_kept(
        self: Any,
        css: str,
        read_from: Any,
        is_default_rules: bool = False,
        tie_breaker: int = 0,
        scope: str = "",
    ) -> Any:
        variables = tuple(sorted(self._variables.items()))
        key = (css, read_from, is_default_rules, tie_breaker, scope, variables)
        rules = _kept.get(key)
        if rules is None:  # a parse that raises is not kept: the next one raises again
            rules = parse_rules(self, css, read_from, is_default_rules, tie_breaker, scope)
            if len(_kept) >= _MOST_KEPT:
                _kept.clear()
            _kept[key] = rules
        return rules

    return parse_rules_kept


def parse_each_css_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Until the test ends: stylesheets take rules parsed before in this process."""
    from textual.css.stylesheet import Stylesheet

    monkeypatch.setattr(Stylesheet, "_parse_rules", _parsed_once_per_process(_parse_rules()))
