"""A recorded gRPC status read back from a session file, checked where it is loaded.

sia-tui writes a call's status as ProtoJSON (``grpc_status.status_json``) in the exchange's
response body. A session file is someone else's input: a status body edited into text that
is not JSON, nested too deep, with details protobuf refuses, or a status number gRPC does
not have, is a one-line error naming the member (``at /exchanges/3/response/body``), as an
edited JSON-RPC session is, never an exception in replay blamed on sia-tui or the agent.
"""

from __future__ import annotations

from typing import Any

from sia_tui.core.errors import JsonInputError, SiaError
from sia_tui.core.exchange import GRPC_CODES, Exchange
from sia_tui.core.jsonkit import strictjson
from sia_tui.core.session.dataclass_json import SessionError

#: Deepest recorded status read: ``Status{details: [ErrorInfo{metadata: {...}}]}`` and a
#: ``BadRequest``'s field violations are four levels; more was edited in.
MAX_STATUS_DEPTH = 16


def recorded_status(code: int, body: bytes) -> tuple[str, bytes | None]:
    """The message and ``grpc-status-details-bin`` bytes of a recorded status that is not
    OK; ``ValueError`` says why the recording cannot be served again."""
    try:
        status: Any = (
            strictjson.loads(body, source="the recorded status", max_depth=MAX_STATUS_DEPTH)
            if body
            else {}
        )
    except JsonInputError as exc:
        raise ValueError(f"not a recorded gRPC status: {exc.message}") from None
    if not isinstance(status, dict):
        raise ValueError("a recorded gRPC status is a JSON object")
    message = str(status.get("message", ""))
    details = status.get("details")
    if not isinstance(details, list):
        return message, None
    from sia_tui.core.a2a.grpc.status import status_bytes  # protobuf: only for gRPC sessions

    wanted = [d for d in details if isinstance(d, dict)]
    try:
        return message, status_bytes(code, message, wanted)
    except (SiaError, ValueError, TypeError) as exc:  # ParseError, binascii.Error are both
        raise ValueError(f"its details cannot be encoded again: {str(exc)[:200]}") from None


def check_grpc_exchange(ex: Exchange, where: str) -> None:
    """Refuse a gRPC exchange whose status could not be served again by replay."""
    if not ex.grpc or ex.status is None:
        return
    if not 0 <= ex.status < len(GRPC_CODES):
        raise SessionError(
            f"at {where}/response/status: {ex.status} is not a gRPC status code "
            f"(0 to {len(GRPC_CODES) - 1})"
        )
    if ex.status == 0:
        return  # the body is the answer the agent sent, served again as it came
    try:
        recorded_status(ex.status, ex.response_body)
    except ValueError as exc:
        raise SessionError(f"at {where}/response/body: {exc}") from None
