"""The draft's Appendix B example arguments, shared by every test that invokes the skill."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import httpx

    from sia_tui.core.a2a.options import ClientOptions
    from sia_tui.core.run.read_model import Run, Target

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


async def run_appendix_b(
    target: Target,
    options: ClientOptions | None = None,
    *,
    transport: httpx.AsyncBaseTransport | None = None,
    invocations: int = 1,
) -> Run:
    """Every step against ``target`` with the Appendix B arguments, ``invocations`` times
    (each one after the first a new invocation of the same run); the client is closed after."""
    from sia_tui.core.a2a.options import ClientOptions
    from sia_tui.core.engine.procedure import Procedure

    procedure = Procedure(target, options or ClientOptions(), transport=transport)
    try:
        for _ in range(invocations):
            procedure.set_arguments(APPENDIX_B_ARGUMENTS)
            await procedure.run_all()
    finally:
        await procedure.aclose()
    return procedure.run
