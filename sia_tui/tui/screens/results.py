"""Mode 6: the primary result and the supporting records side by side, or the error table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import DataTable, OptionList, Static

from sia_tui.core.a2a import Artifact, StreamEvent
from sia_tui.core.bounded import listed
from sia_tui.core.codes import DetectedBy, describe_code
from sia_tui.core.engine import delivery_line
from sia_tui.core.jsonkit import display_pointer
from sia_tui.core.run import (
    ArtifactVerdict,
    PushLog,
    ReceptionEvidence,
    RecordResult,
    Run,
    RunOutcome,
    StepResult,
)
from sia_tui.tui.artifact_text import ArtifactText
from sia_tui.tui.display import DEFAULT_VIEW_LIMIT, DisplayPolicy
from sia_tui.tui.modes import mode_key
from sia_tui.tui.render.evidence import finding_lines
from sia_tui.tui.render.plain_a2a import CONSOLE_OFFER, lacks_extension
from sia_tui.tui.screens.base import ZOOM, RunScreen
from sia_tui.tui.widgets.blocks_view import Block, BlocksView
from sia_tui.tui.widgets.literal import LiteralOptionList, LiteralStatic, option
from sia_tui.tui.widgets.literal_table import LiteralTable
from sia_tui.tui.widgets.reply_box import ReplyBox

if TYPE_CHECKING:
    from sia_tui.core.wire import WireVerdict

#: The push box's title by ``PushLog.receiver`` (sia-tui's own words, never the agent's).
PUSH_TITLES = {"loopback": "Push (loopback)", "external": "Push (your receiver)"}
#: Push deliveries shown on the timeline (the newest; check --json lists them all).
PUSH_SHOWN = 5

#: Streamed artifacts shown while the task runs (all are validated when it ends).
STREAMED_SHOWN = 20

#: Prepared artifact texts by (artifact identity, policy, limit); the artifact is kept with
#: its text so the identity cannot be reused by another object while the entry lives.
_Texts = dict[tuple[int, DisplayPolicy, int | None], tuple[Artifact, ArtifactText]]


def artifact_value(artifact: Artifact) -> Any:
    """The artifact's data part (one value), else its raw JSON."""
    data = artifact.data_parts()
    return data[0] if len(data) == 1 else artifact.raw


