"""The probe plan: one deliberately wrong request per probe, built from the learned interface.

The safety rule: every wrong envelope carries arguments that break the input schema, so
even an agent that fails to validate has nothing to act on. The probes that need valid
arguments (oversized input, missing credentials, and a missing ``arguments`` member when
an empty request would validate) run, when a valid invocation needs the user's consent
(``Run.answers.consent_need``: execute authority), only when the user allowed valid invocations.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sia_tui.core.constants import DESCRIBE_SKILL
from sia_tui.core.jsonkit.canonical import sha256_digest
from sia_tui.core.probe.arguments import breaking_arguments, oversized_arguments
from sia_tui.core.probe.invalid_args import INVALID_KINDS, invalid_arguments
from sia_tui.core.probe.results import PlannedProbe, ProbeKind, ProbeRequest
from sia_tui.core.run.read_model import Run
from sia_tui.core.schemas.validation import CompiledSchema

#: The skill id the unadvertised-skill probe asks describe_skill about.
UNADVERTISED_SKILL = "sia-tui-probe-unadvertised-skill"


def valid_invocations_blocked(run: Run, allowed: bool) -> str:
    """Why a request with valid arguments may not be sent (``Run.answers.consent_need``, not
    given), or "" when it may."""
    need = run.answers.consent_need
    if allowed or need is None:
        return ""
    return f"needs valid arguments, and {need.reason}: allow valid invocations to run it"


def stale_digest(advertised: str) -> str:
    """A well-formed digest that is not the advertised one (a digest of something else)."""
    return sha256_digest(b"sia-tui probe: a stale interface digest, not " + advertised.encode())


def unknown_version(version: str | None) -> str:
    """The next major version (RULES SID2): a version the card does not advertise."""
    major, _, _ = (version or "1.0").partition(".")
    return f"{int(major) + 1}.0" if major.isdigit() else "2.0"


def unknown_minor_version(version: str | None) -> str:
    """The next minor version (``2.2`` for ``2.1``): compatible, but still not advertised."""
    major, _, minor = (version or "1.0").partition(".")
    if major.isdigit() and minor.isdigit():
        return f"{int(major)}.{int(minor) + 1}"
    return "1.1" if version != "1.1" else "1.2"


def _unadvertised_id(run: Run) -> str:
    card = run.card
    taken = {s.id for s in card.skills} if card else set()
    if card and card.schema_interface:
        taken |= {b.skill_id for b in card.schema_interface.bindings}
    name, suffix = UNADVERTISED_SKILL, 1
    while name in taken:
        suffix += 1
        name = f"{UNADVERTISED_SKILL}-{suffix}"
    return name


@dataclass(frozen=True)
class PlanInputs:
    """What the plan is built from: the learned run, the input schema, valid arguments."""

    run: Run
    schema: CompiledSchema
    #: Valid arguments to mutate, or None (with ``base_problem`` saying why).
    base: Any
    base_problem: str
    allow_valid: bool

    def envelope(self, **members: Any) -> dict[str, Any]:
        """The correct request object (RULES INV1) with ``members`` replacing its own."""
        run = self.run
        data: dict[str, Any] = {
            "skill": run.skill_id,
            "skill_version": run.skill_version,
            "interface_digest": run.digests.advertised,
        }
        data.update(members)
        return data


def plan_probes(inputs: PlanInputs) -> list[PlannedProbe]:
    """Every probe, in the order they run; those that do not apply carry a skip reason."""
    run = inputs.run
    breaking = breaking_arguments(inputs.schema)
    blocked = valid_invocations_blocked(run, inputs.allow_valid)
    plan = [_unadvertised(run)]
    if breaking is None:
        reason = "the input schema accepts any value: no arguments can break it"
        plan += [PlannedProbe(k, None, skip_reason=reason) for k in _ENVELOPE_KINDS]
    else:
        plan += _envelopes(inputs, breaking)
    plan += [_invalid(inputs, kind) for kind in INVALID_KINDS]
    plan.append(_oversized(inputs, blocked))
    plan.append(_credentials(inputs, blocked))
    return plan


_ENVELOPE_KINDS = (
    ProbeKind.STALE_DIGEST,
    ProbeKind.UNKNOWN_VERSION,
    ProbeKind.UNKNOWN_MINOR_VERSION,
    ProbeKind.MISSING_SKILL,
)


def _unadvertised(run: Run) -> PlannedProbe:
    skill = _unadvertised_id(run)
    data = {"skill": DESCRIBE_SKILL, "arguments": {"skill_id": skill}}
    # describe_skill runs no domain logic (RULES DS3): nothing here can act.
    return PlannedProbe(
        ProbeKind.UNADVERTISED_SKILL, ProbeRequest(data, note=f"describe_skill for {skill}")
    )


def _envelopes(inputs: PlanInputs, breaking: tuple[Any, str]) -> list[PlannedProbe]:
    arguments, what = breaking
    run = inputs.run
    advertised = run.digests.advertised or ""
    digest, version = stale_digest(advertised), unknown_version(run.skill_version)
    minor = unknown_minor_version(run.skill_version)
    no_skill = inputs.envelope(arguments=arguments)
    del no_skill["skill"]
    plan = [
        PlannedProbe(
            ProbeKind.STALE_DIGEST,
            ProbeRequest(
                inputs.envelope(interface_digest=digest, arguments=arguments),
                note=f"interface_digest {digest[:19]}… instead of the advertised one; "
                f"arguments: {what}",
            ),
        ),
        PlannedProbe(
            ProbeKind.UNKNOWN_VERSION,
            ProbeRequest(
                inputs.envelope(skill_version=version, arguments=arguments),
                note=f"skill_version {version} instead of {run.skill_version}; arguments: {what}",
            ),
        ),
        PlannedProbe(
            ProbeKind.UNKNOWN_MINOR_VERSION,
            ProbeRequest(
                inputs.envelope(skill_version=minor, arguments=arguments),
                note=f"skill_version {minor} instead of {run.skill_version}; arguments: {what}",
            ),
        ),
        PlannedProbe(
            ProbeKind.MISSING_SKILL,
            ProbeRequest(no_skill, note=f"no skill member; arguments: {what}"),
        ),
    ]
    # Without arguments an agent that defaults them could act when an empty request is valid.
    empty_valid = inputs.schema.is_valid({}) or inputs.schema.is_valid(None)
    blocked = valid_invocations_blocked(run, inputs.allow_valid) if empty_valid else ""
    plan.append(
        PlannedProbe(ProbeKind.MISSING_ARGUMENTS, None, skip_reason=blocked)
        if blocked
        else PlannedProbe(
            ProbeKind.MISSING_ARGUMENTS,
            ProbeRequest(inputs.envelope(), note="no arguments member"),
        )
    )
    return plan


def _invalid(inputs: PlanInputs, kind: ProbeKind) -> PlannedProbe:
    if inputs.base is None:
        return PlannedProbe(kind, None, skip_reason=inputs.base_problem)
    built = invalid_arguments(inputs.schema, inputs.base, kind)
    if isinstance(built, str):
        return PlannedProbe(kind, None, skip_reason=built)
    request = ProbeRequest(inputs.envelope(arguments=built.arguments), note=built.note)
    return PlannedProbe(kind, request, pointers=built.pointers)


def _byte_count(value: Any) -> int | None:
    """A non-negative whole number; ``4096.0`` counts (WIRE.md: integers may come as floats)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not value.is_integer():
        return None
    return int(value) if value >= 0 else None


