"""The core never imports textual, rich or pygments (docs/ARCHITECTURE.md)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import sia_tui.core

UI_PACKAGES = ("textual", "rich", "pygments")

# httpx's package __init__ imports its optional CLI (httpx._main), which pulls in rich and
# pygments whenever they are installed (they are: textual needs them). That is httpx's
# doing, so the probe imports httpx first and only counts what the core adds on top.
PROBE = """
import importlib, pkgutil, sys
UI = ("textual", "rich", "pygments")
def ui():
    return {m for m in sys.modules if m.split(".")[0] in UI}
import httpx
baseline = ui()
import sia_tui.core as core
names = [m.name for m in pkgutil.walk_packages(core.__path__, "sia_tui.core.")]
for name in names:
    importlib.import_module(name)
added = sorted(ui() - baseline)
textual = sorted(m for m in sys.modules if m.split(".")[0] == "textual")
print(len(names), ",".join(added + textual))
"""


def test_every_core_module_imports_without_ui_libraries() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                          check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    count, _, loaded = done.stdout.strip().partition(" ")
    assert int(count) >= 10  # the walk really found the package's modules
    assert loaded == ""


def test_no_core_source_file_imports_a_ui_library() -> None:
    offenders = []
    for path in Path(sia_tui.core.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] in UI_PACKAGES]
    assert offenders == []
