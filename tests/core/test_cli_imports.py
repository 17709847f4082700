"""Commands import what they run (issue 12): `--help` needs argparse and sia_tui's own
light modules; `digest` and `canon` never load httpx, Textual, asyncio or the validators."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from sia_tui.cli import parser

# Runs the CLI in a fresh interpreter and reports its exit code and every loaded module.
PROBE = """
import contextlib, io, json, sys
from sia_tui.cli import main
quiet = io.TextIOWrapper(io.BytesIO())  # canon writes bytes to sys.stdout.buffer
with contextlib.redirect_stdout(quiet), contextlib.redirect_stderr(quiet):
    try:
        code = main(sys.argv[1:])
    except SystemExit as exc:
        code = exc.code
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""

#: What only networked commands, the TUI or validation need.
HEAVY = (
    "httpx",
    "textual",
    "rich",
    "pygments",
    "jsonschema",
    "jsonschema_rs",
    "referencing",
    "starlette",
    "uvicorn",
    "asyncio",
    "sia_tui.core.engine",
    "sia_tui.core.a2a.client",
    "sia_tui.agent",
    "sia_tui.tui",
)


def loaded_modules(*argv: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *argv],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    report = json.loads(done.stdout)
    assert report["code"] == 0, report
    return list(report["modules"])


def heavy_among(modules: list[str]) -> list[str]:
    return [m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY)]


def test_help_imports_only_the_standard_library_and_sia_tui() -> None:
    modules = loaded_modules("--help")
    outside = [
        m
        for m in modules
        if m.split(".")[0] not in (*sys.stdlib_module_names, "sia_tui", "__main__")
    ]
    assert outside == []
    assert heavy_among(modules) == []


@pytest.mark.parametrize("command", ["digest", "canon"])
def test_digest_and_canon_import_no_network_tui_or_validator(command: str, tmp_path: Path) -> None:
    document = tmp_path / "small.json"
    document.write_text('{"b": [1, 2.0], "a": "é"}', encoding="utf-8")
    assert heavy_among(loaded_modules(command, str(document))) == []


def test_help_of_a_networked_command_does_not_import_the_network_stack() -> None:
    assert heavy_among(loaded_modules("check", "--help")) == []


def test_command_owners_match_what_each_module_registers() -> None:
    """`run` imports only the module owning the command: the table must be complete."""
    for name in parser.COMMAND_MODULES:
        sub = argparse.ArgumentParser().add_subparsers()
        __import__(f"sia_tui.cli.{name}", fromlist=["register"]).register(sub)
        for command in sub.choices:
            assert parser.COMMAND_OWNERS.get(command) == name, command
    assert set(parser.COMMAND_OWNERS.values()) == set(parser.COMMAND_MODULES)
    every = parser.build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert isinstance(every, dict)
    assert set(every) == set(parser.COMMAND_OWNERS)
