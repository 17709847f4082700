"""Steps 7-9: validate the input, delegate the task, receive status, output and records."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from sia_tui.core.a2a.forgiven import answered
from sia_tui.core.a2a.task_views import Message, Task
from sia_tui.core.bounded import error_count_text, listed
from sia_tui.core.codes import ErrorCode
from sia_tui.core.engine.assembly import TaskAssembly
from sia_tui.core.engine.capabilities import capability_refusal
from sia_tui.core.engine.context import EngineContext
from sia_tui.core.engine.outcome import StepEnds, StepFailed, transport_failure

# The refusal grader (deliberate_negative) and the agent's error reader (remote_errors)
# load when an answer needs them: a passing run never does.
from sia_tui.core.engine.steps.discovery import settle
from sia_tui.core.engine.steps.followup import ask_user, resubscribe, send_reply
from sia_tui.core.errors import CanonicalizationError, SiaError
from sia_tui.core.findings import Finding, Severity
from sia_tui.core.interface.document import schema_at
from sia_tui.core.invocation_mode import InvocationMode
from sia_tui.core.jsonkit.canonical import canonical_bytes
from sia_tui.core.jsonkit.pointer import display
from sia_tui.core.needs import Need, word
from sia_tui.core.run.evidence import Blame, FailureCategory, NextAction, Party, StepStatus
from sia_tui.core.run.later_evidence import (
    ArgumentsEvidence,
    ArtifactRef,
    DelegationEvidence,
    ReceptionEvidence,
)
from sia_tui.core.run.read_model import StepResult
from sia_tui.core.run.verdicts import unsent_turn
from sia_tui.core.task_state import INTERRUPTED_STATES, TaskState

T = TypeVar("T")

#: Modes in the order the engine prefers them when the user has not chosen.
MODE_PREFERENCE = (InvocationMode.SYNC, InvocationMode.STREAM, InvocationMode.POLL)


def choose_mode(ctx: EngineContext) -> str:
    """The user's mode if the document declares it, else the preferred declared one."""
    declared = ctx.run.answers.declared_modes
    wanted = ctx.run.target.mode
    if wanted:
        if wanted not in declared:
            message = f"the document declares response modes {declared}, not {wanted!r}"
            raise StepFailed(
                message,
                hint=f"Choose one of {', '.join(declared)}.",
                category=FailureCategory.USAGE,
                blame=Blame(party=Party.CALLER, statement=message),
                next_action=NextAction.EDIT_ARGUMENTS,
            )
        # A2A 1.0 section 3.1.7: the card's capabilities, as for push (engine/push.py).
        held = (
            None if ctx.run.target.ignore_capabilities else capability_refusal(ctx.run.card, wanted)
        )
        if held is not None:
            raise StepFailed(
                held,
                hint="Declare capabilities.streaming in the Agent Card, or choose another mode.",
                category=FailureCategory.USAGE,
                blame=Blame(party=Party.CALLER, statement=held),
                next_action=NextAction.EDIT_ARGUMENTS,
            )
        return wanted
    streaming = bool(ctx.run.card and ctx.run.card.streaming)
    for mode in MODE_PREFERENCE:
        if mode in declared and (mode != InvocationMode.STREAM or streaming):
            return mode
    # RULES SID4: never use a mode the document does not declare.
    message = (
        f"the document declares only {declared}, and the card does not declare the "
        "streaming capability"
    )
    raise StepFailed(
        message,
        hint="Declare capabilities.streaming in the Agent Card, or choose the stream mode "
        "explicitly.",
        category=FailureCategory.USAGE,
        blame=Blame(party=Party.AGENT, statement=message),
        next_action=NextAction.EDIT_ARGUMENTS,
    )


def take_example(ctx: EngineContext, evidence: ArgumentsEvidence) -> None:
    """``--args example``: the document's first example becomes the arguments."""
    run = ctx.run
    example = run.answers.example_arguments
    if example is None:
        message = (
            "no example arguments: the input schema declares no examples and the card's "
            "skill entry lists no JSON example"
        )
        raise StepFailed(
            message,
            hint=f"Give the arguments in a file ({word(Need.ARGUMENTS_FILE)}).",
            category=FailureCategory.USAGE,
            blame=Blame(party=Party.CALLER, statement=message),
            next_action=NextAction.EDIT_ARGUMENTS,
        )
    run.arguments, evidence.example_source = example.value, example.source


