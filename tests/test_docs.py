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
