"""Package APIs whose names load on first use (PEP 562), so importing an API is light.

An API package (``sia_tui.core.engine``, ``.run``, ``.session``, ``.bugreport``, ``.probe``,
``.matrix``, and the ``compose`` and ``interface_diff`` modules) lists what it exports
twice, side by side: as ``from module import name as name`` lines under
``if TYPE_CHECKING:``, which type checkers and editors follow, and as a plain table
``_EXPORTS`` (name -> module) that :func:`resolve` reads at run time. tests/test_layering.py
holds the two equal and resolves every name. A command such as ``sia-tui digest`` must not
pay for httpx or the validators just because it imports one name through an API.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

#: Public name -> the module that defines it under that name.
Exports = dict[str, str]


def resolve(package: str, exports: Exports, name: str) -> Any:
    """The value of ``package.name``: imported from its module, then cached on the package."""
    try:
        module_name = exports[name]
    except KeyError:
        raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
    module = importlib.import_module(module_name)
    # vars(), not getattr(): the module may be an API package whose __getattr__ is this.
    namespace = vars(module)
    if name in namespace:
        value = namespace[name]
    else:  # "from package import submodule as submodule", not imported yet
        value = importlib.import_module(f"{module_name}.{name}")
    setattr(sys.modules[package], name, value)
    return value
