"""The reference agent's skills as declarations: identity, schemas, posture, card text."""

from __future__ import annotations

from dataclasses import dataclass, field

from sia_tui.agent import schemas as s
from sia_tui.agent.schemas import DomainSchema


@dataclass(frozen=True)
class SkillSpec:
    """Everything needed to assemble one Skill Interface Document and its card entry."""

    skill_id: str
    name: str
    description: str
    tags: tuple[str, ...]
    input_schema: DomainSchema
    output_schema: DomainSchema
    records: dict[str, DomainSchema] = field(default_factory=dict)
    response_modes: tuple[str, ...] = ("sync", "stream")
    cancellable: bool = False
    default_mode: str = "observe_only"
    approval_may_be_required: bool = False
    constraints: dict[str, float] = field(default_factory=dict)
    skill_version: str = "1.0"


SKILLS: tuple[SkillSpec, ...] = (
    SkillSpec(
        "evaluate_resource_condition",
        "Evaluate resource condition",
        "Compares the current observation of a resource metric with a threshold "
        "(the draft's Appendix B).",
        ("network", "observe"),
        s.RESOURCE_CONDITION_INPUT,
        s.RESOURCE_CONDITION_OUTPUT,
        {"resource-observation": s.RESOURCE_OBSERVATION},
        constraints={"max_input_bytes": 4096, "max_duration_seconds": 10},
    ),
    SkillSpec(
        "check_link_capacity",
        "Check link capacity",
        "Probes a link over a few seconds, streams the probe record, then the verdict.",
        ("network", "observe", "long-running"),
        s.LINK_CAPACITY_CHECK_INPUT,
        s.LINK_CAPACITY_CHECK_OUTPUT,
        {"link-probe": s.LINK_PROBE},
        response_modes=("sync", "stream", "poll"),
        cancellable=True,
        constraints={"max_duration_seconds": 60},
    ),
    SkillSpec(
        "propose_capacity_upgrade",
        "Propose capacity upgrade",
        "Recommends a capacity upgrade for a link; changes nothing.",
        ("network", "recommend"),
        s.UPGRADE_INPUT,
        s.UPGRADE_OUTPUT,
        default_mode="recommend_only",
        approval_may_be_required=True,
    ),
    SkillSpec(
        "apply_interface_shutdown",
        "Apply interface shutdown",
        "Administratively shuts an interface down (simulated: nothing is touched).",
        ("network", "execute"),
        s.SHUTDOWN_INPUT,
        s.SHUTDOWN_OUTPUT,
        default_mode="execute",
        approval_may_be_required=True,
    ),
    SkillSpec(
        "measure_available_bandwidth",
        "Measure available bandwidth",
        "Measures the unused bandwidth of a link; composes with admit_traffic_demand.",
        ("network", "observe", "composable"),
        s.LINK_REQUEST,
        s.AVAILABLE_BANDWIDTH,
    ),
    SkillSpec(
        "admit_traffic_demand",
        "Admit traffic demand",
        "Decides whether a 100 Mbit/s demand fits into a measured available bandwidth.",
        ("network", "recommend", "composable"),
        s.AVAILABLE_BANDWIDTH,
        s.ADMISSION_OUTPUT,
        default_mode="recommend_only",
    ),
    SkillSpec(
        "measure_link_capacity",
        "Measure link capacity",
        "Reports the nominal capacity of a link: looks like available bandwidth, but is not.",
        ("network", "observe"),
        s.LINK_REQUEST,
        s.LINK_CAPACITY,
    ),
)

SKILLS_BY_ID: dict[str, SkillSpec] = {spec.skill_id: spec for spec in SKILLS}
