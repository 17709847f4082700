"""The agent side of the draft: describe_skill, INV2/INV3 checks, output checks, errors."""

from __future__ import annotations

import asyncio
import functools
import json
from typing import Any

from sia_tui.agent.config import MARKUP_SAMPLE, AgentConfig
from sia_tui.agent.documents import FrozenDocument, corrupt
from sia_tui.agent.faults import Fault
from sia_tui.agent.skills import run_domain_skill
from sia_tui.agent.tasks import TaskRecord, data_part
from sia_tui.agent.validate import boundary_details, schema_details
from sia_tui.core.codes import ErrorCode
from sia_tui.core.constants import DESCRIBE_SKILL, DIGEST_MEMBER, DOCUMENT_MEMBER
from sia_tui.core.jsonkit.pointer import display
from sia_tui.core.task_state import TaskState

#: Size of the ``huge`` fault's extra artifact: over the client's 8 MiB default limit.
HUGE_BYTES = 12 * 1024 * 1024
_MAX_DETAILS = 20
#: What ``AgentConfig.ask`` stops a task with: the state and the agent's question.
QUESTIONS = {
    "input": (TaskState.INPUT_REQUIRED, "Which site should the report name? Reply with any text."),
    "auth": (TaskState.AUTH_REQUIRED, "This skill needs an approval code: reply with it to go on."),
}


@functools.cache
def huge_text() -> str:
    """One shared 12 MiB string: every task of the ``huge`` fault references the same object."""
    return "x" * HUGE_BYTES


