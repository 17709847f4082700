"""Package APIs whose names load on first use (PEP 562), so importing an API is light.

An API package (``sia_tui.core.engine``, ``.session``, ``.bugreport``, ``.probe``,
``.matrix``, and the ``compose`` and ``diff`` modules) lists what it exports once: as
``from module import name as name`` lines under ``if TYPE_CHECKING:``. Type checkers read
those lines; at run time :func:`exports_of` reads the same lines from the package's source
to build the lazy table and ``__all__``, so the three can never disagree. A command such
as ``sia-tui digest`` must not pay for httpx or the validators just because it imports one
name through an API.
"""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path
from typing import Any

#: Public name -> (module, attribute in that module).
Exports = dict[str, tuple[str, str]]


#: One re-export line under ``if TYPE_CHECKING:`` (ruff keeps "n as n" imports one a line).
_EXPORT_LINE = re.compile(r"^    from ([\w.]+) import (\w+) as (\w+)$", re.MULTILINE)
_BLOCK = re.compile(r"^if TYPE_CHECKING:.*?\n(?=\S)", re.MULTILINE | re.DOTALL)


def exports_of(source_file: str) -> Exports:
    """The ``from m import n as n`` lines under the module's ``if TYPE_CHECKING:``.

    A regular expression, not ``ast``: importing ``ast`` costs start-up milliseconds that
    every command would pay. tests/test_layering.py checks the result against ``ast``.
    """
    text = Path(source_file).read_text(encoding="utf-8")
    block = _BLOCK.search(text)
    if block is None:
        raise TypeError(f"{source_file}: no 'if TYPE_CHECKING:' block of exports")
    exports: Exports = {}
    for module, name, alias in _EXPORT_LINE.findall(block.group(0)):
        if alias != name:  # mypy --strict re-exports only "n as n"
            raise TypeError(f"{source_file}: write '{name} as {name}'")
        exports[name] = (module, name)
    return exports


def resolve(package: str, exports: Exports, name: str) -> Any:
    """The value of ``package.name``: imported from its module, then cached on the package."""
    try:
        module_name, attribute = exports[name]
    except KeyError:
        raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
    module = importlib.import_module(module_name)
    # vars(), not getattr(): the module may be an API package whose __getattr__ is this.
    namespace = vars(module)
    if attribute in namespace:
        value = namespace[attribute]
    else:  # "from package import submodule as submodule", not imported yet
        value = importlib.import_module(f"{module_name}.{attribute}")
    setattr(sys.modules[package], name, value)
    return value
