"""The core never imports textual, rich or pygments (docs/ARCHITECTURE.md)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import sia_tui.core

UI_PACKAGES = ("textual", "rich", "pygments")

# httpx's package __init__ tries to import its optional CLI (httpx._main), which pulls in
# rich and pygments when they are installed, and falls back when that import fails. So the
# probe makes the UI packages unimportable: every core module (and the reference agent)
# must still import, and none of the UI packages may end up in sys.modules.
PROBE = """
import importlib, importlib.abc, pkgutil, sys
UI = ("textual", "rich", "pygments")

class BlockUI(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in UI:
            raise ImportError(f"UI package {name} imported by headless code")
        return None

sys.meta_path.insert(0, BlockUI())
names = []
for package in ("sia_tui.core", "sia_tui.agent"):
    module = importlib.import_module(package)
    names += [m.name for m in pkgutil.walk_packages(module.__path__, package + ".")]
for name in names:
    importlib.import_module(name)
loaded = sorted(m for m in sys.modules if m.split(".")[0] in UI)
print(len(names), ",".join(loaded))
"""


def test_every_core_module_imports_without_ui_libraries() -> None:
    """Core and agent import with textual, rich and pygments blocked; none gets loaded."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=False, timeout=120
    )
    assert done.returncode == 0, done.stderr
    count, _, loaded = done.stdout.strip().partition(" ")
    assert int(count) >= 10  # the walk really found the package's modules
    assert loaded == ""


def test_no_core_source_file_imports_a_ui_library() -> None:
    """A static scan agrees: no core source names a UI package."""
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
