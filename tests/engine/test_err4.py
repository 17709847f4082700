"""RULES ERR4: `interface_invalid` is only for a defect in the document or an embedded schema,
never for an instance that a valid schema rejects (input_invalid, output_invalid instead)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sia_tui.cli import main
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.codes import DetectedBy, ErrorCode
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.jsonkit.canonical import digest_of
from sia_tui.core.run.read_model import Run, Step, StepStatus, Target
from tests.support.agents import StartAgent
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS, run_appendix_b
from tests.support.documents import make_document, reference

SKILL = "evaluate_resource_condition"
#: One type error at /condition/threshold against a valid input schema.
WRONG_TYPE = {
    **APPENDIX_B_ARGUMENTS,
    "condition": {**APPENDIX_B_ARGUMENTS["condition"], "threshold": "eighty"},
}


async def _run(url: str, *, send_anyway: bool = False) -> Run:
    procedure = Procedure(Target(url, skill_id=SKILL), ClientOptions())
    procedure.set_arguments(WRONG_TYPE, send_anyway=send_anyway)
    try:
        return await procedure.run_all()
    finally:
        await procedure.aclose()


def _interface_steps_passed(run: Run) -> bool:
    return all(
        run.step(s).status is StepStatus.PASSED for s in (Step.DIGESTS, Step.DOCUMENT, Step.SCHEMAS)
    )


async def test_err4_arguments_a_valid_schema_rejects_are_input_invalid_here(
    reference_agent: StartAgent,
) -> None:
    run = await _run(reference_agent().url)
    failed = run.failed_step
    assert failed is not None and failed.step == Step.ARGUMENTS
    assert failed.code is ErrorCode.INPUT_INVALID and failed.origin is DetectedBy.LOCAL
    assert _interface_steps_passed(run)
    assert "interface_invalid" not in run.verdict.summary


async def test_err4_the_reference_agent_rejects_them_with_input_invalid(
    reference_agent: StartAgent,
) -> None:
    run = await _run(reference_agent().url, send_anyway=True)
    assert run.verdict.outcome == "negative_test_passed"
    assert (
        "with input_invalid" in run.verdict.summary
        and "interface_invalid" not in run.verdict.summary
    )
    assert _interface_steps_passed(run)


async def test_err4_output_a_valid_schema_rejects_is_output_invalid(
    reference_agent: StartAgent,
) -> None:
    run = await run_appendix_b(
        Target(reference_agent(fault="output-invalid").url, skill_id=SKILL), ClientOptions()
    )
    failed = run.failed_step
    assert failed is not None and failed.step == Step.OUTPUT
    assert failed.code is ErrorCode.OUTPUT_INVALID
    assert _interface_steps_passed(run)


def test_err4_an_example_its_schema_rejects_is_a_warning_not_interface_invalid(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The input schema is valid; one of its own examples is an instance it rejects."""
    document = make_document()
    schema = document["input_schema"]["resolution"]["schema"]
    document["input_schema"] = reference({**schema, "examples": [WRONG_TYPE]})
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(document))
    assert main(["lint", str(path), "--json", "--digest", digest_of(document)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is True
    [finding] = report["findings"]
    assert (finding["severity"], finding["rule"]) == ("warning", "CP7")
    assert finding["instance_path"] == "/input_schema/resolution/schema/examples/0"
    assert "interface_invalid" not in json.dumps(report)
