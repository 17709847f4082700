"""Reference agent configuration: which fault, bindings and timings one instance has."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from sia_tui.agent.faults import Fault, fault_named

Bindings = Literal["both", "jsonrpc", "http-json"]
#: What a domain skill asks its caller for once, before it works (``serve-demo --ask``).
Ask = Literal["input", "auth"]

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
    #: OAuth2-protected mode: a token endpoint of its own, a card that requires the scheme,
    #: 401 for A2A calls without a valid token (agent/oauth2.py).
    oauth2: bool = False
    #: Every domain task stops once in INPUT_REQUIRED ("input") or AUTH_REQUIRED ("auth")
    #: with a question, and goes on when a follow-up message names its taskId. Not a fault:
    #: an agent may ask (A2A 1.0 section 3.4.3), and the run is incomplete until answered.
    ask: Ask | None = None
    #: Streams (SendStreamingMessage) close after the first event that follows the
    #: snapshot, before the task ends: a client must resubscribe (SubscribeToTask) or poll.
    drop_stream: bool = False
    #: How long a plain-A2A task (a text message that names no skill) sent with
    #: ``returnImmediately`` stays WORKING before it answers (``agent/plain.py``).
    plain_work_seconds: float = 60.0
    #: How a new plain-A2A message is answered: "task" (a conversation task, the default)
    #: or "message" (a bare Message, no task; ``agent/plain.py``).
    plain_reply: str = "task"
    #: Push notifications (``agent/push.py``): "off" (the card says no), "on", or
    #: "refuse-loopback" (loopback and private webhook URLs are refused, A2A 1.0 section 13.2).
    push: str = "off"

    def __post_init__(self) -> None:
        if self.fault is not None:
            object.__setattr__(self, "fault", fault_named(self.fault))
        if self.bindings not in ("both", "jsonrpc", "http-json"):
            raise ValueError(f"unknown binding set {self.bindings!r}")
        if self.ask not in (None, "input", "auth"):
            raise ValueError(f"unknown ask {self.ask!r}")
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
