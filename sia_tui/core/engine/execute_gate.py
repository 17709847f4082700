"""The one execute gate of a plain A2A message (RULES SID5): whether a message may go to a
skill without the user's yes. ``Procedure.console`` asks it, so every surface that sends
one (``sia-tui send``, the TUI's console) reaches the same gate."""

from __future__ import annotations

from typing import NamedTuple, Protocol

from sia_tui.core.needs import Need, word
from sia_tui.core.run.answers import consent_sentence
from sia_tui.core.run.read_model import Run, Step


class StepsToRun(Protocol):
    """What the gate needs of the procedure: its run, and the steps up to the schemas."""

    @property
    def run(self) -> Run: ...

    async def run_until(self, last: int) -> Run: ...


class ExecuteHold(NamedTuple):
    """Why a message may not go without the user's yes, and what the yes is to."""

    why: str
    reason: str


async def execute_hold(
    procedure: StepsToRun, skill_id: str | None, consent: bool
) -> ExecuteHold | None:
    """The one execute gate of a plain message to ``skill_id`` (None: it may go): it reads
    the skill's document when the card's extension binds the skill (RULES SID5). Every
    surface that sends one (``send``, the TUI's console) reaches it through
    ``Procedure.console``."""
    run = procedure.run
    advertised = run.answers.advertised_skills
    own = run.target.skill_id or run.answers.default_skill
    skill = skill_id or own
    if consent:  # the user's yes: the document need not be read to send
        return None
    if skill is None and len(advertised) > 1:
        return ExecuteHold(
            "the message was not sent: the card's schema-interface extension binds several "
            "skills and an A2A message names none, so whether it may act is unknown; name "
            f"the skill you mean ({word(Need.SKILL)}) or consent ({word(Need.CONSENT)})",
            "the card binds several skills to documents, and the message names none",
        )
    if skill not in advertised:
        return None  # plain A2A: no document says what the skill may do
    if skill != (run.skill_id or own):
        # The steps read the run's own skill's document; another bound skill's is unread.
        return ExecuteHold(
            f"the message was not sent: the card binds {skill} to an interface document this "
            "run has not read, so whether it may act is unknown; check that skill first, or "
            f"consent ({word(Need.CONSENT)})",
            "the card binds it to an interface document this run has not read",
        )
    await procedure.run_until(Step.SCHEMAS)
    run = procedure.run
    if run.answers.validated_document is None:
        failed = run.failed_step
        where = f" (step {failed.step} failed)" if failed is not None else ""
        return ExecuteHold(
            f"the message was not sent, because the skill's interface document could not be "
            f"read{where}, so whether it may act is unknown: it is sent only with your "
            f"consent ({word(Need.CONSENT)})",
            f"its interface document could not be read{where}, so whether it may act is unknown",
        )
    need = run.answers.consent_need
    if need is None:
        return None
    return ExecuteHold(consent_sentence(need, "the message"), need.reason)
