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

if TYPE_CHECKING:  # for type checkers; at run time __getattr__ loads each name on first use
    from sia_tui.core import limits
    from sia_tui.core.a2a import defaults
    from sia_tui.core.a2a.model import (
        AgentCard,
        Artifact,
        CardSkill,
        Interface,
        Message,
        Part,
        StreamEvent,
        Task,
    )
    from sia_tui.core.a2a.options import ClientOptions
    from sia_tui.core.canonical import canonical_bytes, digest_of, parse_digest
    from sia_tui.core.codes import ERROR_CODES, ErrorCode, Origin, describe_code
    from sia_tui.core.constants import DESCRIBE_SKILL
    from sia_tui.core.engine.answers import (
        ArtifactVerdict,
        ExampleArguments,
        OddOneOut,
        SchemaDigests,
        advertised_skills,
        embedded_schema_at,
    )
    from sia_tui.core.engine.cache import DocumentCache
    from sia_tui.core.engine.console import (
        CONSOLE_MODES,
        ConsoleReply,
        ConsoleRequest,
        PartKind,
    )
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
    from sia_tui.core.engine.report_junit import run_junit_suite
    from sia_tui.core.engine.text_report import CLI_NEXT, render_text
    from sia_tui.core.engine.verdicts import RunOutcome
    from sia_tui.core.errors import JsonInputError, SiaError
    from sia_tui.core.exchange import Exchange, Headers
    from sia_tui.core.findings import Finding, Severity
    from sia_tui.core.junit import write_junit
    from sia_tui.core.pointer import PositionIndex, display_pointer
    from sia_tui.core.printable import (
        clipboard_text,
        paint,
        printable,
        printable_output,
        terminal_json,
        terminal_text,
        write_data,
    )
    from sia_tui.core.skeleton import skeleton_for
    from sia_tui.core.strictjson import Parsed, load_path, loads, parse, parse_path
    from sia_tui.core.threeway import DigestRow, DigestSource
    from sia_tui.core.userinfo import strip_credentials
    from sia_tui.core.validation import (
        CompiledSchema,
        TextValidation,
        compile_schema,
        validate_json_text,
    )

