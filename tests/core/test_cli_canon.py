"""`sia-tui canon`, `digest` and `lint`: exit codes, output, and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sia_tui.cli import main
from sia_tui.core.jsonkit.canonical import digest_of
from tests.support.documents import make_document, reference


def _write(tmp_path: Path, value: Any, name: str = "doc.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(value, indent=2), encoding="utf-8")
    return path


def test_digest_prints_the_sha256_digest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = make_document()
    assert main(["digest", str(_write(tmp_path, document))]) == 0
    assert capsys.readouterr().out == digest_of(document) + "\n"


@pytest.mark.parametrize(
    "content, fragment",
    [
        (b"", "empty input"),
        (b'{"a": 1, "a": 2}', "duplicate member name 'a'"),
        (b"[NaN]", "NaN is not valid JSON"),
        (b'["\xff"]', "invalid UTF-8"),
    ],
)
@pytest.mark.parametrize("command", ["canon", "digest", "lint"])
def test_bad_files_give_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, content: bytes, fragment: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    assert main([command, str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and fragment in captured.err
    assert captured.err.startswith(f"sia-tui: {path}:1:") and "Traceback" not in captured.err


def test_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["digest", str(tmp_path / "none.json")]) == 2
    assert "cannot read file" in capsys.readouterr().err


def test_unsafe_integer_cannot_be_canonicalized(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["canon", str(_write(tmp_path, [2**60]))]) == 2
    assert "safe range" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["canon", "digest"])
def test_an_unsafe_integer_is_located_by_file_and_pointer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """A Counter64 bound deep in a document: the error names the file and the member, as
    every other error of these commands does (RULES SR4)."""
    path = _write(tmp_path, {"input_schema": {"maximum": 2**64 - 1}, "n": [1, 2]})
    assert main([command, str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"sia-tui: {path}: integer {2**64 - 1} is outside")
    assert err.rstrip().endswith("(at /input_schema/maximum)")


def test_lint_clean_document_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    document = make_document()
    path = _write(tmp_path, document)
    assert main(["lint", str(path), "--digest", digest_of(document)]) == 0
    out = capsys.readouterr().out
    assert out.endswith("ok: the document passes CP4, CP5 and CP6\n")
    assert f"advertised (--digest)     {digest_of(document)}  = computed" in out


def test_lint_reports_findings_with_pointer_and_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = make_document()
    document["supporting_record_schemas"]["evaluate_resource_condition"] = document["output_schema"]
    document["output_schema"]["digest"] = "sha256:" + "0" * 64
    assert main(["lint", str(_write(tmp_path, document))]) == 1
    out = capsys.readouterr().out
    assert "error: /supporting_record_schemas/evaluate_resource_condition: " in out
    assert "[SID8]" in out and "/output_schema/digest" in out and "[CP6]" in out


def test_lint_json_output_and_wrong_digest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, make_document())
    assert main(["lint", str(path), "--json", "--digest", "sha256:" + "a" * 64]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False
    # Two digests only (no returned one): they differ, and neither is known to be wrong.
    assert [(f["rule"], f["instance_path"]) for f in report["findings"]] == [("CP4", "")]
    assert report["digests"]["differ"] == [["advertised", "computed"]]


def test_lint_accepts_a_describe_skill_payload(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = make_document()
    payload = {"interface_digest": digest_of(document), "skill_interface": document}
    assert main(["lint", str(_write(tmp_path, payload))]) == 0


def test_lint_malformed_digest_option_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["lint", str(_write(tmp_path, make_document())), "--digest", "md5:x"]) == 2
    assert "md5" in capsys.readouterr().err


def test_lint_warns_of_an_example_its_input_schema_rejects(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The editor would start from it: the example's pointer and its first error are said."""
    document = make_document()
    schema = document["input_schema"]["resolution"]["schema"]
    wrong = {"resource_id": "r", "condition": {"metric": "m", "operator": "gte", "unit": "%"}}
    document["input_schema"] = reference({**schema, "examples": [wrong]})
    assert main(["lint", str(_write(tmp_path, document))]) == 0
    out = capsys.readouterr().out
    assert (
        "warning: /input_schema/resolution/schema/examples/0: examples[0] fails the input "
        'schema: at /condition: "threshold" is a required property [CP7]'
    ) in out
    assert out.endswith("with 1 warning(s)\n")
