"""Unit tests of the TUI's pure helpers: themes, safe text, storage, headers, highlighting."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sia_tui.tui.display import PLAIN, DisplayPolicy, masked_header
from sia_tui.tui.highlight import json_content
from sia_tui.tui.screens.connect import parse_headers
from sia_tui.tui.storage import UserDirs
from sia_tui.tui.themes import (
    APP_VARIABLE_DEFAULTS,
    ThemeFileError,
    load_theme_file,
    load_themes_reporting,
    parse_theme,
    theme_dirs,
)
from tests.support.tui import snapshot_scrub

REPO_THEMES = Path(__file__).resolve().parents[2] / "themes"


def test_the_three_shipped_themes_load_with_every_app_variable() -> None:
    loaded, problems = load_themes_reporting([REPO_THEMES])
    assert problems == []
    themes = {t.name: t for t in loaded}
    assert set(themes) == {"sia-dark", "sia-light", "sia-high-contrast"}
    for theme in themes.values():
        assert set(APP_VARIABLE_DEFAULTS) <= set(theme.variables)
    assert themes["sia-light"].dark is False


def test_editable_install_falls_back_to_the_repo_themes_dir() -> None:
    # The wheel ships sia_tui/_themes; a source checkout only has ./themes.
    dirs = theme_dirs()
    assert dirs[0].name == "_themes" and dirs[1] == REPO_THEMES
    themes, problems = load_themes_reporting([Path("/nonexistent"), REPO_THEMES])
    assert len(themes) == 3 and problems == []


def test_wheel_location_wins_when_present(tmp_path: Path) -> None:
    wheel_dir = tmp_path / "_themes"
    wheel_dir.mkdir()
    data = json.loads((REPO_THEMES / "dark.json").read_text())
    data["name"] = "from-wheel"
    (wheel_dir / "dark.json").write_text(json.dumps(data))
    themes, problems = load_themes_reporting([wheel_dir, REPO_THEMES])
    assert [t.name for t in themes] == ["from-wheel"] and problems == []


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"primary": "not-a-colour"}, "not a colour"),
        ({"variables": {}}, "missing app variables"),
        ({"name": ""}, "name"),
        ({"dark": "yes"}, "boolean"),
    ],
)
def test_a_broken_theme_file_is_rejected_with_the_reason(
    change: dict[str, object], message: str
) -> None:
    data = json.loads((REPO_THEMES / "dark.json").read_text()) | change
    with pytest.raises(ThemeFileError, match=message):
        parse_theme(data, "broken.json")


def test_unreadable_theme_file_raises_theme_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(ThemeFileError):
        load_theme_file(bad)


def test_agent_text_never_becomes_markup_or_escapes() -> None:
    hostile = "[bold red]pwned[/bold red] [/foo] \x1b[2J\x07"
    assert PLAIN.literal(hostile).plain == "[bold red]pwned[/bold red] [/foo] ␛[2J␇"
    assert PLAIN.visible("a\nb\tc") == "a\nb\tc"
    assert "\n" not in PLAIN.literal("a\nb").plain


def test_secret_headers_are_masked_unless_revealed() -> None:
    assert masked_header("Authorization", "Bearer abc123") == "Bearer ••••••••"
    assert masked_header("X-Api-Key", "abc123") == "••••••••"
    assert masked_header("Authorization", "Bearer abc123", reveal=True) == "Bearer abc123"
    assert masked_header("Content-Type", "application/json") == "application/json"


def test_the_test_scrubber_hides_ports_ids_and_clocks_only_where_injected() -> None:
    """Snapshots hide volatile values through the policy a test injects; the product's
    policy shows them, and no policy changes another (no module-level state)."""
    text = "http://127.0.0.1:41234/x 0b8e4c1e-1b2c-4d5e-8f90-123456789abc 2026-08-11T12:00:01Z"
    scrubbing = DisplayPolicy(scrub=snapshot_scrub)
    assert scrubbing.visible(text) == "http://127.0.0.1:PORT/x <uuid> <time>"
    assert PLAIN.visible(text) == text
    assert DisplayPolicy().visible(text) == text


def test_a_5mb_body_is_cut_before_rendering() -> None:
    body = json.dumps({"blob": "x" * (5 * 1024 * 1024)})
    content = json_content(body, PLAIN, limit=64 * 1024)
    assert len(content.plain) < 70 * 1024
    assert "more characters hidden" in content.plain


def test_a_5mb_exchange_in_pretty_view_is_not_parsed_and_is_cut() -> None:
    """The pretty view of a huge artifact falls back to raw text, cut for the screen."""
    from sia_tui.core.exchange import Exchange
    from sia_tui.tui.render.exchange import exchange_content

    body = json.dumps({"blob": "x" * (5 * 1024 * 1024)}).encode()
    exchange = Exchange(1, "invoke", "POST", "http://a/rpc", (), b"{}", 200, (), body)
    content = exchange_content(exchange, PLAIN, pretty=True, limit=64 * 1024)
    assert f"response body ({len(body):,} bytes, raw)" in content.plain
    assert len(content.plain) < 70 * 1024


def test_an_exchange_with_events_not_kept_says_how_many_and_numbers_the_last() -> None:
    """A flooded stream keeps its first events and its last: the view says how many more
    came between them, and the last one has its number in the stream."""
    from sia_tui.core.exchange import Exchange
    from sia_tui.tui.render.exchange import exchange_content

    events = (b'{"n": 1}', b'{"n": 2}', b'{"n": "last"}')
    exchange = Exchange(
        1, "invoke", "POST", "http://a/rpc", (), b"{}", 200, events=events, events_not_kept=4997
    )
    text = exchange_content(exchange, PLAIN, pretty=False, limit=64 * 1024).plain
    assert "… 4,997 more, counted, not kept" in text
    assert "stream event 5000" in text and "stream event 3" not in text


def test_edits_recent_targets_and_settings_persist(tmp_path: Path) -> None:
    dirs = UserDirs(tmp_path / "c", tmp_path / "d")
    dirs.save_edit("http://a", "skill", '{"x": 1}')
    assert UserDirs(tmp_path / "c", tmp_path / "d").load_edit("http://a", "skill") == '{"x": 1}'
    assert dirs.load_edit("http://a", "other") is None
    for target in ("one", "two", "one"):
        dirs.remember_target(target)
    assert dirs.recent_targets() == ["one", "two"]
    dirs.save_setting("theme", "sia-light")
    assert dirs.load_settings() == {"theme": "sia-light"}


def test_connect_header_field_parses_pairs() -> None:
    assert parse_headers("X-Tenant: blue; Authorization: Bearer t; junk") == (
        ("X-Tenant", "blue"),
        ("Authorization", "Bearer t"),
    )
