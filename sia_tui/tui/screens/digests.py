"""Mode 3: the three-way interface digest, embedded schema digests, and canonical JCS bytes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.console import Group
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import DataTable, Static

from sia_tui.core.errors import SiaError
from sia_tui.core.interface import DigestSource
from sia_tui.core.jsonkit import canonical_bytes
from sia_tui.core.run import DigestEvidence, Run, embedded_schema_at
from sia_tui.tui.display import DEFAULT_VIEW_LIMIT, DisplayPolicy
from sia_tui.tui.highlight import json_content
from sia_tui.tui.jsontext import pretty_json
from sia_tui.tui.render.plain_a2a import lacks_extension, steps_do_not_apply
from sia_tui.tui.render.trust import lock_lines
from sia_tui.tui.screens.base import ZOOM, RunScreen
from sia_tui.tui.widgets.literal import LiteralStatic
from sia_tui.tui.widgets.literal_table import LiteralTable


@dataclass(frozen=True)
class TableRow:
    """One row on screen: a digest, the value it covers, and the engine's verdict on it."""

    label: str
    digest: str | None
    value: Any
    #: True when it agrees with every digest it is compared with, False when not, None: n/a.
    match: bool | None
    #: The verdict in words ("≠ both", "= returned"), so the odd one out is visible.
    verdict: str = ""
    #: The digest it is compared with, for underlining where the two first differ.
    compared_with: str | None = None
    #: What the value is, for the titles of the panes that show it.
    subject: str = "the document"


#: Short row labels: the verdict column must stay on screen beside a 71-character digest.
_SOURCE_LABELS = {
    DigestSource.ADVERTISED: "advertised in card",
    DigestSource.RETURNED: "returned by describe_skill",
    DigestSource.COMPUTED: "computed here",
}


def interface_rows(run: Run) -> list[TableRow]:
    """The engine's three-way rows (``Run.answers.digest_rows``, RULES CP4) with the document."""
    return [
        TableRow(
            _SOURCE_LABELS[row.source],
            row.digest,
            run.document,
            row.match,
            row.verdict,
            row.compared_with,
        )
        for row in run.answers.digest_rows
    ]


def first_difference(digest: str, other: str | None) -> int | None:
    """Index of the first character where ``digest`` and ``other`` differ (None: equal)."""
    if other is None or digest == other:
        return None
    for index, (mine, theirs) in enumerate(zip(digest, other, strict=False)):
        if mine != theirs:
            return index
    return min(len(digest), len(other))


def schema_rows(run: Run) -> tuple[list[TableRow], list[str], bool]:
    """Each embedded schema's declared vs computed digest (``Run.answers.schema_digests``, RULES
    CP6), the forensics lines, and whether step 6 checked them. When step 6 did not run (a
    failure at step 4) the engine still checks the document on request, so it can be
    compared schema by schema."""
    checked = run.answers.schema_digests
    rows, lines = [], []
    for check in checked.schemas:
        schema = embedded_schema_at(run.document, check.pointer)
        # Record kinds keep only their name: the full role would push the verdict off-screen.
        name = check.role.replace("supporting_record_schemas/", "")
        if len(name) > 24:
            name = name[:23] + "…"
        word = "= computed" if check.match else "≠ computed"
        subject = name
        rows.append(
            TableRow(
                f"{name} declared",
                check.declared,
                schema,
                check.match,
                word,
                None if check.match else check.computed,
                subject,
            )
        )
        rows.append(
            TableRow(
                f"{' ' * len(name)} computed",
                check.computed,
                schema,
                check.match,
                word.replace("computed", "declared"),
                None if check.match else check.declared,
                subject,
            )
        )
        if check.forensics is not None:
            lines.append(f"{check.role}: {check.forensics}")
    return rows, lines, checked.from_step or not rows


