"""The agent side of a test: a reference agent that records which skills it was asked to run.

What sia-tui recorded could be wrong in the same way as what it sent; the witness sits in
the agent's own ASGI stack, so "nothing was sent" is asserted where it would have arrived.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from sia_tui.agent.app import create_app
from sia_tui.agent.config import AgentConfig
from sia_tui.agent.threaded import serve_in_thread

#: The skill a request object names (JSON-RPC and HTTP+JSON carry the same data part).
_SKILL = re.compile(rb'"skill"\s*:\s*"([^"]+)"')


@dataclass
class Witness:
    """The requests the agent received, by the skill each one named."""

    url: str = ""
    skills: list[str] = field(default_factory=list)

    def count(self, skill: str) -> int:
        """How many requests named ``skill`` (describe_skill's own request names it in
        ``skill_id``, so it is never counted here)."""
        return self.skills.count(skill)


class _Recorder:
    """ASGI middleware: reads each POST body, notes its skill, hands the body on."""

    def __init__(self, app: Any, witness: Witness) -> None:
        self.app = app
        self.witness = witness

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        chunks, more = [], True
        while more:
            message = await receive()
            chunks.append(message.get("body", b""))
            more = message.get("more_body", False)
        body = b"".join(chunks)
        self.witness.skills += [m.decode() for m in _SKILL.findall(body)]
        given = False

        async def replay() -> Any:
            nonlocal given
            if given:
                return await receive()
            given = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


@contextmanager
def witnessed_agent(**settings: Any) -> Iterator[Witness]:
    """A reference agent on 127.0.0.1 whose received skill requests are recorded."""
    witness = Witness()
    app = create_app(AgentConfig(**{"step_delay": 0.02, **settings}))
    server = serve_in_thread(
        lambda _url: _Recorder(app, witness),
        name="witnessed-agent",
        on_stop=app.state.agent.stopping.set,
        quiet=True,
    )
    witness.url = server.url
    try:
        yield witness
    finally:
        server.stop()
