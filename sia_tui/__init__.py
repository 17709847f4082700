"""sia-tui: a terminal debugger for schema-governed A2A skills."""

import sys

__version__ = "0.1.0"

# httpx imports its own command-line tool (httpx._main) when click is installed, and with it
# click, rich.syntax and pygments' lexers: a third of httpx's import time, for a CLI sia-tui
# never runs. A None entry makes that optional import fail, as httpx expects it may
# (httpx/__init__.py falls back to a stub `main`). Nothing else of httpx changes.
sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]
