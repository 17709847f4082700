"""Reference agent configuration: which fault, bindings and timings one instance has."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from sia_tui.agent.faults import Fault, fault_named

Bindings = Literal["both", "jsonrpc", "http-json"]

#: Markup and control characters the ``markup`` fault injects; a UI must show them inert.
MARKUP_SAMPLE = "[bold red]pwned[/bold red] [/foo] \x1b[2J\x07"


@dataclass(frozen=True)
class AgentConfig:
    """How one reference agent instance behaves."""

    #: The simulated fault, or None for a correct agent (a name is checked and converted).
    fault: Fault | None = None
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
    #: A private JWK: the card is served with an A2A 1.0 section 8.4 signature by it.
    sign_key: dict[str, Any] | None = field(default=None, hash=False, compare=False, repr=False)
    #: Serve the gRPC binding too, on this port (0: a free one); None: HTTP only.
    grpc_port: int | None = None
    #: Push notifications (``agent/push.py``): "off" (the card says no), "on", or
    #: "refuse-loopback" (loopback and private webhook URLs are refused, A2A 1.0 section 13.2).
    push: str = "off"

    def __post_init__(self) -> None:
        if self.fault is not None:
            object.__setattr__(self, "fault", fault_named(self.fault))
        if self.bindings not in ("both", "jsonrpc", "http-json"):
            raise ValueError(f"unknown binding set {self.bindings!r}")
        if self.push not in ("off", "on", "refuse-loopback"):
            raise ValueError(f"unknown push mode {self.push!r}")

    def has(self, fault: Fault) -> bool:
        """True when ``fault`` is the active fault."""
        return self.fault == fault

    @property
    def serves_jsonrpc(self) -> bool:
        """JSON-RPC is served unless only HTTP+JSON was asked for (0.3 is JSON-RPC only)."""
        return self.bindings != "http-json" or self.has(Fault.V03)

    @property
    def serves_grpc(self) -> bool:
        """gRPC when a port was given; never in 0.3 mode (the 0.3 service is another proto)."""
        return self.grpc_port is not None and not self.has(Fault.V03)

    @property
    def serves_rest(self) -> bool:
        """HTTP+JSON is served unless only JSON-RPC was asked for, and never in 0.3 mode."""
        return self.bindings != "jsonrpc" and not self.has(Fault.V03)
