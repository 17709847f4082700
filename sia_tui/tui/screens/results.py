"""Mode 6: the primary result and the supporting records side by side, or the error table."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import DataTable, OptionList, Static
from textual.widgets.option_list import Option

from sia_tui.core.a2a.model import Artifact, StreamEvent
from sia_tui.core.codes import describe_code
from sia_tui.core.engine.model import Run, StepResult, StepStatus
from sia_tui.tui.display import DEFAULT_VIEW_LIMIT, literal, literal_text
from sia_tui.tui.highlight import json_content, pretty_json
from sia_tui.tui.render.evidence import finding_lines
from sia_tui.tui.screens.base import RunScreen

#: Member of the output that names supporting records by artifactId (WIRE.md).
REFS_MEMBER = "supporting_record_refs"

#: Streamed artifacts shown while the task runs (all are validated when it ends).
STREAMED_SHOWN = 20


def artifact_value(artifact: Artifact) -> Any:
    """The artifact's data part (one value), else its raw JSON."""
    data = artifact.data_parts()
    return data[0] if len(data) == 1 else artifact.raw


def record_refs(run: Run) -> list[str]:
    """Every artifact id the result's ``supporting_record_refs`` names."""
    if run.result is None:
        return []
    value = artifact_value(run.result)
    refs = value.get(REFS_MEMBER) if isinstance(value, dict) else None
    return [str(r) for r in refs] if isinstance(refs, list) else []


