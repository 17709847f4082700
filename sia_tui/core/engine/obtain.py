"""A Skill Interface Document obtained live through steps 1-6, for compose and diff."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sia_tui.core.run.read_model import Run, Step, Target

if TYPE_CHECKING:
    import httpx

    from sia_tui.core.a2a.options import ClientOptions


@dataclass
class ObtainedDocument:
    """A document fetched and validated through the engine (steps 1-6), or why not."""

    #: "upstream", "downstream", "A" or "B": which side, for messages.
    side: str
    run: Run

    @property
    def document(self) -> dict[str, Any] | None:
        """The document, only once step 6 passed (RULES CP0: nothing unvalidated is used)."""
        return self.run.answers.validated_document

    @property
    def task_id(self) -> str | None:
        """The describe_skill task id (INV12 evidence); None when served from a cache."""
        return self.run.answers.describe_task_id

    def failure(self) -> str | None:
        """ "upstream: step 3 (Call describe_skill) failed: ..." or None when obtained."""
        failed = self.run.failed_step
        if failed is not None:
            code = f" [{failed.code}]" if failed.code else ""
            return (
                f"{self.side}: step {failed.step} ({failed.title}) failed{code}: {failed.message}"
            )
        if self.document is None:
            return f"{self.side}: the procedure stopped before the document was validated"
        return None


async def obtain_document(
    side: str,
    target: Target,
    options: ClientOptions,
    *,
    transport: httpx.AsyncBaseTransport | None = None,
) -> ObtainedDocument:
    """Run steps 1-6 for ``target`` (no cache: a fresh describe_skill task every time)."""
    from sia_tui.core.engine.procedure import Procedure

    procedure = Procedure(target, options, transport=transport)
    try:
        run = await procedure.run_until(Step.SCHEMAS)
    finally:
        await procedure.aclose()
    return ObtainedDocument(side, run)
