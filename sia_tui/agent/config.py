"""Reference agent configuration and the catalogue of switchable faults."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Bindings = Literal["both", "jsonrpc", "http-json"]

#: Every fault the agent can simulate: name -> one-line description (``--fault list``).
FAULTS: dict[str, str] = {
    "digest-card": "the Agent Card advertises a wrong interface digest (step 4 fails)",
    "digest-response": "describe_skill returns a wrong interface_digest (step 4 fails)",
    "not-jcs": "digests computed over json.dumps (default separators) instead of JCS (step 4)",
    "schema-digest": "one embedded schema digest is wrong; interface digests agree (step 6)",
    "no-describe": "the Agent Card does not list describe_skill (step 2 fails)",
    "unavailable": "describe_skill answers FAILED interface_unavailable (step 3)",
    "output-invalid": "COMPLETED with a result outside the output enum (step 10)",
    "record-invalid": "the supporting record lacks observed_at (step 10)",
    "mismatch": "every invocation is REJECTED with interface_mismatch",
    "slow": "A2A calls answer only after slow_seconds (longer than the client timeout)",
    "malformed": "describe_skill answers with bytes that are not JSON",
    "huge": "invocations carry an extra artifact of about 12 MiB (over the client limit)",
    "markup": "names, descriptions and result strings carry Rich markup and terminal escapes",
    "v03": "the whole agent speaks the A2A 0.3 dialect (JSON-RPC only)",
}

#: Markup and control characters the ``markup`` fault injects; a UI must show them inert.
MARKUP_SAMPLE = "[bold red]pwned[/bold red] [/foo] \x1b[2J\x07"


@dataclass(frozen=True)
class AgentConfig:
    """How one reference agent instance behaves."""

    #: One fault name from FAULTS, or None for a correct agent.
    fault: str | None = None
    #: Which A2A 1.0 bindings the card advertises and the app serves.
    bindings: Bindings = "both"
    #: Seconds between streamed steps of the long-running skill.
    step_delay: float = 1.0
    #: Delay of the ``slow`` fault; longer than the client's default 15 s read timeout.
    slow_seconds: float = 30.0
    #: Larger request bodies get an A2A error instead of being read.
    max_request_bytes: int = 1024 * 1024
    #: Tasks kept in memory; the oldest finished ones are dropped first.
    max_tasks: int = 1000

    def __post_init__(self) -> None:
        if self.fault is not None and self.fault not in FAULTS:
            raise ValueError(f"unknown fault {self.fault!r}; known: {', '.join(FAULTS)}")
        if self.bindings not in ("both", "jsonrpc", "http-json"):
            raise ValueError(f"unknown binding set {self.bindings!r}")

    def has(self, fault: str) -> bool:
        """True when ``fault`` is the active fault."""
        return self.fault == fault

    @property
    def serves_jsonrpc(self) -> bool:
        """JSON-RPC is served unless only HTTP+JSON was asked for (0.3 is JSON-RPC only)."""
        return self.bindings != "http-json" or self.has("v03")

    @property
    def serves_rest(self) -> bool:
        """HTTP+JSON is served unless only JSON-RPC was asked for, and never in 0.3 mode."""
        return self.bindings != "jsonrpc" and not self.has("v03")
