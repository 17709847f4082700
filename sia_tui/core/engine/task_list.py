"""ListTasks (A2A 1.0): the target's tasks, a page at a time, and one opened read-only.

Like the console, listing adds nothing to the run: its exchanges are the listing's own. A
task opened from the list is a read-only ``Run`` that holds the card and that task and ran
no step, so every surface shows it with the Results rendering and no verdict (the eleven
steps did not run: the outcome is ``incomplete``, never ``passed``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import httpx

from sia_tui.core.a2a.client import A2AClient
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.a2a.task_views import Task
from sia_tui.core.a2a.views import Interface
from sia_tui.core.errors import SiaError
from sia_tui.core.exchange import Exchange
from sia_tui.core.run.read_model import Run

#: Tasks asked for per page (the reference agent allows up to 100).
PAGE_SIZE = 50


@dataclass
class TaskListing:
    """One page of the agent's tasks, or why there is none."""

    interface: Interface | None
    tasks: list[Task] = field(default_factory=list)
    #: The token of the next page; "" on the last one.
    next_page_token: str = ""
    #: How many tasks the agent says there are, when it says.
    total_size: int | None = None
    #: Tasks on the page that could not be read (counted, with the first problem).
    unreadable: int = 0
    problem: str | None = None
    exchanges: list[Exchange] = field(default_factory=list)
    #: Why nothing was listed (0.3 has no ListTasks, an A2A error, the network).
    error: str | None = None


async def list_tasks(
    interface: Interface | None,
    card_location: str,
    options: ClientOptions,
    *,
    transport: httpx.AsyncBaseTransport | None = None,
    page_token: str | None = None,
    page_size: int = PAGE_SIZE,
) -> TaskListing:
    """One page of ListTasks on ``interface``; never raises for what the agent does."""
    listing = TaskListing(interface)
    if interface is None:
        listing.error = "no callable interface: step 1 (retrieve the card) has not passed"
        return listing
    client = A2AClient(options, transport=transport, on_exchange=listing.exchanges.append)
    client.trust_card_origin(card_location)  # RULES SR7: credentials to the card's origin
    try:
        page = await client.list_tasks(interface, page_size=page_size, page_token=page_token)
    except SiaError as exc:
        listing.error = f"{type(exc).__name__}: {exc}"
        return listing
    finally:
        await client.aclose()
    listing.tasks = list(page.tasks)
    listing.next_page_token = page.next_page_token
    listing.total_size, listing.unreadable, listing.problem = (
        page.total_size,
        page.unreadable,
        page.problem,
    )
    return listing


def task_run(run: Run, task: Task) -> Run:
    """``task`` as a read-only run of the same agent: the card and the task, no step run."""
    return Run(
        target=dataclasses.replace(run.target, push=None),
        card=run.card,
        card_url=run.card_url,
        interface=run.interface,
        task=task,
        warnings=[f"task {task.id} listed by ListTasks, opened read-only: no step ran"],
    )
