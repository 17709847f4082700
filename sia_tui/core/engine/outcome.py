"""How a step reports failure to the procedure: raise StepFailed with the draft code."""

from __future__ import annotations

from collections.abc import Iterable

from sia_tui.core.codes import ErrorCode, Origin, describe_code
from sia_tui.core.errors import (
    A2AProtocolError,
    DeadlineExceeded,
    EncodingRefused,
    JsonInputError,
    OriginRefused,
    RequestTimeout,
    ResponseTooLarge,
)
from sia_tui.core.findings import Finding

#: Category of a failure that is not one of the draft's ten codes (WIRE.md: transport
#: failures and A2A errors are their own category, never mapped onto the ten).
TRANSPORT = "transport"


class StepFailed(Exception):  # not a SiaError on purpose: see the tree in core/errors.py
    """Raised inside a step: the procedure marks the step failed and gates the rest (CP0)."""

    def __init__(
        self,
        message: str,
        *,
        code: ErrorCode | None = None,
        origin: Origin = Origin.LOCAL,
        hint: str | None = None,
        findings: Iterable[Finding] = (),
        category: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.origin = origin
        info = describe_code(code) if code else None
        self.hint = hint or (info.hint if info else "")
        self.findings = list(findings)
        #: "draft" when ``code`` is one of the ten, else e.g. "transport".
        self.category = category or ("draft" if code else TRANSPORT)


def transport_hint(
    exc: Exception,
    fallback: str = "The exchange failed: check the URL, the network and the agent, then restart.",
) -> str:
    """What to do next after a failed exchange, by what went wrong."""
    if isinstance(exc, DeadlineExceeded):
        return (
            "The run took longer than its deadline: check that the agent ends its tasks, or "
            "raise --deadline for a slow one."
        )
    if isinstance(exc, RequestTimeout):
        return (
            "The agent did not answer in time: check that it is healthy, or raise "
            "--timeout for a slow agent."
        )
    if isinstance(exc, ResponseTooLarge):
        return (
            "The answer was larger than the size limit: raise --max-response-bytes only "
            "if the agent is trusted."
        )
    if isinstance(exc, OriginRefused):
        return (
            "The URL's port reads differently to different parsers, so credentials could "
            "reach another origin: write the port in plain digits (RULES SR7)."
        )
    if isinstance(exc, EncodingRefused):
        return "The agent compressed its answer in a way sia-tui does not decode: see the exchange."
    if isinstance(exc, A2AProtocolError | JsonInputError):
        return "See the exchange: the agent's answer is not usable A2A."
    return fallback
