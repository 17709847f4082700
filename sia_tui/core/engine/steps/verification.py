"""Steps 4-6: the three-way digest check, document validation, embedded schema digests."""

from __future__ import annotations

from typing import Any

from sia_tui.core.bounded import more_than_first
from sia_tui.core.codes import ErrorCode
from sia_tui.core.engine.context import EngineContext
from sia_tui.core.engine.outcome import StepFailed
from sia_tui.core.engine.steps.discovery import remember
from sia_tui.core.engine.steps.trust import compare_with_lock, enforce_lock
from sia_tui.core.findings import Severity
from sia_tui.core.interface.document import (
    CARD_ADVERTISER,
    DigestCheck,
    validate_document,
    verify_digests,
    verify_embedded_schemas,
)
from sia_tui.core.interface.threeway import DigestSource, digest_values, odd_one_out_statement
from sia_tui.core.run.answers import as_schema_digests
from sia_tui.core.run.evidence import Blame, NextAction, Party
from sia_tui.core.run.later_evidence import DigestEvidence, DocumentEvidence, SchemaEvidence
from sia_tui.core.run.read_model import Run, StepResult

#: What to fix for each odd digest: a sentence a vendor can act on without sia-tui.
_DIGEST_HINTS = {
    DigestSource.ADVERTISED: "Publish in the Agent Card the digest of the document "
    "describe_skill returns: SHA-256 over its RFC 8785 (JCS) bytes (RULES ADV1, SID6).",
    DigestSource.RETURNED: "Return in describe_skill's interface_digest the digest of the "
    "document it returns: SHA-256 over its RFC 8785 (JCS) bytes (RULES DS2, SID6).",
    DigestSource.COMPUTED: "Compute the interface digest as SHA-256 over the RFC 8785 (JCS) "
    "bytes of the whole document (RULES SID6); the forensics verdict names the mistake.",
}


async def check_digests(ctx: EngineContext, result: StepResult) -> None:
    """CP4 (step 4 of a run)."""
    digests_step(ctx.run, result)


async def check_document(ctx: EngineContext, result: StepResult) -> None:
    """CP5 (step 5 of a run)."""
    document_step(ctx.run, result)


async def check_embedded(ctx: EngineContext, result: StepResult) -> None:
    """CP6 (step 6 of a run); the verified document may then be cached (CP12)."""
    embedded_step(ctx.run, result)
    remember(ctx)


def _document(run: Run) -> dict[str, Any]:
    assert isinstance(run.document, dict), "no document yet"
    return run.document


def digests_step(run: Run, result: StepResult, *, advertiser: str = CARD_ADVERTISER) -> None:
    """CP4: advertised == returned == computed over the returned document (RULES SID6),
    each compared with the others present (a document file may lack one of the two)."""
    check = verify_digests(
        run.document, run.digests.advertised, run.digests.returned, advertiser=advertiser
    )
    run.digests.computed = check.computed
    result.findings.extend(check.findings)
    evidence = DigestEvidence(
        advertised=run.digests.advertised,
        returned=run.digests.returned,
        computed=check.computed,
        forensics=check.forensics.explanation if check.forensics else None,
        forensics_of=check.forensics_of,
    )
    result.evidence = evidence
    compare_with_lock(run, evidence)  # recorded even when the three digests disagree
    if not check.ok:
        # One short sentence: the findings below carry the digests and the forensics.
        odd = check.odd_one_out
        errors = [f for f in check.findings if _is_error(f)]
        statement = (
            odd_one_out_statement(odd)
            if odd is not None
            else "the interface digests do not agree"
            + (f" ({len(errors)} problems)" if len(errors) > 1 else "")
        )
        if odd is DigestSource.COMPUTED:
            # The agent's two digests agree with each other: its computation is what is wrong.
            blamed = (
                "the advertised and returned digests agree, but the document does not hash "
                "to them: the agent computes its interface digest wrongly"
            )
        elif check.computed is None and check.advertised == check.returned:
            # RULES SR4: a number beyond 2**53 - 1 has no RFC 8785 form, so no digest at all.
            statement = "the document has no RFC 8785 digest"
            blamed = (
                "the advertised and returned digests agree, but the document has no RFC 8785 "
                "digest: it holds a number beyond +/-(2^53-1)"
                if check.forensics and check.forensics.pointers
                else "the advertised and returned digests agree, but the document cannot be "
                "canonicalized"
            )
        else:
            blamed = statement
        raise StepFailed(
            statement + " (RULES CP4)",
            code=ErrorCode.INTERFACE_INVALID,
            findings=check.findings,
            hint=_DIGEST_HINTS[odd or DigestSource.COMPUTED],
            blame=Blame(party=Party.AGENT, statement=blamed),
            next_action=NextAction.SHOW_DIGESTS,
        )
    enforce_lock(evidence)
    agreeing = [s.value for s, v in digest_values(*_three(check)).items() if v is not None]
    result.message = f"{_listed(agreeing)} digests agree: {check.computed}"
    if evidence.lock is not None:
        result.message += f"; contract lock: {evidence.lock.status}"