class SkillExecutor:
    """Runs one request's skill on a task, ending it in a terminal state."""

    def __init__(self, config: AgentConfig, documents: dict[str, FrozenDocument]) -> None:
        self.config = config
        self.documents = documents

    def _end(
        self,
        task: TaskRecord,
        state: str,
        code: ErrorCode,
        message: str,
        details: list[dict[str, str]] | None = None,
    ) -> None:
        """RULES ERR1: the final status message has exactly one data part."""
        error: dict[str, Any] = {"code": code, "message": message}
        if details:
            error["details"] = details[:_MAX_DETAILS]
        task.set_status(state, task.agent_message([data_part(error)]))

    async def run(self, task: TaskRecord, request: Any) -> None:
        """Process ``request`` (the data of the single data part, or None)."""
        try:
            await self._dispatch(task, request)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the agent must never crash on a request
            self._end(
                task,
                TaskState.FAILED,
                ErrorCode.EXECUTION_FAILED,
                f"internal error: {type(exc).__name__}",
            )

    async def _dispatch(self, task: TaskRecord, request: Any) -> None:
        if not isinstance(request, dict) or not isinstance(request.get("skill"), str):
            self._end(
                task,
                TaskState.REJECTED,
                ErrorCode.INPUT_INVALID,
                "the message needs exactly one data part {skill, arguments, ...} (INV1)",
            )
            return
        if request["skill"] == DESCRIBE_SKILL:
            self._describe(task, request.get("arguments"))
        else:
            await self._invoke(task, request)

    def _describe(self, task: TaskRecord, arguments: Any) -> None:
        """RULES DS1-DS4: the frozen document, no domain logic."""
        skill_id = arguments.get("skill_id") if isinstance(arguments, dict) else None
        if not isinstance(skill_id, str):
            self._end(
                task,
                TaskState.REJECTED,
                ErrorCode.INPUT_INVALID,
                "arguments.skill_id must be a string",
                [{"instance_path": "/arguments/skill_id", "keyword": "type", "expected": "string"}],
            )
            return
        if self.config.has(Fault.UNAVAILABLE):
            self._end(
                task,
                TaskState.FAILED,
                ErrorCode.INTERFACE_UNAVAILABLE,
                "the interface store is temporarily unavailable",
            )
            return
        frozen = self.documents.get(skill_id)
        if frozen is None:
            # The draft is silent on an id the card does not advertise: the request is
            # refused before any work, with the code that names the reason.
            self._end(
                task,
                TaskState.REJECTED,
                ErrorCode.SKILL_NOT_ADVERTISED,
                f"skill {skill_id[:100]!r} is not advertised by this agent",
            )
            return
        digest = frozen.interface_digest
        if self.config.has(Fault.DIGEST_RESPONSE):
            digest = corrupt(digest)
        task.add_artifact(
            {
                "artifactId": "describe-1",
                "name": DESCRIBE_SKILL,
                "parts": [data_part({DIGEST_MEMBER: digest, DOCUMENT_MEMBER: frozen.document()})],
            }
        )
        task.set_status(TaskState.COMPLETED)

    def _reject_arguments(self, task: TaskRecord, details: list[dict[str, str]]) -> None:
        """RULES INV3, ERR5: REJECTED input_invalid with located details (or a fault's take)."""
        if self.config.has(Fault.ARGS_EXECUTION_FAILED):
            self._end(
                task,
                TaskState.FAILED,
                ErrorCode.EXECUTION_FAILED,
                "could not evaluate the condition",
            )
            return
        if self.config.has(Fault.DETAILS_WRONG_MEMBER):
            # A common vendor mix-up: the schema location reported as the instance location.
            details = [{**d, "instance_path": d.get("schema_path", "")} for d in details]
        # RULES ERR4: the document is valid; an instance it rejects is input_invalid.
        self._end(
            task,
            TaskState.REJECTED,
            ErrorCode.INPUT_INVALID,
            f"{len(details)} argument error(s), first at {display(details[0]['instance_path'])}",
            details,
        )

    async def _ask(self, task: TaskRecord) -> None:
        """Stop in INPUT_REQUIRED or AUTH_REQUIRED until a follow-up message arrives; its
        content is not checked (RULES INV11: interface 1.0 has no follow-up schema)."""
        assert self.config.ask is not None
        state, question = QUESTIONS[self.config.ask]
        if self.config.has(Fault.MARKUP):
            question += f" {MARKUP_SAMPLE}"
        task.waiter = asyncio.get_running_loop().create_future()
        task.set_status(state, task.agent_message([{"text": question}]))
        await task.waiter

    async def _invoke(self, task: TaskRecord, request: dict[str, Any]) -> None:
        skill_id = request["skill"]
        frozen = self.documents.get(skill_id)
        if frozen is None:
            self._end(
                task,
                TaskState.REJECTED,
                ErrorCode.INTERFACE_MISMATCH,
                f"no active interface for skill {skill_id[:100]!r}",
            )
            return
        # RULES INV2: version and digest are compared before the arguments are looked at.
        stale = request.get("interface_digest") != frozen.interface_digest
        if (
            self.config.has(Fault.MISMATCH)
            or request.get("skill_version") != frozen.skill_version
            or (stale and not self.config.has(Fault.ACCEPTS_STALE))
        ):
            self._end(
                task,
                TaskState.REJECTED,
                ErrorCode.INTERFACE_MISMATCH,
                f"active interface is {skill_id} {frozen.skill_version} {frozen.interface_digest}",
            )
            return
        if "arguments" not in request:  # RULES INV1: the request object carries arguments
            self._end(
                task,
                TaskState.REJECTED,
                ErrorCode.INPUT_INVALID,
                "the request has no arguments member",
            )
            return
        arguments = request["arguments"]
        # RULES INV3, ERR5: invalid arguments are rejected with located details.
        details = schema_details(frozen.input_schema(), arguments)
        if self.config.has(Fault.REJECTS_BOUNDARY):
            details = details or boundary_details(arguments)
        if details:
            self._reject_arguments(task, details)
            return
        # The document's constraints are enforced, not just declared (ERR3: checked before
        # acceptance, so REJECTED).
        limit = frozen.spec.constraints.get("max_input_bytes")
        size = len(json.dumps(arguments, separators=(",", ":"), ensure_ascii=False).encode())
        if isinstance(limit, int) and size > limit and not self.config.has(Fault.IGNORES_MAX_INPUT):
            self._end(
                task,
                TaskState.REJECTED,
                ErrorCode.CONSTRAINT_REJECTED,
                f"arguments are {size} bytes; constraints.max_input_bytes is {limit}",
            )
            return
        if self.config.ask is not None:
            await self._ask(task)
        task.set_status(TaskState.WORKING)
        assert isinstance(arguments, dict)  # the input schemas only accept objects
        async for emission in run_domain_skill(skill_id, arguments, self.config):
            if emission.kind == "progress":
                task.set_status(
                    TaskState.WORKING, task.agent_message([{"text": str(emission.data)}])
                )
                continue
            schema = (
                frozen.output_schema()
                if emission.kind == "result"
                else frozen.spec.records[emission.name].schema
            )
            # RULES INV8: output and records are validated before COMPLETED.
            problems = schema_details(schema, emission.data)
            if problems and not any(
                self.config.has(fault)
                for fault in (
                    Fault.OUTPUT_INVALID,
                    Fault.OUTPUT_INVALID_SOME,
                    Fault.RECORD_INVALID,
                    Fault.LARGE_RESULT,
                )
            ):
                self._end(
                    task,
                    TaskState.FAILED,
                    ErrorCode.OUTPUT_INVALID,
                    f"the {emission.name} {emission.kind} failed validation",
                    problems,
                )
                return
            task.add_artifact(
                {
                    "artifactId": emission.artifact_id,
                    "name": emission.name,
                    "parts": [data_part(emission.data)],
                }
            )
        if self.config.has(Fault.HUGE):
            task.add_artifact(
                {"artifactId": "bulk-trace", "name": "bulk-trace", "parts": [{"text": huge_text()}]}
            )
        text = f"done {MARKUP_SAMPLE}" if self.config.has(Fault.MARKUP) else "done"
        task.set_status(TaskState.COMPLETED, task.agent_message([{"text": text}]))
