"""Mode 4: the Skill Interface Document as a tree, each schema readable on the right."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.widgets import Static, Tree
from textual.widgets.tree import TreeNode

from sia_tui.core.run import Run
from sia_tui.tui.display import DEFAULT_VIEW_LIMIT, DisplayPolicy
from sia_tui.tui.highlight import json_content
from sia_tui.tui.jsontext import pretty_json
from sia_tui.tui.modes import mode_key
from sia_tui.tui.render.plain_a2a import lacks_extension, steps_do_not_apply
from sia_tui.tui.render.schema import schema_content
from sia_tui.tui.screens.base import ZOOM, RunScreen
from sia_tui.tui.widgets.literal import LiteralStatic, LiteralTree, tree_label

#: Shown with the authority member (RULES SID5).
AUTHORITY_NOTE = (
    "Authority DESCRIBES the skill's posture; it does not permit anything. It is "
    "never a permission, credential or approval (RULES SID5)."
)


class DocumentScreen(RunScreen):
    """Browse the document the agent returned: schemas, interaction, constraints, authority."""

    HELP = "The Skill Interface Document. Pick a node on the left to read it on the right."
    BINDINGS = [
        Binding("j", "toggle_json", "JSON", id="document.json", tooltip="Readable or raw JSON"),
        ZOOM,
    ]
    COLLAPSIBLE = "#doc-tree"
    DEFAULT_CSS = """
    DocumentScreen Tree { width: 2fr; min-width: 24; max-width: 44; border: round $panel; }
    DocumentScreen Tree:focus { border: round $primary; }
    DocumentScreen #detail { width: 3fr; border: round $panel; padding: 0 1; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.as_json = False
        """Show the selected node as raw JSON instead of the readable view."""
        self._selected: tuple[str, Any] | None = None
        """(kind, value) of the selected node."""
        self._shown_document: object = None
        """The document the tree was built from (rebuilt only when it changes)."""

    def compose_body(self) -> ComposeResult:
        with Horizontal():
            yield LiteralTree("document", id="doc-tree")
            with VerticalScroll(id="detail"):
                yield LiteralStatic(id="detail-body")

    def show_run(self, run: Run | None) -> None:
        document = run.document if run else None
        if document is self._shown_document:
            return
        self._shown_document = document
        tree: Tree[tuple[str, Any]] = self.query_one(Tree)
        tree.clear()
        if not isinstance(document, dict):
            tree.root.set_label(Text("no document yet"))
            self.query_one("#detail-body", Static).update(
                steps_do_not_apply()
                if run is not None and lacks_extension(run)
                else f"Run steps 1-3 (Steps screen {mode_key('steps')}, r) to fetch the Skill "
                "Interface Document."
            )
            return
        literal = self.policy.literal
        skill = f"{document.get('skill_id', '?')} {document.get('skill_version', '')}"
        tree.root.set_label(tree_label(literal(f"document {skill}")))
        tree.root.data = ("json", document)
        for key in ("input_schema", "output_schema"):
            if key in document:
                tree.root.add_leaf(key, data=("schema", document[key]))
        records = document.get("supporting_record_schemas")
        if isinstance(records, dict):
            branch = tree.root.add("supporting_record_schemas", data=("json", records), expand=True)
            for kind, ref in records.items():
                branch.add_leaf(tree_label(literal(kind)), data=("schema", ref))
        for key in ("interaction", "constraints"):
            if key in document:
                tree.root.add_leaf(key, data=("json", document[key]))
        if "authority" in document:
            tree.root.add_leaf(
                "authority (describes, does not permit)", data=("authority", document["authority"])
            )
        tree.root.expand()
        self._selected = None
        self._render_selected()

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted[tuple[str, Any]]) -> None:
        self._select_node(event.node)

    def _select_node(self, node: TreeNode[tuple[str, Any]]) -> None:
        self._selected = node.data
        self._render_selected()

    def _render_selected(self) -> None:
        body = self.query_one("#detail-body", Static)
        if self._selected is None:
            body.update(
                Content.styled(
                    "Pick a node on the left (arrows, Enter) to read it here: a schema is "
                    "shown readable (j: JSON), the document root as JSON.",
                    "$text-muted",
                )
            )
            return
        kind, value = self._selected
        if self.as_json or kind == "json":
            body.update(json_content(pretty_json(value), self.policy, limit=DEFAULT_VIEW_LIMIT))
        elif kind == "authority":
            body.update(
                Content.styled(AUTHORITY_NOTE, "bold $warning")
                + Content("\n\n")
                + json_content(pretty_json(value), self.policy, limit=DEFAULT_VIEW_LIMIT)
            )
        else:
            body.update(_reference_content(value, self.policy))

    def action_toggle_json(self) -> None:
        self.as_json = not self.as_json
        self._render_selected()


def _reference_content(reference: Any, policy: DisplayPolicy) -> Content:
    """A Schema Reference: its identity lines, then the embedded schema made readable."""
    literal = policy.literal
    if not isinstance(reference, dict):
        return json_content(pretty_json(reference), policy, limit=DEFAULT_VIEW_LIMIT)
    lines = [
        Content.assemble((f"{key:<11}", "bold $text-muted"), literal(reference.get(key)))
        for key in ("schema_uri", "version", "dialect", "digest")
        if key in reference
    ]
    lines.append(
        Content.styled(
            "(schema_uri is an identifier; it is never fetched, RULES SR7)", "$text-muted"
        )
    )
    resolution = reference.get("resolution")
    schema = resolution.get("schema") if isinstance(resolution, dict) else None
    lines.append(Content(""))
    lines.append(schema_content(schema, policy))
    lines.append(Content.styled("\n* required", "$text-muted"))
    return Content("\n").join(lines)