class ResultsScreen(RunScreen):
    """What the skill returned, each part with its own verdict; links jump to records."""

    HELP = (
        "The result artifact (left) and the supporting records (right), each with its own "
        "verdict. Select a link to jump to the record it names; z hides the records pane."
    )
    BINDINGS = [
        Binding("a", "show_all", "All", id="results.show_all", tooltip="Show large bodies whole"),
        Binding("x", "app.cancel_task", "Cancel task", id="results.cancel"),
        ZOOM,
    ]
    COLLAPSIBLE = "#records-pane"
    #: Keys go to the result first (end, page down), not to the details table above it.
    AUTO_FOCUS = "#result-body"
    DEFAULT_CSS = """
    ResultsScreen #events { height: auto; max-height: 8; }
    ResultsScreen #status { height: auto; max-height: 6; padding: 0 1; width: 2fr; }
    ResultsScreen #push { height: auto; max-height: 8; width: 3fr; padding: 0 1;
                          border: round $panel; }
    ResultsScreen .pane { width: 1fr; border: round $panel; padding: 0 1; }
    ResultsScreen #links { height: auto; max-height: 6; border: round $panel; }
    ResultsScreen #error-summary { height: auto; max-height: 6; padding: 0 1;
                                   border: round $error; }
    ResultsScreen #error-table { height: auto; max-height: 10; border: round $error; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.show_everything = False
        """Render large artifacts in full (off: cut at DEFAULT_VIEW_LIMIT)."""
        self._texts: _Texts = {}
        """The prepared text of each artifact shown, so a redraw does not format it again."""

    def compose_body(self) -> ComposeResult:
        with Vertical():
            with Horizontal(id="events"):
                yield LiteralStatic(id="status")
                yield LiteralStatic(id="push")
            yield ReplyBox(id="reply-box")
            yield LiteralStatic(id="error-summary")
            yield LiteralTable(id="error-table", cursor_type="row")
            with Horizontal():
                with Vertical(classes="pane", id="result-pane"):
                    yield LiteralOptionList(id="links")
                    yield BlocksView(id="result-body")
                with Vertical(classes="pane", id="records-pane"):
                    yield BlocksView(id="records-body")

    def on_mount(self) -> None:
        self.query_one("#result-pane").border_title = "Result"
        self.query_one("#records-pane").border_title = "Supporting records"
        self.query_one("#links").border_title = "supporting_record_refs"
        table = self.query_one("#error-table", DataTable)
        table.add_columns("instance_path", "schema_path", "keyword", "expected", "actual")
        table.border_title = "details"
        table.display = False
        self.query_one("#error-summary").display = False
        self.query_one("#push").display = False

    def show_run(self, run: Run | None) -> None:
        policy = self.policy
        literal = policy.literal
        self.query_one("#status", Static).update(self._status(run))
        self.query_one(ReplyBox).show(run, policy, read_only=self.sia.read_only)
        self._show_push(run)
        self._show_error(run)
        shown_texts = self._texts
        self._texts = {}  # keeps only the artifacts this redraw shows
        links = self.query_one("#links", OptionList)
        links.clear_options()
        result_body = self.query_one("#result-body", BlocksView)
        if run is None or run.result is None:
            result_body.show([self._no_result(run)])
            links.display = False
        else:
            # The result's own verdict (RULES CP10): a bad record is never its fault.
            result_body.show(
                [
                    _verdict(run.answers.result_verdict, "the output schema", policy)
                    + Content("\n")
                    + literal(run.result.name or "", style="bold"),
                    self._text_of(run.result, shown_texts),
                ]
            )
            refs, refs_left_out = listed(run.answers.record_refs)
            links.display = bool(refs)
            for ref in refs:
                links.add_option(
                    option(
                        Content.assemble(("→ ", "bold $accent"), literal(ref, style="underline")),
                        id=None,
                    )
                )
            if refs_left_out:
                links.add_option(option(_not_listed(refs_left_out, "reference"), disabled=True))
        records_body = self.query_one("#records-body", BlocksView)
        if run is None or not run.answers.record_verdicts:
            records_body.show(self._streamed_records(run, shown_texts))
            return
        # A 4 MB answer can carry 50,000 records: the first ones are listed, the rest counted.
        records, left_out = listed(run.answers.record_verdicts)
        blocks: list[Block] = []
        for record in records:
            blocks.append(
                Content.assemble(
                    literal(record.artifact.artifact_id, style="bold"),
                    "  kind ",
                    literal(record.kind or "(unknown)"),
                )
                + Content("\n")
                + _record_verdict(record, policy)
            )
            blocks.append(self._text_of(record.artifact, shown_texts))
        if left_out:
            blocks.append(_not_listed(left_out, "record"))
        records_body.show(blocks)

    def _text_of(self, artifact: Artifact, shown: _Texts) -> ArtifactText:
        """The artifact's prepared text: the one already shown, else prepared now."""
        limit = None if self.show_everything else DEFAULT_VIEW_LIMIT
        key = (id(artifact), self.policy, limit)
        entry = shown.get(key) or self._texts.get(key)
        if entry is None or entry[0] is not artifact:
            entry = (artifact, ArtifactText(artifact_value(artifact), self.policy, limit))
        self._texts[key] = entry
        return entry[1]

    def _status(self, run: Run | None) -> Content:
        policy = self.policy
        literal = policy.literal
        # This invocation's own events, while it runs (a reopened one shows the same).
        live = [event_line(event, policy) for event in run.live_events[-4:]] if run else []
        if run is None or run.task is None:
            failed = run.failed_step if run is not None else None
            if failed is not None:
                return _failure_lines(failed, policy)
            if run is not None and run.verdict.waiting_for_consent:  # the user said no (RULES SID5)
                return literal(run.verdict.headline, multiline=True, style="bold $warning")
            if live:
                return Content("\n").join(live)
            if self.sia.read_only:
                return Content.styled("No task in this recorded session.", "$text-muted")
            return Content.styled("No task yet.", "$text-muted")
        task = run.task
        lines = [
            Content.assemble(
                ("task ", "bold"),
                literal(task.id),
                "  state ",
                literal(self._live_state(run), style="bold $accent"),
                literal(f"  mode {run.mode or '?'}"),
            )
        ]
        lines.extend(_verdict_banner(run, policy))
        reception = run.evidence(ReceptionEvidence)
        status_log = reception.status_log if reception is not None else []
        if status_log:
            lines.append(
                Content.styled("status: ", "$text-muted") + literal(" → ".join(status_log[-6:]))
            )
        elif live:
            lines.extend(live)
        return Content("\n").join(lines)

    def _show_push(self, run: Run | None) -> None:
        """The push timeline beside the stream or poll events, when the run asked for it."""
        pane = self.query_one("#push", Static)
        log = run.push if run is not None else None
        pane.display = log is not None
        if log is None:
            return
        pane.border_title = PUSH_TITLES.get(log.receiver, "Push")
        wire = dict(run.answers.wire.pushes) if run is not None else {}
        pane.update(push_timeline(log, self.policy, wire))

    def _live_state(self, run: Run) -> str:
        """The task's state, or the newest streamed one while the task is still running."""
        state = run.task.state if run.task is not None else "?"
        if run.task is not None and not run.task.terminal:
            for event in reversed(run.live_events):
                newer = event.state or (event.task.state if event.task else None)
                if newer:
                    return newer
        return state

    def _no_result(self, run: Run | None) -> Content:
        """Why there is no result: the failing step, a task still running, or nothing sent."""
        failed = run.failed_step if run is not None else None
        asked = run.verdict.open_turn if run is not None else None
        if asked is not None:
            return self.policy.literal(
                f"No result yet: the task waits for {asked.needs}; answer it above.",
                style="bold $warning",
            )
        if run is not None and run.task is not None and not run.task.terminal and failed is None:
            return self.policy.literal(
                f"task {self._live_state(run)}… (waiting for the final result)",
                style="bold $accent",
            )
        if failed is not None:
            return Content("\n").join(
                [Content.styled("No result.", "bold"), _failure_lines(failed, self.policy)]
            )
        if run is not None and run.task is not None:
            return self.policy.literal(f"No result: the task ended {run.task.state}.")
        if self.sia.read_only:
            return Content.styled(
                "No result: this recorded session invoked nothing.", "$text-muted"
            )
        if lacks_extension(run):
            return Content.styled(f"No result: no schema interface. {CONSOLE_OFFER}", "$warning")
        return Content.styled(
            f"No result yet. Invoke the skill on screen {mode_key('invoke')}.", "$text-muted"
        )

    def _streamed_records(self, run: Run | None, shown: _Texts) -> list[Block]:
        """The artifacts step 10 did not check (streamed so far, or received before the
        task was cancelled or step 9 stopped), marked as such; else the empty notice."""
        unchecked = run.answers.unchecked_artifacts if run is not None else None
        literal = self.policy.literal
        if unchecked is None:
            return [Content("No supporting records.")]
        streamed = list(unchecked.artifacts)
        head = [Content.styled(unchecked.why, "italic $text-muted")]
        if len(streamed) > STREAMED_SHOWN:  # a flood of artifacts: the newest ones
            head.append(literal(f"{len(streamed) - STREAMED_SHOWN} earlier artifact(s) not shown"))
            streamed = streamed[-STREAMED_SHOWN:]
        blocks: list[Block] = [Content("\n").join(head)]
        for artifact in streamed:
            blocks.append(
                Content.assemble(
                    literal(artifact.artifact_id, style="bold"), "  ", literal(artifact.name or "")
                )
            )
            blocks.append(self._text_of(artifact, shown))
        return blocks

    def _show_error(self, run: Run | None) -> None:
        table = self.query_one("#error-table", DataTable)
        summary = self.query_one("#error-summary", Static)
        literal, literal_text = self.policy.literal, self.policy.literal_text
        table.clear()
        error = run.answers.task_error if run is not None else None
        summary.display = error is not None
        if error is None:
            table.display = False
            return
        # The agent reported it: remote, whichever step held it (8 REJECTED, 9 FAILED).
        code = error.code or "(no code)"
        info = describe_code(code)
        summary.update(
            Content("\n").join(
                [
                    Content.assemble(
                        ("code ", "bold"),
                        literal(code, style="bold $error"),
                        ("  state ", "bold"),
                        literal(error.state),
                        ("  origin ", "bold"),
                        (DetectedBy.REMOTE.value, "bold $accent"),
                        (f" (reported by the agent at step {error.step})", "$text-muted"),
                    ),
                    literal(error.message, multiline=True),
                    Content.styled(
                        info.meaning if info else "not one of the draft's ten codes",
                        "italic $text-muted",
                    ),
                ]
            )
        )
        table.display = bool(error.details)
        for detail in error.details:
            path = detail.get("instance_path")
            table.add_row(
                literal_text(display_pointer(path) if isinstance(path, str) else ""),
                *(
                    literal_text(detail.get(k, ""))
                    for k in ("schema_path", "keyword", "expected", "actual")
                ),
            )

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        run = self.sia.current_run
        refs = run.answers.record_refs if run else []
        if event.option_index >= len(refs) or run is None:
            return
        target = refs[event.option_index]
        ids = [r.artifact.artifact_id for r in run.records]
        if target not in ids:
            self.notify(f"No artifact with id {target!r} in this task.", severity="warning")
            return
        index = ids.index(target)
        if index >= len(listed(ids)[0]):
            self.notify(f"Record {target!r} is beyond those listed here.", severity="warning")
            return
        # Each record is two blocks, its header (with its verdict) and its text.
        pane = self.query_one("#records-body", BlocksView)
        pane.scroll_to(y=pane.row_of_block(2 * index), animate=False)
        pane.focus()
        self.notify(f"Jumped to record {target}")

    def on_reply_box_sent(self, event: ReplyBox.Sent) -> None:
        self.sia.reply_to_task(event.reply)

    def action_show_all(self) -> None:
        self.show_everything = True
        self.refresh_run()