class DigestsScreen(RunScreen):
    """Compare digests, see the exact bytes that were hashed, and copy any of them."""

    HELP = (
        "The interface digest three ways (RULES CP4) and each embedded schema's digest "
        "(CP6). The panes below show the value of the highlighted row: pretty, and the "
        "canonical JCS bytes its digest is computed over. z hides the pretty pane."
    )
    BINDINGS = [
        Binding("c", "copy_digest", "Copy digest", id="digest.copy", tooltip="Copy the digest"),
        Binding(
            "C",
            "copy_canonical",
            "Copy JCS",
            id="digest.copy_canonical",
            tooltip="Copy the canonical text of the highlighted row's value",
        ),
        Binding(
            "w",
            "app.write_last_copy",
            "To file",
            id="digest.write_copy",
            tooltip="Write the last copy to a file (when the clipboard did not get it)",
        ),
        ZOOM,
    ]
    COLLAPSIBLE = "#pretty-pane"
    DEFAULT_CSS = """
    DigestsScreen DataTable { height: auto; max-height: 12; border: round $panel; }
    DigestsScreen #schemas { max-height: 30%; min-height: 5; }
    DigestsScreen DataTable:focus { border: round $primary; }
    DigestsScreen #forensics { height: auto; max-height: 30%; padding: 0 1; overflow-y: auto; }
    DigestsScreen #bytes { height: 1fr; min-height: 6; }
    DigestsScreen #bytes VerticalScroll { width: 1fr; border: round $panel; padding: 0 1; }
    DigestsScreen #canonical-body { width: 1fr; }
    """

    def __init__(self) -> None:
        super().__init__()
        self._rows: dict[str, list[TableRow]] = {"interface": [], "schemas": []}
        """Rows per table, in display order."""
        self._canonical_text = ""
        """The canonical text of the selected value (for copying)."""
        self._forensics: list[str] = []
        """Forensics verdicts for the interface digest."""
        self._odd_digest: str | None = None
        """Which interface digest is the odd one out, when two of three agree."""
        self._plain: Content | None = None
        """Why there are no digests at all: an agent without the extension."""
        self._lock: list[Content] = []
        """The interface against the contract lock (``--lock``), when one was given."""

    def compose_body(self) -> ComposeResult:
        with Vertical():
            yield LiteralTable(id="interface", cursor_type="row", zebra_stripes=True)
            yield LiteralStatic(id="forensics")
            yield LiteralTable(id="schemas", cursor_type="row", zebra_stripes=True)
            with Horizontal(id="bytes"):
                with VerticalScroll(id="pretty-pane"):
                    yield LiteralStatic(id="pretty-body")
                with VerticalScroll(id="canonical-pane"):
                    yield LiteralStatic(id="canonical-body")

    def on_mount(self) -> None:
        for table_id in ("interface", "schemas"):
            table = self.query_one(f"#{table_id}", DataTable)
            # The verdict before the digest: a 71-character digest may not fit 80 columns,
            # the verdict must (its differing tail is underlined where there is room).
            table.add_columns("digest of", "verdict", "digest")
        self.query_one("#interface", DataTable).border_title = "Interface digest (CP4)"
        self.query_one("#schemas", DataTable).border_title = "Embedded schemas (CP6)"
        self._title_panes(None)

    def show_run(self, run: Run | None) -> None:
        self._fill("interface", interface_rows(run) if run else [])
        self._forensics = []
        self._plain = steps_do_not_apply() if run is not None and lacks_extension(run) else None
        odd = run.answers.odd_one_out if run is not None else None
        self._odd_digest = f"{odd.statement} (RULES CP4)." if odd else None
        evidence = run.evidence(DigestEvidence) if run is not None else None
        if evidence is not None and evidence.forensics:
            about = f" ({evidence.forensics_of.value} digest)" if evidence.forensics_of else ""
            self._forensics.append(evidence.forensics + about)
        self._lock = lock_lines(run.answers.lock if run is not None else None, self.policy)
        self._show_forensics()
        self._select(self._focused_row())
        self._verify_schemas(run)

    def _fill(self, table_id: str, rows: list[TableRow]) -> None:
        self._rows[table_id] = rows
        table = self.query_one(f"#{table_id}", DataTable)
        cursor = table.cursor_row
        table.clear()
        colours = self.app.theme_variables
        literal_text = self.policy.literal_text
        labels = [literal_text(row.label) for row in rows]
        verdicts = [_verdict(row, colours) for row in rows]
        room = _digest_room(table, labels, verdicts)
        for label, verdict, row in zip(labels, verdicts, rows, strict=True):
            table.add_row(
                label, verdict, _digest_cell(row, colours, self.policy, room), height=None
            )
        if rows:
            # A redraw keeps the row the user was reading (the panes follow it).
            table.move_cursor(row=min(max(cursor, 0), len(rows) - 1), animate=False)

    def on_resize(self) -> None:
        # The digests wrap to the width the tables have now (a whole digest on each line
        # it takes, never one cut at the right edge).
        for table_id, rows in self._rows.items():
            self._fill(table_id, rows)

    def _show_forensics(self, extra: list[str] | None = None) -> None:
        literal = self.policy.literal
        lines = [
            Content.styled("Forensics: ", "bold $digest-mismatch") + literal(line)
            for line in self._forensics + (extra or [])
        ]
        if self._odd_digest:
            lines.insert(
                0,
                Content.styled("Three-way: ", "bold $digest-mismatch") + literal(self._odd_digest),
            )
        if self._plain is not None:
            lines.insert(0, self._plain)
        lines += self._lock
        panel = self.query_one("#forensics", Static)
        panel.display = bool(lines)
        panel.update(Content("\n").join(lines))

    @work(thread=True, exclusive=True, group="schema-digests")
    def _verify_schemas(self, run: Run | None) -> None:
        # The engine may canonicalize every embedded schema for a big document: off the UI.
        rows, verdicts, checked = schema_rows(run) if run is not None else ([], [], True)
        self.app.call_from_thread(self._schemas_ready, rows, verdicts, checked)

    def _schemas_ready(self, rows: list[TableRow], verdicts: list[str], checked: bool) -> None:
        table = self.query_one("#schemas", DataTable)
        table.border_title = (
            "Embedded schemas (CP6)"
            if checked
            else "Embedded schemas (CP6, checked here: step 6 did not run)"
        )
        self._fill("schemas", rows)
        self._show_forensics(verdicts)
        if self.focused is self.query_one("#schemas", DataTable):
            self._select(self._focused_row())

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        # Only the table the user is in drives the panes (a refill highlights rows too).
        reading = self.focused if isinstance(self.focused, DataTable) else None
        if (reading or self.query_one("#interface", DataTable)) is not event.data_table:
            return
        rows = self._rows.get(event.data_table.id or "", [])
        if 0 <= event.cursor_row < len(rows):
            self._select(rows[event.cursor_row])

    def on_descendant_focus(self) -> None:
        # Moving between the two tables shows the value of the row now highlighted.
        if isinstance(self.focused, DataTable):
            self._select(self._focused_row())

    def _title_panes(self, row: TableRow | None) -> None:
        """Name what the two panes show (the value of the highlighted row)."""
        # A record kind is agent text: a title of ``Content`` is never read as markup.
        subject = self.policy.literal(f": {row.subject}" if row is not None else "")
        self.query_one("#pretty-pane").border_title = Content("Pretty JSON") + subject
        self.query_one("#canonical-pane").border_title = Content("JCS bytes (RFC 8785)") + subject

    def _select(self, row: TableRow | None) -> None:
        value = row.value if row else None
        self._title_panes(row if value is not None else None)
        if value is None:
            self.query_one("#pretty-body", Static).update("No value to show yet.")
            self.query_one("#canonical-body", Static).update("")
            return
        self.query_one("#pretty-body", Static).update(
            json_content(pretty_json(value), self.policy, limit=DEFAULT_VIEW_LIMIT)
        )
        self._canonicalize(value)

    @work(thread=True, exclusive=True, group="canonical")
    def _canonicalize(self, value: Any) -> None:
        # A large document takes a while to canonicalize: never on the UI thread.
        try:
            text = canonical_bytes(value).decode("utf-8")
        except SiaError as exc:
            self.app.call_from_thread(self._show_canonical, "", str(exc))
            return
        self.app.call_from_thread(self._show_canonical, text, None)

    def _show_canonical(self, text: str, error: str | None) -> None:
        self._canonical_text = text
        body = self.query_one("#canonical-body", Static)
        if error is not None:
            body.update(
                Content.styled("Cannot canonicalize: ", "bold $error") + self.policy.literal(error)
            )
            return
        size = len(text.encode("utf-8"))
        header = Content.styled(f"{size:,} bytes (SHA-256 is over exactly these)\n", "bold")
        body.update(header + json_content(text, self.policy, limit=DEFAULT_VIEW_LIMIT))

    def _focused_row(self) -> TableRow | None:
        table = self.focused if isinstance(self.focused, DataTable) else None
        table = table or self.query_one("#interface", DataTable)
        rows = self._rows.get(table.id or "", [])
        return rows[table.cursor_row] if 0 <= table.cursor_row < len(rows) else None

    def action_copy_digest(self) -> None:
        row = self._focused_row()
        if row is None or row.digest is None:
            self.notify("No digest on this row.", severity="warning")
            return
        self.sia.copy_text(row.digest, f"the digest {row.label.strip()}")

    def action_copy_canonical(self) -> None:
        if not self._canonical_text:
            self.notify("No canonical text yet.", severity="warning")
            return
        self.sia.copy_text(self._canonical_text, "the canonical text")


