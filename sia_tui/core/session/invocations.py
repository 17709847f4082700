"""A session is a sequence of invocations: how ``sia-session/4 and /5`` writes and reads each one.

The file's ``run`` is the run as it is now, its last invocation included (as in
``sia-session/3``). The ``invocations`` member lists every invocation in order with its own
verdict; each one before the last also carries its ``run``: the members an invocation
changes (its arguments, steps 7-11, task...), the rest (steps 1-6, card, document) being
the top-level run's. Each rebuilt invocation is a whole ``Run`` that replay, rerun, the
bug report and the TUI read like any other.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from sia_tui.core.engine.steps.trust import target_to_save
from sia_tui.core.exchange import Exchange
from sia_tui.core.needs import Need, word
from sia_tui.core.redaction.redact import Redactor
from sia_tui.core.run.read_model import Invocation, Run, Step
from sia_tui.core.session.dataclass_json import SessionError, to_json
from sia_tui.core.session.payloads import compact_payloads

#: The members of ``run`` that each invocation has its own value of (``steps`` aside: an
#: invocation writes its steps 7-11 only).
INVOCATION_MEMBERS = (
    "target",
    "arguments",
    "send_anyway",
    "use_example",
    "cancel_requested",
    "mode",
    "task",
    "result",
    "records",
    "warnings",
    "turns",
    "plain",
    "push",
)
#: Index of step 7 in ``run.steps``: the steps an invocation has of its own start there.
OWN_STEPS = Step.ARGUMENTS - 1


def verdict_members(run: Run, redactor: Redactor, where: str = "") -> dict[str, Any]:
    """``outcome``, ``summary``, ``failed_step``, ``at_fault``: a run's verdict as written
    (``where`` prefixes the redaction places: "invocation 2 ")."""
    failed, blame = run.failed_step, run.verdict.at_fault
    return {
        "outcome": run.verdict.outcome.value,
        "summary": redactor.text(run.verdict.headline, f"{where}summary"),
        "failed_step": failed.step if failed else None,
        "at_fault": None
        if blame is None
        else {
            "party": blame.party.value,
            "statement": redactor.text(blame.statement, f"{where}at_fault"),
        },
    }


def invocations_member(run: Run, redactor: Redactor) -> list[dict[str, Any]]:
    """The ``invocations`` member: every invocation's verdict, and the own members of each
    one before the last (the last one's are the top-level ``run``)."""
    out = []
    for invocation in run.invocations:
        where = f"invocation {invocation.number} "
        entry = {"number": invocation.number, **verdict_members(invocation.run, redactor, where)}
        if invocation.run is not run:
            entry["run"] = redactor.value(_own_members(invocation.run), f"{where}run")
        out.append(entry)
    return out


def _own_members(past: Run) -> dict[str, Any]:
    bare = dataclasses.replace(
        past,
        target=target_to_save(past),
        exchanges=[],
        task=None,
        result=None,
        records=[],
        card=None,
        document=None,
    )
    full = {**to_json(bare), **compact_payloads(past)}
    members = {name: full[name] for name in INVOCATION_MEMBERS}
    members["steps"] = full["steps"][OWN_STEPS:]
    return members


def past_run_members(data: dict[str, Any], run_json: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``run`` JSON of each invocation before the last, whole (in the form the top-level
    ``run`` has before its payloads are expanded), read from a ``sia-session/4`` or ``/5`` file."""
    listed = data.get("invocations")
    if listed is None:
        return []
    if not isinstance(listed, list) or not listed:
        raise SessionError("at /invocations: expected a non-empty array")
    steps = run_json.get("steps")
    if not isinstance(steps, list):
        raise SessionError("at /run/steps: expected an array")
    runs = []
    for index, entry in enumerate(listed[:-1]):
        where = f"/invocations/{index}/run"
        own = entry.get("run") if isinstance(entry, dict) else None
        if not isinstance(own, dict):
            raise SessionError(f"at {where}: expected an object")
        own_steps = own.get("steps")
        if not isinstance(own_steps, list) or len(own_steps) != len(steps) - OWN_STEPS:
            raise SessionError(f"at {where}/steps: expected the steps from step 7 on")
        # A member it lacks takes its default, never the last invocation's value.
        shared = {k: v for k, v in run_json.items() if k not in INVOCATION_MEMBERS}
        members = {k: own[k] for k in INVOCATION_MEMBERS if k in own}
        runs.append({**shared, **members, "steps": steps[:OWN_STEPS] + own_steps})
    return runs


def share_exchanges(runs: list[Run], exchanges: list[Exchange]) -> None:
    """Give each invocation's run its exchanges: every one but those whose steps 7-11
    belong to another invocation (steps 1-6 made theirs once, for all)."""
    owners = {
        seq: index
        for index, run in enumerate(runs)
        for step in run.steps[OWN_STEPS:]
        for seq in step.exchanges
    }
    for index, run in enumerate(runs):
        run.exchanges = [ex for ex in exchanges if owners.get(ex.seq, index) == index]


def session_exchanges(run: Run) -> list[Exchange]:
    """Every exchange of every invocation of ``run``, once each, in the order sent."""
    by_seq: dict[int, Exchange] = {}
    for each in [*run.past_invocations, run]:
        for ex in each.exchanges:
            by_seq.setdefault(ex.seq, ex)
    return [by_seq[seq] for seq in sorted(by_seq)]


def pick_invocations(run: Run, number: int | None) -> list[Invocation]:
    """Every invocation of ``run`` (``number`` None), or the one numbered ``number``
    (``--invocation N``, 1-based)."""
    invocations = run.invocations
    if number is None:
        return invocations
    if not 1 <= number <= len(invocations):
        many = "one invocation" if len(invocations) == 1 else f"{len(invocations)} invocations"
        raise SessionError(
            f"{word(Need.INVOCATION)} {number}: the session holds {many} (1 to {len(invocations)})"
        )
    return [invocations[number - 1]]