def event_line(event: StreamEvent, policy: DisplayPolicy) -> Content:
    """One live line per streamed event: its kind, state and status text."""
    message = event.status_message or event.message
    texts = [str(p.value) for p in message.parts if p.kind == "text"] if message else []
    state = event.state or (event.task.state if event.task else "")
    name = event.artifact.name or event.artifact.artifact_id if event.artifact else ""
    return Content.assemble(
        ("⟳ ", "bold $accent"),
        policy.literal(f"{event.kind} ", style="bold"),
        policy.literal(f"{state} {name} {' '.join(texts)}".strip()),
    )


def push_timeline(
    log: PushLog, policy: DisplayPolicy, wire: Mapping[int, WireVerdict] | None = None
) -> Content:
    """The newest deliveries first (a small terminal still shows the last state), a wrong
    token or task in the error colour, under the note; each with its wire check."""
    literal = policy.literal
    style = "$warning" if log.error else "$text-muted"
    lines: list[Content] = [literal(log.note, multiline=True, style=style)]
    for delivery in reversed(log.deliveries[-PUSH_SHOWN:]):
        ok = delivery.token_ok and delivery.task_id_ok and delivery.problem is None
        lines.append(
            Content.assemble(
                ("✔ " if ok else "✘ ", "bold $success" if ok else "bold $error"),
                literal(delivery_line(delivery, (wire or {}).get(delivery.number))),
            )
        )
    return Content("\n").join(lines)


