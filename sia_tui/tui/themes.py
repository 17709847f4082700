"""Load the app's Textual themes from JSON files and define the app's theme variables."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from textual.app import App
from textual.color import Color, ColorParseError
from textual.theme import Theme

from sia_tui.core.errors import SiaError

#: App-specific variables every theme must define (used as $digest-match etc. in CSS).
APP_VARIABLE_DEFAULTS: dict[str, str] = {
    "digest-match": "#4CC38A",
    "digest-mismatch": "#F25F5C",
    "step-passed": "#4CC38A",
    "step-failed": "#F25F5C",
    "step-skipped": "#8A94A3",
    "step-running": "#F0B429",
}
#: The theme used when nothing is remembered (and always in snapshot tests).
DEFAULT_THEME = "sia-dark"

_COLOR_KEYS = (
    "primary",
    "secondary",
    "accent",
    "warning",
    "error",
    "success",
    "foreground",
    "background",
    "surface",
    "panel",
    "boost",
)


class ThemeFileError(SiaError):
    """A theme file is unreadable or not a valid theme (the app starts with the others)."""


def theme_dirs() -> list[Path]:
    """Where theme files live: the wheel's ``sia_tui/_themes``, then the repo's ``themes/``.

    The wheel gets them by hatch force-include; an editable install does not, so the
    source checkout's top-level ``themes/`` is the fallback.
    """
    package_root = Path(__file__).resolve().parent.parent
    return [package_root / "_themes", package_root.parent / "themes"]


def parse_theme(data: Any, source: str) -> Theme:
    """Build a validated ``Theme`` from a decoded theme file."""
    if not isinstance(data, dict):
        raise ThemeFileError(f"{source}: a theme file must hold a JSON object")
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise ThemeFileError(f"{source}: 'name' must be a non-empty string")
    if not isinstance(data.get("primary"), str):
        raise ThemeFileError(f"{source}: 'primary' colour is required")
    colors: dict[str, str] = {}
    for key in _COLOR_KEYS:
        value = data.get(key)
        if value is None:
            continue
        colors[key] = _checked_color(value, f"{source}: {key}")
    variables = data.get("variables", {})
    if not isinstance(variables, dict):
        raise ThemeFileError(f"{source}: 'variables' must be an object")
    checked_vars = {
        str(k): _checked_color(v, f"{source}: variables.{k}") for k, v in variables.items()
    }
    missing = sorted(set(APP_VARIABLE_DEFAULTS) - set(checked_vars))
    if missing:
        raise ThemeFileError(f"{source}: missing app variables {', '.join(missing)}")
    dark = data.get("dark", True)
    if not isinstance(dark, bool):
        raise ThemeFileError(f"{source}: 'dark' must be a boolean")
    return Theme(
        name=name,
        dark=dark,
        variables=checked_vars,
        primary=colors["primary"],
        secondary=colors.get("secondary"),
        accent=colors.get("accent"),
        warning=colors.get("warning"),
        error=colors.get("error"),
        success=colors.get("success"),
        foreground=colors.get("foreground"),
        background=colors.get("background"),
        surface=colors.get("surface"),
        panel=colors.get("panel"),
        boost=colors.get("boost"),
    )


def _checked_color(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise ThemeFileError(f"{where} must be a colour string")
    try:
        Color.parse(value)
    except ColorParseError as exc:
        raise ThemeFileError(f"{where}: {value!r} is not a colour") from exc
    return value


def load_theme_file(path: Path) -> Theme:
    """Read and validate one theme file."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ThemeFileError(f"{path}: {exc}") from exc
    return parse_theme(data, str(path))


def load_themes_reporting(
    dirs: Iterable[Path] | None = None,
) -> tuple[list[Theme], list[ThemeFileError]]:
    """The valid themes of the first theme directory that exists, and what was wrong with
    the others: one broken file must not stop the app from starting."""
    for directory in dirs if dirs is not None else theme_dirs():
        if directory.is_dir():
            files = sorted(directory.glob("*.json"))
            if files:
                themes, problems = [], []
                for path in files:
                    try:
                        themes.append(load_theme_file(path))
                    except ThemeFileError as exc:
                        problems.append(exc)
                return themes, problems
    return [], []


def choose_first_theme(app: App[Any], name: str) -> None:
    """Choose the registered theme ``name`` for ``app`` before it runs.

    Assigning ``App.theme`` runs Textual's watcher, which queues a whole re-parse of the
    CSS (some 10 ms before the first frame) although nothing is styled yet: the first
    parse reads the chosen theme's variables anyway. So when the theme keeps the ANSI
    colour mapping the app was built with, the name is set without the watcher, and the
    theme classes the watcher sets are set here; otherwise the watcher runs.
    """
    chosen, built_with = app.available_themes[name], app.current_theme
    if not same_ansi_mapping(app, chosen, built_with):
        app.theme = name
        return
    app.set_reactive(App.theme, name)
    app.remove_class(*(c for c in app.classes if c.startswith("-theme-")), update=False)
    app.add_class(f"-theme-{name}", update=False)


def same_ansi_mapping(app: App[Any], one: Theme, other: Theme) -> bool:
    """``app`` maps ANSI colours to true colours the same way under both themes: Textual
    picks the mapping by the theme's ``dark`` and switches it off for native ANSI colours
    (the app's ``ansi_color``, or else the theme's ``ansi``)."""
    if one.dark != other.dark:
        return False
    return app.ansi_color is not None or one.ansi == other.ansi
