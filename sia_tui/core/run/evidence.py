"""The typed evidence of step 1, and the small types every step's evidence and a run's
answers use (the step's status, the failure's category, the next action, the blame).

Every step stores exactly one evidence class (``kind`` tells them apart in a session
file); surfaces read their members by name, never by position or by string key. Steps
2-11's classes are in ``later_evidence.py``: `sia-tui open URL` runs step 1 and shows the
card without building them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Literal

# Only a signed card makes these (session/dataclass_json resolves them when a session
# holds one).
if TYPE_CHECKING:
    from sia_tui.core.trust.records import SignatureCheck


class StepStatus(StrEnum):
    """The state of one step. RUNNING exists only while a step executes."""

    PASSED = "passed"
    FAILED = "failed"
    SKIPPED = "skipped"
    NOT_RUN = "not_run"
    RUNNING = "running"
    #: The user asked for the task to be cancelled and the agent did (step 9).
    CANCELLED = "cancelled"


class FailureCategory(StrEnum):
    """What kind of failure a failed step is (WIRE.md: transport failures are not codes)."""

    #: One of the draft's ten codes applies.
    DRAFT = "draft"
    #: No usable answer: refused, timed out, too large, not JSON, not A2A.
    TRANSPORT = "transport"
    #: The agent ended the task without a draft code (or stopped for input).
    REMOTE = "remote"
    #: What the user asked for cannot be done (no skill chosen, undeclared mode, no example).
    USAGE = "usage"
    #: sia-tui itself failed: a bug to report.
    INTERNAL = "internal"
    #: A trust anchor the user gave is not met: no verified card signature although one
    #: is required, or the interface drifted from its contract lock (docs/TRUST.md).
    TRUST = "trust"


class NextAction(StrEnum):
    """Where to look next after a step; each surface names its own key or command for it."""

    SHOW_DIGESTS = "digests"
    SHOW_DOCUMENT = "document"
    EDIT_ARGUMENTS = "arguments"
    SHOW_RESULTS = "results"
    SHOW_EXCHANGE = "exchange"
    CHOOSE_SKILL = "skill"
    RESTART = "restart"
    REPORT = "report"


class Party(StrEnum):
    """Who is at fault when a step fails."""

    #: The agent under test: its card, its documents, its tasks.
    AGENT = "agent"
    #: What was asked of it: the arguments, the credentials, the chosen skill or mode.
    CALLER = "caller"
    #: Nobody answered: the connection was refused or timed out.
    NETWORK = "network"
    #: sia-tui itself (a bug to report).
    TOOL = "sia-tui"
    #: A limit of this client's own policy was reached (a flag raises it); nobody broke a
    #: rule of the draft.
    LIMIT = "limit"


@dataclass(kw_only=True)
class Blame:
    """Who is at fault and why, in one sentence every surface shows as is."""

    party: Party
    statement: str

    @property
    def text(self) -> str:
        """``agent: the agent's digest ...``: the party, a colon, the statement, as every
        surface writes it (the reports, the TUI), so none of them writes it its own way."""
        return f"{self.party.value}: {self.statement}"


@dataclass(kw_only=True)
class CardEvidence:
    """Step 1 (CP1): the card that was read and the endpoint chosen."""

    kind: Literal["card"] = "card"
    card_url: str
    agent: str
    card_dialect: str
    interfaces: list[str] = field(default_factory=list)
    extension: bool = False
    warnings: list[str] = field(default_factory=list)
    selected_interface: str | None = None
    #: One verdict per entry of the card's ``signatures``, in order (A2A 1.0 section 8.4).
    signatures: list[SignatureCheck] = field(default_factory=list)
    #: What the extended card (GetExtendedAgentCard) added, when it was fetched and used.
    extended_card: str | None = None
