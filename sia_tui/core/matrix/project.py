"""Cells as projections of a ``Run``: the one place the matrix reads verdicts.

Nothing here judges an agent. A step cell is the step's status, code, origin and blame; a
binding/mode cell is the run's outcome, summary and failed step. The only translations are
into the matrix's four words, written once:

- ``passed`` and ``negative_test_passed`` are **pass**; ``failed`` is **fail**;
- a failure the engine files under ``usage`` or ``internal`` is **incomplete**: the run could
  not do what the plugfest file asked (no example arguments, a sia-tui bug), which says
  nothing about the agent (``check`` exits 2 for the first, not 1);
- except a mode the validated document does not declare, which is **skip**: the column does
  not apply to that skill (RULES SID4);
- steps that did not run, a cancelled or cut-off run, are **incomplete**; steps after a
  failure are **skip** (RULES CP0);
- a probe cell is the probe report's outcome: ``failed`` is **fail**, ``passed`` **pass**
  (warnings are named in the summary); when the interface was not learned, or the valid
  baseline invocation after it failed, the probe does not apply (**skip**: the binding/mode
  cells already show why), unless the run was cut off.
"""

from __future__ import annotations

from collections.abc import Callable

from sia_tui.core.matrix.grid import Cell, CellStatus
from sia_tui.core.matrix.plugfest import BINDING_LABELS
from sia_tui.core.probe.results import Grade, ProbeOutcome, ProbeReport
from sia_tui.core.run.evidence import FailureCategory
from sia_tui.core.run.read_model import Run, StepResult, StepStatus
from sia_tui.core.run.verdicts import RunOutcome
from sia_tui.core.trust.records import LockStatus, SignatureVerdict

#: Cleans agent text before it is stored in a cell (the agent's redactor).
Clean = Callable[[str], str]
#: Failure categories that say the run could not be carried out, not that the agent failed.
_NOT_THE_AGENT = (FailureCategory.USAGE, FailureCategory.INTERNAL)


def _failure(cell: Cell, step: StepResult, run: Run, clean: Clean) -> Cell:
    """Fill ``cell`` with the failed ``step``'s code, origin, category and blame."""
    cell.step = step.step
    cell.code = str(step.code) if step.code else None
    cell.origin = step.origin
    cell.category = str(step.category) if step.category else None
    blame = run.verdict.at_fault
    if blame is not None:
        cell.party, cell.statement = str(blame.party), clean(blame.statement)
    if step.category in _NOT_THE_AGENT:
        cell.status = CellStatus.INCOMPLETE
        cell.summary = clean(f"could not run: {step.message}")
    return cell


def step_cell(step: StepResult, run: Run, clean: Clean) -> Cell:
    """The cell of one of the eleven steps."""
    if step.status is StepStatus.PASSED:
        return Cell(CellStatus.PASS, clean(step.message), mode=run.mode)
    if step.status is StepStatus.FAILED:
        return _failure(Cell(CellStatus.FAIL, clean(step.message), mode=run.mode), step, run, clean)
    if step.status is StepStatus.SKIPPED:
        return Cell(CellStatus.SKIP, clean(step.message), step=step.step)
    # not run, running, cancelled: it did not happen, and it is never counted as passed.
    return Cell(CellStatus.INCOMPLETE, clean(run.verdict.summary), step=step.step)


def undeclared_mode(run: Run) -> Cell | None:
    """A skip cell when the run's mode is one its validated document does not declare."""
    mode = run.target.mode
    if mode is None or run.answers.validated_document is None or mode in run.answers.declared_modes:
        return None
    return not_declared(mode, run.answers.declared_modes)


def run_cell(run: Run, clean: Clean, *, stopped: str = "") -> Cell:
    """The cell of a whole run (a binding/mode column). ``stopped``: why the matrix cut it."""
    outcome = run.verdict.outcome
    cell = Cell(mode=run.mode or run.target.mode)
    if outcome in (RunOutcome.PASSED, RunOutcome.NEGATIVE_TEST_PASSED):
        cell.status, cell.summary = CellStatus.PASS, clean(run.verdict.summary)
    elif outcome is RunOutcome.FAILED:
        failed = run.failed_step
        assert failed is not None
        not_applicable = undeclared_mode(run)
        if not_applicable is not None:
            return not_applicable
        cell.status, cell.summary = CellStatus.FAIL, clean(run.verdict.summary)
        _failure(cell, failed, run, clean)
    else:
        waiting = run.next_step
        cell.status, cell.step = CellStatus.INCOMPLETE, waiting
        cell.summary = clean(
            f"{stopped}; {run.verdict.summary}" if stopped else run.verdict.summary
        )
    return cell


