"""The product docs stand on their own: no pointer outside the repository, every rule id known."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").rglob("*.md"))]
#: A rule citation in code or docs: "RULES CP4", "RULES SR7, SR4", "(RULES INV9)".
CITATION = re.compile(r"RULES ((?:[A-Z]{2,3}\d{1,2}(?:[,/ ]+(?:and )?)?)+)")
RULE_ID = re.compile(r"\b([A-Z]{2,3}\d{1,2})\b")


def test_no_doc_points_outside_the_repository() -> None:
    """Users have the repository only: a link to the developers' shared folder is dead."""
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        assert "../shared" not in text and "/work/" not in text, doc.name


def test_every_cited_rule_is_in_docs_rules() -> None:
    """A verdict names a rule id; a user must be able to look it up in docs/RULES.md."""
    known = set(
        re.findall(r"^- \*\*([A-Z]{2,3}\d{1,2})\*\*", (ROOT / "docs/RULES.md").read_text(), re.M)
    )
    assert len(known) > 50
    cited: set[str] = set()
    for path in [*(ROOT / "sia_tui").rglob("*.py"), *DOCS]:
        for match in CITATION.finditer(path.read_text(encoding="utf-8")):
            cited.update(RULE_ID.findall(match.group(1)))
    assert cited - known == set()


def _tests_rows(architecture: str) -> dict[str, str]:
    """The rows of ARCHITECTURE.md's Tests table: top-level folder -> its row."""
    section = architecture.partition("\n## Tests\n")[2].partition("\n## ")[0]
    return {m[1]: m[0] for m in re.finditer(r"^\| `([\w.-]+)/` \|.*$", section, re.M)}


def test_architecture_names_every_package_and_test_folder() -> None:
    """The map cannot drift: every package under sia_tui/ is named in ARCHITECTURE.md, every
    folder under tests/ in its Tests table (a nested folder in its top folder's row), and
    the table has no row for a folder that is gone."""
    architecture = (ROOT / "docs/ARCHITECTURE.md").read_text(encoding="utf-8")
    code_map = architecture.partition("\n## Tests\n")[0]
    packages = sorted(p.parent for p in (ROOT / "sia_tui").rglob("__init__.py"))
    assert len(packages) > 20
    unnamed = [str(p.relative_to(ROOT)) for p in packages if f"{p.name}/" not in code_map]
    rows = _tests_rows(architecture)
    tests = ROOT / "tests"
    folders = [
        d
        for d in sorted(tests.rglob("*"))
        if d.is_dir() and not {"__pycache__", "__snapshots__"} & set(d.relative_to(tests).parts)
    ]
    for folder in folders:
        top = folder.relative_to(tests).parts[0]
        if f"`{folder.name}/`" not in rows.get(top, ""):
            unnamed.append(str(folder.relative_to(ROOT)))
    assert unnamed == []
    assert sorted(rows) == sorted(d.name for d in folders if d.parent == tests)


#: A demo agent (or a mock of a session) the README starts in the background:
#: ``serve-demo ... --port P ... &``, ``mock SESSION --port P &``.
BACKGROUND_AGENT = re.compile(r"(?:serve-demo|mock)\b[^\n&#]*--port (\d+)[^\n&#]*&")
SHELL_BLOCK = re.compile(r"```sh\n(.*?)```", re.S)


def test_readme_agents_run_side_by_side() -> None:
    """A reader pastes the README's examples into one shell, in order: an agent left in the
    background still holds its port, so a second one on that port fails to start and the
    commands that follow reach the first agent's fault. Every backgrounded agent has its
    own port, and every command's 127.0.0.1 port is one an agent above was started on."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    started: list[str] = []
    for block in SHELL_BLOCK.findall(readme):
        for line in block.splitlines():
            started += BACKGROUND_AGENT.findall(line)
            for port in re.findall(r"127\.0\.0\.1:(\d+)", line):
                assert port in started, line
    assert len(started) >= 6
    assert sorted(started) == sorted(set(started)), started