def _oversized(inputs: PlanInputs, blocked: str) -> PlannedProbe:
    kind = ProbeKind.OVERSIZED_INPUT
    constraints = (inputs.run.document or {}).get("constraints")
    limit = _byte_count(
        constraints.get("max_input_bytes") if isinstance(constraints, dict) else None
    )
    if limit is None:
        return PlannedProbe(kind, None, skip_reason="the document declares no max_input_bytes")
    if inputs.base is None:
        return PlannedProbe(kind, None, skip_reason=inputs.base_problem)
    if blocked:
        return PlannedProbe(kind, None, skip_reason=blocked)
    built = oversized_arguments(inputs.schema, inputs.base, limit)
    if isinstance(built, str):
        return PlannedProbe(kind, None, skip_reason=built)
    arguments, note = built
    request = ProbeRequest(inputs.envelope(arguments=arguments), note=f"{note} (limit {limit})")
    return PlannedProbe(kind, request)


def _credentials(inputs: PlanInputs, blocked: str) -> PlannedProbe:
    kind = ProbeKind.MISSING_CREDENTIALS
    card = inputs.run.card
    if card is None or not card.security_schemes:
        return PlannedProbe(kind, None, skip_reason="the card declares no security scheme")
    if inputs.base is None:
        return PlannedProbe(kind, None, skip_reason=inputs.base_problem)
    if blocked:
        return PlannedProbe(kind, None, skip_reason=blocked)
    # Only a valid request shows whether the agent acts for a caller it cannot identify.
    schemes = ", ".join(sorted(card.security_schemes))[:200]
    request = ProbeRequest(
        inputs.envelope(arguments=inputs.base),
        credentials=False,
        note=f"valid arguments, no credentials (the card declares {schemes})",
    )
    return PlannedProbe(kind, request)
