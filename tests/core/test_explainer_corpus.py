"""`lint` against an independent corpus built from the draft explainer's own sentences
(tests/fixtures/explainer, written by make_corpus.py): each file gets the verdict its
sentence implies: the exit status, and the rules its errors and warnings cite."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sia_tui.cli import main

CORPUS = Path(__file__).parent.parent / "fixtures" / "explainer"
ENTRIES: list[dict[str, Any]] = json.loads((CORPUS / "corpus.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["file"].removesuffix(".json") for e in ENTRIES])
def test_each_document_gets_the_verdict_its_sentence_implies(
    entry: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["lint", str(CORPUS / entry["file"]), *entry["args"], "--json"])
    report = json.loads(capsys.readouterr().out)
    said = {
        kind: {f["rule"] for f in report["findings"] if f["severity"] == kind}
        for kind in ("error", "warning")
    }
    assert status == entry["exit"], (entry["sentence"], report["findings"])
    assert report["ok"] is (entry["exit"] == 0)
    for kind, wanted in (("error", entry["errors"]), ("warning", entry["warnings"])):
        assert set(wanted) <= said[kind], (entry["sentence"], kind, said)
        if not wanted:
            assert not said[kind], (entry["sentence"], kind, report["findings"])


def test_the_corpus_is_what_its_generator_writes(tmp_path: Path) -> None:
    """The fixtures are not edited by hand: make_corpus.py rewrites them identically."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_corpus", CORPUS / "make_corpus.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    setattr(module, "HERE", tmp_path)  # noqa: B010 (a module loaded from a path)
    module.main()
    for path in tmp_path.iterdir():
        assert path.read_text() == (CORPUS / path.name).read_text(), path.name
