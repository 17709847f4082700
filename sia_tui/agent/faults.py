"""The reference agent's switchable faults, each with the outcome a client must show.

One table, :data:`FAULT_SPECS`, drives ``serve-demo --fault list``, the fault tests and the
fault tables in README.md and docs/REFERENCE-AGENT.md (``scripts/fault_tables.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from sia_tui.core.codes import DetectedBy, ErrorCode
from sia_tui.core.errors import SiaError
from sia_tui.core.interface.forensics import mistake_sentence, serialization_words


class Fault(StrEnum):
    """A fault the reference agent can simulate; the value is its ``--fault`` name."""

    DIGEST_CARD = "digest-card"
    DIGEST_RESPONSE = "digest-response"
    NOT_JCS = "not-jcs"
    SCHEMA_DIGEST = "schema-digest"
    NO_DESCRIBE = "no-describe"
    UNAVAILABLE = "unavailable"
    OUTPUT_INVALID = "output-invalid"
    RECORD_INVALID = "record-invalid"
    MISMATCH = "mismatch"
    SLOW = "slow"
    MALFORMED = "malformed"
    HUGE = "huge"
    LARGE_RESULT = "large-result"
    MARKUP = "markup"
    V03 = "v03"
    ACCEPTS_STALE = "accepts-stale"
    ARGS_EXECUTION_FAILED = "args-execution-failed"
    DETAILS_WRONG_MEMBER = "details-wrong-member"
    BIGINT_DIGEST = "bigint-digest"
    IGNORES_MAX_INPUT = "ignores-max-input"
    DRIFT_SAME_VERSION = "drift-same-version"
    DRIFT_COMPATIBLE_BUMP = "drift-compatible-bump"
    DRIFT_BREAKING_BUMP = "drift-breaking-bump"
    DRIFT_WRONG_BUMP = "drift-wrong-bump"
    REJECTS_BOUNDARY = "rejects-boundary"
    OUTPUT_INVALID_SOME = "output-invalid-some"
    WIRE_MISSING_MEMBER = "wire-missing-member"
    WIRE_V03_STATE = "wire-v03-state"
    WIRE_UNKNOWN_EVENT = "wire-unknown-event"


@dataclass(frozen=True)
class Stop:
    """Where a run stops: the failed step, its draft code and who found it.

    ``code`` is None for a transport failure (timeout, not JSON, size limit), which is its
    own category and never one of the ten codes (WIRE.md).
    """

    step: int
    code: ErrorCode | None
    origin: DetectedBy = DetectedBy.LOCAL

    def describe(self) -> str:
        """``step 4, `interface_invalid`, local`` (Markdown)."""
        what = f"`{self.code}`" if self.code else "transport failure"
        return f"step {self.step}, {what}, {self.origin}"


@dataclass(frozen=True)
class Expected:
    """What each command shows against a fault.

    ``check`` is where ``sia-tui check --args example`` stops (all eleven steps can run), or
    None when it passes. ``probe_fails`` names the ``sia-tui probe`` probes the fault makes
    fail; empty means probe sees nothing beyond what ``check`` sees. So "check passes, probe
    fails" is ``Expected(check=None, probe_fails=("stale-digest",))``.
    """

    check: Stop | None
    probe_fails: tuple[str, ...] = ()
    #: What else a user sees, one short phrase (Markdown), e.g. what forensics names.
    note: str = ""
    #: How the sentence naming who is at fault begins: ``check``, the TUI's Steps screen and
    #: the bug report all show it (``Run.verdict.at_fault``); empty when the run passes.
    at_fault: str = ""

    @property
    def exit_code(self) -> int:
        """What ``sia-tui check --args example`` exits with: 1 when it stops, else 0."""
        return 0 if self.check is None else 1


@dataclass(frozen=True)
class FaultSpec:
    """One fault: what it does and what a client must show."""

    fault: Fault
    #: One line for ``serve-demo --fault list``.
    description: str
    #: What goes wrong on the wire (Markdown), for docs/REFERENCE-AGENT.md.
    symptom: str
    expected: Expected


def _stop(
    step: int, code: ErrorCode | None, at_fault: str, origin: DetectedBy = DetectedBy.LOCAL
) -> Expected:
    return Expected(Stop(step, code, origin), at_fault=at_fault)


_INVALID = ErrorCode.INTERFACE_INVALID
#: The serialization the ``not-jcs`` fault hashes (``documents.not_jcs_digest``), by the
#: name digest forensics gives it.
NOT_JCS_MISTAKE = "json_dumps_unsorted"
#: The invalid-argument probes the input schema of evaluate_resource_condition makes possible
#: (it declares no numeric bound, so ``invalid-out-of-range`` is skipped there).
_ARGUMENT_PROBES = (
    "invalid-missing-required",
    "invalid-wrong-type",
    "invalid-extra-member",
    "invalid-enum-miss",
)
_SPECS = (
    FaultSpec(
        Fault.DIGEST_CARD,
        "the Agent Card advertises a wrong interface digest (step 4 fails)",
        "card digest of evaluate_resource_condition wrong",
        _stop(4, _INVALID, "the card's advertised digest differs from both"),
    ),
    FaultSpec(
        Fault.DIGEST_RESPONSE,
        "describe_skill returns a wrong interface_digest (step 4 fails)",
        "describe_skill digest wrong",
        _stop(4, _INVALID, "describe_skill's returned digest differs from both"),
    ),
    FaultSpec(
        Fault.NOT_JCS,
        # The forensics' own words for the mistake: `--fault list` and step 4 say the same.
        f"digests are {mistake_sentence(NOT_JCS_MISTAKE)} (step 4)",
        f"all digests are SHA-256 over {serialization_words(NOT_JCS_MISTAKE)}: `json.dumps(value)`",
        Expected(
            Stop(4, _INVALID),
            note="forensics names json.dumps",
            at_fault="the advertised and returned digests agree, but the document does not "
            "hash to them",
        ),
    ),
    FaultSpec(
        Fault.SCHEMA_DIGEST,
        "one embedded schema digest is wrong; interface digests agree (step 6)",
        "input-schema digest wrong, interface digests consistent",
        _stop(6, _INVALID, "the declared digest of input_schema does not match"),
    ),
    FaultSpec(
        Fault.NO_DESCRIBE,
        "the Agent Card does not list describe_skill (step 2 fails)",
        "no `describe_skill` in card skills",
        Expected(
            Stop(2, ErrorCode.SKILL_NOT_ADVERTISED),
            note="nothing is sent",
            at_fault="the Agent Card does not list describe_skill",
        ),
    ),
    FaultSpec(
        Fault.UNAVAILABLE,
        "describe_skill answers FAILED interface_unavailable (step 3)",
        "describe_skill FAILED interface_unavailable",
        _stop(
            3,
            ErrorCode.INTERFACE_UNAVAILABLE,
            "the agent's describe_skill ended TASK_STATE_FAILED",
            DetectedBy.REMOTE,
        ),
    ),
    FaultSpec(
        Fault.OUTPUT_INVALID,
        "COMPLETED with a result outside the output enum (step 10)",
        "COMPLETED, `result` outside the enum",
        _stop(10, ErrorCode.OUTPUT_INVALID, "the result does not validate"),
    ),
    FaultSpec(
        Fault.RECORD_INVALID,
        "the supporting record lacks observed_at (step 10)",
        "COMPLETED, record lacks `observed_at`",
        _stop(10, ErrorCode.OUTPUT_INVALID, "supporting record 'observation-7' does not validate"),
    ),
    FaultSpec(
        Fault.MISMATCH,
        "every invocation is REJECTED with interface_mismatch",
        "every invocation REJECTED interface_mismatch",
        _stop(
            8,
            ErrorCode.INTERFACE_MISMATCH,
            "the agent rejects its own interface",
            DetectedBy.REMOTE,
        ),
    ),
    FaultSpec(
        Fault.SLOW,
        "A2A calls answer only after slow_seconds (longer than the client timeout);"
        " breaks A2A TCK rules on purpose (its calls time out)",
        "A2A calls wait `slow_seconds` (30 s); the card is prompt",
        Expected(
            Stop(3, None), note="the read times out", at_fault="the agent did not answer in time"
        ),
    ),
    FaultSpec(
        Fault.MALFORMED,
        "describe_skill answers with bytes that are not JSON;"
        " breaks A2A TCK rules on purpose (JSON-RPC/HTTP+JSON bodies)",
        "describe_skill body is not JSON",
        Expected(
            Stop(3, None),
            note="the body is not JSON, located at line:column",
            at_fault="the agent's answer is not usable",
        ),
    ),
    FaultSpec(
        Fault.HUGE,
        "invocations carry an extra artifact of about 12 MiB (over the client limit)",
        "extra 12 MiB `bulk-trace` artifact on invocations",
        Expected(
            Stop(8, None),
            note="the read is aborted at the size limit",
            at_fault="sia-tui's response size limit was reached",
        ),
    ),
    FaultSpec(
        Fault.LARGE_RESULT,
        "the result carries about 5 MB of undeclared samples (step 10; under the size limit)",
        "result padded to about 5 MB with an `x_samples` member its schema does not allow",
        Expected(
            Stop(10, ErrorCode.OUTPUT_INVALID),
            note="a big artifact to view: Results stays responsive",
            at_fault="the result does not validate",
        ),
    ),
    FaultSpec(
        Fault.MARKUP,
        "names, descriptions and result strings carry Rich markup and terminal escapes",
        "`[bold red]`, `[/foo]`, `\\x1b[2J`, `\\x07` in card names/descriptions, the record's "
        "`metric`, the status text",
        Expected(None, note="every agent string is shown literally"),
    ),
    FaultSpec(
        Fault.V03,
        "the whole agent speaks the A2A 0.3 dialect (JSON-RPC only);"
        " breaks A2A 1.0 TCK rules on purpose (no 1.0 methods, no ListTasks)",
        '0.3 card (`url`, `preferredTransport`, `protocolVersion: "0.3.0"`), `message/send` '
        "etc., `kind`, lowercase states, `final: true`; JSON-RPC only",
        Expected(None, note="over A2A 0.3"),
    ),
    FaultSpec(
        Fault.ACCEPTS_STALE,
        "invocations with a stale interface_digest are not rejected (only the version is compared)",
        "a wrong `interface_digest` is not compared: the arguments are looked at instead",
        Expected(None, probe_fails=("stale-digest",)),
    ),
    FaultSpec(
        Fault.ARGS_EXECUTION_FAILED,
        "arguments that do not validate end FAILED execution_failed instead of input_invalid",
        "invalid arguments: FAILED `execution_failed` instead of REJECTED `input_invalid`",
        Expected(None, probe_fails=_ARGUMENT_PROBES),
    ),
    FaultSpec(
        Fault.DETAILS_WRONG_MEMBER,
        "input_invalid details point at the schema location, not at the member at fault",
        "`details[].instance_path` is the schema path (`/properties/...`), not the member's",
        Expected(None, probe_fails=_ARGUMENT_PROBES),
    ),
    FaultSpec(
        Fault.BIGINT_DIGEST,
        "an input-schema bound of 2^64-1 (a Counter64), digests over its exact digits (step 4)",
        "`threshold` has `maximum: 18446744073709551615`; every digest hashes those exact "
        "digits, which RFC 8785 cannot write and a double (gRPC) rounds to 2^64",
        Expected(
            Stop(4, _INVALID),
            note="forensics name the number's JSON Pointer and what happened in transit",
            at_fault="the advertised and returned digests agree, but the document",
        ),
    ),
    FaultSpec(
        Fault.IGNORES_MAX_INPUT,
        "arguments larger than constraints.max_input_bytes are executed, not rejected",
        "`max_input_bytes` declared (4096) but not enforced: oversized arguments COMPLETED",
        Expected(None, probe_fails=("oversized-input",)),
    ),
    FaultSpec(
        Fault.DRIFT_SAME_VERSION,
        "evaluate_resource_condition gains an optional input member, still version 1.0",
        "the interface changes (a compatible change) under the same `skill_version` 1.0",
        Expected(None, note="`check --lock` from the correct agent: `drift`, exit 1"),
    ),
    FaultSpec(
        Fault.DRIFT_COMPATIBLE_BUMP,
        "evaluate_resource_condition gains an optional input member and becomes 1.1",
        "a compatible change with a minor bump, `skill_version` 1.1",
        Expected(None, note="`check --lock`: `version-changed`, diff `compatible`, exit 0"),
    ),
    FaultSpec(
        Fault.DRIFT_BREAKING_BUMP,
        "evaluate_resource_condition drops the input operator 'lte' and becomes 2.0",
        "a breaking change with a major bump, `skill_version` 2.0",
        Expected(None, note="`check --lock`: `version-changed`, diff `breaking`, exit 0"),
    ),
    FaultSpec(
        Fault.DRIFT_WRONG_BUMP,
        "evaluate_resource_condition drops the input operator 'lte' but becomes only 1.1",
        "a breaking change with a minor bump, `skill_version` 1.1 (RULES SID2 asks 2.0)",
        Expected(None, note="`check --lock`: `wrong-bump`, exit 1"),
    ),
    # Found only by `sia-tui fuzz`: the example arguments are far from the boundary.
    FaultSpec(
        Fault.REJECTS_BOUNDARY,
        "valid arguments with a one-character string (minLength 1) are REJECTED input_invalid",
        "a string member of exactly 1 character: REJECTED `input_invalid` though it validates",
        Expected(None, note="`sia-tui fuzz` finds `valid-refused` (RULES INV3)"),
    ),
    FaultSpec(
        Fault.OUTPUT_INVALID_SOME,
        "evaluate_resource_condition's result breaks its schema when the threshold is negative",
        "a negative `threshold`: `observed_value` is a string, which the output schema refuses",
        Expected(None, note="`sia-tui fuzz` finds `output-invalid` (RULES CP10)"),
    ),
    FaultSpec(
        Fault.WIRE_MISSING_MEMBER,
        "the Agent Card lacks defaultOutputModes, a member A2A 1.0 requires",
        "no `defaultOutputModes` in the card (REQUIRED in `a2a.proto`)",
        Expected(None, note="wire error at `/defaultOutputModes` (`AgentCard`)"),
    ),
    FaultSpec(
        Fault.WIRE_V03_STATE,
        "1.0 tasks and status updates spell their state the 0.3 way (completed)",
        '`status.state` is `"completed"`, not `"TASK_STATE_COMPLETED"`, on the JSON bindings '
        "and in push deliveries",
        Expected(None, note="wire error at `.../status/state` (`TaskStatus.state`)"),
    ),
    FaultSpec(
        Fault.WIRE_UNKNOWN_EVENT,
        "every stream starts with an event that is neither a Task, a Message nor an update",
        'a first SSE event `{"progressUpdate": {...}}` on the JSON bindings',
        Expected(None, note="with `--mode stream` step 8 fails; wire error at the event's root"),
    ),
)

#: Every fault's spec, in ``--fault list`` order.
FAULT_SPECS: dict[Fault, FaultSpec] = {spec.fault: spec for spec in _SPECS}


class UnknownFault(SiaError, ValueError):
    """A fault name that is not one of :class:`Fault`; the message lists the known ones."""


def fault_named(name: str) -> Fault:
    """The fault called ``name``, or :class:`UnknownFault`: the one place names are checked."""
    try:
        return Fault(name)
    except ValueError:
        known = ", ".join(Fault)
        raise UnknownFault(f"unknown fault {name[:80]!r}; known: {known}") from None


def list_faults() -> str:
    """One line per fault: ``name  description`` (``serve-demo --fault list``)."""
    width = max(len(f) for f in Fault)
    return "\n".join(f"{s.fault.value.ljust(width)}  {s.description}" for s in _SPECS)
