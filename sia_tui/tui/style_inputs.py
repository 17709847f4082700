"""What the app's styles are made of, so a restyle that can change nothing is skipped.

Textual restyles the whole app (``App.refresh_css``: every rule parsed again, every widget
styled again, the screen laid out again) when a screen is shown for the first time, twice
for a mode's first screen. Each tab's first visit paid that (some 15 ms twice), although
the new screen was styled as it was mounted. The rules are made of the CSS variables (the
theme's colours) and the CSS sources. A restyle can change a widget's styles only when a
variable changed, a source changed, or a new source can match a widget styled before it
came: a widget's own ``DEFAULT_CSS`` is scoped to its type, is added as the first widget
of that type is mounted, before that widget is styled, and matches only widgets of that
type and inside them, all mounted after it; an unscoped source (an app's or a screen's
``CSS``) may match any widget.
"""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.css.stylesheet import CssSource

#: The CSS variables and every CSS source (its text, precedence and scope) by origin.
StyleInputs = tuple[dict[str, str], dict[Any, CssSource]]


def style_inputs(app: App[Any]) -> StyleInputs:
    """What ``app``'s rules would be parsed from now."""
    return app.get_css_variables(), dict(app.stylesheet.source)


def restyle_needed(styled_with: StyleInputs | None, now: StyleInputs) -> bool:
    """Whether restyling with ``now`` could change the styles of a widget styled with the
    rules made of ``styled_with`` (None: nothing restyled yet)."""
    if styled_with is None:
        return True
    variables, sources = styled_with
    if now[0] != variables or any(origin not in now[1] for origin in sources):
        return True
    for origin, source in now[1].items():
        before = sources.get(origin)
        if before is None and not source.scope:
            return True  # a new unscoped source may match widgets styled without it
        if before is not None and before != source:
            return True
    return False
