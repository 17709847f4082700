"""The layering contract: the CLI and the TUI read the core only through its rooms' APIs.

``sia_tui.cli`` and ``sia_tui.tui`` may import a room's API (``sia_tui.core.engine``,
``.run``, ``.session``, ``.trust``...: the packages or modules themselves, never their
insides), so no surface can compute a verdict of its own with the core's internals
(docs/ARCHITECTURE.md, "The read model"). Each API exports only names its own room
defines, and lists them once for type checkers and once as its lazy table; the tests
below hold the two equal.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "sia_tui"
#: The lazy APIs (PEP 562 packages with an ``_EXPORTS`` table) a surface may import.
LAZY_APIS = frozenset(
    {
        "sia_tui.core.engine",
        "sia_tui.core.run",
        "sia_tui.core.session",
        "sia_tui.core.bugreport",
        "sia_tui.core.compose",
        "sia_tui.core.interface_diff",
        "sia_tui.core.probe",
        "sia_tui.core.fuzz",
        "sia_tui.core.wire",
        "sia_tui.core.matrix",
        "sia_tui.core.trust",
        "sia_tui.core.a2a",
        "sia_tui.core.output",
        "sia_tui.core.jsonkit",
        "sia_tui.core.redaction",
        "sia_tui.core.schemas",
        "sia_tui.core.interface",
    }
)
#: Rooms of one module: the module is its own API.
MODULE_ROOMS = frozenset(
    f"sia_tui.core.{name}"
    for name in (
        "limits",
        "codes",
        "consent",
        "constants",
        "errors",
        "exchange",
        "findings",
        "bounded",
        "atomic_file",
        "task_state",
        "needs",
        "invocation_mode",
        "trace_context",
    )
)
CORE_APIS = LAZY_APIS | MODULE_ROOMS
#: Doors: modules with no code of their own that join rooms for one task (composing two
#: skills, diffing two documents), so they name what those rooms define.
DOORS = frozenset({"sia_tui.core.compose", "sia_tui.core.interface_diff"})


def core_imports(source: str) -> list[tuple[int, str]]:
    """(line, imported module) for every import of ``sia_tui.core`` in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "sia_tui.core":
                # ``from sia_tui.core import engine`` names a module, not an attribute.
                found += [(node.lineno, f"sia_tui.core.{alias.name}") for alias in node.names]
            else:
                found.append((node.lineno, node.module))
    return [(line, name) for line, name in found if name.startswith("sia_tui.core")]


def violations(source: str) -> list[str]:
    """Every import of the core other than its rooms' APIs."""
    return [f"line {line}: {name}" for line, name in core_imports(source) if name not in CORE_APIS]


def test_the_checker_catches_an_internal_import() -> None:
    """A surface reaching into the engine's internals, or a core helper, is a violation."""
    source = (
        "from sia_tui.core.engine import Run\n"
        "from sia_tui.core.engine.steps.discovery import advertised_domain_skills\n"
        "import sia_tui.core.interface.document\n"
        "from sia_tui.core import lazy_api, session\n"
    )
    assert violations(source) == [
        "line 2: sia_tui.core.engine.steps.discovery",
        "line 3: sia_tui.core.interface.document",
        "line 4: sia_tui.core.lazy_api",
    ]


@pytest.mark.parametrize(
    "path",
    sorted(p for layer in ("cli", "tui") for p in (ROOT / layer).rglob("*.py")),
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_surfaces_import_only_the_core_apis(path: Path) -> None:
    """cli/ and tui/ import the core's APIs (CORE_APIS), nothing
    else of the core (lazy imports inside functions included)."""
    assert violations(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("package", sorted(LAZY_APIS))
def test_every_name_of_a_lazy_api_resolves(package: str) -> None:
    """Each API loads names on first use: every exported name is the object its module
    defines, even once every module of the room is loaded (a submodule of the same name,
    once imported, would shadow a function on the package)."""
    module = importlib.import_module(package)
    sources = {name: importlib.import_module(source) for name, source in module._EXPORTS.items()}
    wrong = [
        name
        for name, source in sources.items()
        if getattr(module, name) is not vars(source).get(name, getattr(source, name, None))
    ]
    assert wrong == []


@pytest.mark.parametrize("package", sorted(LAZY_APIS - DOORS))
def test_an_api_exports_only_its_own_rooms_names(package: str) -> None:
    """A reader of ``from sia_tui.core.run import Run`` knows where ``Run`` lives: an API
    re-exports no name that another room defines (that room's API exports it)."""
    module = importlib.import_module(package)
    foreign = {
        name: source
        for name, source in module._EXPORTS.items()
        if not (source == package or source.startswith(f"{package}."))
    }
    assert foreign == {}


def _type_checking_imports(path: str) -> dict[str, tuple[str, str]]:
    """What ``ast`` finds under the module's ``if TYPE_CHECKING:``, every form of import."""
    found: dict[str, tuple[str, str]] = {}
    for node in ast.parse(Path(path).read_text(encoding="utf-8")).body:
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for statement in ast.walk(node):
                if isinstance(statement, ast.ImportFrom):
                    for alias in statement.names:
                        found[alias.asname or alias.name] = (str(statement.module), alias.name)
                elif isinstance(statement, ast.Import):
                    for alias in statement.names:
                        found[alias.asname or alias.name] = (alias.name, "")
    return found


@pytest.mark.parametrize("package", sorted(LAZY_APIS))
def test_an_api_lists_its_exports_once(package: str) -> None:
    """The run-time table (``_EXPORTS``) and the TYPE_CHECKING lines that type checkers and
    editors follow name the same modules: an import there that the table missed would
    type-check and then fail at run time, a table entry with no import is invisible to
    go-to-definition, and a renamed export (``c as d``) would not resolve."""
    module = importlib.import_module(package)
    assert module.__file__ is not None
    expected = {name: (source, name) for name, source in module._EXPORTS.items()}
    assert _type_checking_imports(module.__file__) == expected
    assert module.__all__ == sorted(module._EXPORTS)


def _private_textual_imports(path: Path) -> list[str]:
    """Modules named ``textual.<...>._<private>`` that ``path`` imports."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        found += [n for n in names if n.startswith("textual.") and "._" in n]
    return found


#: The one deliberate exception, in the test harness only: it replaces the private method
#: that draws each frame, so that Pilot tests skip the frames nobody reads (and headless
#: frames skip the update nobody receives, which reads the app's context), and checks the
#: methods before it does (``TextualChanged``): a new Textual fails loudly there. Other
#: tests reach the compositor through it (``frames.compositor_class``).
PRIVATE_TEXTUAL_ALLOWED = {"tests/support/frames.py": ["textual._compositor", "textual._context"]}


def test_no_module_or_test_imports_a_private_textual_module() -> None:
    """Private Textual modules change without notice between releases (STYLE.md)."""
    project = ROOT.parent
    paths = [*ROOT.rglob("*.py"), *(project / "tests").rglob("*.py")]
    found = {
        p.relative_to(project).as_posix(): imports
        for p in paths
        if (imports := _private_textual_imports(p))
    }
    assert found == PRIVATE_TEXTUAL_ALLOWED
