"""The eleven-step client procedure (RULES CP0-CP13), driven by the CLI and the TUI alike.

This package is the engine API: ``sia_tui.cli`` and ``sia_tui.tui`` import the core only
through it (and through ``sia_tui.core.session``, ``.compose`` and ``.diff``); a test
enforces that. What they need to drive a run, read its answers, and show agent data
safely is re-exported here; everything else in the engine is internal.
"""

from sia_tui.core import limits
from sia_tui.core.a2a.model import AgentCard, Artifact, Interface, StreamEvent, Task
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.canonical import canonical_bytes, digest_of, parse_digest
from sia_tui.core.codes import ERROR_CODES, ErrorCode, Origin, describe_code
from sia_tui.core.constants import DESCRIBE_SKILL
from sia_tui.core.engine.cache import DocumentCache
from sia_tui.core.engine.evidence import (
    ArgumentsEvidence,
    ArtifactRef,
    Blame,
    CardEvidence,
    DelegationEvidence,
    DescribeEvidence,
    DigestEvidence,
    DocumentEvidence,
    FailureCategory,
    NextAction,
    OutputEvidence,
    Party,
    PresentationEvidence,
    ReceptionEvidence,
    RecordSummary,
    SchemaDigest,
    SchemaEvidence,
    SkillEvidence,
    StepEvidence,
    TaskError,
)
from sia_tui.core.engine.model import (
    STEP_TITLES,
    Digests,
    RecordResult,
    Run,
    StepResult,
    StepStatus,
    Target,
)
from sia_tui.core.engine.offline import OfflineVerdict, unwrap_payload, verify_offline
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.engine.report import evidence_to_json, finding_to_json, run_to_json
from sia_tui.core.engine.text_report import CLI_NEXT, render_text
from sia_tui.core.engine.verdicts import (
    ArtifactVerdict,
    ExampleArguments,
    OddOneOut,
    RunOutcome,
    SchemaDigests,
    advertised_skills,
    embedded_schema_at,
)
from sia_tui.core.errors import JsonInputError, SiaError
from sia_tui.core.exchange import Exchange, Headers
from sia_tui.core.findings import Finding, Severity
from sia_tui.core.pointer import PositionIndex, display_pointer
from sia_tui.core.printable import printable, terminal_json
from sia_tui.core.skeleton import skeleton_for
from sia_tui.core.strictjson import load_path, loads
from sia_tui.core.threeway import DigestRow, DigestSource
from sia_tui.core.validation import (
    CompiledSchema,
    TextValidation,
    compile_schema,
    validate_json_text,
)

__all__ = [
    "CLI_NEXT",
    "DESCRIBE_SKILL",
    "ERROR_CODES",
    "STEP_TITLES",
    "AgentCard",
    "ArgumentsEvidence",
    "Artifact",
    "ArtifactRef",
    "ArtifactVerdict",
    "Blame",
    "CardEvidence",
    "ClientOptions",
    "CompiledSchema",
    "DelegationEvidence",
    "DescribeEvidence",
    "DigestEvidence",
    "DigestRow",
    "DigestSource",
    "Digests",
    "DocumentCache",
    "DocumentEvidence",
    "ErrorCode",
    "ExampleArguments",
    "Exchange",
    "FailureCategory",
    "Finding",
    "Headers",
    "Interface",
    "JsonInputError",
    "NextAction",
    "OddOneOut",
    "OfflineVerdict",
    "Origin",
    "OutputEvidence",
    "Party",
    "PositionIndex",
    "PresentationEvidence",
    "Procedure",
    "ReceptionEvidence",
    "RecordResult",
    "RecordSummary",
    "Run",
    "RunOutcome",
    "SchemaDigest",
    "SchemaDigests",
    "SchemaEvidence",
    "Severity",
    "SiaError",
    "SkillEvidence",
    "StepEvidence",
    "StepResult",
    "StepStatus",
    "StreamEvent",
    "Target",
    "Task",
    "TaskError",
    "TextValidation",
    "advertised_skills",
    "canonical_bytes",
    "compile_schema",
    "describe_code",
    "digest_of",
    "display_pointer",
    "embedded_schema_at",
    "evidence_to_json",
    "finding_to_json",
    "limits",
    "load_path",
    "loads",
    "parse_digest",
    "printable",
    "render_text",
    "run_to_json",
    "skeleton_for",
    "terminal_json",
    "unwrap_payload",
    "validate_json_text",
    "verify_offline",
]
