"""What to tell a user whose agent (or skill) has no schema interface: which steps do not
apply and why, and where to talk to it anyway (the plain A2A console)."""

from __future__ import annotations

from textual.content import Content

from sia_tui.core.run import Run, advertised_skills
from sia_tui.tui.modes import mode_key

#: The console offer, with its key.
CONSOLE_OFFER = (
    f"Press {mode_key('console')} for the plain A2A console: send any skill a text or data "
    "part (sync or stream) and read the raw reply and the task's artifacts."
)


def lacks_extension(run: Run | None) -> bool:
    """The card was read and carries no schema-interface extension (RULES ADV4)."""
    return run is not None and run.card is not None and run.card.schema_interface is None


def has_schema_interface(run: Run | None, skill_id: str) -> bool:
    """The extension advertises ``skill_id`` (so the eleven steps apply to it)."""
    return run is not None and skill_id in advertised_skills(run.card)


def steps_do_not_apply() -> Content:
    """Steps 3-11 do not apply to an agent without the extension: why, and the console."""
    return Content.assemble(
        ("Steps 3-11 do not apply: ", "bold $warning"),
        "this agent speaks plain A2A without the schema-interface extension (RULES ADV4), "
        "so there is no Skill Interface Document to fetch, no digest to check and no schema "
        "to validate against. Nothing here is claimed as conformance, and no schema is "
        "inferred from skill descriptions.\n",
        (CONSOLE_OFFER, "bold $accent"),
    )
