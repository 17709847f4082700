"""The registry of attacks the hostile agent knows.

An attack is a name, one line saying what it does, optional edits to the honest agent's
card, document or result, and responders for the stages it takes over (``card``,
``describe``, ``invoke``, ``stream``, ``get_task``, ``cancel``); every other stage gets the
honest answer (``honest.py``).

To add attacks, write a module of them (``attacks_wire.py`` and ``attacks_content.py`` are
examples): decorate a responder with :func:`attack`, or call :func:`register` for an attack
that only edits what the honest agent says; then import the module in ``attacks.py``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from tests.hostile.honest import Honest
from tests.hostile.server import Reply, Request

Responder = Callable[[Request, Reply, Honest], Awaitable[None]]
Edit = Callable[[dict[str, Any]], None]


@dataclass(frozen=True)
class Attack:
    """One way to misbehave."""

    name: str
    summary: str
    stages: dict[str, Responder] = field(default_factory=dict)
    edit_card: Edit | None = None
    edit_document: Edit | None = None
    result: Callable[[], Any] | None = None
    #: Work done once before the server answers (building a bomb takes a second).
    prepare: Callable[[], object] | None = None

    def agent(self, base: str) -> Honest:
        """The honest agent this attack builds on, with the attack's edits."""
        kwargs: dict[str, Any] = {}
        if self.result is not None:
            kwargs["result"] = self.result
        return Honest(base, edit_document=self.edit_document, edit_card=self.edit_card, **kwargs)

    def handler(self, base: str) -> Callable[[Request, Reply], Awaitable[None]]:
        """What the server answers with; built before it accepts the first request."""
        if self.prepare is not None:
            self.prepare()
        honest = self.agent(base)

        async def handle(request: Request, reply: Reply) -> None:
            responder = self.stages.get(request.stage)
            if responder is None:
                await honest.answer(request, reply)
            else:
                await responder(request, reply, honest)

        return handle


ATTACKS: dict[str, Attack] = {}


def register(item: Attack) -> Attack:
    if item.name in ATTACKS:
        raise ValueError(f"attack {item.name!r} registered twice")
    ATTACKS[item.name] = item
    return item


def attack(
    name: str, summary: str, *, stage: str, **edits: Any
) -> Callable[[Responder], Responder]:
    """Register ``responder`` as the attack ``name`` on one stage."""

    def decorate(responder: Responder) -> Responder:
        register(Attack(name, summary, {stage: responder}, **edits))
        return responder

    return decorate
