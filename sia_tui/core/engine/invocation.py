"""Steps 7-9: validate the input, delegate the task, receive status, output and records."""

from __future__ import annotations

import asyncio
from typing import Any

from sia_tui.core.a2a.model import Message, StreamEvent, Task
from sia_tui.core.bounded import error_count
from sia_tui.core.canonical import canonical_bytes
from sia_tui.core.codes import ErrorCode, Origin
from sia_tui.core.document import embedded_schema
from sia_tui.core.engine.assembly import TaskAssembly
from sia_tui.core.engine.context import EngineContext
from sia_tui.core.engine.discovery import settle
from sia_tui.core.engine.model import StepResult
from sia_tui.core.engine.outcome import StepFailed, transport_hint
from sia_tui.core.engine.remote_errors import details_as_findings, read_remote_error
from sia_tui.core.errors import CanonicalizationError, SiaError
from sia_tui.core.findings import Finding, Severity
from sia_tui.core.validation import compile_schema

#: Modes in the order the engine prefers them when the user has not chosen.
MODE_PREFERENCE = ("sync", "stream", "poll")


def schema_at(document: dict[str, Any], path: tuple[str, ...]) -> Any:
    """The inline schema of the Schema Reference at ``path`` of a validated document."""
    node: Any = document
    for key in path:
        node = node[key]
    return embedded_schema(node)


def declared_modes(document: dict[str, Any]) -> list[str]:
    """The response modes the document declares (RULES SID4)."""
    modes = document.get("interaction", {}).get("response_modes", [])
    return [m for m in modes if isinstance(m, str)]


def choose_mode(ctx: EngineContext) -> str:
    """The user's mode if the document declares it, else the preferred declared one."""
    declared = declared_modes(ctx.document)
    wanted = ctx.run.target.mode
    if wanted:
        if wanted not in declared:
            raise StepFailed(
                f"the document declares response modes {declared}, not {wanted!r}",
                hint=f"Choose one of {', '.join(declared)}.",
                category="usage",
            )
        return wanted
    streaming = bool(ctx.run.card and ctx.run.card.streaming)
    for mode in MODE_PREFERENCE:
        if mode in declared and (mode != "stream" or streaming):
            return mode
    # RULES SID4: never use a mode the document does not declare.
    raise StepFailed(
        f"the document declares only {declared}, and the card does not declare "
        "the streaming capability",
        hint="Ask the vendor to declare "
        "capabilities.streaming, or choose --mode stream explicitly.",
        category="usage",
    )


async def check_arguments(ctx: EngineContext, result: StepResult) -> None:
    """CP7: the outgoing arguments validate against input_schema."""
    run = ctx.run
    compiled = compile_schema(schema_at(ctx.document, ("input_schema",)))
    findings = compiled.validate(run.arguments)
    limit = ctx.document.get("constraints", {}).get("max_input_bytes")
    try:
        size: int | None = len(canonical_bytes(run.arguments))
    except CanonicalizationError:  # e.g. an integer beyond 2**53: valid JSON, no JCS size
        size = None
    result.evidence = {"arguments_bytes": size}
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
    if errors:
        if run.send_anyway:
            result.evidence["send_anyway"] = "deliberate negative test: invalid input sent anyway"
        # RULES ERR4: a valid schema rejecting an instance is input_invalid, never
        # interface_invalid.
        raise StepFailed(
            f"{error_count(findings)} input error(s); first: "
            f"{errors[0].pointer or '/'} {errors[0].message}",
            code=ErrorCode.INPUT_INVALID,
            findings=findings,
        )
    result.message = f"arguments valid against {ctx.document['input_schema'].get('schema_uri')}"


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
    """CP8: send the task carrying skill_version and interface_digest."""
    run = ctx.run
    assert run.interface is not None
    mode = choose_mode(ctx)
    run.mode = mode
    data = request_data(ctx)
    result.evidence = {
        "mode": mode,
        "skill_version": run.skill_version,
        "interface_digest": run.digests.advertised,
    }
    if run.send_anyway and run.steps[6].status.value == "failed":
        result.evidence["send_anyway"] = "deliberate negative test: input failed step 7"
    try:
        if mode == "stream":
            ctx.assembly = TaskAssembly()
            ctx.stream = aiter(ctx.client.stream(run.interface, data, purpose="invoke"))
            await _next_event(ctx)
            task = ctx.assembly.task()
        else:
            reply = await ctx.client.send(
                run.interface, data, purpose="invoke", return_immediately=mode == "poll"
            )
            if isinstance(reply, Message):
                raise StepFailed(
                    "the agent answered the invocation with a Message, not a Task",
                    hint="A domain skill must produce a Task (RULES INV5).",
                )
            task = reply
    except SiaError as exc:
        raise StepFailed(f"delegation failed: {exc}", hint=transport_hint(exc)) from exc
    run.task = task
    result.evidence["task_id"] = task.id
    result.evidence["state"] = task.state
    if task.state == "TASK_STATE_REJECTED":
        _raise_remote(task, result)
    result.message = f"task {task.id} accepted ({task.state}) in {mode} mode"


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