#: Public name -> (module, attribute); MODULE: the module itself.
_EXPORTS: dict[str, tuple[str, str]] = {
    "AgentCard": ("sia_tui.core.a2a.model", "AgentCard"),
    "ArgumentsEvidence": ("sia_tui.core.engine.evidence", "ArgumentsEvidence"),
    "Artifact": ("sia_tui.core.a2a.model", "Artifact"),
    "ArtifactRef": ("sia_tui.core.engine.evidence", "ArtifactRef"),
    "ArtifactVerdict": ("sia_tui.core.engine.answers", "ArtifactVerdict"),
    "Blame": ("sia_tui.core.engine.evidence", "Blame"),
    "CLI_NEXT": ("sia_tui.core.engine.text_report", "CLI_NEXT"),
    "CONSOLE_MODES": ("sia_tui.core.engine.console", "CONSOLE_MODES"),
    "CardEvidence": ("sia_tui.core.engine.evidence", "CardEvidence"),
    "CardSkill": ("sia_tui.core.a2a.model", "CardSkill"),
    "ClientOptions": ("sia_tui.core.a2a.options", "ClientOptions"),
    "CompiledSchema": ("sia_tui.core.validation", "CompiledSchema"),
    "ConsoleReply": ("sia_tui.core.engine.console", "ConsoleReply"),
    "ConsoleRequest": ("sia_tui.core.engine.console", "ConsoleRequest"),
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
    "ExampleArguments": ("sia_tui.core.engine.answers", "ExampleArguments"),
    "Exchange": ("sia_tui.core.exchange", "Exchange"),
    "FailureCategory": ("sia_tui.core.engine.evidence", "FailureCategory"),
    "Finding": ("sia_tui.core.findings", "Finding"),
    "Headers": ("sia_tui.core.exchange", "Headers"),
    "Interface": ("sia_tui.core.a2a.model", "Interface"),
    "JsonInputError": ("sia_tui.core.errors", "JsonInputError"),
    "Message": ("sia_tui.core.a2a.model", "Message"),
    "NextAction": ("sia_tui.core.engine.evidence", "NextAction"),
    "OddOneOut": ("sia_tui.core.engine.answers", "OddOneOut"),
    "OfflineVerdict": ("sia_tui.core.engine.offline", "OfflineVerdict"),
    "Origin": ("sia_tui.core.codes", "Origin"),
    "OutputEvidence": ("sia_tui.core.engine.evidence", "OutputEvidence"),
    "Parsed": ("sia_tui.core.strictjson", "Parsed"),
    "Party": ("sia_tui.core.engine.evidence", "Party"),
    "Part": ("sia_tui.core.a2a.model", "Part"),
    "PartKind": ("sia_tui.core.engine.console", "PartKind"),
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
    "SchemaDigests": ("sia_tui.core.engine.answers", "SchemaDigests"),
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
    "advertised_skills": ("sia_tui.core.engine.answers", "advertised_skills"),
    "canonical_bytes": ("sia_tui.core.canonical", "canonical_bytes"),
    "compile_schema": ("sia_tui.core.validation", "compile_schema"),
    "defaults": ("sia_tui.core.a2a.defaults", MODULE),
    "describe_code": ("sia_tui.core.codes", "describe_code"),
    "digest_of": ("sia_tui.core.canonical", "digest_of"),
    "display_pointer": ("sia_tui.core.pointer", "display_pointer"),
    "embedded_schema_at": ("sia_tui.core.engine.answers", "embedded_schema_at"),
    "evidence_to_json": ("sia_tui.core.engine.report", "evidence_to_json"),
    "finding_to_json": ("sia_tui.core.engine.report", "finding_to_json"),
    "limits": ("sia_tui.core.limits", MODULE),
    "load_path": ("sia_tui.core.strictjson", "load_path"),
    "loads": ("sia_tui.core.strictjson", "loads"),
    "parse": ("sia_tui.core.strictjson", "parse"),
    "parse_digest": ("sia_tui.core.canonical", "parse_digest"),
    "parse_path": ("sia_tui.core.strictjson", "parse_path"),
    "printable": ("sia_tui.core.printable", "printable"),
    "write_data": ("sia_tui.core.printable", "write_data"),
    "terminal_text": ("sia_tui.core.printable", "terminal_text"),
    "printable_output": ("sia_tui.core.printable", "printable_output"),
    "paint": ("sia_tui.core.printable", "paint"),
    "clipboard_text": ("sia_tui.core.printable", "clipboard_text"),
    "render_text": ("sia_tui.core.engine.text_report", "render_text"),
    "run_junit_suite": ("sia_tui.core.engine.report_junit", "run_junit_suite"),
    "run_to_json": ("sia_tui.core.engine.report", "run_to_json"),
    "skeleton_for": ("sia_tui.core.skeleton", "skeleton_for"),
    "strip_credentials": ("sia_tui.core.userinfo", "strip_credentials"),
    "terminal_json": ("sia_tui.core.printable", "terminal_json"),
    "unwrap_payload": ("sia_tui.core.engine.offline", "unwrap_payload"),
    "validate_json_text": ("sia_tui.core.validation", "validate_json_text"),
    "verify_offline": ("sia_tui.core.engine.offline", "verify_offline"),
    "write_junit": ("sia_tui.core.junit", "write_junit"),
}

__all__ = [
    "AgentCard",
    "ArgumentsEvidence",
    "Artifact",
    "ArtifactRef",
    "ArtifactVerdict",
    "Blame",
    "CLI_NEXT",
    "CONSOLE_MODES",
    "CardEvidence",
    "CardSkill",
    "ClientOptions",
    "CompiledSchema",
    "ConsoleReply",
    "ConsoleRequest",
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
    "Message",
    "NextAction",
    "OddOneOut",
    "OfflineVerdict",
    "Origin",
    "OutputEvidence",
    "Parsed",
    "Party",
    "Part",
    "PartKind",
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
    "write_data",
    "terminal_text",
    "printable_output",
    "paint",
    "clipboard_text",
    "render_text",
    "run_junit_suite",
    "run_to_json",
    "skeleton_for",
    "strip_credentials",
    "terminal_json",
    "unwrap_payload",
    "validate_json_text",
    "verify_offline",
    "write_junit",
]


def __getattr__(name: str) -> Any:
    return lazy_api.resolve(__name__, _EXPORTS, name)
