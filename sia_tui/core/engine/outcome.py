"""How a step reports its end to the procedure: StepFailed with the draft code, or StepEnds."""

from __future__ import annotations

from collections.abc import Iterable

from sia_tui.core.codes import DetectedBy, ErrorCode, describe_code
from sia_tui.core.errors import (
    A2AProtocolError,
    AuthorizationRefused,
    DeadlineExceeded,
    EncodingRefused,
    JsonInputError,
    OriginRefused,
    RequestTimeout,
    ResponseTooLarge,
    SiaError,
    TransportError,
)
from sia_tui.core.findings import Finding
from sia_tui.core.run.evidence import (
    Blame,
    FailureCategory,
    NextAction,
    Party,
    StepStatus,
)

#: Category of a failure that is not one of the draft's ten codes (WIRE.md: transport
#: failures and A2A errors are their own category, never mapped onto the ten).
TRANSPORT = FailureCategory.TRANSPORT

#: Where to look next for each code when a step does not say (each surface names its key).
_NEXT_BY_CODE = {
    ErrorCode.SKILL_NOT_ADVERTISED: NextAction.REPORT,
    ErrorCode.INTERFACE_UNAVAILABLE: NextAction.RESTART,
    ErrorCode.INTERFACE_INVALID: NextAction.SHOW_DIGESTS,
    ErrorCode.INTERFACE_MISMATCH: NextAction.SHOW_RESULTS,
    ErrorCode.INPUT_INVALID: NextAction.EDIT_ARGUMENTS,
    ErrorCode.CONSTRAINT_REJECTED: NextAction.SHOW_DOCUMENT,
    ErrorCode.AUTHORIZATION_FAILED: NextAction.SHOW_RESULTS,
    ErrorCode.RESOURCE_LIMIT_EXCEEDED: NextAction.SHOW_RESULTS,
    ErrorCode.EXECUTION_FAILED: NextAction.REPORT,
    ErrorCode.OUTPUT_INVALID: NextAction.SHOW_RESULTS,
}


