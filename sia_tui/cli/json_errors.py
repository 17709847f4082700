"""A usage error under ``--json``: the message on stderr, and one JSON object on stdout.

A CI job that runs ``sia-tui check --json`` reads stdout; an empty stdout (the message only
on stderr) reads as "no JSON" rather than as the mistake it was. Exit 2 means usage or
unreadable input in every command (docs/ARCHITECTURE.md, CLI conventions), so the
dispatcher, not each of the dozens of places that refuse a flag, repeats what the command
said on stderr as ``{"error": {"kind": "usage", "exit_code": 2, "message": ...}}`` when it
printed nothing on stdout.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

#: The exit status of a usage error (or unreadable input) in every command.
USAGE_EXIT = 2
#: Most characters of stderr kept for the JSON message (a message, not a log).
MAX_MESSAGE = 4000


def wants_json(argv: list[str]) -> bool:
    """True when ``--json`` is among the options (before a ``--``)."""
    options = argv[: argv.index("--")] if "--" in argv else argv
    return "--json" in options


class _Seen:
    """Notes that a stream was written to (and, bounded, what); hands the text on as is."""

    def __init__(self) -> None:
        self.text = ""
        self.written = False

    def __call__(self, text: str) -> str:
        self.written = self.written or bool(text)
        if len(self.text) < MAX_MESSAGE:
            self.text += text[: MAX_MESSAGE - len(self.text)]
        return text


class UsageWatch:
    """What a command wrote: whether stdout got anything, and stderr's text."""

    def __init__(self, stdout: _Seen, stderr: _Seen) -> None:
        self._stdout, self._stderr = stdout, stderr

    def report(self, code: int) -> None:
        """After the command: a usage error that left stdout empty gets its JSON object."""
        if code != USAGE_EXIT or self._stdout.written:
            return
        from sia_tui.core.output import terminal_json

        error = {
            "kind": "usage",
            "exit_code": USAGE_EXIT,
            "message": usage_message(self._stderr.text),
        }
        print(terminal_json({"error": error}))


@contextmanager
def watched_output() -> Iterator[UsageWatch]:
    """Watch ``sys.stdout`` and ``sys.stderr`` meanwhile (they still print as they did)."""
    from sia_tui.core.output import PassThroughStream  # only under --json

    saved = sys.stdout, sys.stderr
    out, err = _Seen(), _Seen()
    sys.stdout, sys.stderr = PassThroughStream(saved[0], out), PassThroughStream(saved[1], err)
    try:
        yield UsageWatch(out, err)
    finally:
        sys.stdout, sys.stderr = saved


def usage_message(stderr: str) -> str:
    """The message of what a command printed on stderr, without argparse's usage lines."""
    lines = stderr.strip().splitlines()
    if lines and lines[0].startswith("usage:"):
        lines = lines[1:]
        while lines and lines[0][:1].isspace():  # the usage line's continuations
            lines = lines[1:]
    return "\n".join(lines).strip() or "usage error"
