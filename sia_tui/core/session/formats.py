"""The names of the session formats, in a module of their own: the CLI's help text reads
them while building its parser, which must not load the session code."""

from __future__ import annotations

#: The format this sia-tui writes. Version 2 types each step's evidence (``kind``);
#: version 3 stores each artifact payload once (``payloads.py``); version 4 holds every
#: invocation of the run, each with its own verdict (``invocations.py``); version 5 adds
#: each run's ``turns`` (the questions of an interrupted task and the replies sent); version 6
#: adds members an older reader would misjudge by ignoring them: a plain A2A message sent
#: instead of steps 7-11 (``run.plain``), ``--strict-wire``, ``--ignore-capabilities``, the
#: W3C trace and span ids, a task's history and a fuzz run.
FORMAT = "sia-session/6"
#: Formats it reads; a version-1 file is upgraded on load (``upgrade.py``); versions 2-5 are
#: read as they are (a version-4 file's runs have no turns).
READABLE_FORMATS = (
    "sia-session/1",
    "sia-session/2",
    "sia-session/3",
    "sia-session/4",
    "sia-session/5",
    FORMAT,
)


def readable_range() -> str:
    """``sia-session/1 to /6``: the formats read, as help text says them."""
    last = READABLE_FORMATS[-1].rpartition("/")[2]
    return f"{READABLE_FORMATS[0]} to /{last}"