class StepFailed(Exception):  # not a SiaError on purpose: see the tree in core/errors.py
    """Raised inside a step: the procedure marks the step failed and gates the rest (CP0)."""

    def __init__(
        self,
        message: str,
        *,
        code: ErrorCode | None = None,
        origin: DetectedBy = DetectedBy.LOCAL,
        hint: str | None = None,
        findings: Iterable[Finding] = (),
        category: FailureCategory | None = None,
        blame: Blame | None = None,
        next_action: NextAction | None = None,
        error_kind: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.origin = origin
        info = describe_code(code) if code else None
        self.hint = hint or (info.hint if info else "")
        self.findings = list(findings)
        #: DRAFT when ``code`` is one of the ten, else e.g. TRANSPORT.
        self.category = category or (FailureCategory.DRAFT if code else TRANSPORT)
        #: None lets the run derive who is at fault from the code and category.
        self.blame = blame
        self.next_action = next_action or (
            _NEXT_BY_CODE.get(code) if code else NextAction.SHOW_EXCHANGE
        )
        #: The named error underneath (``SiaError.kind``): a size limit, a timeout...
        self.error_kind = error_kind


class StepEnds(Exception):  # like StepFailed, control flow inside the engine, not a SiaError
    """Raised inside a step that concludes the run early without failing it.

    A negative test answered with the expected rejection (step 8 passes), or a task
    cancelled as the user asked (step 9 is ``cancelled``): the later steps are skipped
    with ``reason``, and nothing more is sent.
    """

    def __init__(self, message: str, *, status: StepStatus, reason: str) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.reason = reason


class StepWaits(Exception):  # control flow inside the engine, like StepEnds
    """Raised by step 9 when the task stops in INPUT_REQUIRED or AUTH_REQUIRED.

    An interrupted task is neither passed nor failed: the step stays not run with
    ``message`` (the agent's question), the run is incomplete until the user replies
    (``Procedure.reply``), and then step 9 runs again and sends the reply.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def transport_failure(
    what: str, exc: SiaError, *, url_author: Party = Party.AGENT, task_sent: bool = False
) -> StepFailed:
    """A failed exchange as a located step failure that names who is at fault.

    The hint names the flag that changes the limit that was hit; ``error_kind`` names
    the error (``exc.kind``). ``url_author`` wrote the URL (the user's target, or the
    card): it is at fault when that URL's origin is ambiguous. An empty ``what`` keeps
    the error's own message (the run's deadline says what it stopped).
    """
    message = f"{what}: {exc}" if what else str(exc)
    where = f" ({what})" if what else ""
    if isinstance(exc, DeadlineExceeded):
        hint = (
            "The run took longer than its deadline: check that the agent ends its tasks, or "
            "raise --deadline for a slow one."
        )
        blame = Blame(
            party=Party.AGENT, statement="the agent did not finish within the run's deadline"
        )
    elif isinstance(exc, RequestTimeout):
        hint = (
            "The agent did not answer in time: check that it is healthy, or raise "
            "--timeout for a slow agent."
        )
        blame = Blame(party=Party.AGENT, statement=f"the agent did not answer in time{where}")
    elif isinstance(exc, ResponseTooLarge):
        # The size limit is this client's policy, not a draft rule: nobody is at fault, and
        # an answer cut off after the request was sent says nothing about the task itself.
        hint = (
            "The answer is larger than sia-tui's response size limit, a local policy and not "
            "a rule of the draft: raise --max-response-bytes if the agent is trusted."
        )
        statement = (
            f"sia-tui's response size limit was reached{where}: a local limit, not a rule "
            "the agent broke (--max-response-bytes raises it)"
        )
        if task_sent:
            statement += "; the task may have completed on the agent"
        blame = Blame(party=Party.LIMIT, statement=statement)
    elif isinstance(exc, OriginRefused):
        hint = (
            "The URL's port reads differently to different parsers, so credentials could "
            "reach another origin: write the port in plain ASCII digits (RULES SR7)."
        )
        blame = Blame(
            party=url_author, statement=f"the URL's port is ambiguous, so nothing was sent{where}"
        )
    elif isinstance(exc, EncodingRefused):
        hint = (
            "Answer with a gzip or deflate Content-Encoding (at most two layers), or none; "
            "the refused header is in the recorded exchange."
        )
        blame = Blame(
            party=Party.AGENT,
            statement=f"the agent's answer uses a Content-Encoding that is refused{where}",
        )
    elif isinstance(exc, AuthorizationRefused):
        hint, blame = _refused_hint(exc, where)
    elif isinstance(exc, A2AProtocolError | JsonInputError):
        hint = "The agent's answer is not usable A2A: see the recorded exchange."
        blame = Blame(party=Party.AGENT, statement=f"the agent's answer is not usable: {exc}")
    elif isinstance(exc, TransportError) and exc.status is not None:
        # An HTTP error status: the URL was reached, so nothing about the network failed.
        hint = (
            f"The URL answered HTTP {exc.status}: check that it is the agent's (a card is "
            "usually at /.well-known/agent-card.json); the answer is in the recorded exchange."
        )
        reached = exc.url or "the agent"
        blame = Blame(
            party=url_author,
            statement=f"{reached} was reached and answered HTTP {exc.status}{where}",
        )
    else:
        hint = "The exchange failed: check the URL, the network and that the agent is running."
        blame = Blame(party=Party.NETWORK, statement=f"the agent could not be reached: {exc}")
    return StepFailed(
        message,
        hint=hint,
        blame=blame,
        next_action=NextAction.SHOW_EXCHANGE,
        error_kind=exc.kind,
    )


def _refused_hint(exc: AuthorizationRefused, where: str) -> tuple[str, Blame]:
    """HTTP 401/403: the agent reached and refused the caller's credentials (or their
    absence). Which scheme the card requires and what was sent, by name, never by value."""
    why = f" ({exc.problem})" if exc.problem else ""
    refused = "did not accept" if exc.status == 401 else "does not permit"
    hint = (
        f"The agent answered HTTP {exc.status}: the card requires {exc.required}; sia-tui "
        f"sent {exc.sent}{why}. Give the credentials the card names (--oauth2-client-id, "
        "--api-key, --bearer, --cert) or check their scopes."
    )
    statement = (
        f"the agent {refused} the caller's credentials{where}: it requires {exc.required}, "
        f"and sia-tui sent {exc.sent}{why}"
    )
    return hint, Blame(party=Party.CALLER, statement=statement)
