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

if TYPE_CHECKING:  # the one list: type checkers read it, exports_of() reads it at run time
    from sia_tui.core import limits as limits
    from sia_tui.core.a2a import defaults as defaults
    from sia_tui.core.a2a.auth.plan import AuthPlan as AuthPlan
    from sia_tui.core.a2a.auth.plan import plan_for as plan_for
    from sia_tui.core.a2a.options import API_KEY_ENV as API_KEY_ENV
    from sia_tui.core.a2a.options import CLIENT_SECRET_ENV as CLIENT_SECRET_ENV
    from sia_tui.core.a2a.options import ClientOptions as ClientOptions
    from sia_tui.core.a2a.options import OAuth2Settings as OAuth2Settings
    from sia_tui.core.a2a.options import read_secret_file as read_secret_file
    from sia_tui.core.a2a.push.receiver import Delivery as Delivery
    from sia_tui.core.a2a.views import AgentCard as AgentCard
    from sia_tui.core.a2a.views import Artifact as Artifact
    from sia_tui.core.a2a.views import CardSkill as CardSkill
    from sia_tui.core.a2a.views import Interface as Interface
    from sia_tui.core.a2a.views import Message as Message
    from sia_tui.core.a2a.views import Part as Part
    from sia_tui.core.a2a.views import StreamEvent as StreamEvent
    from sia_tui.core.a2a.views import Task as Task
    from sia_tui.core.bounded import listed as listed
    from sia_tui.core.codes import ERROR_CODES as ERROR_CODES
    from sia_tui.core.codes import DetectedBy as DetectedBy
    from sia_tui.core.codes import ErrorCode as ErrorCode
    from sia_tui.core.codes import describe_code as describe_code
    from sia_tui.core.consent import CONSENT_FLAG as CONSENT_FLAG
    from sia_tui.core.consent import OLD_CONSENT_FLAG as OLD_CONSENT_FLAG
    from sia_tui.core.consent import ConsentNeed as ConsentNeed
    from sia_tui.core.constants import DESCRIBE_SKILL as DESCRIBE_SKILL
    from sia_tui.core.engine.cache import DocumentCache as DocumentCache
    from sia_tui.core.engine.console import CONSOLE_MODES as CONSOLE_MODES
    from sia_tui.core.engine.console import ConsoleReply as ConsoleReply
    from sia_tui.core.engine.console import ConsoleRequest as ConsoleRequest
    from sia_tui.core.engine.console import PartKind as PartKind
    from sia_tui.core.engine.offline import OfflineVerdict as OfflineVerdict
    from sia_tui.core.engine.offline import unwrap_payload as unwrap_payload
    from sia_tui.core.engine.offline import verify_offline as verify_offline
    from sia_tui.core.engine.pin import PinResult as PinResult
    from sia_tui.core.engine.pin import pin_agent as pin_agent
    from sia_tui.core.engine.procedure import Procedure as Procedure
    from sia_tui.core.engine.push import delivery_line as delivery_line
    from sia_tui.core.engine.report_json import evidence_to_json as evidence_to_json
    from sia_tui.core.engine.report_json import finding_to_json as finding_to_json
    from sia_tui.core.engine.report_json import lock_to_json as lock_to_json
    from sia_tui.core.engine.report_json import run_to_json as run_to_json
    from sia_tui.core.engine.report_json import signature_to_json as signature_to_json
    from sia_tui.core.engine.report_junit import run_junit_suite as run_junit_suite
    from sia_tui.core.engine.report_text import CLI_NEXT as CLI_NEXT
    from sia_tui.core.engine.report_text import render_text as render_text
    from sia_tui.core.engine.task_list import TaskListing as TaskListing
    from sia_tui.core.engine.task_list import task_run as task_run
    from sia_tui.core.errors import JsonInputError as JsonInputError
    from sia_tui.core.errors import SiaError as SiaError
    from sia_tui.core.exchange import Exchange as Exchange
    from sia_tui.core.exchange import Headers as Headers
    from sia_tui.core.findings import Finding as Finding
    from sia_tui.core.findings import Severity as Severity
    from sia_tui.core.interface.threeway import DigestRow as DigestRow
    from sia_tui.core.interface.threeway import DigestSource as DigestSource
    from sia_tui.core.interface.threeway import compare_rows as compare_rows
    from sia_tui.core.interface.threeway import differing_pairs as differing_pairs
    from sia_tui.core.jsonkit.canonical import canonical_bytes as canonical_bytes
    from sia_tui.core.jsonkit.canonical import digest_of as digest_of
    from sia_tui.core.jsonkit.canonical import parse_digest as parse_digest
    from sia_tui.core.jsonkit.pointer import PositionIndex as PositionIndex
    from sia_tui.core.jsonkit.pointer import display_pointer as display_pointer
    from sia_tui.core.jsonkit.strictjson import Parsed as Parsed
    from sia_tui.core.jsonkit.strictjson import load_path as load_path
    from sia_tui.core.jsonkit.strictjson import loads as loads
    from sia_tui.core.jsonkit.strictjson import parse as parse
    from sia_tui.core.jsonkit.strictjson import parse_path as parse_path
    from sia_tui.core.jsonkit.strictjson import read_json_file as read_json_file
    from sia_tui.core.jsonkit.strictjson import read_json_text as read_json_text
    from sia_tui.core.output.junit import write_junit as write_junit
    from sia_tui.core.output.printable import clipboard_text as clipboard_text
    from sia_tui.core.output.printable import paint as paint
    from sia_tui.core.output.printable import printable as printable
    from sia_tui.core.output.printable import printable_in_place as printable_in_place
    from sia_tui.core.output.printable import printable_output as printable_output
    from sia_tui.core.output.printable import terminal_json as terminal_json
    from sia_tui.core.output.printable import terminal_text as terminal_text
    from sia_tui.core.output.printable import write_data as write_data
    from sia_tui.core.redaction.userinfo import strip_credentials as strip_credentials
    from sia_tui.core.run.answers import ArtifactVerdict as ArtifactVerdict
    from sia_tui.core.run.answers import ExampleArguments as ExampleArguments
    from sia_tui.core.run.answers import OddOneOut as OddOneOut
    from sia_tui.core.run.answers import SchemaDigests as SchemaDigests
    from sia_tui.core.run.answers import advertised_skills as advertised_skills
    from sia_tui.core.run.answers import embedded_schema_at as embedded_schema_at
    from sia_tui.core.run.evidence import ArgumentsEvidence as ArgumentsEvidence
    from sia_tui.core.run.evidence import ArtifactRef as ArtifactRef
    from sia_tui.core.run.evidence import Blame as Blame
    from sia_tui.core.run.evidence import CardEvidence as CardEvidence
    from sia_tui.core.run.evidence import DelegationEvidence as DelegationEvidence
    from sia_tui.core.run.evidence import DescribeEvidence as DescribeEvidence
    from sia_tui.core.run.evidence import DigestEvidence as DigestEvidence
    from sia_tui.core.run.evidence import DocumentEvidence as DocumentEvidence
    from sia_tui.core.run.evidence import FailureCategory as FailureCategory
    from sia_tui.core.run.evidence import NextAction as NextAction
    from sia_tui.core.run.evidence import OutputEvidence as OutputEvidence
    from sia_tui.core.run.evidence import Party as Party
    from sia_tui.core.run.evidence import PresentationEvidence as PresentationEvidence
    from sia_tui.core.run.evidence import ReceptionEvidence as ReceptionEvidence
    from sia_tui.core.run.evidence import RecordSummary as RecordSummary
    from sia_tui.core.run.evidence import SchemaDigest as SchemaDigest
    from sia_tui.core.run.evidence import SchemaEvidence as SchemaEvidence
    from sia_tui.core.run.evidence import SkillEvidence as SkillEvidence
    from sia_tui.core.run.evidence import StepEvidence as StepEvidence
    from sia_tui.core.run.evidence import TaskError as TaskError
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
    from sia_tui.core.run.verdicts import InvocationFailure as InvocationFailure
    from sia_tui.core.run.verdicts import RunOutcome as RunOutcome
    from sia_tui.core.run.verdicts import worst_exit_code as worst_exit_code
    from sia_tui.core.schemas.skeleton import skeleton_for as skeleton_for
    from sia_tui.core.schemas.validation import CompiledSchema as CompiledSchema
    from sia_tui.core.schemas.validation import TextValidation as TextValidation
    from sia_tui.core.schemas.validation import compile_schema as compile_schema
    from sia_tui.core.schemas.validation import validate_json_text as validate_json_text
    from sia_tui.core.trust.key_file import write_private_key as write_private_key
    from sia_tui.core.trust.keys import load_trusted_keys as load_trusted_keys
    from sia_tui.core.trust.lock import lock_document as lock_document
    from sia_tui.core.trust.lock import lock_from_json as lock_from_json
    from sia_tui.core.trust.lock import read_lock as read_lock
    from sia_tui.core.trust.lock import with_pinned as with_pinned
    from sia_tui.core.trust.records import Canonicalization as Canonicalization
    from sia_tui.core.trust.records import ContractLock as ContractLock
    from sia_tui.core.trust.records import LockComparison as LockComparison
    from sia_tui.core.trust.records import LockStatus as LockStatus
    from sia_tui.core.trust.records import SignatureCheck as SignatureCheck
    from sia_tui.core.trust.records import SignatureVerdict as SignatureVerdict
    from sia_tui.core.trust.records import TrustAnchors as TrustAnchors
    from sia_tui.core.trust.records import TrustFileError as TrustFileError
    from sia_tui.core.trust.sign import new_signing_key as new_signing_key
    from sia_tui.core.trust.sign import public_key_set as public_key_set
    from sia_tui.core.trust.sign import read_private_key as read_private_key
    from sia_tui.core.trust.sign import self_check as self_check
    from sia_tui.core.trust.sign import sign_card as sign_card

#: Public name -> (module, attribute): the lines above, read once at import.
_EXPORTS = lazy_api.exports_of(__file__)
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    return lazy_api.resolve(__name__, _EXPORTS, name)
