"""Big artifacts on Results: a 5 MB result is shown at once, highlighted
where it is read, whole after ``a``, and not formatted again when the user comes back."""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult

from sia_tui.agent.config import MARKUP_SAMPLE
from sia_tui.tui.artifact_text import PIECE_CHARS, ArtifactText
from sia_tui.tui.display import MASK, PLAIN, truncated
from sia_tui.tui.jsontext import pretty_json
from sia_tui.tui.widgets.blocks_view import BlocksView
from tests.support.tui import SIZE, invoke_appendix_b, settle, wait_until


def _row(view: BlocksView, y: int) -> str:
    return view.render_line(y).text.rstrip()


async def test_a_5_mb_result_shows_highlighted_then_whole_and_survives_switching(
    make_app: Any,
) -> None:
    """large-result: the first lines are on screen and coloured, the cut note offers ``a``;
    after ``a`` and ``end`` the artifact's last line is on screen; screens 1 and back keep the
    same prepared text and the scroll position."""
    app = make_app("large-result")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await invoke_appendix_b(pilot)
        view = app.screen.query_one("#result-body", BlocksView)
        rows = [_row(view, y) for y in range(view.size.height)]
        assert any('"result": "condition_not_met"' in row for row in rows), rows
        assert any('"x_samples": [' in row for row in rows), rows
        key_row = next(y for y, row in enumerate(rows) if '"result"' in row)
        colours = {s.style.color for s in view.render_line(key_row) if s.text.strip() and s.style}
        assert len(colours) >= 2, "the key and its value are highlighted differently"
        assert "more characters hidden (press a to show all)" in view.plain_text

        await pilot.press("a")
        texts = [b for b in view._blocks if isinstance(b, ArtifactText)]
        await wait_until(pilot, lambda: all(t.complete for t in texts), tries=3000)
        assert len(texts[0].lines) > 200_000
        view.focus()
        await pilot.press("end")
        await pilot.pause()
        last = view.size.height - 1
        assert _row(view, last).strip() == "}"
        assert any('"note": ' in _row(view, y) for y in range(last - 8, last))
        scrolled = view.scroll_y
        assert scrolled > 200_000

        await pilot.press("1")
        await pilot.pause()
        await pilot.press("6")
        await pilot.pause()
        view = app.screen.query_one("#result-body", BlocksView)
        assert [b for b in view._blocks if isinstance(b, ArtifactText)] == texts
        assert texts[0] is [b for b in view._blocks if isinstance(b, ArtifactText)][0]
        assert view.scroll_y == scrolled
        assert _row(view, last).strip() == "}"


async def test_markup_and_escapes_in_a_record_stay_inert(make_app: Any) -> None:
    """The markup fault's record metric shows ``[bold red]`` literally and no escape."""
    app = make_app("markup")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await invoke_appendix_b(pilot)
        view = app.screen.query_one("#records-body", BlocksView)
        assert "[bold red]pwned[/bold red]" in view.plain_text
        rows = [view.render_line(y) for y in range(view.size.height)]
        shown = "\n".join(strip.text for strip in rows)
        assert "[bold red]pwned" in shown
        assert "\x1b" not in shown and "\x07" not in shown
        assert MARKUP_SAMPLE not in shown


class _Viewer(App[None]):
    def compose(self) -> ComposeResult:
        yield BlocksView()


async def test_bidi_controls_and_secrets_are_neutralised_in_every_piece() -> None:
    """Control and format characters become visible stand-ins and marked secrets are masked,
    also far into a text formatted piece by piece in the worker."""
    secret = "s3cret-token-value"
    filler = [{"n": n, "pad": "x" * 60} for n in range(3 * PIECE_CHARS // 60)]
    value = {"head": "a\u202eb", "items": filler, "tail": f"{secret} \u202e [b]x[/b]"}
    text = ArtifactText(value, PLAIN.masking([secret]), None)
    assert not text.complete
    text.finish()
    joined = "\n".join(text.lines)
    assert "\u202e" not in joined
    assert secret not in joined and MASK in joined
    app = _Viewer()
    async with app.run_test(size=(60, 10)) as pilot:
        view = app.query_one(BlocksView)
        view.show([text])
        view.focus()
        await pilot.pause()
        await pilot.press("end")
        await pilot.pause()
        shown = "\n".join(view.render_line(y).text for y in range(10))
        assert "[b]x[/b]" in shown and MASK in shown and "\u202e" not in shown


def test_the_lines_are_the_text_json_content_shows() -> None:
    """Cut or whole, preview or finished: the same characters as the plain view."""
    value = {"k": ["é\x1b" * 7, "wide 漢字"] * 4000}
    whole = pretty_json(value)
    for limit in (None, 100, 64 * 1024, len(whole), len(whole) - 1):
        text = ArtifactText(value, PLAIN, limit)
        text.finish()
        shown, cut = truncated(whole, limit)
        assert "\n".join(text.lines) == PLAIN.visible(shown)
        assert text.cut is cut


async def test_fifty_thousand_records_list_the_first_ones_and_count_the_rest(
    make_app: Any, monkeypatch: Any
) -> None:
    """A 4 MB answer can carry 50,000 supporting records: the Results screen lists the
    first ones and says how many more there are, instead of building 100,000 blocks."""
    from sia_tui.core.limits import MAX_LISTED
    from sia_tui.core.run import RunAnswers
    from sia_tui.tui.screens.results import ResultsScreen

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await invoke_appendix_b(pilot)
        run = app.current_run
        assert run is not None and run.answers.record_verdicts
        many = run.answers.record_verdicts * 50_000
        monkeypatch.setattr(RunAnswers, "record_verdicts", property(lambda _run: many))
        screen = app.screen
        assert isinstance(screen, ResultsScreen)
        screen.show_run(run)
        view = screen.query_one("#records-body", BlocksView)
        assert len(view._blocks) == 2 * MAX_LISTED + 1
        assert f"{len(many) - MAX_LISTED} more record(s) not listed here" in view.plain_text