async def check_arguments(ctx: EngineContext, result: StepResult) -> None:
    """CP7: the outgoing arguments validate against input_schema."""
    from sia_tui.core.schemas.validation import compile_schema  # jsonschema: not needed to start

    run = ctx.run
    evidence = ArgumentsEvidence(negative_test=run.send_anyway)
    result.evidence = evidence
    if run.use_example:
        take_example(ctx, evidence)
    compiled = compile_schema(schema_at(ctx.document, ("input_schema",)))
    findings = compiled.validate(run.arguments)
    limit = ctx.document.get("constraints", {}).get("max_input_bytes")
    try:
        size: int | None = len(canonical_bytes(run.arguments))
    except CanonicalizationError:  # e.g. an integer beyond 2**53: valid JSON, no JCS size
        size = None
    evidence.arguments_bytes = size
    if isinstance(limit, int) and size is not None and size > limit:
        findings.append(
            Finding(
                f"arguments are {size} bytes; the document's constraints allow "
                f"{limit} (the agent may answer constraint_rejected)",
                severity=Severity.WARNING,
                pointer="",
                code=ErrorCode.CONSTRAINT_REJECTED,
            )
        )
    result.findings.extend(findings)
    errors = [f for f in findings if f.severity is Severity.ERROR]
    first = f"first at {display(errors[0].pointer)}: {errors[0].message}" if errors else ""
    count = error_count_text(findings)  # a closing finding counts the errors left out
    if errors and run.send_anyway:
        # A deliberate negative test: the invalid input is the point; the agent must reject
        # it with input_invalid before any domain logic (RULES INV3), graded at step 8 or 9.
        result.message = (
            f"deliberate negative test: {count} input error(s) found here as intended "
            f"({first}); sent anyway so the agent's own validation is tested (RULES INV3)"
        )
        return
    if errors:
        # RULES ERR4: a valid schema rejecting an instance is input_invalid, never
        # interface_invalid.
        message = f"{count} input error(s); {first}"
        raise StepFailed(
            message,
            code=ErrorCode.INPUT_INVALID,
            findings=findings,
            hint="Fix the arguments at the listed JSON Pointers, or send them anyway as a "
            "deliberate negative test.",
            blame=Blame(
                party=Party.CALLER,
                statement=f"the arguments do not validate against the input schema ({first})",
            ),
        )
    # Valid arguments are never a negative test, send anyway on or off: they are sent as an
    # ordinary invocation (what is sent is always the editor's text) and graded as one.
    evidence.negative_test = False
    result.message = f"arguments valid against {ctx.document['input_schema'].get('schema_uri')}"
    if run.send_anyway:
        result.message += " (send anyway has no effect: valid arguments are an ordinary invocation)"


def request_data(ctx: EngineContext) -> dict[str, Any]:
    """The skill request object (RULES INV1, CP8)."""
    run = ctx.run
    return {
        "skill": run.skill_id,
        "skill_version": run.skill_version,
        "interface_digest": run.digests.advertised,
        "arguments": run.arguments,
    }


