"""The run's overall deadline: step time only, across steps, reset for a new invocation."""

from __future__ import annotations

import asyncio

import pytest

from sia_tui.core.engine.deadline import RunDeadline
from sia_tui.core.errors import DeadlineExceeded


@pytest.mark.usefixtures("cli_wording")
async def test_the_budget_is_shared_by_every_step_and_pauses_do_not_count() -> None:
    deadline = RunDeadline(0.3)
    async with deadline.running():
        await asyncio.sleep(0.2)
    await asyncio.sleep(0.3)  # a person reading the screen between two steps
    with pytest.raises(DeadlineExceeded, match=r"deadline of 0.3 s passed \(--deadline\)"):
        async with deadline.running():
            await asyncio.sleep(1)
    assert 0.3 <= deadline.spent < 0.6


async def test_a_spent_budget_refuses_the_next_step_at_once() -> None:
    deadline = RunDeadline(0.05)
    with pytest.raises(DeadlineExceeded):
        async with deadline.running():
            await asyncio.sleep(1)
    with pytest.raises(DeadlineExceeded):
        async with deadline.running():
            raise AssertionError("the step must not start")
    deadline.reset()
    async with deadline.running():
        pass


async def test_a_timeout_of_the_step_itself_is_not_the_deadline() -> None:
    deadline = RunDeadline(10)
    with pytest.raises(TimeoutError):
        async with deadline.running():
            async with asyncio.timeout(0.01):
                await asyncio.sleep(1)