async def _next_event(ctx: EngineContext) -> StreamEvent | None:
    assert ctx.stream is not None and ctx.assembly is not None
    try:
        event = await anext(ctx.stream)
    except StopAsyncIteration:
        ctx.stream = None
        return None
    ctx.assembly.apply(event)
    ctx.emit(event)
    return event


async def receive(ctx: EngineContext, result: StepResult) -> None:
    """CP9: wait for the final state, then read the typed output and records."""
    run = ctx.run
    assert run.task is not None and run.interface is not None
    limit = stream_time_limit(ctx)
    try:
        if run.mode == "stream" and ctx.assembly is not None:
            async with asyncio.timeout(limit):
                while ctx.stream is not None:
                    event = await _next_event(ctx)
                    if event is None or event.final:
                        break
            run.task = ctx.assembly.task()
            if not run.task.terminal:
                # The stream closed early: ask for the task instead of guessing its state
                # (a closed connection is not a state the agent reported, RULES CP13).
                result.evidence["note"] = "the stream ended before a final state; polled"
                run.task = await settle(ctx, run.task, "invoke")
        elif not run.task.terminal:
            run.task = await settle(ctx, run.task, "invoke")
    except TimeoutError as exc:
        raise StepFailed(
            f"no final task state within {limit:.0f} s of streaming",
            hint="The skill may declare max_duration_seconds; raise --timeout for longer runs.",
        ) from exc
    except SiaError as exc:
        raise StepFailed(f"receiving the task failed: {exc}", hint=transport_hint(exc)) from exc
    finally:
        if ctx.assembly is not None:  # kept even when the deadline stopped the stream
            result.evidence["status_log"] = ctx.assembly.status_summary()
        await ctx.close_stream()
    task = run.task
    result.evidence.update(
        {
            "task_id": task.id,
            "state": task.state,
            "artifacts": [{"artifactId": a.artifact_id, "name": a.name} for a in task.artifacts],
        }
    )
    if task.state != "TASK_STATE_COMPLETED":
        if task.state in ("TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED"):
            raise StepFailed(
                f"the task stopped in {task.state}; follow-up data is not "
                "validated against input_schema (RULES INV11)",
                hint="Answer the agent outside this procedure.",
                category="remote",
            )
        _raise_remote(task, result)
    result.message = f"task {task.id} completed with {len(task.artifacts)} artifact(s)"


def _raise_remote(task: Task, result: StepResult) -> None:
    error = read_remote_error(task)
    findings = details_as_findings(error) + error.findings
    result.findings.extend(findings)
    result.evidence["error"] = {
        "code": error.code,
        "message": error.message,
        "details": error.details,
    }
    raise StepFailed(
        f"the agent ended the task {task.state}: {error.code or 'no code'}"
        f"{': ' + error.message if error.message else ''}",
        code=error.code,
        origin=Origin.REMOTE,
        findings=findings,
        category=None if error.code else "remote",
    )
