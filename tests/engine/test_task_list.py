"""ListTasks: the agent's tasks a page at a time over each 1.0 binding, 0.3's absence said
plainly, and a listed task opened read-only (no step ran: never ``passed``)."""

from __future__ import annotations

import pytest

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.engine.task_list import task_run
from sia_tui.core.run.read_model import Run, Target
from sia_tui.core.run.verdicts import RunOutcome
from tests.support.agents import StartAgent
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS

SKILL = "evaluate_resource_condition"


async def _invoked(url: str, binding: str | None = None) -> Procedure:
    """A procedure that invoked the skill once (describe_skill and the skill: two tasks)."""
    procedure = Procedure(Target(url, skill_id=SKILL, binding=binding), ClientOptions())
    procedure.set_arguments(APPENDIX_B_ARGUMENTS)
    await procedure.run_all()
    return procedure


@pytest.mark.parametrize("binding", ["jsonrpc", "http-json", "grpc"])
async def test_the_agents_tasks_are_listed_newest_first(
    reference_agent: StartAgent, binding: str
) -> None:
    agent = reference_agent(grpc_port=0)
    procedure = await _invoked(agent.url, binding)
    try:
        listing = await procedure.list_tasks()
    finally:
        await procedure.aclose()
    run = procedure.run
    assert listing.error is None, listing.error
    assert run.task is not None and listing.tasks[0].id == run.task.id
    assert listing.tasks[0].state == "TASK_STATE_COMPLETED"
    assert len(listing.tasks) == 2 and listing.total_size == 2
    assert listing.next_page_token == ""
    (call,) = listing.exchanges
    assert call.purpose == "list tasks"
    # Listing adds nothing to the run.
    assert all(ex.purpose != "list tasks" for ex in run.exchanges)


async def test_pages_follow_the_next_page_token(reference_agent: StartAgent) -> None:
    agent = reference_agent()
    procedure = await _invoked(agent.url)
    try:
        for _ in range(2):
            procedure.set_arguments(APPENDIX_B_ARGUMENTS)
            await procedure.run_all()
        from sia_tui.core.engine import task_list

        first = await task_list.list_tasks(
            procedure.run.interface, agent.url, ClientOptions(), page_size=2
        )
        second = await task_list.list_tasks(
            procedure.run.interface,
            agent.url,
            ClientOptions(),
            page_size=2,
            page_token=first.next_page_token,
        )
    finally:
        await procedure.aclose()
    assert first.next_page_token and first.total_size == 4
    assert len(first.tasks) == 2 and len(second.tasks) == 2
    assert {t.id for t in first.tasks}.isdisjoint({t.id for t in second.tasks})
    assert second.next_page_token == ""


async def test_a_0_3_agent_has_no_list_tasks(reference_agent: StartAgent) -> None:
    """0.3 has no ListTasks: refused before anything is sent, in words."""
    agent = reference_agent(fault="v03")
    procedure = Procedure(Target(agent.url, skill_id=SKILL), ClientOptions())
    try:
        await procedure.run_until(1)
        listing = await procedure.list_tasks()
    finally:
        await procedure.aclose()
    assert listing.error is not None and "does not exist in A2A 0.3" in listing.error
    assert listing.exchanges == []


async def test_before_the_card_there_is_nothing_to_list() -> None:
    procedure = Procedure(Target("http://127.0.0.1:9"), ClientOptions())
    listing = await procedure.list_tasks()
    await procedure.aclose()
    assert listing.error is not None and "step 1" in listing.error


async def test_a_listed_task_opens_read_only_and_incomplete(reference_agent: StartAgent) -> None:
    """The task shows as the Results screen shows a run's task, but no step ran: the
    outcome is incomplete, never passed, and nothing can be sent from it."""
    agent = reference_agent()
    procedure = await _invoked(agent.url)
    try:
        listing = await procedure.list_tasks()
    finally:
        await procedure.aclose()
    opened: Run = task_run(procedure.run, listing.tasks[0])
    assert opened.task is listing.tasks[0] and opened.card is procedure.run.card
    assert opened.verdict.outcome is RunOutcome.INCOMPLETE
    assert opened.exchanges == [] and opened.push is None
