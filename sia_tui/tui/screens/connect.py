"""Connect: card URL or file, binding, headers/bearer, API key and OAuth2 client
credentials (secrets masked, never remembered), TLS, recent targets.

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

from sia_tui.core.a2a import (
    OAuth2Problem,
    OAuth2Refused,
    OAuth2Settings,
    defaults,
    oauth2_credentials,
)
from sia_tui.core.run import Target
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
    #: The card's apiKey scheme's key (the command line's --api-key).
    api_key: str | None = None
    #: OAuth2 client credentials (the command line's --oauth2-* flags).
    oauth2: OAuth2Settings | None = None


def oauth2_fields(
    client_id: str, secret: str, scopes: str, token_url: str, *, bearer: str | None
) -> OAuth2Settings | None:
    """The OAuth2 client credentials typed on the connect screen, by the rules the command
    line applies (``oauth2_credentials``); None when no field is filled. Raises ValueError,
    with what to do, for a half-filled set or one given beside a bearer token."""
    client_id, secret, token_url = client_id.strip(), secret.strip(), token_url.strip()
    if not (client_id or secret or scopes.strip() or token_url):
        return None
    try:
        return oauth2_credentials(
            client_id, secret, scopes.replace(",", " ").split(), token_url, bearer=bearer
        )
    except OAuth2Refused as exc:
        if exc.problem is OAuth2Problem.WITH_BEARER:
            raise ValueError(
                "Give a bearer token or OAuth2 client credentials, not both."
            ) from None
        raise ValueError(
            "OAuth2 client credentials need both the client id and its secret."
        ) from None


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
        # Not ctrl+s: that saves the session on every other screen.
        Binding("ctrl+j", "submit", "Connect", id="connect.submit"),
    ]
    DEFAULT_CSS = """
    ConnectScreen { align: center middle; }
    ConnectScreen > Vertical {
        width: 90; max-width: 100%; height: auto; max-height: 100%;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    ConnectScreen VerticalScroll { height: auto; max-height: 75vh; }
    ConnectScreen Label { margin-top: 1; color: $text-muted; }
    ConnectScreen Label.first { margin-top: 0; }
    ConnectScreen Input { margin: 0 0 0 1; }
    ConnectScreen #recent { height: auto; max-height: 5; }
    ConnectScreen Horizontal { height: auto; }
    ConnectScreen #binding-label, ConnectScreen #deadline-label { margin: 1 1 0 0; }
    ConnectScreen #deadline { width: 8; margin: 1 2 0 0; }
    ConnectScreen #binding { width: 22; margin: 1 2 0 0; }
    ConnectScreen #insecure { margin-top: 1; }
    ConnectScreen .pair Label { margin: 1 1 0 0; }
    ConnectScreen .pair Input { width: 1fr; margin: 1 1 0 0; }
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
                # Next to the location it fills, above the credentials that scroll.
                if self.recent:
                    yield Label("Recent targets (Enter to use)")
                    yield LiteralOptionList(
                        *(policy_of(self.app).literal(r) for r in self.recent),
                        id="recent",
                    )
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
                    insecure = SpaceCheckbox("insecure TLS", id="insecure", compact=True)
                    insecure.tooltip = (
                        "No TLS certificate verification (the command line's --insecure)"
                    )
                    yield insecure
                yield Label("Headers (Name: value; Other: value)")
                yield LiteralInput(
                    placeholder="X-Tenant: blue", id="headers", password=True, compact=True
                )
                yield Label("Bearer token")
                yield LiteralInput(placeholder="(none)", id="bearer", password=True, compact=True)
                yield Label("API key (for the card's apiKey scheme)")
                yield LiteralInput(placeholder="(none)", id="api-key", password=True, compact=True)
                yield Label("OAuth2 client credentials (a token is fetched and sent as the bearer)")
                with Horizontal(classes="pair"):
                    yield Label("client id")
                    yield LiteralInput(placeholder="(none)", id="oauth2-id", compact=True)
                    yield Label("secret")
                    yield LiteralInput(
                        placeholder="(none)", id="oauth2-secret", password=True, compact=True
                    )
                with Horizontal(classes="pair"):
                    yield Label("scopes")
                    yield LiteralInput(placeholder="the card's", id="oauth2-scopes", compact=True)
                    yield Label("token URL")
                    yield LiteralInput(
                        placeholder="the card's", id="oauth2-token-url", compact=True
                    )
                yield Label("Secret values, separated by ; (masked on screen, redacted when saved)")
                yield LiteralInput(placeholder="(none)", id="secrets", password=True, compact=True)
            with Horizontal(id="buttons"):
                yield Button("Connect (ctrl+j)", variant="primary", id="go", compact=True)
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
        field = self.query_one
        try:
            oauth2 = oauth2_fields(
                field("#oauth2-id", Input).value,
                field("#oauth2-secret", Input).value,
                field("#oauth2-scopes", Input).value,
                field("#oauth2-token-url", Input).value,
                bearer=bearer,
            )
        except ValueError as exc:
            self.notify(str(exc), severity="warning")
            return
        self.dismiss(
            ConnectRequest(
                Target(location, binding=binding if isinstance(binding, str) and binding else None),
                headers=parse_headers(self.query_one("#headers", Input).value),
                bearer=bearer,
                insecure=self.query_one("#insecure", Checkbox).value,
                secret_values=parse_secret_values(self.query_one("#secrets", Input).value),
                deadline=deadline,
                api_key=field("#api-key", Input).value.strip() or None,
                oauth2=oauth2,
            )
        )
