"""``sia-tui check --junit FILE``: one testcase per step of a run, for a vendor's CI.

A step that passed is a passed testcase; a failed step is a ``<failure>`` (an ``<error>``
when the engine files it under usage or internal: the check could not be carried out);
a step skipped after a failure (RULES CP0), or one that did not run, is ``<skipped>`` with
the reason. A step that did not run is never a pass.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from sia_tui.core.jsonkit.pointer import display_pointer
from sia_tui.core.output.junit import CaseStatus, JUnitCase, JUnitSuite
from sia_tui.core.run.evidence import FailureCategory
from sia_tui.core.run.read_model import Run, Step, StepResult, StepStatus
from sia_tui.core.run.turns import turn_lines
from sia_tui.core.run.verdicts import code_and_origin

#: Cleans agent text before it is written (the command's redactor).
Clean = Callable[[str], str]
DRAFT = "draft-huang-ainetops-agent-schema-interfaces-00"


def _same(text: str) -> str:
    return text


def _seconds(run: Run, step: StepResult) -> float:
    numbers = set(step.exchanges)
    return sum(ex.elapsed_ms for ex in run.exchanges if ex.seq in numbers) / 1000


def failure_detail(run: Run, step: StepResult, clean: Clean) -> str:
    """What a CI page shows under a failed step: code, origin, who is at fault, the hint,
    the findings (located)."""
    lines = [f"step {step.step} ({step.title}, RULES {step.rule}): {step.message}"]
    if step.code:
        lines.append(f"code: {code_and_origin(step)}")
    elif step.category:
        lines.append(f"category: {step.category}")
    blame = run.verdict.at_fault
    if blame is not None:
        lines.append(f"at fault: {blame.text}")
    if step.hint:
        lines.append(f"what to do: {step.hint}")
    error = run.answers.a2a_error
    if error is not None:
        lines.append(f"A2A error: {json.dumps(error.to_json(), ensure_ascii=False)}")
    for finding in step.findings:
        where = f" at {display_pointer(finding.pointer)}"
        rule = f" (RULES {finding.rule})" if finding.rule else ""
        lines.append(f"- {finding.severity}{where}: {finding.message}{rule}")
    return clean("\n".join(lines))


def step_case(run: Run, step: StepResult, classname: str, clean: Clean = _same) -> JUnitCase:
    """The testcase of one step."""
    name = f"step {step.step:02d}: {step.title} (RULES {step.rule})"
    time = _seconds(run, step)
    if step.status is StepStatus.PASSED:
        said = [step.message]
        if step.step == Step.RECEPTION:  # the questions and replies of a multi-turn task
            said += turn_lines(run.turns)
        return JUnitCase(name, classname, time=time, system_out=clean("\n".join(said)))
    if step.status is StepStatus.FAILED:
        could_not_run = step.category in (FailureCategory.USAGE, FailureCategory.INTERNAL)
        return JUnitCase(
            name,
            classname,
            CaseStatus.ERROR if could_not_run else CaseStatus.FAILED,
            time=time,
            message=clean(step.message),
            kind=str(step.code or step.category or "failed"),
            text=failure_detail(run, step, clean),
        )
    if step.status is StepStatus.SKIPPED:
        return JUnitCase(
            name, classname, CaseStatus.SKIPPED, time=time, message=clean(step.message)
        )
    # not run, running or cancelled: skipped with the run's reason, never passed
    return JUnitCase(
        name,
        classname,
        CaseStatus.SKIPPED,
        time=time,
        message=clean(f"not run: {run.verdict.summary}"),
    )


def run_junit_suite(run: Run, clean: Clean = _same) -> JUnitSuite:
    """The eleven steps of ``run`` as one ``<testsuite>``, named after the target."""
    target = run.target
    skill = run.skill_id or target.skill_id or "(no skill)"
    classname = f"sia-tui.check.{skill}"
    return JUnitSuite(
        name=clean(f"{target.location} {skill}"),
        cases=tuple(step_case(run, step, classname, clean) for step in run.steps),
        properties=(
            ("card", clean(target.location)),
            ("skill", skill),
            ("binding", run.interface.binding if run.interface else target.binding or ""),
            ("mode", run.mode or target.mode or ""),
            ("outcome", run.verdict.outcome.value),
            ("summary", clean(run.verdict.summary)),
            ("draft", DRAFT),
            *trace_properties(run, clean),
        ),
    )


def trace_properties(run: Run, clean: Clean = _same) -> tuple[tuple[str, str], ...]:
    """The run's W3C trace id and each exchange's span (``span.SEQ``, its purpose after the
    id), so a CI page names what the agent's vendor searches their logs for."""
    if run.trace_id is None:
        return ()
    spans = tuple(
        (f"span.{ex.seq}", clean(f"{ex.span_id} {ex.purpose}"))
        for ex in run.exchanges
        if ex.span_id
    )
    return (("trace_id", run.trace_id), *spans)
