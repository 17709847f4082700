"""The read model of a run: what a run of the procedure recorded, and every answer it gives.

``Run`` (``read_model.py``) is what the TUI, ``check``, the reports, sessions, the probe,
the matrix and the bug report read, its answers behind ``run.verdict`` (``RunVerdict``) and
``run.answers`` (``RunAnswers``); the engine (``sia_tui.core.engine``) writes it. Nothing
here sends a request or drives a step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sia_tui.core import lazy_api

if TYPE_CHECKING:  # type checkers read these; the table below is the run-time side
    from sia_tui.core.run.answer_types import ArtifactVerdict as ArtifactVerdict
    from sia_tui.core.run.answer_types import ExampleArguments as ExampleArguments
    from sia_tui.core.run.answer_types import InvocationFailure as InvocationFailure
    from sia_tui.core.run.answer_types import OddOneOut as OddOneOut
    from sia_tui.core.run.answer_types import SchemaDigests as SchemaDigests
    from sia_tui.core.run.answer_types import UncheckedArtifacts as UncheckedArtifacts
    from sia_tui.core.run.answers import RunAnswers as RunAnswers
    from sia_tui.core.run.answers import advertised_skills as advertised_skills
    from sia_tui.core.run.answers import embedded_schema_at as embedded_schema_at
    from sia_tui.core.run.evidence import Blame as Blame
    from sia_tui.core.run.evidence import CardEvidence as CardEvidence
    from sia_tui.core.run.evidence import FailureCategory as FailureCategory
    from sia_tui.core.run.evidence import NextAction as NextAction
    from sia_tui.core.run.evidence import Party as Party
    from sia_tui.core.run.later_evidence import ArgumentsEvidence as ArgumentsEvidence
    from sia_tui.core.run.later_evidence import ArtifactRef as ArtifactRef
    from sia_tui.core.run.later_evidence import DelegationEvidence as DelegationEvidence
    from sia_tui.core.run.later_evidence import DescribeEvidence as DescribeEvidence
    from sia_tui.core.run.later_evidence import DigestEvidence as DigestEvidence
    from sia_tui.core.run.later_evidence import DocumentEvidence as DocumentEvidence
    from sia_tui.core.run.later_evidence import OutputEvidence as OutputEvidence
    from sia_tui.core.run.later_evidence import PresentationEvidence as PresentationEvidence
    from sia_tui.core.run.later_evidence import ReceptionEvidence as ReceptionEvidence
    from sia_tui.core.run.later_evidence import RecordSummary as RecordSummary
    from sia_tui.core.run.later_evidence import SchemaDigest as SchemaDigest
    from sia_tui.core.run.later_evidence import SchemaEvidence as SchemaEvidence
    from sia_tui.core.run.later_evidence import SkillEvidence as SkillEvidence
    from sia_tui.core.run.later_evidence import StepEvidence as StepEvidence
    from sia_tui.core.run.later_evidence import TaskError as TaskError
    from sia_tui.core.run.push_log import LOOPBACK as LOOPBACK
    from sia_tui.core.run.push_log import PushLog as PushLog
    from sia_tui.core.run.read_model import STEP_TITLES as STEP_TITLES
    from sia_tui.core.run.read_model import Digests as Digests
    from sia_tui.core.run.read_model import Invocation as Invocation
    from sia_tui.core.run.read_model import RecordResult as RecordResult
    from sia_tui.core.run.read_model import Run as Run
    from sia_tui.core.run.read_model import StepResult as StepResult
    from sia_tui.core.run.read_model import StepStatus as StepStatus
    from sia_tui.core.run.read_model import Target as Target
    from sia_tui.core.run.read_model import frozen_copy as frozen_copy
    from sia_tui.core.run.state import Step as Step
    from sia_tui.core.run.turns import UNVALIDATED as UNVALIDATED
    from sia_tui.core.run.turns import Reply as Reply
    from sia_tui.core.run.turns import Turn as Turn
    from sia_tui.core.run.turns import reply_argument as reply_argument
    from sia_tui.core.run.verdicts import RunOutcome as RunOutcome
    from sia_tui.core.run.verdicts import RunVerdict as RunVerdict
    from sia_tui.core.run.verdicts import worst_exit_code as worst_exit_code
#: Public name -> the module that defines it (tests/test_layering.py holds it to the
#: imports above, which type checkers read).
_EXPORTS: dict[str, str] = {
    "ArgumentsEvidence": "sia_tui.core.run.later_evidence",
    "ArtifactRef": "sia_tui.core.run.later_evidence",
    "ArtifactVerdict": "sia_tui.core.run.answer_types",
    "Blame": "sia_tui.core.run.evidence",
    "CardEvidence": "sia_tui.core.run.evidence",
    "DelegationEvidence": "sia_tui.core.run.later_evidence",
    "DescribeEvidence": "sia_tui.core.run.later_evidence",
    "DigestEvidence": "sia_tui.core.run.later_evidence",
    "Digests": "sia_tui.core.run.read_model",
    "DocumentEvidence": "sia_tui.core.run.later_evidence",
    "ExampleArguments": "sia_tui.core.run.answer_types",
    "FailureCategory": "sia_tui.core.run.evidence",
    "Invocation": "sia_tui.core.run.read_model",
    "InvocationFailure": "sia_tui.core.run.answer_types",
    "LOOPBACK": "sia_tui.core.run.push_log",
    "NextAction": "sia_tui.core.run.evidence",
    "OddOneOut": "sia_tui.core.run.answer_types",
    "OutputEvidence": "sia_tui.core.run.later_evidence",
    "Party": "sia_tui.core.run.evidence",
    "PresentationEvidence": "sia_tui.core.run.later_evidence",
    "PushLog": "sia_tui.core.run.push_log",
    "ReceptionEvidence": "sia_tui.core.run.later_evidence",
    "RecordResult": "sia_tui.core.run.read_model",
    "RecordSummary": "sia_tui.core.run.later_evidence",
    "Reply": "sia_tui.core.run.turns",
    "Run": "sia_tui.core.run.read_model",
    "RunAnswers": "sia_tui.core.run.answers",
    "RunOutcome": "sia_tui.core.run.verdicts",
    "RunVerdict": "sia_tui.core.run.verdicts",
    "STEP_TITLES": "sia_tui.core.run.read_model",
    "SchemaDigest": "sia_tui.core.run.later_evidence",
    "SchemaDigests": "sia_tui.core.run.answer_types",
    "SchemaEvidence": "sia_tui.core.run.later_evidence",
    "SkillEvidence": "sia_tui.core.run.later_evidence",
    "Step": "sia_tui.core.run.state",
    "StepEvidence": "sia_tui.core.run.later_evidence",
    "StepResult": "sia_tui.core.run.read_model",
    "StepStatus": "sia_tui.core.run.read_model",
    "Target": "sia_tui.core.run.read_model",
    "TaskError": "sia_tui.core.run.later_evidence",
    "Turn": "sia_tui.core.run.turns",
    "UNVALIDATED": "sia_tui.core.run.turns",
    "UncheckedArtifacts": "sia_tui.core.run.answer_types",
    "advertised_skills": "sia_tui.core.run.answers",
    "embedded_schema_at": "sia_tui.core.run.answers",
    "frozen_copy": "sia_tui.core.run.read_model",
    "reply_argument": "sia_tui.core.run.turns",
    "worst_exit_code": "sia_tui.core.run.verdicts",
}
__all__ = sorted(_EXPORTS)


if not TYPE_CHECKING:  # mypy then checks every name against the imports above

    def __getattr__(name: str) -> Any:
        return lazy_api.resolve(__name__, _EXPORTS, name)