def _failure_lines(step: StepResult, policy: DisplayPolicy) -> Content:
    """The failing step's number, title, message and hint (RULES CP0: nothing ran after it)."""
    literal = policy.literal
    lines = [
        Content.assemble(
            (f"✘ step {step.step} failed: ", "bold $error"), literal(step.title, style="bold")
        ),
        literal(step.message, multiline=True),
    ]
    if step.hint:
        lines.append(Content.styled("hint: ", "bold") + literal(step.hint, multiline=True))
    return Content("\n").join(lines)


def _verdict_banner(run: Run, policy: DisplayPolicy) -> list[Content]:
    """The run's verdict above the panes: a remote COMPLETED is not the last word."""
    outcome = run.verdict.outcome
    if outcome is RunOutcome.NEGATIVE_TEST_PASSED:
        return [policy.literal("✔ " + run.verdict.headline, style="bold $success")]
    if outcome is RunOutcome.CANCELLED:
        return [policy.literal("⊗ " + run.verdict.headline, style="bold $warning")]
    failure = run.verdict.invocation_failure
    if failure is None:
        if run.verdict.negative_test:
            return [
                Content.styled(
                    "Deliberate negative test: invalid input was sent anyway.", "bold $warning"
                )
            ]
        return []
    # e.g. output_invalid (local) after the agent said COMPLETED (RULES INV9).
    return [
        Content.assemble(
            policy.literal(
                f"✘ step {failure.step} {failure.code or 'failed'}: ", style="bold $error"
            ),
            policy.literal(failure.why, multiline=True),
        )
    ]


def _verdict(verdict: ArtifactVerdict | None, schema: str, policy: DisplayPolicy) -> Content:
    """The result's own verdict with its located errors (pointer, keyword, message)."""
    if verdict is None:
        return Content.styled("· not checked yet (step 10 has not run)", "$text-muted")
    if verdict.valid:
        return Content.styled(f"✔ valid against {schema}", "bold $success")
    head = Content.styled(f"✘ does not validate against {schema}", "bold $error")
    return Content("\n").join([head, *finding_lines(verdict.findings, policy)])


def _not_listed(count: int, what: str) -> Content:
    """The closing line of a bounded list: how many were left out."""
    return Content.styled(f"{count} more {what}(s) not listed here", "italic $text-muted")


def _record_verdict(record: RecordResult, policy: DisplayPolicy) -> Content:
    """A record's own verdict (RULES INV6, CP10)."""
    if record.valid:
        return Content.styled("✔ valid against its record schema", "bold $success")
    head = Content.styled("✘ does not validate against its record schema", "bold $error")
    return Content("\n").join([head, *finding_lines(record.findings, policy)])
