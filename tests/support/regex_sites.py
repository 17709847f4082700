"""Every regular expression sia_tui compiles or calls, found in its source (for the test that
holds each one that reads agent or file text to linear time)."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "sia_tui"
#: The ``re`` functions that take a pattern.
RE_FUNCTIONS = frozenset(
    {"compile", "search", "match", "fullmatch", "sub", "subn", "findall", "finditer", "split"}
)


@dataclass(frozen=True)
class RegexSite:
    """One ``re.compile`` or ``re.<function>(pattern, ...)`` call in the package."""

    #: ``path:NAME`` for a module-level ``NAME = re.compile(...)``, else
    #: ``path:function:re.<function>`` (``#2`` when a function has several).
    key: str
    #: The pattern's text when it is a literal (None when it is built at run time).
    pattern: str | bytes | None


class _Finder(ast.NodeVisitor):
    def __init__(self, relative: str) -> None:
        self.relative = relative
        self.scope: list[str] = []
        self.sites: list[RegexSite] = []

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        self.scope.append(node.name)
        self.generic_visit(node)
        self.scope.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _function

    def visit_Assign(self, node: ast.Assign) -> None:
        target = node.targets[0] if len(node.targets) == 1 else None
        if not self.scope and isinstance(target, ast.Name) and self._is_re(node.value):
            assert isinstance(node.value, ast.Call)
            self.sites.append(RegexSite(f"{self.relative}:{target.id}", _literal(node.value)))
            for arg in node.value.args:
                self.visit(arg)
            return
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if not self.scope and isinstance(node.target, ast.Name) and self._is_re(node.value):
            assert isinstance(node.value, ast.Call)
            self.sites.append(RegexSite(f"{self.relative}:{node.target.id}", _literal(node.value)))
            return
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        if self._is_re(node):
            assert isinstance(node.func, ast.Attribute)
            key = f"{self.relative}:{'.'.join(self.scope) or '<module>'}:re.{node.func.attr}"
            taken = {s.key.split("#")[0] for s in self.sites}
            count = sum(1 for s in self.sites if s.key.split("#")[0] == key)
            self.sites.append(
                RegexSite(key if key not in taken else f"{key}#{count + 1}", _literal(node))
            )
        self.generic_visit(node)

    @staticmethod
    def _is_re(node: ast.AST | None) -> bool:
        return (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "re"
            and node.func.attr in RE_FUNCTIONS
        )


def _literal(call: ast.Call) -> str | bytes | None:
    first = call.args[0] if call.args else None
    if isinstance(first, ast.Constant) and isinstance(first.value, str | bytes):
        return first.value
    return None


def regex_sites() -> list[RegexSite]:
    """Every regex site of the package, in file order."""
    sites: list[RegexSite] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        finder = _Finder(relative)
        finder.visit(ast.parse(path.read_text(encoding="utf-8")))
        sites += finder.sites
    return sites
