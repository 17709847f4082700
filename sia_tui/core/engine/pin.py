"""``sia-tui pin``: each skill's interface obtained through steps 1-6, recorded for a lock."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sia_tui.core.redaction.userinfo import target_identity
from sia_tui.core.run.read_model import Run, Step, StepStatus, Target
from sia_tui.core.trust.records import PinnedAgent, PinnedSkill

if TYPE_CHECKING:
    import httpx

    from sia_tui.core.a2a.options import ClientOptions


@dataclass
class PinResult:
    """What ``pin`` recorded for one agent, or why a skill could not be pinned."""

    pinned: PinnedAgent | None = None
    #: One line per skill that could not be pinned (its failed step), in order.
    failures: list[str] = field(default_factory=list)
    #: Every run made (one per skill), for a saved session or a report.
    runs: list[Run] = field(default_factory=list)


def _failure(run: Run, skill: str) -> str:
    failed = run.failed_step
    if failed is None:
        return f"{skill}: the procedure stopped before the document was validated"
    code = f" [{failed.code}]" if failed.code else ""
    return f"{skill}: step {failed.step} ({failed.title}) failed{code}: {failed.message}"


async def pin_agent(
    target: Target,
    options: ClientOptions,
    skills: list[str] | None = None,
    *,
    transport: httpx.AsyncBaseTransport | None = None,
) -> PinResult:
    """Pin ``skills`` (default: every skill the card's extension advertises). Only a
    document that passed steps 1-6 is pinned (RULES CP0): nothing unvalidated is locked."""
    from sia_tui.core.engine.procedure import Procedure

    result = PinResult()
    procedure = Procedure(target, options, transport=transport)
    try:
        run = await procedure.run_until(Step.CARD)
        if run.step(Step.CARD).status is not StepStatus.PASSED or run.card is None:
            result.runs.append(run)
            result.failures.append(_failure(run, "the card"))
            return result
        card_name = run.card.name
        identity = target_identity(run.card_url or target.location)
        pinned: list[PinnedSkill] = []
        for skill in skills or run.answers.advertised_skills or [""]:
            procedure.select_skill(skill)
            run = await procedure.run_until(Step.SCHEMAS)
            result.runs.append(run)
            document = run.answers.validated_document
            if document is None or run.skill_version is None or run.digests.advertised is None:
                result.failures.append(_failure(run, skill or "the card"))
                continue
            pinned.append(
                PinnedSkill(
                    skill_id=skill,
                    skill_version=run.skill_version,
                    interface_digest=run.digests.advertised,
                    document=document,
                )
            )
    finally:
        await procedure.aclose()
    if not result.failures:
        result.pinned = PinnedAgent(agent=card_name, card=identity, skills=tuple(pinned))
    return result