async def delegate(ctx: EngineContext, result: StepResult) -> None:
    """CP8: send the task carrying skill_version and interface_digest.

    The procedure starts this step for a skill that asks for consent only once the user
    gave it (``Run.verdict.waiting_for_consent``); it is taken here, so one yes sends once.
    """
    run = ctx.run
    assert run.interface is not None
    need = run.answers.consent_need
    run.consent = False
    mode = choose_mode(ctx)
    run.mode = mode
    data = request_data(ctx)
    iface = run.interface
    checked = run.evidence(ArgumentsEvidence)
    evidence = DelegationEvidence(
        mode=mode,
        skill_version=run.skill_version,
        interface_digest=run.digests.advertised,
        negative_test=checked is not None and checked.negative_test,
        consent=need.reason if need is not None else None,
    )
    result.evidence = evidence
    try:
        if mode == InvocationMode.STREAM:
            # Step 8 ends when the agent has said whether it takes the task: a stream that
            # opens SUBMITTED and then ends REJECTED was never accepted, in any mode.
            async with asyncio.timeout(stream_time_limit(ctx)):
                await with_push(ctx, lambda push: _open_stream(ctx, result.step, data, push))
                assert ctx.assembly is not None
                while ctx.assembly.task().state == TaskState.SUBMITTED and ctx.stream is not None:
                    await ctx.next_event()
            task = ctx.assembly.task()
        else:
            reply = await with_push(
                ctx,
                lambda push: ctx.client.send(
                    iface,
                    data,
                    purpose="invoke",
                    return_immediately=mode == InvocationMode.POLL,
                    push=push,
                ),
            )
            if isinstance(reply, Message):
                message = "the agent answered the invocation with a Message, not a Task"
                raise StepFailed(
                    message,
                    hint="A domain skill must produce a Task (RULES INV5).",
                    blame=Blame(party=Party.AGENT, statement=message),
                )
            task = reply
            if task.state == TaskState.SUBMITTED:  # poll mode: ask until it is accepted or rejected
                task = await ctx.client.poll(run.interface, task.id, until=_past_submitted)
    except TimeoutError as exc:
        message = (
            f"the agent did not accept or reject the task within {stream_time_limit(ctx):.0f} s"
        )
        raise StepFailed(message, blame=Blame(party=Party.AGENT, statement=message)) from exc
    except SiaError as exc:
        raise transport_failure("delegation failed", exc, task_sent=True) from exc
    run.task = task
    if ctx.push is not None:
        ctx.push.task_known(task.id)
    evidence.task_id, evidence.state = task.id, task.state
    if evidence.negative_test and task.state == TaskState.REJECTED:
        from sia_tui.core.engine.steps.deliberate_negative import judge_refusal

        judge_refusal(ctx, task, result, evidence)
    if task.state == TaskState.REJECTED:
        from sia_tui.core.engine.steps.remote_errors import raise_remote

        raise_remote(ctx, task, result)
    result.message = f"task {task.id} accepted ({task.state}) in {mode} mode"
    if evidence.negative_test:
        # How it ends is the agent's answer: step 9 grades it (a FAILED task included).
        result.message += "; its arguments do not validate, so step 9 grades how it ends"


def stream_time_limit(ctx: EngineContext) -> float:
    """How long a stream may run in all: keep-alive pings must not keep it open forever.

    The document's ``max_duration_seconds`` (plus one read timeout of slack) when declared,
    else the client's total timeout.
    """
    declared = ctx.document.get("constraints", {}).get("max_duration_seconds")
    total = ctx.options.total_timeout
    if isinstance(declared, int | float) and not isinstance(declared, bool) and declared > 0:
        return max(total, float(declared) + ctx.options.read_timeout)
    return total


async def with_push(
    ctx: EngineContext, attempt: Callable[[dict[str, Any] | None], Awaitable[T]]
) -> T:
    """``attempt`` with the run's webhook when the target asks for push (``engine/push.py``
    retries once without it if the agent refuses it), else ``attempt(None)``."""
    run = ctx.run
    if not run.target.push:
        return await attempt(None)
    # The receiver and its log load only for a run that asks for push.
    from sia_tui.core.engine.push import PushChannel

    card = None if run.target.ignore_capabilities else run.card  # the user's override
    ctx.push = PushChannel.open(run.target.push, card, ctx.options, ctx.changed)
    # Whoever holds the token can post notifications the receiver believes: it is redacted
    # from saved sessions, logs and the screen as any secret issued during the run.
    run.issued.add(ctx.push.token, "push notification token")
    run.push = ctx.push.log
    return await ctx.push.send(attempt)


async def _open_stream(
    ctx: EngineContext, step: int, data: Any, push: dict[str, Any] | None
) -> None:
    """SendStreamingMessage, read up to its first event (where a refusal shows)."""
    assert ctx.run.interface is not None
    await ctx.close_stream()
    ctx.assembly = TaskAssembly()
    # The stream's exchange is recorded when it closes, usually in step 9; the request is
    # sent here, so this step lists it too (Procedure._record).
    ctx.run.stream_steps = [step]
    ctx.stream = aiter(ctx.client.stream(ctx.run.interface, data, purpose="invoke", push=push))
    await ctx.next_event()


def _past_submitted(task: Task) -> bool:
    return task.state != TaskState.SUBMITTED or task.terminal


