"""The draft's Appendix B example arguments, shared by every test that invokes the skill."""

from __future__ import annotations

from typing import Any

#: evaluate_resource_condition arguments from the draft's Appendix B.
APPENDIX_B_ARGUMENTS: dict[str, Any] = {
    "resource_id": "network-resource-123",
    "condition": {"metric": "utilization", "operator": "gte", "threshold": 80, "unit": "percent"},
}

#: The same with the threshold as a string ("80"): invalid against the input schema, what a
#: user sends anyway as a deliberate negative test.
APPENDIX_B_INVALID_ARGUMENTS: dict[str, Any] = {
    **APPENDIX_B_ARGUMENTS,
    "condition": {**APPENDIX_B_ARGUMENTS["condition"], "threshold": "80"},
}
