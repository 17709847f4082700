"""Connect: card URL or file, binding, headers/bearer (masked), TLS, recent targets.

Compact fields and a scrolling body with the buttons always on screen: the dialog fits an
80x24 terminal.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, OptionList, Select

from sia_tui.core.engine import Target, defaults
from sia_tui.tui.display import policy_of
from sia_tui.tui.widgets.choices import SpaceCheckbox
from sia_tui.tui.widgets.literal import LiteralInput, LiteralOptionList, LiteralSelect


@dataclass(frozen=True)
class ConnectRequest:
    """What the user filled in: the target and the client settings for it."""

    target: Target
    headers: tuple[tuple[str, str], ...] = ()
    bearer: str | None = None
    insecure: bool = False
    secret_values: tuple[str, ...] = ()
    #: Seconds the whole run may take (the command line's --deadline).
    deadline: float = defaults.DEADLINE


def parse_headers(text: str) -> tuple[tuple[str, str], ...]:
    """``Name: value; Other: value`` -> header pairs (entries without a colon are ignored)."""
    pairs = []
    for entry in text.split(";"):
        name, sep, value = entry.partition(":")
        if sep and name.strip():
            pairs.append((name.strip(), value.strip()))
    return tuple(pairs)


def parse_deadline(text: str) -> float | None:
    """Seconds as typed, or None when that is not a positive number."""
    try:
        seconds = float(text.strip())
    except ValueError:
        return None
    return seconds if 0 < seconds < float("inf") else None


def parse_secret_values(text: str) -> tuple[str, ...]:
    """``one; two`` -> the values, stripped, empty ones dropped."""
    return tuple(v.strip() for v in text.split(";") if v.strip())


class ConnectScreen(ModalScreen[ConnectRequest | None]):
    """Pick what to debug; Esc keeps the current target."""

    BINDINGS = [
        Binding("escape", "dismiss_none", "Cancel", id="connect.cancel"),
        Binding("ctrl+s", "submit", "Connect", id="connect.submit"),
    ]
    DEFAULT_CSS = """
    ConnectScreen { align: center middle; }
    ConnectScreen > Vertical {
        width: 90; max-width: 100%; height: auto; max-height: 100%;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    ConnectScreen VerticalScroll { height: auto; max-height: 1fr; }
    ConnectScreen Label { margin-top: 1; color: $text-muted; }
    ConnectScreen Label.first { margin-top: 0; }
    ConnectScreen Input { margin: 0 0 0 1; }
    ConnectScreen #recent { height: auto; max-height: 5; }
    ConnectScreen Horizontal { height: auto; }
    ConnectScreen #binding-label, ConnectScreen #deadline-label { margin: 1 1 0 0; }
    ConnectScreen #deadline { width: 8; margin: 1 2 0 0; }
    ConnectScreen #binding { width: 22; margin: 1 2 0 0; }
    ConnectScreen #insecure { margin-top: 1; }
    ConnectScreen #buttons { margin-top: 1; }
    ConnectScreen #buttons Button { margin-right: 2; }
    """

    def __init__(self, recent: list[str], deadline: float = defaults.DEADLINE) -> None:
        super().__init__()
        self.recent = recent
        """Recent targets, most recent first."""
        self.deadline = deadline
        """The deadline the field starts with (the command line's, or the default)."""

    def compose(self) -> ComposeResult:
        with Vertical():
            with VerticalScroll():
                yield Label(
                    "[b]Agent Card[/b]: base URL, card URL (.json) or local card file",
                    classes="first",
                )
                yield LiteralInput(placeholder="http://127.0.0.1:8000", id="location", compact=True)
                with Horizontal():
                    yield Label("binding", id="binding-label")
                    yield LiteralSelect(
                        [
                            ("first callable", ""),
                            ("JSONRPC", "jsonrpc"),
                            ("HTTP+JSON", "http-json"),
                            ("gRPC", "grpc"),
                        ],
                        id="binding",
                        allow_blank=False,
                        value="",
                        compact=True,
                    )
                    yield Label("deadline (s)", id="deadline-label")
                    deadline = LiteralInput(
                        f"{self.deadline:g}", id="deadline", type="number", compact=True
                    )
                    deadline.tooltip = "Seconds one run may take, whatever the agent declares"
                    yield deadline
                    yield SpaceCheckbox("insecure TLS (no verify)", id="insecure", compact=True)
                yield Label("Headers (Name: value; Other: value)")
                yield LiteralInput(
                    placeholder="X-Tenant: blue", id="headers", password=True, compact=True
                )
                yield Label("Bearer token")
                yield LiteralInput(placeholder="(none)", id="bearer", password=True, compact=True)
                yield Label("Secret values, separated by ; (masked on screen, redacted when saved)")
                yield LiteralInput(placeholder="(none)", id="secrets", password=True, compact=True)
                if self.recent:
                    yield Label("Recent targets (Enter to use)")
                    yield LiteralOptionList(
                        *(policy_of(self.app).literal(r) for r in self.recent),
                        id="recent",
                    )
            with Horizontal(id="buttons"):
                yield Button("Connect (ctrl+s)", variant="primary", id="go", compact=True)
                yield Button("Cancel (esc)", id="cancel", compact=True)

    def on_mount(self) -> None:
        self.query_one("#location", Input).focus()

    def on_input_submitted(self, _event: Input.Submitted) -> None:
        self.action_submit()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.query_one("#location", Input).value = self.recent[event.option_index]
        self.action_submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "go":
            self.action_submit()
        else:
            self.dismiss(None)

    def action_dismiss_none(self) -> None:
        self.dismiss(None)

    def action_submit(self) -> None:
        location = self.query_one("#location", Input).value.strip()
        if not location:
            self.notify("Type a card URL or file first.", severity="warning")
            return
        deadline = parse_deadline(self.query_one("#deadline", Input).value)
        if deadline is None:
            self.notify("The deadline must be a positive number of seconds.", severity="warning")
            return
        binding = self.query_one("#binding", Select).value
        bearer = self.query_one("#bearer", Input).value.strip() or None
        self.dismiss(
            ConnectRequest(
                Target(location, binding=binding if isinstance(binding, str) and binding else None),
                headers=parse_headers(self.query_one("#headers", Input).value),
                bearer=bearer,
                insecure=self.query_one("#insecure", Checkbox).value,
                secret_values=parse_secret_values(self.query_one("#secrets", Input).value),
                deadline=deadline,
            )
        )
