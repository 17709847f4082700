"""The engine as the TUI sees it: the ``Engine`` Protocol over ``Procedure``, and its factory."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

if TYPE_CHECKING:  # names only: the engine itself (httpx...) loads when the first one is built
    from sia_tui.core.a2a import ClientOptions, StreamEvent, Task
    from sia_tui.core.engine import ConsoleReply, ConsoleRequest, DocumentCache, TaskListing
    from sia_tui.core.run import Reply, Run, StepResult, Target

UpdateCallback: TypeAlias = "Callable[[Run, StepResult | None, StreamEvent | None], None]"


class Engine(Protocol):
    """What the screens need from ``sia_tui.core.engine.procedure.Procedure``."""

    run: Run

    async def step(self) -> StepResult | None: ...
    async def run_all(self) -> Run: ...
    async def run_until(self, last: int) -> Run: ...
    async def restart(self) -> None: ...
    def set_arguments(self, arguments: Any, *, send_anyway: bool = False) -> None: ...
    def consent_to_send(self) -> None: ...
    def reply(self, reply: Reply) -> None: ...
    def select_skill(self, skill_id: str) -> None: ...
    def set_mode(self, mode: str | None) -> None: ...
    def set_push(self, push: str | None) -> None: ...
    async def list_tasks(self, page_token: str | None = None) -> TaskListing: ...
    async def cancel(self) -> Task | None: ...
    async def console(
        self,
        request: ConsoleRequest,
        on_event: Callable[[StreamEvent], None] | None = None,
        *,
        consent: bool = False,
    ) -> ConsoleReply: ...
    async def aclose(self) -> None: ...


#: Builds an engine for a target; tests may inject a fake.
EngineFactory: TypeAlias = "Callable[[Target, ClientOptions, UpdateCallback], Engine]"


def build_procedure(
    target: Target,
    options: ClientOptions,
    on_update: UpdateCallback,
    *,
    cache: DocumentCache | None = None,
) -> Engine:
    """The real engine; the document cache (RULES CP12) only when asked for (``--cache``):
    a debugger shows what the agent does now."""
    from sia_tui.core.engine import Procedure

    engine: Engine = Procedure(target, options, cache=cache, on_update=on_update)
    return engine
