"""Package APIs whose names load on first use (PEP 562), so importing an API is light.

``sia_tui.core.engine`` and ``sia_tui.core.session`` re-export what the CLI and the TUI
may use; a command such as ``sia-tui digest`` must not pay for httpx or the validators
just because it imports one name through an API (issue 12).
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

#: A value of an export table naming a whole module rather than one of its attributes.
MODULE = ""


def resolve(package: str, exports: dict[str, tuple[str, str]], name: str) -> Any:
    """The value of ``package.name``: imported from its module, then cached on the package."""
    try:
        module_name, attribute = exports[name]
    except KeyError:
        raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
    module = importlib.import_module(module_name)
    value = module if attribute == MODULE else getattr(module, attribute)
    setattr(sys.modules[package], name, value)
    return value
