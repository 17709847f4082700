"""Which frames a Pilot test draws: the ones somebody reads.

Under ``run_test`` Textual composes every frame (each widget's ``render_lines`` for the
dirty regions), then the headless driver throws it away: about 40 % of a Pilot test's CPU.
By default (``tests/conftest.py``) a test skips those partial frames, and every app a test
runs draws one full frame of what a person would see when its ``run_test`` ends: a widget
whose render raises (or hangs) in the final state still fails the test. A test marked
``@pytest.mark.frames`` draws every frame as a terminal would (the hostile tours, which
record the bytes; the redraw and flood tests; the snapshots, so that the picture a
snapshot keeps is the one a terminal shows).

A marked test whose app has no terminal (the headless driver of ``run_test`` and of the
snapshots) draws each frame's widgets as a terminal frame would (every ``render_lines``
call, with the same regions: the widgets' caches end up as on a terminal, so a stale render
shows in the snapshot), but does not cut their lines into the update that the headless
driver would throw away (about a quarter of a frame's CPU). An app whose driver says it is
not headless (the tours' recording terminal) gets the whole frame, byte for byte.

This patches private Textual (``Compositor.render_update``), so it lives here, in the test
harness only (sia_tui keeps no private Textual imports), and checks the method it replaces
when it installs: a Textual that changed it fails every Pilot test with a clear message
instead of silently drawing (or skipping) something else. uv.lock pins Textual.
"""

from __future__ import annotations

import inspect
import io
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from functools import cache
from typing import Any

import pytest
from rich.console import Console
from textual.app import App

#: The parameters of ``Compositor.render_update`` this module was written against (Textual
#: 8.2): ``full=True`` draws the whole screen (``App.export_screenshot`` asks for that),
#: ``full=False`` the dirty regions (each frame of the running app).
_RENDER_UPDATE_PARAMETERS = ("self", "full", "screen_stack", "simplify")
#: What it reads and calls: a partial frame is drawn from ``_dirty_regions``, which the
#: replacement clears instead.
_RENDER_UPDATE_USES = {"_dirty_regions", "render_full_update", "render_partial_update"}
#: A partial frame covers the union of the dirty regions, clipped to the screen, and draws
#: with ``_render_chops`` (a full frame too, over the whole screen).
_PARTIAL_UPDATE_USES = {"_dirty_regions", "from_union", "intersection", "_render_chops"}
#: ``_render_chops`` draws every widget ``_get_renders`` yields, to the end, then cuts.
_RENDER_CHOPS_PARAMETERS = ("self", "crop", "is_rendered_line")


class TextualChanged(RuntimeError):
    """The private Textual method the harness replaces is not the one it knows."""


@cache
def compositor_class() -> Any:
    """Textual's private ``Compositor`` (what draws each frame), imported here only: the
    harness is the one place outside Textual that reaches it (tests/test_layering.py)."""
    from textual._compositor import Compositor

    return Compositor


@cache
def _render_update() -> Callable[..., Any]:
    """Textual's ``Compositor.render_update``, after checking it is the one we know."""
    return known_render_update(compositor_class().__dict__.get("render_update"))


def known_method(
    method: Any, replaced: str, parameters: tuple[str, ...], uses: set[str], *, reread: str
) -> Callable[..., Any]:
    """``method`` if its parameters are ``parameters`` and its code uses all of ``uses`` (the
    method ``replaced``, a harness's replacement, was written against); else
    ``TextualChanged``, saying what to ``reread`` in the new Textual."""
    has = tuple(inspect.signature(method).parameters) if callable(method) else ()
    code = getattr(method, "__code__", None)
    names = set(code.co_names) if has and code else set()
    if has != parameters or not names >= uses:
        raise TextualChanged(
            f"{replaced}{parameters[1:]}; this Textual's has {has[1:]} and uses "
            f"{sorted(names)}. Re-read {reread} in the new Textual and update the harness."
        )
    return method  # type: ignore[no-any-return]


def known_render_update(method: Any) -> Callable[..., Any]:
    """``method`` if it is the ``render_update`` this harness knows; else ``TextualChanged``."""
    return known_method(
        method,
        "tests/support/frames.py replaces textual._compositor.Compositor.render_update, which "
        "draws from Compositor._dirty_regions",
        _RENDER_UPDATE_PARAMETERS,
        _RENDER_UPDATE_USES,
        reread="Screen._compositor_refresh and App.export_screenshot",
    )


