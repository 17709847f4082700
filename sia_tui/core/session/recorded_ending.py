"""How a recorded exchange ended live, to end it the same way in a replay (HTTP or gRPC)."""

from __future__ import annotations

from sia_tui.core.errors import (
    DeadlineExceeded,
    EncodingRefused,
    RequestTimeout,
    ResponseTooLarge,
    SiaError,
    TransportError,
)
from sia_tui.core.exchange import CANCELLED, Exchange

#: Failures that end an exchange whatever its bytes say (our size limit, a timeout, a
#: refused encoding): replay ends the exchange the same way, after the bytes that came.
_ENDINGS: dict[str, type[TransportError]] = {
    cls.kind: cls for cls in (ResponseTooLarge, RequestTimeout, EncodingRefused)
}


def recorded_ending(ex: Exchange) -> SiaError | None:
    """The failure that ended ``ex`` live, to raise again; None when its bytes are whole."""
    # A sia-session/3 file names no kind; its ``truncated`` says our limit cut the body.
    kind = ex.error_kind or (ResponseTooLarge.kind if ex.truncated else None)
    if kind == CANCELLED:
        # Stopped on our side. A step the user interrupted starts again and keeps none of
        # its exchanges, so one a step kept was stopped by the run's deadline.
        return DeadlineExceeded(ex.error or "the run's deadline passed")
    ending = _ENDINGS.get(kind or "")
    if ending is None and ex.status is None and kind == TransportError.kind:
        ending = TransportError  # no answer at all (refused, reset): as it failed then
    return ending(ex.error or kind or "") if ending is not None else None