async def receive(ctx: EngineContext, result: StepResult) -> None:
    """CP9: wait for the final state, then read the typed output and records."""
    run = ctx.run
    assert run.task is not None and run.interface is not None
    limit = stream_time_limit(ctx)
    evidence = ReceptionEvidence()
    result.evidence = evidence
    ended = False
    try:
        reply = unsent_turn(run)
        if reply is not None:  # the user answered the task's question: send it, go on
            await send_reply(ctx, reply)
        if run.mode == InvocationMode.STREAM and ctx.assembly is not None:
            if ctx.stream is not None and run.stream_steps:
                run.stream_steps.append(result.step)  # the events after acceptance are ours
            async with asyncio.timeout(limit):
                while ctx.stream is not None:
                    event = await ctx.next_event()
                    if event is None or event.final:
                        break
            run.task = ctx.assembly.task()
            if not run.task.terminal:
                # The stream closed early: follow the task instead of guessing its state
                # (a closed connection is not a state the agent reported, RULES CP13).
                run.task, evidence.note = await resubscribe(ctx, run.task, limit)
        elif not run.task.terminal:
            run.task = await settle(ctx, run.task, "invoke")
        if ctx.push is not None:
            await ctx.push.settle(run.task.state)
        if run.interface.dialect == "1.0":  # docs/WIRE.md: nothing forgiven silently
            run.warnings += [w for w in answered("Task", run.task.raw) if w not in run.warnings]
        ended = True
    except TimeoutError as exc:
        message = f"no final task state within {limit:.0f} s of streaming"
        raise StepFailed(
            message,
            hint="The skill may declare max_duration_seconds; raise "
            f"{word(Need.TIMEOUT)} for longer runs.",
            blame=Blame(party=Party.AGENT, statement=message),
        ) from exc
    except SiaError as exc:
        raise transport_failure("receiving the task failed", exc, task_sent=True) from exc
    finally:
        if run.mode == InvocationMode.STREAM and ctx.assembly is not None:
            # Kept even when the deadline stopped the stream; a flood of one state is counted.
            evidence.status_log = ctx.assembly.status_summary()
            if not ended:
                # Stopped mid-stream (a failure, the deadline): the task keeps what its stream
                # sent, so every surface and a saved session show those artifacts, unchecked
                # (``Run.answers.unchecked_artifacts``).
                run.task = ctx.assembly.task()
        await ctx.close_stream()
        evidence.stream_events_not_kept = _events_not_kept(ctx, result) or None
        await ctx.close_push()
    task = run.task
    evidence.task_id, evidence.state = task.id, task.state
    shown, not_listed = listed(task.artifacts)
    evidence.artifacts_not_listed = not_listed or None
    evidence.artifacts = [ArtifactRef(artifact_id=a.artifact_id, name=a.name) for a in shown]
    delegation = run.evidence(DelegationEvidence)
    cancelled_as_asked = task.state == TaskState.CANCELED and run.cancel_requested
    if delegation is not None and delegation.negative_test and not cancelled_as_asked:
        from sia_tui.core.engine.steps.deliberate_negative import judge_refusal

        judge_refusal(ctx, task, result, evidence)
    if task.state == TaskState.CANCELED:
        end_cancelled(ctx, task, evidence)
    if task.state in INTERRUPTED_STATES:
        # An interrupted task is not a failure: the run waits for the user's reply.
        ask_user(ctx, task)
    if task.state != TaskState.COMPLETED:
        from sia_tui.core.engine.steps.remote_errors import raise_remote

        raise_remote(ctx, task, result)
    result.message = f"task {task.id} completed with {len(task.artifacts)} artifact(s)"


def _events_not_kept(ctx: EngineContext, result: StepResult) -> int:
    """Events this step's streams sent that their exchanges count but do not keep."""
    own = set(result.exchanges)
    return sum(ex.events_not_kept for ex in ctx.run.exchanges if ex.seq in own)


def end_cancelled(ctx: EngineContext, task: Task, evidence: ReceptionEvidence) -> None:
    """A CANCELED task: as the user asked, or the agent's own decision (never ERR1)."""
    if ctx.run.cancel_requested:
        evidence.cancelled_by_user = True
        raise StepEnds(
            f"task {task.id} was cancelled as you asked",
            status=StepStatus.CANCELLED,
            reason="not run: the task was cancelled",
        )
    # CANCELED is not a failure state: there is no error object to read (RULES ERR1 is about
    # FAILED and REJECTED tasks).
    message = f"the agent cancelled task {task.id} although nobody asked it to"
    raise StepFailed(
        message,
        hint="A task should end COMPLETED, FAILED or REJECTED unless its caller cancels it.",
        category=FailureCategory.REMOTE,
        blame=Blame(party=Party.AGENT, statement=message),
        next_action=NextAction.SHOW_RESULTS,
    )
