"""What each command imports, run in a fresh interpreter: the measuring half of the
per-command import pins (the pins are ``command_imports.toml``; the test is
``test_command_imports.py``).

A command's imports are the ``sia_tui`` modules, the third-party packages (top-level
names) and the watched standard-library packages in ``sys.modules`` once it has run. The
networked commands run against the reference agent; ``open`` and ``demo`` stop where the
app would start running (the first frame is the TUI cold-start benchmark's part).

After a deliberate change (a new feature's import, a module renamed), rewrite the pins:
``uv run python -m tests.core.command_imports`` and review the diff.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sia_tui.agent import AgentConfig, start_agent
from tests.support.documents import make_document
from tests.support.plugfest import plugfest_file

PINS = Path(__file__).with_name("command_imports.toml")
#: The session ``mock`` serves (a saved run of two invocations).
SESSION = (
    Path(__file__).parents[1] / "fixtures" / "sessions" / "negative-then-valid-v3.session.json"
)

#: Standard-library packages whose import is a start-up cost a command should not pay
#: unless it runs them (logging is the log redaction's; asyncio the network's).
WATCHED_STDLIB = ("asyncio", "logging", "ssl", "decimal", "sqlite3", "email", "http")

SKILL = "evaluate_resource_condition"
#: The commands pinned (the issue's list); ``command_lines`` says how each one is run.
COMMANDS = (
    "--help",
    "digest",
    "canon",
    "lint",
    "check",
    "send",
    "probe",
    "fuzz",
    "matrix",
    "open",
    "demo",
    "mock",
)

#: Runs the CLI in a fresh interpreter and reports its exit code and every loaded module. The
#: TUI commands stop at run_app: everything before the app runs is theirs.
PROBE = """
import contextlib, io, json, sys
from sia_tui.cli import main
if sys.argv[1] in ("open", "demo"):  # imported here only: other commands never load it
    from sia_tui.cli import cmd_tui
    cmd_tui.run_app = lambda app, **_: 0
if sys.argv[1] == "mock":  # stops where it would serve: everything before is the command's
    from sia_tui.agent import mock
    mock.serve_mock_forever = lambda *args, **kwargs: 0
quiet = io.TextIOWrapper(io.BytesIO())  # canon writes bytes to sys.stdout.buffer
with contextlib.redirect_stdout(quiet), contextlib.redirect_stderr(quiet):
    try:
        code = main(sys.argv[1:])
    except SystemExit as exc:
        code = exc.code
# A None entry blocks an import (sia-tui blocks httpx's own CLI): it is not a loaded module.
loaded = sorted(name for name, module in sys.modules.items() if module is not None)
print(json.dumps({"code": code, "modules": loaded}))
"""


def pinned_set(modules: list[str]) -> list[str]:
    """The part of ``sys.modules`` a pin names: sia_tui's modules, third-party packages
    by top-level name, and the watched standard-library packages."""
    names: set[str] = set()
    for module in modules:
        top = module.split(".")[0]
        if top == "sia_tui":
            names.add(module)
        elif top in WATCHED_STDLIB or top not in sys.stdlib_module_names and top != "__main__":
            names.add(top)
    return sorted(names)


def loaded_modules(*argv: str) -> list[str]:
    """Every module in ``sys.modules`` once ``sia-tui ARGV`` has run (it must exit 0)."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *argv],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    report = json.loads(done.stdout)
    if report["code"] != 0:
        raise AssertionError(f"sia-tui {' '.join(argv)} exited {report['code']}")
    return list(report["modules"])


def imports_of(argv: list[str]) -> list[str]:
    """The pinned set of ``sia-tui ARGV`` run to its end."""
    return pinned_set(loaded_modules(*argv))


def command_lines(folder: Path, agent_url: str) -> dict[str, list[str]]:
    """Each pinned command as a user runs it, with its files written into ``folder``."""
    small = folder / "small.json"
    small.write_text('{"b": [1, 2.0], "a": "é"}', encoding="utf-8")
    document = folder / "interface.json"
    document.write_text(json.dumps(make_document()), encoding="utf-8")
    plugfest = plugfest_file(
        folder,
        {"a": agent_url},
        f'[[skill]]\nid = "{SKILL}"',
        head='bindings = ["JSONRPC"]\nmodes = ["sync"]',
    )
    lines = {
        "--help": ["--help"],
        "digest": ["digest", str(small)],
        "canon": ["canon", str(small)],
        "lint": ["lint", str(document)],
        "check": ["check", agent_url, "--skill", SKILL, "--args", "example"],
        "send": ["send", agent_url, "--text", "hello", "--skill", SKILL],
        "probe": ["probe", agent_url, "--skill", SKILL],
        "fuzz": ["fuzz", agent_url, "--skill", SKILL, "--examples", "2", "--rate", "100"],
        "matrix": ["matrix", str(plugfest)],
        "open": ["open", agent_url],
        "demo": ["demo"],
        "mock": ["mock", str(SESSION)],
    }
    return {command: lines[command] for command in COMMANDS}


@contextmanager
def reference_agent_url() -> Iterator[str]:
    """A reference agent on 127.0.0.1 for the networked commands."""
    agent = start_agent(AgentConfig(step_delay=0.05, slow_seconds=2.0))
    try:
        yield agent.url
    finally:
        agent.stop()


def read_pins() -> dict[str, list[str]]:
    """Command -> its pinned imports, from ``command_imports.toml``."""
    with PINS.open("rb") as file:
        data = tomllib.load(file)
    return {command: list(table["imports"]) for command, table in data.items()}


def write_pins(measured: dict[str, list[str]]) -> None:
    """Rewrite ``command_imports.toml``: one import a line, so a change is a one-line diff."""
    lines = [
        "# What each command imports: sia_tui's modules, third-party packages (top-level",
        "# names) and watched standard-library packages. tests/core/test_command_imports.py",
        "# fails on any difference; rewrite with `uv run python -m tests.core.command_imports`",
        "# after a deliberate change and review the diff.",
    ]
    for command, names in measured.items():
        lines += ["", f'["{command}"]', "imports = ["]
        lines += [f'    "{name}",' for name in names]
        lines.append("]")
    PINS.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    """Measure every command and rewrite the pins."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp, reference_agent_url() as url:
        measured = {
            command: imports_of(argv) for command, argv in command_lines(Path(tmp), url).items()
        }
    write_pins(measured)
    print(f"wrote {PINS}")


if __name__ == "__main__":
    main()