class ResultsScreen(RunScreen):
    """What the skill returned, each part with its own verdict; links jump to records."""

    HELP = (
        "The result artifact (left) and the supporting records (right). Select a link "
        "to jump to the record it names."
    )
    BINDINGS = [
        Binding("a", "show_all", "Show all", id="results.show_all"),
        Binding("x", "app.cancel_task", "Cancel task", id="results.cancel"),
    ]
    DEFAULT_CSS = """
    ResultsScreen #status { height: auto; max-height: 6; padding: 0 1; }
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

    def compose_body(self) -> ComposeResult:
        with Vertical():
            yield Static(id="status")
            yield Static(id="error-summary")
            yield DataTable(id="error-table", cursor_type="row")
            with Horizontal():
                with Vertical(classes="pane", id="result-pane"):
                    yield OptionList(id="links")
                    with VerticalScroll():
                        yield Static(id="result-body")
                with VerticalScroll(classes="pane", id="records-pane"):
                    yield Static(id="records-body")

    def on_mount(self) -> None:
        self.query_one("#result-pane").border_title = "Result"
        self.query_one("#records-pane").border_title = "Supporting records"
        self.query_one("#links").border_title = "supporting_record_refs"
        table = self.query_one("#error-table", DataTable)
        table.add_columns("instance_path", "schema_path", "keyword", "expected", "actual")
        table.border_title = "details"
        table.display = False
        self.query_one("#error-summary").display = False

    def show_run(self, run: Run | None) -> None:
        self.query_one("#status", Static).update(self._status(run))
        self._show_error(run)
        limit = None if self.show_everything else DEFAULT_VIEW_LIMIT
        links = self.query_one("#links", OptionList)
        links.clear_options()
        result_body = self.query_one("#result-body", Static)
        if run is None or run.result is None:
            result_body.update(self._no_result(run))
            links.display = False
        else:
            verdict = run.steps[9]
            result_body.update(
                _verdict(verdict.status is StepStatus.PASSED, [])
                + Content("\n")
                + literal(run.result.name or "", style="bold")
                + Content("\n")
                + json_content(pretty_json(artifact_value(run.result)), limit=limit)
            )
            refs = record_refs(run)
            links.display = bool(refs)
            for ref in refs:
                links.add_option(
                    Option(
                        Content.assemble(("→ ", "bold $accent"), literal(ref, style="underline")),
                        id=None,
                    )
                )
        records_body = self.query_one("#records-body", Static)
        if run is None or not run.records:
            records_body.update(self._streamed_records(limit))
            return
        blocks = []
        for record in run.records:
            blocks.append(
                Content.assemble(
                    literal(record.artifact.artifact_id, style="bold"),
                    "  kind ",
                    literal(record.kind or "(unknown)"),
                )
            )
            blocks.append(_verdict(record.valid, record.findings))
            blocks.append(json_content(pretty_json(artifact_value(record.artifact)), limit=limit))
        records_body.update(Content("\n").join(blocks))

    def _status(self, run: Run | None) -> Content:
        live = [_event_line(event) for event in self.sia.stream_log[-4:]]
        if run is None or run.task is None:
            failed = run.failed_step if run is not None else None
            if failed is not None:
                return _failure_lines(failed)
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
                f"  mode {run.mode or '?'}",
            )
        ]
        if run.send_anyway:
            lines.append(
                Content.styled(
                    "Deliberate negative test: invalid input was sent anyway.", "bold $warning"
                )
            )
        status_log = run.steps[8].evidence.get("status_log")
        if isinstance(status_log, list) and status_log:
            lines.append(
                Content.styled("status: ", "$text-muted")
                + literal(" → ".join(str(s) for s in status_log[-6:]))
            )
        elif live:
            lines.extend(live)
        return Content("\n").join(lines)

    def _live_state(self, run: Run) -> str:
        """The task's state, or the newest streamed one while the task is still running."""
        state = run.task.state if run.task is not None else "?"
        if run.task is not None and not run.task.terminal:
            for event in reversed(self.sia.stream_log):
                newer = event.state or (event.task.state if event.task else None)
                if newer:
                    return newer
        return state

    def _no_result(self, run: Run | None) -> Content:
        """Why there is no result: the failing step, a task still running, or nothing sent."""
        failed = run.failed_step if run is not None else None
        if run is not None and run.task is not None and not run.task.terminal and failed is None:
            return Content.styled(
                f"task {self._live_state(run)}… (waiting for the final result)", "bold $accent"
            )
        if failed is not None:
            return Content("\n").join(
                [Content.styled("No result.", "bold"), _failure_lines(failed)]
            )
        if run is not None and run.task is not None:
            return literal(f"No result: the task ended {run.task.state}.")
        if self.sia.read_only:
            return Content.styled(
                "No result: this recorded session invoked nothing.", "$text-muted"
            )
        return Content.styled("No result yet. Invoke the skill on screen 5.", "$text-muted")

    def _streamed_records(self, limit: int | None) -> Content:
        """Artifacts streamed so far (validated once the task ends), or the empty notice."""
        streamed = [e.artifact for e in self.sia.stream_log if e.artifact is not None]
        if not streamed:
            return Content("No supporting records.")
        blocks = [Content.styled("streaming: validated when the task ends", "italic $text-muted")]
        if len(streamed) > STREAMED_SHOWN:  # a flood of artifacts: the newest ones
            blocks.append(
                literal(f"{len(streamed) - STREAMED_SHOWN} earlier artifact(s) not shown")
            )
            streamed = streamed[-STREAMED_SHOWN:]
        for artifact in streamed:
            blocks.append(
                Content.assemble(
                    literal(artifact.artifact_id, style="bold"), "  ", literal(artifact.name or "")
                )
            )
            blocks.append(json_content(pretty_json(artifact_value(artifact)), limit=limit))
        return Content("\n").join(blocks)

    def _show_error(self, run: Run | None) -> None:
        table = self.query_one("#error-table", DataTable)
        summary = self.query_one("#error-summary", Static)
        table.clear()
        error = None
        holder = None
        for number in (8, 9):
            if run is not None and "error" in run.steps[number - 1].evidence:
                holder = run.steps[number - 1]
                error = holder.evidence["error"]
        summary.display = isinstance(error, dict)
        if not isinstance(error, dict) or run is None:
            table.display = False
            return
        # The origin is the one of the step holding the agent's error (8 REJECTED, 9 FAILED),
        # not of step 7: after "send anyway" the agent's input_invalid is remote.
        origin = holder.origin.value if holder and holder.origin else "remote"
        state = run.task.state if run.task else "?"
        code = str(error.get("code") or "(no code)")
        info = describe_code(code)
        summary.update(
            Content("\n").join(
                [
                    Content.assemble(
                        ("code ", "bold"),
                        literal(code, style="bold $error"),
                        ("  state ", "bold"),
                        literal(state),
                        ("  origin ", "bold"),
                        (origin, "bold $accent"),
                    ),
                    literal(error.get("message") or "", multiline=True),
                    Content.styled(
                        info.meaning if info else "not one of the draft's ten codes",
                        "italic $text-muted",
                    ),
                ]
            )
        )
        details = error.get("details")
        table.display = isinstance(details, list) and bool(details)
        for detail in details if isinstance(details, list) else []:
            if isinstance(detail, dict):
                table.add_row(
                    *(
                        literal_text(detail.get(k, ""))
                        for k in ("instance_path", "schema_path", "keyword", "expected", "actual")
                    )
                )

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        run = self.sia.current_run
        refs = record_refs(run) if run else []
        if event.option_index >= len(refs) or run is None:
            return
        target = refs[event.option_index]
        ids = [r.artifact.artifact_id for r in run.records]
        if target not in ids:
            self.notify(
                f"No artifact with id {target!r} in this task.", severity="warning", markup=False
            )
            return
        # Each record takes its header, verdict and pretty lines; scroll to its header.
        pane = self.query_one("#records-pane", VerticalScroll)
        line = 0
        for record in run.records:
            if record.artifact.artifact_id == target:
                break
            line += 2 + pretty_json(artifact_value(record.artifact)).count("\n") + 1
        pane.scroll_to(y=line, animate=False)
        pane.focus()
        self.notify(f"Jumped to record {target}", markup=False)

    def action_show_all(self) -> None:
        self.show_everything = True
        self.refresh_run()


def _event_line(event: StreamEvent) -> Content:
    """One live line per streamed event: its kind, state and status text."""
    message = event.status_message or event.message
    texts = [str(p.value) for p in message.parts if p.kind == "text"] if message else []
    state = event.state or (event.task.state if event.task else "")
    name = event.artifact.name or event.artifact.artifact_id if event.artifact else ""
    return Content.assemble(
        ("⟳ ", "bold $accent"),
        (f"{event.kind} ", "bold"),
        literal(f"{state} {name} {' '.join(texts)}".strip()),
    )


def _failure_lines(step: StepResult) -> Content:
    """The failing step's number, title, message and hint (RULES CP0: nothing ran after it)."""
    lines = [
        Content.assemble(
            (f"✘ step {step.step} failed: ", "bold $error"), literal(step.title, style="bold")
        ),
        literal(step.message, multiline=True),
    ]
    if step.hint:
        lines.append(Content.styled("hint: ", "bold") + literal(step.hint, multiline=True))
    return Content("\n").join(lines)


def _verdict(valid: bool, findings: list[Any]) -> Content:
    if valid:
        return Content.styled("✔ valid against its schema", "bold $success")
    head = Content.styled("✘ does not validate against its schema", "bold $error")
    return Content("\n").join([head, *finding_lines(findings)])