#: The most lines a wrapped digest takes (a digest is 71 characters; an agent's may be
#: longer, and is then cut with "…").
DIGEST_LINES = 4


def _digest_room(table: DataTable[Any], labels: list[Text], verdicts: list[Text]) -> int | None:
    """How many characters of a digest fit on one line of ``table`` beside its label and
    verdict columns (None: the table has no width yet, nothing is wrapped)."""
    width = table.scrollable_content_region.width
    if width <= 0:
        return None
    padding = 2 * table.cell_padding
    used = sum(
        max((t.cell_len for t in column), default=0) + padding for column in (labels, verdicts)
    )
    # The digest column's own padding.
    return max(width - used - padding, 16)


def _digest_cell(
    row: TableRow, colours: dict[str, str], policy: DisplayPolicy, room: int | None
) -> Text | Group:
    """The digest, its tail underlined from where it first differs from the compared one;
    wrapped into lines of ``room`` characters when it is wider."""
    cell = policy.literal_text(row.digest or "—")
    start = first_difference(row.digest, row.compared_with) if row.digest else None
    if start is not None:
        # Digests often differ only in their last characters: point at them.
        cell.stylize(f"underline bold {colours.get('digest-mismatch', 'red')}", start)
    if room is None or cell.cell_len <= room:
        return cell
    room -= 2  # wrapped rows are taller: leave room for a vertical scrollbar
    if cell.cell_len > room * DIGEST_LINES:
        cell = cell[: room * DIGEST_LINES - 1] + Text("…")
    # Lines of rich Text, never a "\n" in one cell text (a literal cell shows it as a glyph).
    return Group(*cell.divide(range(room, len(cell.plain), room)))


def _verdict(row: TableRow, colours: dict[str, str]) -> Text:
    # rich Text so DataTable measures it exactly; colours are the theme's app variables.
    if row.match is None:
        return Text("—")
    if row.match:
        return Text(
            f"✔ {row.verdict}".rstrip(), style=f"bold {colours.get('digest-match', 'green')}"
        )
    return Text(f"✘ {row.verdict}".rstrip(), style=f"bold {colours.get('digest-mismatch', 'red')}")
