"""Mode 9: deliberately wrong requests to the selected skill, each graded against its rule,
and the Fuzz action beside them: arguments generated from the input schema.

The screen drives the same probe and fuzz engines as ``sia-tui probe`` and ``sia-tui fuzz``
in workers and shows their typed reports; it grades nothing itself.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList, Static

from sia_tui.core.engine import Procedure
from sia_tui.core.fuzz import Fuzzer, FuzzReport, FuzzSettings
from sia_tui.core.probe import Grade, Prober, ProbeReport, report_from_session
from sia_tui.core.run import Run, Target
from sia_tui.tui.display import DEFAULT_VIEW_LIMIT
from sia_tui.tui.render.fuzz import case_content, case_prompt, fuzz_overview, fuzz_summary
from sia_tui.tui.render.probe import (
    learning_content,
    pending_prompt,
    result_content,
    result_prompt,
    summary_content,
)
from sia_tui.tui.screens.base import ZOOM, RunScreen
from sia_tui.tui.screens.confirm import ConfirmScreen, consent_question
from sia_tui.tui.widgets.literal import LiteralOptionList, LiteralStatic, option

#: The worker group of a probe run (one at a time; the engine's steps are another group).
PROBE_GROUP = "probe"
#: The worker group of a fuzz run (one at a time, and never beside a probe run).
FUZZ_GROUP = "fuzz"
#: The bounds of the Fuzz action: sia-tui fuzz's defaults (a test may lower the pace).
FUZZ_EXAMPLES, FUZZ_RATE, FUZZ_MAX_TIME = 50, 4.0, 120.0
#: A fixed seed repeats a run (None: a random one, shown in the summary).
FUZZ_SEED: int | None = None

INTRO = (
    "p sends deliberately wrong requests to the selected skill: a stale interface_digest, "
    "an unknown skill_version, invalid arguments of each kind the input schema allows, "
    "oversized input, missing envelope members, an unadvertised skill and, when the card "
    "declares a security scheme, missing credentials. Each answer is graded pass, fail, "
    "warn or skip against its RULES id.\n\n"
    "Safety: every wrong request carries arguments that break the input schema, so an agent "
    "that fails to validate has nothing to act on. When the skill's document declares "
    "execute authority, you are asked before any request with valid arguments is sent.\n\n"
    "f fuzzes the skill instead: arguments generated from its input schema (each confirmed "
    "by the validator) and invalid ones made by one mutation, sent at most 4 a second and "
    "graded as sia-tui fuzz grades them (RULES INV3, ERR3, ERR5, CP10)."
)


class ProbeScreen(RunScreen):
    """The probes of the selected skill on the left, the selected probe's evidence on the right."""

    HELP = INTRO
    BINDINGS = [
        Binding("p", "run_probe", "Run probes", id="probe.run", tooltip="Send the probes"),
        Binding(
            "f",
            "run_fuzz",
            "Fuzz",
            id="probe.fuzz",
            tooltip="Send arguments generated from the input schema and grade each answer",
        ),
        # The app's save key, here saving the probe run with the run it learned from.
        Binding(
            "ctrl+s",
            "save_probes",
            "Save",
            show=False,
            id="probe.save",
            tooltip="Save the probe run as a redacted session (replay re-grades it)",
        ),
        ZOOM,
    ]
    COLLAPSIBLE = "#probe-list"
    DEFAULT_CSS = """
    ProbeScreen #probe-summary { height: auto; padding: 0 1; }
    ProbeScreen #probe-list {
        width: 2fr; min-width: 26; max-width: 44; height: 1fr; border: round $panel;
        text-wrap: nowrap; text-overflow: ellipsis;
    }
    ProbeScreen #probe-list:focus { border: round $primary; }
    ProbeScreen #probe-evidence { width: 3fr; border: round $panel; padding: 0 1; }
    ProbeScreen #probe-evidence:focus { border: round $primary; }
    """

    @dataclass
    class Updated(Message):
        """The probe engine changed the report (a learning step, a probe graded)."""

    def __init__(self) -> None:
        super().__init__()
        self.report: ProbeReport | None = None
        """The live or recorded probe run shown, or None before the first run."""
        self._shown_for: tuple[str, str | None] | None = None
        """(location, skill) the report belongs to: another target clears it."""
        self._from_session: object = None
        """The recorded session the report was read from: another session replaces it."""
        self.fuzz: FuzzReport | None = None
        """The last fuzz run, shown instead of the probes until p runs them again."""

    def compose_body(self) -> ComposeResult:
        with Vertical():
            yield LiteralStatic(id="probe-summary")
            with Horizontal():
                yield LiteralOptionList(id="probe-list")
                with VerticalScroll(id="probe-evidence"):
                    yield LiteralStatic(id="probe-body")

    def on_mount(self) -> None:
        self.query_one("#probe-list", OptionList).focus()

    # -- what is shown -----------------------------------------------------------------------
    def _skill(self, run: Run | None) -> str | None:
        return (run.skill_id or run.target.skill_id) if run is not None else None

    def show_run(self, run: Run | None) -> None:
        session = self.sia.session
        if session is not None and session is not self._from_session:
            # Another recorded session (e.g. the next cell of a plugfest matrix): its probes.
            self._from_session = session
            self.report = report_from_session(session) if session.probe is not None else None
        key = (run.target.location, self._skill(run)) if run is not None else None
        if self.report is not None and session is None and key != self._shown_for:
            self.report = None  # another agent or skill: the old grades do not apply
        if self.fuzz is not None and key != self._shown_for:
            self.fuzz = None
        self._redraw()

    def _redraw(self) -> None:
        if self.fuzz is not None:
            self._redraw_fuzz(self.fuzz)
            return
        run = self.sia.current_run
        report = self.report
        self.query_one("#probe-summary", Static).update(
            summary_content(report, self._skill(run), self.policy)
        )
        listing = self.query_one("#probe-list", OptionList)
        keep = listing.highlighted
        listing.clear_options()
        if report is not None:
            done = {r.kind for r in report.results}
            listing.add_options(
                [option(result_prompt(r, self.policy), id=r.id) for r in report.results]
                + [option(pending_prompt(p)) for p in report.planned if p.kind not in done]
            )
        if listing.option_count:
            listing.highlighted = keep if keep is not None and keep < listing.option_count else 0
        self._show_evidence()

    def on_option_list_option_highlighted(self, _event: OptionList.OptionHighlighted) -> None:
        self._show_evidence()

    def _redraw_fuzz(self, report: FuzzReport) -> None:
        self.query_one("#probe-summary", Static).update(fuzz_summary(report, self.policy))
        listing = self.query_one("#probe-list", OptionList)
        keep = listing.highlighted
        listing.clear_options()
        listing.add_options([option(case_prompt(c, self.policy)) for c in report.cases])
        if listing.option_count:
            listing.highlighted = keep if keep is not None and keep < listing.option_count else 0
        self._show_evidence()

    def _show_fuzz_case(self, report: FuzzReport, index: int | None) -> None:
        body = self.query_one("#probe-body", Static)
        overview = fuzz_overview(report, self.policy)
        if index is None or index >= len(report.cases):
            body.update(overview)
            return
        case = case_content(report.cases[index], self.policy, limit=DEFAULT_VIEW_LIMIT)
        body.update(overview + Content("\n\n") + case if overview.plain else case)

    def _show_evidence(self) -> None:
        if self.fuzz is not None:
            self._show_fuzz_case(self.fuzz, self.query_one("#probe-list", OptionList).highlighted)
            return
        body = self.query_one("#probe-body", Static)
        report = self.report
        index = self.query_one("#probe-list", OptionList).highlighted
        if report is None:
            session = self.sia.session
            if session is not None:
                body.update("This session recorded no probe run (`sia-tui probe --save` does).")
            else:
                body.update(Content(INTRO))
            return
        if index is None or index >= len(report.results):
            body.update(learning_content(report, self.policy))
            return
        result = report.results[index]
        body.update(
            learning_content(report, self.policy)
            + Content("\n\n")
            + result_content(report, result, self.policy, limit=DEFAULT_VIEW_LIMIT)
        )

    def on_probe_screen_updated(self, _message: Updated) -> None:
        self._redraw()

    # -- running -----------------------------------------------------------------------------
    def _target_to_run(self, busy: str) -> Target | None:
        """The selected skill to probe or fuzz; None (with a notice) for a recorded session,
        no skill, or a probe or fuzz run still on (``busy`` says so)."""
        app = self.sia
        if app.refuse_if_read_only():
            return None
        run = app.current_run
        skill = self._skill(run)
        if run is None or not skill:
            self.app.notify("Select a skill on the Overview (1) first.", severity="warning")
            return None
        if self._probing():
            self.app.notify(busy, severity="warning")
            return None
        self._shown_for = (run.target.location, skill)
        return Target(run.target.location, skill_id=skill, binding=run.target.binding)

    def action_run_probe(self) -> None:
        """Probe the selected skill (refused for recorded sessions and while one runs)."""
        target = self._target_to_run("The probes are running; wait for them to finish.")
        if target is not None:
            self.fuzz = None
            self._probe(target)

    def action_run_fuzz(self) -> None:
        """Fuzz the selected skill (refused for recorded sessions and while a run is on)."""
        target = self._target_to_run("A run is on; wait for it to finish.")
        if target is not None:
            self._fuzz(target)

    @work(exclusive=True, group=FUZZ_GROUP)
    async def _fuzz(self, target: Target) -> None:
        import random

        engine = self.sia.engine
        options = engine.options if isinstance(engine, Procedure) else self.sia.options
        settings = FuzzSettings(
            examples=FUZZ_EXAMPLES,
            seed=FUZZ_SEED if FUZZ_SEED is not None else random.randrange(2**32),
            max_time=FUZZ_MAX_TIME,
            rate=FUZZ_RATE,
        )
        fuzzer = Fuzzer(target, options, settings, on_update=self._updated)
        self.fuzz = fuzzer.report
        self.post_message(self.Updated())
        try:
            await fuzzer.learn()
            need = fuzzer.report.learning.answers.consent_need
            if need is not None:  # the one execute gate: an explicit yes, this run only
                settings.allow_execute = await self._confirm(fuzzing=True)
            await fuzzer.run()
        except asyncio.CancelledError:
            fuzzer.stop()
            raise
        except Exception as exc:  # noqa: BLE001 - a fuzz bug is shown, never a crash
            self.notify(
                f"The fuzz run stopped: {type(exc).__name__}: {exc}",
                title="Fuzz error",
                severity="error",
            )
        finally:
            await fuzzer.aclose()
        self.post_message(self.Updated())
        report = fuzzer.report
        self.notify(f"Fuzz {report.outcome.value}: {len(report.cases)} cases sent.")

    @work(exclusive=True, group=PROBE_GROUP)
    async def _probe(self, target: Target) -> None:
        engine = self.sia.engine
        # The options the current agent was connected with (the connect screen may add some).
        options = engine.options if isinstance(engine, Procedure) else self.sia.options
        prober = Prober(target, options, on_update=self._updated)
        self.report = prober.report
        try:
            await prober.learn()
            allow = False
            if prober.needs_confirmation:
                allow = await self._confirm()
            await prober.run(allow_valid_invocations=allow)
        except Exception as exc:  # noqa: BLE001 - a probe bug is shown, never a crash
            self.notify(
                f"The probe stopped: {type(exc).__name__}: {exc}",
                title="Probe error",
                severity="error",
            )
        finally:
            await prober.aclose()
        self.post_message(self.Updated())
        report = prober.report
        self.sia.autosave_probe_run(report)  # every run is in the History, probe runs too
        if report.results:
            counts = ", ".join(f"{report.count(g)} {g.value}" for g in Grade)
            self.notify(f"Probes done: {counts}.")

    def _probing(self) -> bool:
        return any(w.group in (PROBE_GROUP, FUZZ_GROUP) and w.is_running for w in self.workers)

    def action_save_probes(self) -> None:
        """Save the probe run shown (live or recorded); without one, the run as on any screen."""
        report = self.report
        if report is None:
            self.sia.action_save_session()
            return
        if self._probing():
            self.app.notify("The probes are running; save when they are done.", severity="warning")
            return
        self.sia.save_probe_run(report)

    def _updated(self, _report: ProbeReport | FuzzReport) -> None:
        # Called by the engine on this loop; the redraw happens in the message handler.
        self.post_message(self.Updated())

    async def _confirm(self, *, fuzzing: bool = False) -> bool:
        """Ask before valid invocations of an execute skill; True only on an explicit yes."""
        answer: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        question = self._fuzz_question() if fuzzing else self._question()
        self.app.push_screen(
            ConfirmScreen(question, yes_label="Send (y)"),
            lambda yes: answer.set_result(bool(yes)),
        )
        return await answer

    def _question(self) -> Content:
        run = self.report.learning if self.report else None
        skill = (run.skill_id if run else None) or "This skill"
        need = run.answers.consent_need if run is not None else None
        return consent_question(
            self.policy.literal(skill, style="bold"),
            need.reason if need is not None else "its document asks for consent",
            "The valid baseline invocation and the probes that need valid arguments "
            "(oversized input, missing credentials) could make the agent act. Send them? "
            "Cancel skips them; every other probe carries arguments that break the input "
            "schema.",
        )

    def _fuzz_question(self) -> Content:
        run = self.fuzz.learning if self.fuzz else None
        skill = (run.skill_id if run else None) or "This skill"
        need = run.answers.consent_need if run is not None else None
        return consent_question(
            self.policy.literal(skill, style="bold"),
            need.reason if need is not None else "its document asks for consent",
            f"Fuzzing sends up to {FUZZ_EXAMPLES} invocations, half with valid arguments, "
            "which could make the agent act. Send them? Cancel sends nothing.",
        )