@cache
def _widgets_drawn() -> Callable[..., Any]:
    """Textual's ``Compositor._get_renders``, after checking the methods that draw a frame
    with it are the ones we know."""
    Compositor = compositor_class()
    _render_update()
    known_method(
        Compositor.__dict__.get("render_partial_update"),
        "tests/support/frames.py draws a headless frame's widgets as "
        "Compositor.render_partial_update does",
        ("self",),
        _PARTIAL_UPDATE_USES,
        reread="Compositor.render_partial_update and render_full_update",
    )
    known_method(
        Compositor.__dict__.get("_render_chops"),
        "tests/support/frames.py draws a headless frame's widgets as "
        "Compositor._render_chops does, with _get_renders",
        _RENDER_CHOPS_PARAMETERS,
        {"_get_renders"},
        reread="Compositor._render_chops and _get_renders",
    )
    return Compositor.__dict__["_get_renders"]  # type: ignore[no-any-return]


def frame_crop(compositor: Any) -> Any:
    """The region a running app's next frame draws (``None``: no frame, nothing is dirty):
    the whole screen when it is dirty, else the union of the dirty regions on the screen."""
    from textual.geometry import Region

    screen = compositor.size.region
    dirty = compositor._dirty_regions
    if not dirty:
        return None
    if screen in dirty:
        return screen
    return Region.from_union(list(dirty)).intersection(screen)


def _headless_frames_drawn_uncut(render_update: Callable[..., Any]) -> Callable[..., Any]:
    get_renders = _widgets_drawn()

    def render_update_of_a_frame(
        self: Any, full: bool = False, screen_stack: Any = None, simplify: bool = False
    ) -> Any:
        from textual._context import active_app, visible_screen_stack

        if full or not active_app.get().is_headless:  # somebody reads this one
            return render_update(self, full=full, screen_stack=screen_stack, simplify=simplify)
        visible_screen_stack.set([] if screen_stack is None else screen_stack)
        crop = frame_crop(self)
        self._dirty_regions.clear()
        if crop is not None:
            for _drawn in get_renders(self, crop):  # each widget's render_lines, as drawn
                pass
        return None  # the headless driver displays nothing (``App._display`` returns)

    return render_update_of_a_frame


def draw_headless_frames_uncut(monkeypatch: pytest.MonkeyPatch) -> None:
    """Until the test ends: a headless app's frames draw their widgets' lines (as a terminal
    frame would) but skip cutting them into an update nobody receives."""
    monkeypatch.setattr(
        compositor_class(), "render_update", _headless_frames_drawn_uncut(_render_update())
    )


def _unread_frames_skipped(render_update: Callable[..., Any]) -> Callable[..., Any]:
    def render_update_when_read(
        self: Any, full: bool = False, screen_stack: Any = None, simplify: bool = False
    ) -> Any:
        if full:  # a screenshot, or the harness's last frame: somebody reads it
            return render_update(self, full=True, screen_stack=screen_stack, simplify=simplify)
        self._dirty_regions.clear()  # as if drawn: the next frame starts clean
        return None  # nothing to display (``App._display`` returns on None)

    return render_update_when_read


def skip_unread_frames(monkeypatch: pytest.MonkeyPatch) -> None:
    """Until the test ends: running apps compose no partial frame (nobody reads them)."""
    monkeypatch.setattr(
        compositor_class(), "render_update", _unread_frames_skipped(_render_update())
    )


def draw_full_frame(app: App[Any]) -> str:
    """Draw the whole screen (over the screens beneath it) as the terminal would receive it;
    a widget's render that raises fails here."""
    console = Console(
        width=app.size.width,
        height=app.size.height,
        file=io.StringIO(),
        force_terminal=True,
        color_system="truecolor",
        legacy_windows=False,
        safe_box=False,
    )
    # ``export_screenshot`` draws the same frame, then formats it as SVG (which costs more).
    frame = _render_update()(
        app.screen._compositor, full=True, screen_stack=app._background_screens
    )
    console.print(frame)
    return console.file.getvalue()  # type: ignore[attr-defined, no-any-return]


def draw_last_frame_of_every_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Until the test ends: when a ``run_test`` body ends, the app (if still running) draws
    one full frame, so what a person would see last is always rendered once."""
    run_test = App.run_test

    @asynccontextmanager
    async def run_test_then_draw(self: App[Any], *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        async with run_test(self, *args, **kwargs) as pilot:
            yield pilot
            if self.is_running:
                draw_full_frame(self)

    monkeypatch.setattr(App, "run_test", run_test_then_draw)


def frames_for(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The harness for one test: every frame if it is marked ``frames`` (uncut when no
    terminal receives it), else only the last full frame of each app it runs."""
    draw_last_frame_of_every_run(monkeypatch)
    if request.node.get_closest_marker("frames") is None:
        skip_unread_frames(monkeypatch)
    else:
        draw_headless_frames_uncut(monkeypatch)