def not_offered(binding: str) -> Cell:
    """A binding the agent's card does not offer: the column does not apply."""
    return Cell(CellStatus.SKIP, f"the card offers no callable {BINDING_LABELS[binding]} interface")


def not_declared(mode: str, declared: list[str]) -> Cell:
    """A mode the row's validated document does not declare (RULES SID4)."""
    listed = ", ".join(declared) or "none"
    text = f"the document declares {listed}, not {mode} (RULES SID4)"
    return Cell(CellStatus.SKIP, text, mode=mode)


def not_learned(run: Run, clean: Clean) -> Cell:
    """The probe column of a row whose first run did not learn the interface (steps 1-6)."""
    return Cell(CellStatus.SKIP, clean(f"the interface was not learned: {run.verdict.headline}"))


def probe_cell(report: ProbeReport, clean: Clean, *, stopped: str = "") -> Cell:
    """The cell of a probe run (``sia-tui probe`` on the row's skill)."""
    learning = report.learning
    if stopped:
        return Cell(CellStatus.INCOMPLETE, clean(f"{stopped}; {learning.verdict.summary}"))
    if report.baseline_failed:  # steps 1-6 did learn it: say what stopped the probes
        return Cell(CellStatus.SKIP, clean(f"{report.why_not_probed}: {learning.verdict.headline}"))
    if report.outcome is ProbeOutcome.NOT_LEARNED:
        return not_learned(learning, clean)
    counts = ", ".join(f"{report.count(g)} {g.value}" for g in Grade if report.count(g))
    failed = [r for r in report.results if r.grade is Grade.FAIL]
    if not failed:
        warned = [r.id for r in report.results if r.grade is Grade.WARN]
        note = f" (warnings: {', '.join(warned)})" if warned else ""
        return Cell(CellStatus.PASS, f"probes: {counts}{note}", mode=report.mode)
    first = failed[0]
    names = ", ".join(f"{r.id} (RULES {r.rule})" for r in failed)
    return Cell(
        CellStatus.FAIL,
        clean(f"probes: {counts}; failed: {names}"),
        category="probe",
        party="agent",
        statement=clean(f"{first.title}: {first.reason}"),
        mode=report.mode,
    )


def signature_cell(run: Run, clean: Clean) -> Cell:
    """The card's signatures: pass when one is verified, fail when one is invalid (and none
    verified), skip when unsigned or nothing could be verified; the verdicts in the summary."""
    checks = run.answers.card_signatures
    if run.card is None:
        return Cell(CellStatus.INCOMPLETE, clean(run.verdict.summary), step=1)
    if not checks:
        return Cell(CellStatus.SKIP, "the card is not signed", step=1)
    verdicts = {check.verdict for check in checks}
    summary = clean("; ".join(check.summary for check in checks))
    if SignatureVerdict.VERIFIED in verdicts:
        return Cell(CellStatus.PASS, summary, step=1)
    status = CellStatus.FAIL if SignatureVerdict.INVALID in verdicts else CellStatus.SKIP
    return Cell(status, summary, step=1)


def lock_cell(run: Run, clean: Clean) -> Cell:
    """The contract lock: unchanged or a bump that follows SID2 pass, drift or a wrong bump
    fail, a lock that pins nothing here could not be compared."""
    lock = run.answers.lock
    if lock is None:
        anchors = run.target.anchors
        if anchors is None or anchors.lock is None:
            return Cell(CellStatus.SKIP, "no lock for this agent", step=4)
        return Cell(CellStatus.INCOMPLETE, clean(run.verdict.summary), step=4)
    status = {
        LockStatus.UNCHANGED: CellStatus.PASS,
        LockStatus.VERSION_CHANGED: CellStatus.PASS,
        LockStatus.DRIFT: CellStatus.FAIL,
        LockStatus.WRONG_BUMP: CellStatus.FAIL,
        LockStatus.NOT_PINNED: CellStatus.INCOMPLETE,
    }[lock.status]
    return Cell(status, clean(lock.summary), step=4)


def wire_cell(run: Run, clean: Clean) -> Cell:
    """The wire check of the run (``Run.answers.wire``): pass with no wire error (warnings said),
    fail with one; informative, like the signature and lock columns (docs/WIRE-CHECKS.md)."""
    wire = run.answers.wire
    if not wire.verdicts:
        return Cell(CellStatus.SKIP, "no A2A message was recorded", step=1)
    status = CellStatus.FAIL if wire.errors else CellStatus.PASS
    return Cell(status, clean(wire.summary))
