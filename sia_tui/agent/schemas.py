"""Domain JSON Schemas (2020-12) of the reference agent's skills, with their identities."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sia_tui.core.constants import DIALECT_2020_12

_BASE = "https://example.net/schemas/"


@dataclass(frozen=True)
class DomainSchema:
    """A schema plus the identity its Schema Reference carries (RULES SR1)."""

    schema_uri: str
    version: str
    schema: dict[str, Any]


def _obj(properties: dict[str, Any], description: str) -> dict[str, Any]:
    """A closed object schema whose every property is required."""
    return {
        "$schema": DIALECT_2020_12,
        "description": description,
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def _example(schema: dict[str, Any], example: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with an ``examples`` annotation: argument editors start from it."""
    return {**schema, "examples": [example]}


_ID = {"type": "string", "minLength": 1, "maxLength": 200}
_REFS = {"type": "array", "items": _ID, "minItems": 1}
_TIME = {"type": "string", "format": "date-time"}

# Appendix B of the draft (WIRE.md), field for field.
RESOURCE_CONDITION_INPUT = DomainSchema(
    _BASE + "resource-condition-input",
    "1.0",
    _example(
        _obj(
            {
                "resource_id": _ID,
                "condition": _obj(
                    {
                        "metric": {"type": "string", "minLength": 1},
                        "operator": {"enum": ["gt", "gte", "lt", "lte"]},
                        "threshold": {"type": "number"},
                        "unit": {"type": "string", "minLength": 1},
                    },
                    "The condition to evaluate against the current observation.",
                ),
            },
            "Input of evaluate_resource_condition.",
        ),
        {
            "resource_id": "network-resource-123",
            "condition": {
                "metric": "utilization",
                "operator": "gte",
                "threshold": 80,
                "unit": "percent",
            },
        },
    ),
)

RESOURCE_CONDITION_OUTPUT = DomainSchema(
    _BASE + "resource-condition-output",
    "1.0",
    _obj(
        {
            "result": {"enum": ["condition_met", "condition_not_met"]},
            "observed_value": {"type": "number"},
            "unit": {"type": "string"},
            "supporting_record_refs": _REFS,
        },
        "Result of evaluate_resource_condition; records are referenced by artifactId.",
    ),
)

RESOURCE_OBSERVATION = DomainSchema(
    _BASE + "resource-observation",
    "1.0",
    _obj(
        {
            "record_id": _ID,
            "resource_id": _ID,
            "metric": {"type": "string"},
            "value": {"type": "number"},
            "unit": {"type": "string"},
            "observed_at": _TIME,
        },
        "One observation of one metric of one resource.",
    ),
)

LINK_CAPACITY_CHECK_INPUT = DomainSchema(
    _BASE + "link-capacity-check-input",
    "1.0",
    _example(
        _obj(
            {
                "link_id": _ID,
                "required_mbps": {"type": "number", "exclusiveMinimum": 0},
            },
            "Input of check_link_capacity.",
        ),
        {"link_id": "link-7", "required_mbps": 400},
    ),
)

LINK_CAPACITY_CHECK_OUTPUT = DomainSchema(
    _BASE + "link-capacity-check-output",
    "1.0",
    _obj(
        {
            "link_id": _ID,
            "verdict": {"enum": ["sufficient", "insufficient"]},
            "headroom_mbps": {"type": "number"},
            "supporting_record_refs": _REFS,
        },
        "Verdict of check_link_capacity.",
    ),
)

LINK_PROBE = DomainSchema(
    _BASE + "link-probe",
    "1.0",
    _obj(
        {
            "record_id": _ID,
            "link_id": _ID,
            "capacity_mbps": {"type": "number"},
            "load_mbps": {"type": "number"},
            "probed_at": _TIME,
        },
        "One active probe of a link.",
    ),
)

UPGRADE_INPUT = DomainSchema(
    _BASE + "capacity-upgrade-input",
    "1.0",
    _example(
        _obj(
            {
                "link_id": _ID,
                "target_mbps": {"type": "number", "exclusiveMinimum": 0},
            },
            "Input of propose_capacity_upgrade.",
        ),
        {"link_id": "link-7", "target_mbps": 10000},
    ),
)

UPGRADE_OUTPUT = DomainSchema(
    _BASE + "capacity-upgrade-proposal",
    "1.0",
    _obj(
        {
            "link_id": _ID,
            "proposed_mbps": {"type": "number"},
            "rationale": {"type": "string"},
            "approval_required": {"type": "boolean"},
        },
        "A recommendation only: nothing is changed.",
    ),
)

SHUTDOWN_INPUT = DomainSchema(
    _BASE + "interface-shutdown-input",
    "1.0",
    _example(
        _obj(
            {
                "device_id": _ID,
                "interface_name": _ID,
            },
            "Input of apply_interface_shutdown.",
        ),
        {"device_id": "edge-router-1", "interface_name": "ge-0/0/1"},
    ),
)

SHUTDOWN_OUTPUT = DomainSchema(
    _BASE + "interface-shutdown-result",
    "1.0",
    _obj(
        {
            "device_id": _ID,
            "interface_name": _ID,
            "admin_state": {"enum": ["down"]},
            "simulated": {"const": True},
        },
        "Result of a simulated interface shutdown.",
    ),
)

LINK_REQUEST = DomainSchema(
    _BASE + "link-request",
    "1.0",
    _example(
        _obj(
            {
                "link_id": _ID,
            },
            "Names one link.",
        ),
        {"link_id": "link-7"},
    ),
)


def _bandwidth_shape(description: str) -> dict[str, Any]:
    """The shared shape of the look-alike pair (RULES CMP2): same members and unit."""
    return _obj(
        {
            "link_id": _ID,
            "value": {"type": "number", "minimum": 0},
            "unit": {"const": "Mbit/s"},
        },
        description,
    )


# The composable pair (RULES CMP1): one Schema Reference for both roles.
AVAILABLE_BANDWIDTH = DomainSchema(
    _BASE + "available-bandwidth",
    "1.0",
    _bandwidth_shape("Currently unused bandwidth of a link."),
)
# The look-alike (RULES CMP2): same shape and unit, different meaning and identity.
LINK_CAPACITY = DomainSchema(
    _BASE + "link-capacity",
    "1.0",
    _bandwidth_shape("Nominal capacity of a link, regardless of its load."),
)

ADMISSION_OUTPUT = DomainSchema(
    _BASE + "traffic-admission",
    "1.0",
    _obj(
        {
            "link_id": _ID,
            "admitted": {"type": "boolean"},
            "demand_mbps": {"type": "number"},
        },
        "Whether a fixed demand fits into the measured available bandwidth.",
    ),
)
