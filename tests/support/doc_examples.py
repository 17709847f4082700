"""The ``sh`` blocks of README.md and docs/*.md as commands to run, with what each promises.

How a block says what it promises (CONTRIBUTING.md, "Examples in the docs"):

- ``uv run sia-tui serve-demo ... --port N &`` starts the reference agent (``mock SESSION
  --port N &`` a mock of a saved session); the test starts it on a free port and writes its
  URL wherever the block (or a file in docs/examples) says ``http://127.0.0.1:N``; without
  ``--port``, ``http://127.0.0.1:PORT`` stands for it.
- ``export NAME=VALUE`` sets the environment of the commands after it.
- Every other line is ``uv run sia-tui ...``. Its comment (``# ...``) promises an exit
  status with ``exit N`` (no ``exit``: 0) and output with each ```text``` in backquotes;
  the ``#   `` lines right under it are lines of its output (``...`` stands for the rest).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: The documents whose command blocks are examples a reader copies.
DOCUMENTS = ("README.md", *sorted(f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md")))

_FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)
_EXIT = re.compile(r"\bexit (\d+)\b")
_QUOTED = re.compile(r"`([^`]+)`")
_PROGRAM = "uv run sia-tui "


@dataclass
class Command:
    """One line of a block: a command, what it promises, and the line it is on."""

    text: str
    line: int
    background: bool = False
    exit: int = 0
    prints: list[str] = field(default_factory=list)
    output_lines: list[str] = field(default_factory=list)


@dataclass
class Block:
    """One ``sh`` block: where it is and its commands."""

    document: str
    line: int
    first: str
    commands: list[Command]

    @property
    def id(self) -> str:
        return f"{self.document}:{self.line}"


def _split_comment(line: str) -> tuple[str, str]:
    """The command and its comment: the first ``#`` after a space, outside quotes."""
    quote = ""
    for index, char in enumerate(line):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or line[index - 1].isspace()):
            return line[:index].rstrip(), line[index + 1 :].strip()
    return line.rstrip(), ""


def _logical_lines(body: str, start: int) -> list[tuple[int, str]]:
    """Lines with their backslash continuations joined, each with its line number."""
    out: list[tuple[int, str]] = []
    pending, first = "", 0
    for offset, raw in enumerate(body.splitlines()):
        if not pending:
            first = start + offset
        if raw.startswith("#") and not pending:  # a comment line, kept whole
            out.append((first, raw))
            continue
        code, comment = _split_comment(raw)
        if code.endswith("\\"):
            pending += code[:-1] + " "
            continue
        joined = pending + code
        out.append((first, joined + (f"  # {comment}" if comment else "")))
        pending = ""
    return out


def parse_block(document: str, line: int, body: str) -> Block:
    """A block's commands and their promises."""
    commands: list[Command] = []
    for number, text in _logical_lines(body, line + 1):
        if text.startswith("#   ") and commands:  # a line of the command's output
            output = text[1:].strip()
            found = _EXIT.search(output)
            if found:
                commands[-1].exit = int(found.group(1))
                output = re.sub(r"\(exit \d+\)\s*$", "", output).rstrip()
            commands[-1].output_lines.append(output)
            continue
        code, comment = _split_comment(text)
        if not code:
            continue
        background = code.endswith("&")
        command = Command(code.rstrip("&").strip(), number, background)
        found = _EXIT.search(comment)
        if found:
            command.exit = int(found.group(1))
        command.prints = _QUOTED.findall(comment)
        commands.append(command)
    first = body.splitlines()[0] if body else ""
    return Block(document, line, first, commands)


def command_blocks() -> list[Block]:
    """Every ``sh`` block of the documents, in order."""
    blocks = []
    for document in DOCUMENTS:
        text = (ROOT / document).read_text(encoding="utf-8")
        for match in _FENCE.finditer(text):
            if match.group(1) != "sh":
                continue
            line = text.count("\n", 0, match.start()) + 1
            blocks.append(parse_block(document, line, match.group(2)))
    return blocks


def sia_tui_argv(command: Command) -> list[str]:
    """The arguments of ``uv run sia-tui ...``; anything else is not an example we run."""
    if not command.text.startswith(_PROGRAM):
        raise AssertionError(f"line {command.line}: not `{_PROGRAM}...`: {command.text}")
    return shlex.split(command.text[len(_PROGRAM) :])


def serve_demo_port(argv: list[str]) -> tuple[list[str], str]:
    """``serve-demo`` arguments without ``--port N``, and the port the docs wrote (or the
    placeholder ``PORT``)."""
    if "--port" not in argv:
        return argv, "PORT"
    index = argv.index("--port")
    return argv[:index] + argv[index + 2 :], argv[index + 1]


def output_fragments(line: str) -> list[str]:
    """The parts of a documented output line that must be printed (``...`` elides)."""
    return [part.strip() for part in line.split("...") if part.strip()]
