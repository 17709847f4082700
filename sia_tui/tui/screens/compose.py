"""The chaining panel: composition verdict (RULES CMP1-CMP3) and a side-by-side interface diff.

A widget, so the Compose mode (``compose_mode.py``) is a plain ``RunScreen`` around it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, ClassVar

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Button, DataTable, Input, Select, Static

from sia_tui.core.compose import CompositionVerdict, SideError, check_composition, obtain_side
from sia_tui.core.engine import ClientOptions, strip_credentials
from sia_tui.core.interface_diff import Change, Impact, InterfaceDiff, diff_documents
from sia_tui.tui.display import DisplayPolicy, policy_of
from sia_tui.tui.widgets.columns import column_widths
from sia_tui.tui.widgets.literal import (
    LiteralInput,
    LiteralSelect,
    LiteralStatic,
    select_options,
)
from sia_tui.tui.widgets.literal_table import LiteralTable

#: Theme variable per impact (DataTable cells are rich Text, so they can wrap).
_IMPACT_COLOR = {Impact.BREAKING: "error", Impact.COMPATIBLE: "success", Impact.INFO: "secondary"}


#: Longest value shown in a cell; longer ones are cut (they wrap up to this length).
_VALUE_LIMIT = 400
#: Columns of fixed width per table; None shares the rest of the width equally.
_FIELD_COLUMNS: tuple[tuple[str, int | None], ...] = (
    ("field", 14),
    ("upstream output", None),
    ("downstream input", None),
    ("", 10),
)
_CHANGE_COLUMNS: tuple[tuple[str, int | None], ...] = (
    ("impact", 10),
    ("member", None),
    ("A", None),
    ("B", None),
    ("why", None),
)


def _value(value: Any, policy: DisplayPolicy, style: str = "") -> Text:
    """A JSON value for a cell, as JSON (never a Python repr): literal text that wraps (agent
    data, RULES SR7: inert)."""
    if isinstance(value, str):
        text = value
    elif value is None:
        text = "—"
    else:
        text = json.dumps(value, ensure_ascii=False)
    if len(text) > _VALUE_LIMIT:
        text = text[: _VALUE_LIMIT - 3] + "..."
    return Text(policy.visible(text), style=style, overflow="fold")


class ComposePanel(Vertical):
    """Pick two skills; see whether one can feed the other, and what differs between them."""

    HELP = (
        "Left is the upstream skill (or diff side A), right the downstream skill (side B). "
        "Compose compares the upstream output Schema Reference with the downstream input "
        "one (RULES CMP1); Diff lists every change from A to B, breaking or compatible for "
        "a client, and checks the version rule (SID2). Each side is an agent URL or card "
        "file, or a Skill Interface Document, describe_skill payload or saved session file."
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f5", "run_compose", "Compose", id="compose.run"),
        Binding("f6", "run_diff", "Diff", id="compose.diff"),
    ]
    DEFAULT_CSS = """
    ComposePanel #form { height: auto; padding: 0 1; }
    ComposePanel #form Horizontal { height: 1; }
    ComposePanel #form Input { width: 2fr; margin-right: 1; }
    ComposePanel #form Select { width: 1fr; max-width: 36; }
    ComposePanel #form .side { width: 10; text-style: bold; }
    ComposePanel #form #buttons { margin-top: 1; }
    ComposePanel #form Button { margin-right: 2; }
    ComposePanel #verdict { height: auto; padding: 0 1; border: round $panel; }
    ComposePanel #verdict.allowed { border: round $success; }
    ComposePanel #verdict.refused { border: round $error; }
    ComposePanel #results { height: 1fr; }
    ComposePanel DataTable { height: auto; max-height: 24; border: round $panel; }
    ComposePanel DataTable:focus { border: round $primary; }
    ComposePanel #version { height: auto; padding: 0 1; }
    """

    def __init__(self, options: ClientOptions | None = None) -> None:
        super().__init__(id="compose-panel")
        self.options = options
        """Client settings; None uses the app's ``options`` (or safe defaults)."""
        self.verdict: CompositionVerdict | None = None
        """The last composition verdict shown."""
        self.diff: InterfaceDiff | None = None
        """The last interface diff shown."""
        self.refuse: Callable[[], bool] = lambda: False
        """Asked before fetching; True (after telling the user why) sends nothing."""
        self._behind: dict[str, str] = {}
        """Agent locations as shown (no password) -> the location they stand for."""

    def set_agent(self, side: str, location: str) -> None:
        """Fill ``side``'s agent field: shown without ``user:password@`` (the screen may be
        shared or recorded), while what is fetched is still ``location`` itself."""
        shown = strip_credentials(location)
        self._behind[shown] = location
        self.query_one(f"#{side}-card", Input).value = shown

    def agent_location(self, shown: str) -> str:
        """The location an agent field's text stands for (typed text stands for itself)."""
        return self._behind.get(shown, shown)

    def compose(self) -> ComposeResult:
        with Vertical(id="form"):
            for side, label in (("left", "up / A"), ("right", "down / B")):
                with Horizontal():
                    yield LiteralStatic(label, classes="side")
                    yield LiteralInput(
                        placeholder="agent URL or card file", id=f"{side}-card", compact=True
                    )
                    yield LiteralInput(
                        placeholder="skill id", id=f"{side}-skill", classes="skill", compact=True
                    )
                    yield LiteralSelect[str]([], prompt="skills", id=f"{side}-pick", compact=True)
            with Horizontal(id="buttons"):
                yield Button("Compose (F5)", id="compose", variant="primary", compact=True)
                yield Button("Diff (F6)", id="diff", compact=True)
        with VerticalScroll(id="results"):
            yield LiteralStatic(id="verdict")
            yield LiteralTable(id="fields", cursor_type="row", zebra_stripes=True)
            yield LiteralTable(id="changes", cursor_type="row", zebra_stripes=True)
            yield LiteralStatic(id="version")

    @property
    def policy(self) -> DisplayPolicy:
        """The app's display policy (secrets masked)."""
        return policy_of(self.app)

    def on_mount(self) -> None:
        self._add_columns()
        self.query_one("#verdict").border_title = "Composition (CMP1-CMP3)"
        self.query_one("#fields").border_title = "Schema Reference identity"
        self.query_one("#changes").border_title = "Changes A -> B"
        self.query_one("#verdict", Static).update("Enter two skills, then Compose or Diff.")
        # Each result table appears once it has something to show.
        for widget_id in ("#fields", "#changes", "#version"):
            self.query_one(widget_id).display = False

    def _add_columns(self) -> None:
        # Explicit widths sized to the screen: values wrap inside them instead of being cut.
        width = self.size.width or 120
        for table_id, columns in (("#fields", _FIELD_COLUMNS), ("#changes", _CHANGE_COLUMNS)):
            table = self.query_one(table_id, DataTable)
            table.clear(columns=True)
            for (label, _), size in zip(columns, column_widths(width, columns), strict=True):
                table.add_column(label, width=size)

    def on_resize(self, _event: events.Resize) -> None:
        self._add_columns()
        if self.verdict is not None:
            self._fill_fields(self.verdict)
        if self.diff is not None:
            self._fill_changes(self.diff)

    def set_skill_choices(self, side: str, skills: list[str]) -> None:
        """Offer ``skills`` in the picker of ``side`` ("left" or "right")."""
        picker: Select[str] = self.query_one(f"#{side}-pick", Select)
        literal = self.policy.literal
        picker.set_options(select_options((literal(skill), skill) for skill in skills))

    def on_select_changed(self, event: Select.Changed) -> None:
        # Picking a skill fills the skill id field beside it.
        side = (event.select.id or "").removesuffix("-pick")
        if side in ("left", "right") and isinstance(event.value, str):
            self.query_one(f"#{side}-skill", Input).value = event.value

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "compose":
            self.action_run_compose()
        elif event.button.id == "diff":
            self.action_run_diff()

    def action_run_compose(self) -> None:
        """Fetch both documents and show the composition verdict."""
        if not self.refuse():
            self._fetch_and_show("compose")

    def action_run_diff(self) -> None:
        """Fetch both documents and show the side-by-side diff."""
        if not self.refuse():
            self._fetch_and_show("diff")

    def _sides(self) -> list[str] | None:
        values = [
            self.query_one(f"#{i}", Input).value.strip()
            for i in ("left-card", "left-skill", "right-card", "right-skill")
        ]
        if not all(values):
            self.notify("Fill in both agents and both skill ids.", severity="warning")
            return None
        # The fields show an agent without user:password@; it is fetched with them.
        return [
            self.agent_location(values[0]),
            values[1],
            self.agent_location(values[2]),
            values[3],
        ]

    @work(exclusive=True, group="compose")
    async def _fetch_and_show(self, what: str) -> None:
        sides = self._sides()
        if sides is None:
            return
        options = self.options or getattr(self.app, "options", None) or ClientOptions()
        verdict = self.query_one("#verdict", Static)
        verdict.set_classes("")
        verdict.update("Fetching and validating both documents...")
        left_side, right_side = ("upstream", "downstream") if what == "compose" else ("A", "B")
        # An agent (card URL or file), or a document, payload or session file: as the CLI.
        try:
            left = await obtain_side(left_side, sides[0], sides[1], options)
            right = await obtain_side(right_side, sides[2], sides[3], options)
        except SideError as exc:
            self._show_failure([str(exc)])
            return
        if what == "compose":
            self.show_verdict(
                check_composition(
                    left.document,
                    right.document,
                    upstream_task_id=left.task_id,
                    downstream_task_id=right.task_id,
                )
            )
        else:
            self.show_diff(diff_documents(left.document, right.document))

    def _show_failure(self, failures: list[str]) -> None:
        verdict = self.query_one("#verdict", Static)
        verdict.set_classes("refused")
        verdict.update(
            Content.styled("Could not obtain a document:\n", "bold $error")
            + self.policy.literal("\n".join(failures), multiline=True)
        )

    def show_verdict(self, verdict: CompositionVerdict) -> None:
        """Show a composition verdict: the four fields side by side, then why."""
        self.verdict = verdict
        panel = self.query_one("#verdict", Static)
        panel.set_classes("allowed" if verdict.composable else "refused")
        style = "bold $success" if verdict.composable else "bold $error"
        # The summary and the lines quote skill ids and findings: agent text.
        text = self.policy.literal(
            ("✔ " if verdict.composable else "✘ ") + verdict.summary(), style=style
        )
        lines = [
            f"upstream {verdict.upstream_skill} (task {verdict.upstream_task_id or '-'}) "
            f"-> downstream {verdict.downstream_skill} "
            f"(task {verdict.downstream_task_id or '-'})"
        ]
        lines += [f.message for f in verdict.digest_findings]
        lines += [f"looks alike: {reason}" for reason in verdict.look_alike]
        lines += verdict.notes
        panel.border_title = "Composition (CMP1-CMP3)"
        panel.update(text + self.policy.literal("\n" + "\n".join(lines), multiline=True))
        self._fill_fields(verdict)
        self._focus_below_verdict("#fields")

    def _focus_below_verdict(self, table_id: str) -> None:
        # The verdict stays in view: focusing the table must not scroll the results to it
        # (when it would, depends on when its rows are measured, so the screen varied).
        self.query_one(table_id, DataTable).focus(scroll_visible=False)
        self.query_one("#results", VerticalScroll).scroll_home(animate=False)

    def _color(self, variable: str) -> str:
        """A theme colour as a rich style (tables hold rich Text, not Content)."""
        return self.app.theme_variables.get(variable, "")

    def _fill_fields(self, verdict: CompositionVerdict) -> None:
        table = self.query_one("#fields", DataTable)
        table.display = True
        table.clear()
        for field in verdict.fields:
            mark = (
                Text("✔ equal", style=self._color("success"))
                if field.equal
                else Text("✘ differs", style="bold " + self._color("error"))
            )
            table.add_row(
                _value(field.name, self.policy),
                _value(field.upstream, self.policy),
                _value(field.downstream, self.policy),
                mark,
                height=None,
            )

    def show_diff(self, diff: InterfaceDiff) -> None:
        """Show every change with A's value beside B's, and the SID2 version verdict."""
        self.diff = diff
        self.query_one("#version").display = True
        version = diff.version
        panel = self.query_one("#verdict", Static)
        panel.set_classes("allowed" if version.follows and not diff.breaking else "refused")
        panel.update(
            Content.assemble(
                (
                    f"Diff A -> B: {len(diff.changes)} change(s), {len(diff.breaking)} breaking. ",
                    "bold",
                ),
                (
                    f"{len(diff.to_review)} to review: meaning may have changed. "
                    if diff.to_review
                    else "",
                    "bold $warning",
                ),
                ("Arrows and PageUp/PageDown scroll the table below.", "$text-muted"),
            )
        )
        panel.border_title = "Interface diff (SID2)"
        self._fill_changes(diff)
        self._focus_below_verdict("#changes")
        self.query_one("#version", Static).update(
            self.policy.literal(
                version.message, style="$success" if version.follows else "bold $error"
            )
            + self.policy.literal(
                f"   ({len(diff.breaking)} breaking of {len(diff.changes)} changes)"
            )
        )

    def _fill_changes(self, diff: InterfaceDiff) -> None:
        table = self.query_one("#changes", DataTable)
        table.display = True
        table.clear()
        for change in diff.changes:
            policy = self.policy
            colour = "bold " + self._color(_IMPACT_COLOR[change.impact])
            table.add_row(
                _value(change.impact.value, policy, colour),
                _value(f"{change.where} {change.aspect}", policy),
                _value(change.old, policy),
                _value(change.new, policy),
                self._why(change),
                height=None,
            )

    def _why(self, change: Change) -> Text:
        """The reason, then the meaning review (the verdict stands; a person reads it)."""
        why = _value(change.reason, self.policy)
        if change.review:
            why.append("\n")
            why.append_text(_value(change.review, self.policy, "bold " + self._color("warning")))
        return why
