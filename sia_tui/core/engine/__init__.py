"""The eleven-step client procedure (RULES CP0-CP13), driven by the CLI and the TUI alike.

This package is the engine API: ``sia_tui.cli`` and ``sia_tui.tui`` import the core only
through it (and through ``sia_tui.core.session``, ``.compose`` and ``.diff``); a test
enforces that. What they need to drive a run, read its answers, and show agent data
safely is re-exported here; everything else in the engine is internal. Names load on
first use (``lazy_api``), so importing the API costs nothing until a name is used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sia_tui.core import lazy_api
from sia_tui.core.lazy_api import MODULE

if TYPE_CHECKING:
    from sia_tui.core import limits as limits
    from sia_tui.core.a2a import defaults as defaults
    from sia_tui.core.a2a.model import (
        AgentCard as AgentCard,
    )
    from sia_tui.core.a2a.model import (
        Artifact as Artifact,
    )
    from sia_tui.core.a2a.model import (
        Interface as Interface,
    )
    from sia_tui.core.a2a.model import (
        StreamEvent as StreamEvent,
    )
    from sia_tui.core.a2a.model import (
        Task as Task,
    )
    from sia_tui.core.a2a.options import (
        ClientOptions as ClientOptions,
    )
    from sia_tui.core.canonical import (
        canonical_bytes as canonical_bytes,
    )
    from sia_tui.core.canonical import (
        digest_of as digest_of,
    )
    from sia_tui.core.canonical import (
        parse_digest as parse_digest,
    )
    from sia_tui.core.codes import (
        ERROR_CODES as ERROR_CODES,
    )
    from sia_tui.core.codes import (
        ErrorCode as ErrorCode,
    )
    from sia_tui.core.codes import (
        Origin as Origin,
    )
    from sia_tui.core.codes import (
        describe_code as describe_code,
    )
    from sia_tui.core.constants import (
        DESCRIBE_SKILL as DESCRIBE_SKILL,
    )
    from sia_tui.core.engine.cache import (
        DocumentCache as DocumentCache,
    )
    from sia_tui.core.engine.evidence import (
        ArgumentsEvidence as ArgumentsEvidence,
    )
    from sia_tui.core.engine.evidence import (
        ArtifactRef as ArtifactRef,
    )
    from sia_tui.core.engine.evidence import (
        Blame as Blame,
    )
    from sia_tui.core.engine.evidence import (
        CardEvidence as CardEvidence,
    )
    from sia_tui.core.engine.evidence import (
        DelegationEvidence as DelegationEvidence,
    )
    from sia_tui.core.engine.evidence import (
        DescribeEvidence as DescribeEvidence,
    )
    from sia_tui.core.engine.evidence import (
        DigestEvidence as DigestEvidence,
    )
    from sia_tui.core.engine.evidence import (
        DocumentEvidence as DocumentEvidence,
    )
    from sia_tui.core.engine.evidence import (
        FailureCategory as FailureCategory,
    )
    from sia_tui.core.engine.evidence import (
        NextAction as NextAction,
    )
    from sia_tui.core.engine.evidence import (
        OutputEvidence as OutputEvidence,
    )
    from sia_tui.core.engine.evidence import (
        Party as Party,
    )
    from sia_tui.core.engine.evidence import (
        PresentationEvidence as PresentationEvidence,
    )
    from sia_tui.core.engine.evidence import (
        ReceptionEvidence as ReceptionEvidence,
    )
    from sia_tui.core.engine.evidence import (
        RecordSummary as RecordSummary,
    )
    from sia_tui.core.engine.evidence import (
        SchemaDigest as SchemaDigest,
    )
    from sia_tui.core.engine.evidence import (
        SchemaEvidence as SchemaEvidence,
    )
    from sia_tui.core.engine.evidence import (
        SkillEvidence as SkillEvidence,
    )
    from sia_tui.core.engine.evidence import (
        StepEvidence as StepEvidence,
    )
    from sia_tui.core.engine.evidence import (
        TaskError as TaskError,
    )
    from sia_tui.core.engine.model import (
        STEP_TITLES as STEP_TITLES,
    )
    from sia_tui.core.engine.model import (
        Digests as Digests,
    )
    from sia_tui.core.engine.model import (
        RecordResult as RecordResult,
    )
    from sia_tui.core.engine.model import (
        Run as Run,
    )
    from sia_tui.core.engine.model import (
        StepResult as StepResult,
    )
    from sia_tui.core.engine.model import (
        StepStatus as StepStatus,
    )
    from sia_tui.core.engine.model import (
        Target as Target,
    )
    from sia_tui.core.engine.offline import (
        OfflineVerdict as OfflineVerdict,
    )
    from sia_tui.core.engine.offline import (
        unwrap_payload as unwrap_payload,
    )
    from sia_tui.core.engine.offline import (
        verify_offline as verify_offline,
    )
    from sia_tui.core.engine.procedure import (
        Procedure as Procedure,
    )
    from sia_tui.core.engine.report import (
        evidence_to_json as evidence_to_json,
    )
    from sia_tui.core.engine.report import (
        finding_to_json as finding_to_json,
    )
    from sia_tui.core.engine.report import (
        run_to_json as run_to_json,
    )
    from sia_tui.core.engine.text_report import (
        CLI_NEXT as CLI_NEXT,
    )
    from sia_tui.core.engine.text_report import (
        render_text as render_text,
    )
    from sia_tui.core.engine.verdicts import (
        ArtifactVerdict as ArtifactVerdict,
    )
    from sia_tui.core.engine.verdicts import (
        ExampleArguments as ExampleArguments,
    )
    from sia_tui.core.engine.verdicts import (
        OddOneOut as OddOneOut,
    )
    from sia_tui.core.engine.verdicts import (
        RunOutcome as RunOutcome,
    )
    from sia_tui.core.engine.verdicts import (
        SchemaDigests as SchemaDigests,
    )
    from sia_tui.core.engine.verdicts import (
        advertised_skills as advertised_skills,
    )
    from sia_tui.core.engine.verdicts import (
        embedded_schema_at as embedded_schema_at,
    )
    from sia_tui.core.errors import (
        JsonInputError as JsonInputError,
    )
    from sia_tui.core.errors import (
        SiaError as SiaError,
    )
    from sia_tui.core.exchange import (
        Exchange as Exchange,
    )
    from sia_tui.core.exchange import (
        Headers as Headers,
    )
    from sia_tui.core.findings import (
        Finding as Finding,
    )
    from sia_tui.core.findings import (
        Severity as Severity,
    )
    from sia_tui.core.pointer import (
        PositionIndex as PositionIndex,
    )
    from sia_tui.core.pointer import (
        display_pointer as display_pointer,
    )
    from sia_tui.core.printable import (
        printable as printable,
    )
    from sia_tui.core.printable import (
        terminal_json as terminal_json,
    )
    from sia_tui.core.skeleton import (
        skeleton_for as skeleton_for,
    )
    from sia_tui.core.strictjson import (
        Parsed as Parsed,
    )
    from sia_tui.core.strictjson import (
        load_path as load_path,
    )
    from sia_tui.core.strictjson import (
        loads as loads,
    )
    from sia_tui.core.strictjson import (
        parse as parse,
    )
    from sia_tui.core.strictjson import (
        parse_path as parse_path,
    )
    from sia_tui.core.threeway import (
        DigestRow as DigestRow,
    )
    from sia_tui.core.threeway import (
        DigestSource as DigestSource,
    )
    from sia_tui.core.validation import (
        CompiledSchema as CompiledSchema,
    )
    from sia_tui.core.validation import (
        TextValidation as TextValidation,
    )
    from sia_tui.core.validation import (
        compile_schema as compile_schema,
    )
    from sia_tui.core.validation import (
        validate_json_text as validate_json_text,
    )

#: Public name -> (module, attribute); MODULE: the module itself.
_EXPORTS: dict[str, tuple[str, str]] = {
    "AgentCard": ("sia_tui.core.a2a.model", "AgentCard"),
    "ArgumentsEvidence": ("sia_tui.core.engine.evidence", "ArgumentsEvidence"),
    "Artifact": ("sia_tui.core.a2a.model", "Artifact"),
    "ArtifactRef": ("sia_tui.core.engine.evidence", "ArtifactRef"),
    "ArtifactVerdict": ("sia_tui.core.engine.verdicts", "ArtifactVerdict"),
    "Blame": ("sia_tui.core.engine.evidence", "Blame"),
    "CLI_NEXT": ("sia_tui.core.engine.text_report", "CLI_NEXT"),
    "CardEvidence": ("sia_tui.core.engine.evidence", "CardEvidence"),
    "ClientOptions": ("sia_tui.core.a2a.options", "ClientOptions"),
    "CompiledSchema": ("sia_tui.core.validation", "CompiledSchema"),
    "DESCRIBE_SKILL": ("sia_tui.core.constants", "DESCRIBE_SKILL"),
    "DelegationEvidence": ("sia_tui.core.engine.evidence", "DelegationEvidence"),
    "DescribeEvidence": ("sia_tui.core.engine.evidence", "DescribeEvidence"),
    "DigestEvidence": ("sia_tui.core.engine.evidence", "DigestEvidence"),
    "DigestRow": ("sia_tui.core.threeway", "DigestRow"),
    "DigestSource": ("sia_tui.core.threeway", "DigestSource"),
    "Digests": ("sia_tui.core.engine.model", "Digests"),
    "DocumentCache": ("sia_tui.core.engine.cache", "DocumentCache"),
    "DocumentEvidence": ("sia_tui.core.engine.evidence", "DocumentEvidence"),
    "ERROR_CODES": ("sia_tui.core.codes", "ERROR_CODES"),
    "ErrorCode": ("sia_tui.core.codes", "ErrorCode"),
    "ExampleArguments": ("sia_tui.core.engine.verdicts", "ExampleArguments"),
    "Exchange": ("sia_tui.core.exchange", "Exchange"),
    "FailureCategory": ("sia_tui.core.engine.evidence", "FailureCategory"),
    "Finding": ("sia_tui.core.findings", "Finding"),
    "Headers": ("sia_tui.core.exchange", "Headers"),
    "Interface": ("sia_tui.core.a2a.model", "Interface"),
    "JsonInputError": ("sia_tui.core.errors", "JsonInputError"),
    "NextAction": ("sia_tui.core.engine.evidence", "NextAction"),
    "OddOneOut": ("sia_tui.core.engine.verdicts", "OddOneOut"),
    "OfflineVerdict": ("sia_tui.core.engine.offline", "OfflineVerdict"),
    "Origin": ("sia_tui.core.codes", "Origin"),
    "OutputEvidence": ("sia_tui.core.engine.evidence", "OutputEvidence"),
    "Parsed": ("sia_tui.core.strictjson", "Parsed"),
    "Party": ("sia_tui.core.engine.evidence", "Party"),
    "PositionIndex": ("sia_tui.core.pointer", "PositionIndex"),
    "PresentationEvidence": ("sia_tui.core.engine.evidence", "PresentationEvidence"),
    "Procedure": ("sia_tui.core.engine.procedure", "Procedure"),
    "ReceptionEvidence": ("sia_tui.core.engine.evidence", "ReceptionEvidence"),
    "RecordResult": ("sia_tui.core.engine.model", "RecordResult"),
    "RecordSummary": ("sia_tui.core.engine.evidence", "RecordSummary"),
    "Run": ("sia_tui.core.engine.model", "Run"),
    "RunOutcome": ("sia_tui.core.engine.verdicts", "RunOutcome"),
    "STEP_TITLES": ("sia_tui.core.engine.model", "STEP_TITLES"),
    "SchemaDigest": ("sia_tui.core.engine.evidence", "SchemaDigest"),
    "SchemaDigests": ("sia_tui.core.engine.verdicts", "SchemaDigests"),
    "SchemaEvidence": ("sia_tui.core.engine.evidence", "SchemaEvidence"),
    "Severity": ("sia_tui.core.findings", "Severity"),
    "SiaError": ("sia_tui.core.errors", "SiaError"),
    "SkillEvidence": ("sia_tui.core.engine.evidence", "SkillEvidence"),
    "StepEvidence": ("sia_tui.core.engine.evidence", "StepEvidence"),
    "StepResult": ("sia_tui.core.engine.model", "StepResult"),
    "StepStatus": ("sia_tui.core.engine.model", "StepStatus"),
    "StreamEvent": ("sia_tui.core.a2a.model", "StreamEvent"),
    "Target": ("sia_tui.core.engine.model", "Target"),
    "Task": ("sia_tui.core.a2a.model", "Task"),
    "TaskError": ("sia_tui.core.engine.evidence", "TaskError"),
    "TextValidation": ("sia_tui.core.validation", "TextValidation"),
    "advertised_skills": ("sia_tui.core.engine.verdicts", "advertised_skills"),
    "canonical_bytes": ("sia_tui.core.canonical", "canonical_bytes"),
    "compile_schema": ("sia_tui.core.validation", "compile_schema"),
    "defaults": ("sia_tui.core.a2a.defaults", MODULE),
    "describe_code": ("sia_tui.core.codes", "describe_code"),
    "digest_of": ("sia_tui.core.canonical", "digest_of"),
    "display_pointer": ("sia_tui.core.pointer", "display_pointer"),
    "embedded_schema_at": ("sia_tui.core.engine.verdicts", "embedded_schema_at"),
    "evidence_to_json": ("sia_tui.core.engine.report", "evidence_to_json"),
    "finding_to_json": ("sia_tui.core.engine.report", "finding_to_json"),
    "limits": ("sia_tui.core.limits", MODULE),
    "load_path": ("sia_tui.core.strictjson", "load_path"),
    "loads": ("sia_tui.core.strictjson", "loads"),
    "parse": ("sia_tui.core.strictjson", "parse"),
    "parse_digest": ("sia_tui.core.canonical", "parse_digest"),
    "parse_path": ("sia_tui.core.strictjson", "parse_path"),
    "printable": ("sia_tui.core.printable", "printable"),
    "render_text": ("sia_tui.core.engine.text_report", "render_text"),
    "run_to_json": ("sia_tui.core.engine.report", "run_to_json"),
    "skeleton_for": ("sia_tui.core.skeleton", "skeleton_for"),
    "terminal_json": ("sia_tui.core.printable", "terminal_json"),
    "unwrap_payload": ("sia_tui.core.engine.offline", "unwrap_payload"),
    "validate_json_text": ("sia_tui.core.validation", "validate_json_text"),
    "verify_offline": ("sia_tui.core.engine.offline", "verify_offline"),
}

__all__ = [
    "AgentCard",
    "ArgumentsEvidence",
    "Artifact",
    "ArtifactRef",
    "ArtifactVerdict",
    "Blame",
    "CLI_NEXT",
    "CardEvidence",
    "ClientOptions",
    "CompiledSchema",
    "DESCRIBE_SKILL",
    "DelegationEvidence",
    "DescribeEvidence",
    "DigestEvidence",
    "DigestRow",
    "DigestSource",
    "Digests",
    "DocumentCache",
    "DocumentEvidence",
    "ERROR_CODES",
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
    "Parsed",
    "Party",
    "PositionIndex",
    "PresentationEvidence",
    "Procedure",
    "ReceptionEvidence",
    "RecordResult",
    "RecordSummary",
    "Run",
    "RunOutcome",
    "STEP_TITLES",
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
    "defaults",
    "describe_code",
    "digest_of",
    "display_pointer",
    "embedded_schema_at",
    "evidence_to_json",
    "finding_to_json",
    "limits",
    "load_path",
    "loads",
    "parse",
    "parse_digest",
    "parse_path",
    "printable",
    "render_text",
    "run_to_json",
    "skeleton_for",
    "terminal_json",
    "unwrap_payload",
    "validate_json_text",
    "verify_offline",
]


def __getattr__(name: str) -> Any:
    return lazy_api.resolve(__name__, _EXPORTS, name)