def document_step(run: Run, result: StepResult) -> None:
    """CP5: the document validates against the trusted Skill Interface Schema (SID7)."""
    findings = validate_document(
        run.document, skill_id=run.skill_id or "", skill_version=run.skill_version or ""
    )
    result.findings.extend(findings)
    errors = [f for f in findings if _is_error(f)]
    if errors:
        message = f"the Skill Interface Document is invalid: {errors[0].message}" + (
            more_than_first(errors)
        )
        raise StepFailed(
            message,
            code=ErrorCode.INTERFACE_INVALID,
            findings=findings,
            hint="Fix the document at the located pointers so it validates against the "
            "Skill Interface Schema (RULES CP5, SID1-SID5).",
            blame=Blame(party=Party.AGENT, statement=message),
            next_action=NextAction.SHOW_DOCUMENT,
        )
    document = _document(run)  # it validated, so it is an object
    result.evidence = DocumentEvidence(
        interface_version=document.get("interface_version"),
        skill_id=document.get("skill_id"),
        skill_version=document.get("skill_version"),
        authority=document.get("authority"),
        interaction=document.get("interaction"),
        note="authority and interaction describe the skill; they grant no permission (RULES SID5)",
    )
    result.message = (
        f"valid interface {document.get('interface_version')} document for "
        f"{run.skill_id} {run.skill_version}"
    )


def embedded_step(run: Run, result: StepResult) -> None:
    """CP6: every embedded domain schema matches its Schema Reference digest (SR4, SR6)."""
    checks = verify_embedded_schemas(run.document)
    result.evidence = SchemaEvidence(schemas=as_schema_digests(checks))
    failed = [c for c in checks if not c.ok]
    for check in checks:
        result.findings.extend(check.findings)
    if failed:
        digest = [c.role for c in failed if not c.match]
        message = (
            f"the declared digest of {', '.join(digest)} does not match its embedded schema"
            if digest and len(digest) == len(failed)
            else f"{len(failed)} embedded schema(s) fail their digest, the 2020-12 "
            f"metaschema or its dialect: {', '.join(c.role for c in failed)}"
        )
        raise StepFailed(
            message + " (RULES CP6)",
            code=ErrorCode.INTERFACE_INVALID,
            findings=result.findings,
            hint="Declare in each Schema Reference the SHA-256 of its embedded schema's "
            "RFC 8785 (JCS) bytes, and embed valid 2020-12 schemas written for 2020-12 "
            "(RULES SR4, SR2).",
            blame=Blame(party=Party.AGENT, statement=message),
            next_action=NextAction.SHOW_DIGESTS,
        )
    result.message = f"{len(checks)} embedded schemas verified against their digests"


def _three(check: DigestCheck) -> tuple[str | None, str | None, str | None]:
    return check.advertised, check.returned, check.computed


def _listed(words: list[str]) -> str:
    """ "advertised, returned and computed", "returned and computed"."""
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)


def _is_error(finding: object) -> bool:
    return getattr(finding, "severity", Severity.ERROR) is Severity.ERROR
