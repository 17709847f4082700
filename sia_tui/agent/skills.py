"""Domain logic of the reference skills: deterministic, made-up network observations."""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from sia_tui.agent.config import MARKUP_SAMPLE, AgentConfig
from sia_tui.agent.faults import Fault

#: Fixed observation time, so every run of a demo shows the same records.
OBSERVED_AT = "2026-08-11T12:00:01Z"
#: The resource of the draft's Appendix B.
APPENDIX_B_RESOURCE = "network-resource-123"
#: The demand that admit_traffic_demand tries to admit.
DEMAND_MBPS = 100
#: Size of the ``large-result`` fault's padding as sent (compact JSON), under the client's
#: 8 MiB response limit: a big artifact a viewer must stay responsive with.
LARGE_RESULT_BYTES = 5 * 1000 * 1000


@dataclass(frozen=True)
class Emission:
    """One thing a skill produces: a progress note, a supporting record or the result."""

    kind: str  # "progress" | "record" | "result"
    name: str = ""
    artifact_id: str = ""
    data: Any = None


def _number(*seed: str, modulo: int) -> int:
    """A stable made-up number derived from the seed strings."""
    digest = hashlib.sha256("\x00".join(seed).encode("utf-8")).digest()
    return int.from_bytes(digest[:4], "big") % modulo


def _compare(observed: float, operator: str, threshold: float) -> bool:
    """The operators of the Appendix B input schema."""
    return {
        "gt": observed > threshold,
        "gte": observed >= threshold,
        "lt": observed < threshold,
        "lte": observed <= threshold,
    }[operator]


@functools.cache
def large_samples() -> list[dict[str, Any]]:
    """About ``LARGE_RESULT_BYTES`` of made-up samples, one shared list for every task."""
    samples: list[dict[str, Any]] = []
    size = 0
    while size < LARGE_RESULT_BYTES:
        n = len(samples)
        sample = {
            "sample": n,
            "at": f"2026-08-11T{n // 3600 % 24:02d}:{n // 60 % 60:02d}:{n % 60:02d}Z",
            "value": _number(str(n), modulo=100),
            "note": "undeclared padding: the output schema does not allow x_samples",
        }
        samples.append(sample)
        size += len(json.dumps(sample, separators=(",", ":"))) + 1
    return samples


async def evaluate_resource_condition(
    args: dict[str, Any],
    config: AgentConfig,
) -> AsyncIterator[Emission]:
    """Appendix B: result-1 then observation-7 for network-resource-123 at 42 percent."""
    resource, condition = args["resource_id"], args["condition"]
    if resource == APPENDIX_B_RESOURCE and condition["metric"] == "utilization":
        value, record_id = 42, "observation-7"
    else:
        value = _number(resource, condition["metric"], modulo=100)
        record_id = f"observation-{_number(resource, modulo=90) + 10}"
    met = _compare(value, condition["operator"], condition["threshold"])
    result = {
        "result": "condition_met" if met else "condition_not_met",
        "observed_value": value,
        "unit": condition["unit"],
        "supporting_record_refs": [record_id],
    }
    if config.has(Fault.OUTPUT_INVALID):
        result["result"] = "condition_probably_met"
    if config.has(Fault.OUTPUT_INVALID_SOME) and condition["threshold"] < 0:
        result["observed_value"] = str(value)  # the output schema says number
    if config.has(Fault.LARGE_RESULT):
        result["x_samples"] = large_samples()
    record = {
        "record_id": record_id,
        "resource_id": resource,
        "metric": condition["metric"],
        "value": value,
        "unit": condition["unit"],
        "observed_at": OBSERVED_AT,
    }
    if config.has(Fault.RECORD_INVALID):
        del record["observed_at"]
    if config.has(Fault.MARKUP):
        record["metric"] = condition["metric"] + " " + MARKUP_SAMPLE
    yield Emission("result", "evaluate_resource_condition", "result-1", result)
    yield Emission("record", "resource-observation", record_id, record)


async def check_link_capacity(
    args: dict[str, Any],
    config: AgentConfig,
) -> AsyncIterator[Emission]:
    """Long-running: progress, the probe record, more progress, then the verdict."""
    link = args["link_id"]
    capacity = 1000 * (1 + _number(link, modulo=10))
    load = _number(link, "load", modulo=capacity)
    yield Emission("progress", data=f"probing {link}")
    await asyncio.sleep(config.step_delay)
    record = {
        "record_id": "probe-1",
        "link_id": link,
        "capacity_mbps": capacity,
        "load_mbps": load,
        "probed_at": OBSERVED_AT,
    }
    yield Emission("record", "link-probe", "probe-1", record)
    await asyncio.sleep(config.step_delay)
    yield Emission("progress", data="computing headroom")
    await asyncio.sleep(config.step_delay)
    headroom = capacity - load
    verdict = "sufficient" if headroom >= args["required_mbps"] else "insufficient"
    yield Emission(
        "result",
        "check_link_capacity",
        "result-1",
        {
            "link_id": link,
            "verdict": verdict,
            "headroom_mbps": headroom,
            "supporting_record_refs": ["probe-1"],
        },
    )


async def _single(name: str, data: dict[str, Any]) -> AsyncIterator[Emission]:
    yield Emission("result", name, "result-1", data)


def run_domain_skill(
    skill_id: str,
    args: dict[str, Any],
    config: AgentConfig,
) -> AsyncIterator[Emission]:
    """The emissions of one validated invocation of ``skill_id``."""
    if skill_id == "evaluate_resource_condition":
        return evaluate_resource_condition(args, config)
    if skill_id == "check_link_capacity":
        return check_link_capacity(args, config)
    if skill_id == "propose_capacity_upgrade":
        return _single(
            skill_id,
            {
                "link_id": args["link_id"],
                "proposed_mbps": args["target_mbps"],
                "rationale": "projected peak load exceeds 80 percent of current capacity",
                "approval_required": True,
            },
        )
    if skill_id == "apply_interface_shutdown":
        return _single(
            skill_id,
            {
                "device_id": args["device_id"],
                "interface_name": args["interface_name"],
                "admin_state": "down",
                "simulated": True,
            },
        )
    link = args["link_id"]
    if skill_id == "measure_available_bandwidth":
        return _single(
            skill_id, {"link_id": link, "value": 10 * _number(link, modulo=50), "unit": "Mbit/s"}
        )
    if skill_id == "measure_link_capacity":
        return _single(
            skill_id,
            {"link_id": link, "value": 1000 * (1 + _number(link, modulo=10)), "unit": "Mbit/s"},
        )
    if skill_id == "admit_traffic_demand":
        return _single(
            skill_id,
            {"link_id": link, "admitted": args["value"] >= DEMAND_MBPS, "demand_mbps": DEMAND_MBPS},
        )
    raise KeyError(skill_id)
