"""Steps 4-6: the three-way digest check, document validation, embedded schema digests."""

from __future__ import annotations

from sia_tui.core.bounded import error_count
from sia_tui.core.codes import ErrorCode
from sia_tui.core.document import validate_document, verify_digests, verify_embedded_schemas
from sia_tui.core.engine.context import EngineContext
from sia_tui.core.engine.discovery import remember
from sia_tui.core.engine.model import StepResult
from sia_tui.core.engine.outcome import StepFailed
from sia_tui.core.findings import Severity


async def check_digests(ctx: EngineContext, result: StepResult) -> None:
    """CP4: advertised == returned == computed over the returned document (RULES SID6)."""
    run = ctx.run
    check = verify_digests(ctx.document, run.digests.advertised, run.digests.returned)
    run.digests.computed = check.computed
    result.findings.extend(check.findings)
    result.evidence = {
        "advertised": run.digests.advertised,
        "returned": run.digests.returned,
        "computed": check.computed,
    }
    if check.forensics is not None:
        result.evidence["forensics"] = check.forensics.explanation
    if not check.ok:
        raise StepFailed(
            "the interface digests do not agree: "
            + "; ".join(f.message for f in check.findings if _is_error(f)),
            code=ErrorCode.INTERFACE_INVALID,
            findings=check.findings,
        )
    result.message = f"advertised, returned and computed digests agree: {check.computed}"


async def check_document(ctx: EngineContext, result: StepResult) -> None:
    """CP5: the document validates against the trusted Skill Interface Schema (SID7)."""
    run = ctx.run
    findings = validate_document(
        ctx.document, skill_id=run.skill_id or "", skill_version=run.skill_version or ""
    )
    result.findings.extend(findings)
    errors = [f for f in findings if _is_error(f)]
    if errors:
        raise StepFailed(
            f"the Skill Interface Document is invalid: {errors[0].message}"
            + (f" (+{total - 1} more)" if (total := error_count(errors)) > 1 else ""),
            code=ErrorCode.INTERFACE_INVALID,
            findings=findings,
        )
    result.evidence = {
        "interface_version": ctx.document.get("interface_version"),
        "skill_id": ctx.document.get("skill_id"),
        "skill_version": ctx.document.get("skill_version"),
        "authority": ctx.document.get("authority"),
        "interaction": ctx.document.get("interaction"),
        "note": "authority and interaction describe the skill; they grant no "
        "permission (RULES SID5)",
    }
    result.message = (
        f"valid interface {ctx.document.get('interface_version')} document for "
        f"{run.skill_id} {run.skill_version}"
    )


async def check_embedded(ctx: EngineContext, result: StepResult) -> None:
    """CP6: every embedded domain schema matches its Schema Reference digest (SR4, SR6)."""
    checks = verify_embedded_schemas(ctx.document)
    result.evidence = {
        "schemas": [
            {
                "role": c.role,
                "pointer": c.pointer,
                "declared": c.declared,
                "computed": c.computed,
                "match": c.ok,
            }
            for c in checks
        ]
    }
    failed = [c for c in checks if not c.ok]
    for check in checks:
        result.findings.extend(check.findings)
    if failed:
        raise StepFailed(
            f"{len(failed)} embedded schema(s) fail their digest or the 2020-12 "
            f"metaschema: {', '.join(c.role for c in failed)}",
            code=ErrorCode.INTERFACE_INVALID,
            findings=result.findings,
        )
    remember(ctx)
    result.message = f"{len(checks)} embedded schemas verified against their digests"


def _is_error(finding: object) -> bool:
    return getattr(finding, "severity", Severity.ERROR) is Severity.ERROR
