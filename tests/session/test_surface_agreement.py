"""Every surface gives each invocation the same verdict.

For every reference-agent fault, and for a session of a negative test then a valid run:
``check --json``, and ``report``, ``replay`` and ``rerun`` of the recorded session agree on
each invocation's outcome, failed step, code, origin and who is at fault with the TUI's
Steps and Results screens (Pilot; the session is the one the TUI autosaved) or, for a fault
whose journey another fault already walks (``JOURNEYS``), with the run the engine the TUI
drives records; where the fault table says where ``check`` stops, that is where they all
stop. One agent per case, on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from sia_tui.agent.faults import FAULT_SPECS, Fault, Stop
from sia_tui.cli.parser import run as run_cli
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.engine.report_json import run_to_json
from sia_tui.core.run.read_model import Step, StepStatus, Target
from sia_tui.core.run.verdicts import RunOutcome
from sia_tui.core.session import history, save_session
from sia_tui.tui.app import SiaApp
from sia_tui.tui.screens.results import ResultsScreen
from sia_tui.tui.storage import UserDirs
from sia_tui.tui.widgets.step_list import StepList
from tests.support.agents import StartAgent
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS, APPENDIX_B_INVALID_ARGUMENTS
from tests.support.sessions import record_live
from tests.support.tui import SMALL, enter_arguments, press, settle, snapshot_app, static_text

#: A journey records a session in the TUI; four commands read each recorded session.
#: Slow: started first (tests/conftest.py), so it never ends a run alone.
pytestmark = pytest.mark.slow

SKILL = "evaluate_resource_condition"
#: The slow fault answers after 5 s here: a shorter read timeout everywhere, with room for
#: a loaded machine to fetch the card (which is prompt) within it.
SLOW_SECONDS = 1.5


@dataclass(frozen=True)
class Verdict:
    """What a surface says of one invocation."""

    outcome: str
    step: int | None = None
    code: str | None = None
    #: Where the code was found; None without a code (a transport failure has none).
    origin: str | None = None
    party: str | None = None


@dataclass(frozen=True)
class Invocation:
    """What the TUI sends: the arguments, and whether as a deliberate negative test."""

    arguments: dict[str, Any]
    send_anyway: bool = False


VALID = Invocation(APPENDIX_B_ARGUMENTS)
NEGATIVE = Invocation(APPENDIX_B_INVALID_ARGUMENTS, send_anyway=True)


def _journeys() -> frozenset[Fault]:
    """The faults a person's TUI journey is walked for: the first fault stopping at each
    place the fault table names (step, code, origin; or passing), as the screens read
    every stop the same way; and those whose screens differ: a 5 MB result and an answer
    past the size limit, a timeout (``--timeout`` on each command), the v0.3 dialect, and
    agent text holding markup. A second fault stopping at the same place walks the same
    journey with other bytes, and its verdict is checked on every command against the run
    the TUI's engine records (a TUI journey costs about ten times the commands)."""
    first: dict[Stop | None, Fault] = {}
    for fault, spec in FAULT_SPECS.items():
        first.setdefault(spec.expected.check, fault)
    # The large result keeps its 5 MB: past the 4 MiB rerun.MAX_DIFFED_BODY (`rerun` compares
    # bodies past it by equality only). The huge one is past the 8 MiB response limit.
    sizes_and_text = {Fault.LARGE_RESULT, Fault.HUGE, Fault.SLOW, Fault.V03, Fault.MARKUP}
    return frozenset({*first.values(), *sizes_and_text})


JOURNEYS = _journeys()
CASES = [pytest.param(fault, [VALID], id=fault.value) for fault in FAULT_SPECS if fault in JOURNEYS]
CASES.append(pytest.param(None, [NEGATIVE, VALID], id="negative-then-valid"))
ENGINE_CASES = [
    pytest.param(fault, id=fault.value) for fault in FAULT_SPECS if fault not in JOURNEYS
]


@pytest.mark.parametrize(("fault", "invocations"), CASES)
async def test_every_surface_gives_each_invocation_the_same_verdict(
    fault: Fault | None,
    invocations: list[Invocation],
    reference_agent: StartAgent,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    slow = fault is Fault.SLOW
    agent = reference_agent(fault=fault, **({"slow_seconds": 5.0} if slow else {}))
    options = ClientOptions(read_timeout=SLOW_SECONDS) if slow else ClientOptions()
    tui, session = await _tui(agent.url, options, invocations, tmp_path)
    sent = invocations[: len(tui)]  # a run that failed before step 7 sent nothing
    flags = ["--timeout", str(SLOW_SECONDS)] if slow else []
    surfaces = await _commands(agent.url, sent, session, flags, tmp_path, capsys)
    _agree(fault, "the TUI", tui, surfaces)
    if fault is None:
        assert [v.outcome for v in tui] == ["negative_test_passed", "passed"]


@pytest.mark.parametrize("fault", ENGINE_CASES)
async def test_every_command_gives_the_verdict_the_engine_recorded(
    fault: Fault,
    reference_agent: StartAgent,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A fault whose TUI journey another fault walks: the run the TUI's engine records,
    saved as the TUI saves it, read by every command."""
    assert fault not in JOURNEYS
    agent = reference_agent(fault=fault)
    run = await record_live(agent.url, ClientOptions(), arguments=VALID.arguments)
    session = tmp_path / "recorded.session.json"
    save_session(run, ClientOptions(), session)
    recorded = [_from_json(json.loads(json.dumps(run_to_json(run))))]  # as --json prints it
    surfaces = await _commands(agent.url, [VALID], session, [], tmp_path, capsys)
    _agree(fault, "the engine", recorded, surfaces)


def test_every_place_check_stops_has_a_tui_journey() -> None:
    """Each stop of the fault table (and passing) is walked in the TUI at least once."""
    stops = {spec.expected.check for spec in FAULT_SPECS.values()}
    assert {FAULT_SPECS[fault].expected.check for fault in JOURNEYS} == stops
    assert {p.values[0] for p in CASES} | {p.values[0] for p in ENGINE_CASES} == {
        *FAULT_SPECS,
        None,
    }


async def _commands(
    url: str,
    sent: list[Invocation],
    session: Path,
    flags: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> dict[str, list[Verdict]]:
    """What ``check`` (each invocation live), and ``report``, ``replay`` and ``rerun`` of
    ``session`` say of each invocation."""
    checked = [await _check(url, each, flags, tmp_path, capsys) for each in sent]
    reported = [await _report(session, n, len(sent), capsys) for n in range(1, len(sent) + 1)]
    replayed = await _each(["replay", str(session), "--json"], capsys)
    rerun = await _each(["rerun", str(session), "--json", *flags], capsys)
    return {"check": checked, "report": reported, "replay": replayed, "rerun": rerun}


def _agree(
    fault: Fault | None, reader: str, read: list[Verdict], surfaces: dict[str, list[Verdict]]
) -> None:
    for name, verdicts in surfaces.items():
        assert verdicts == read, f"{name} says {verdicts}, {reader} {read}"
    stop = FAULT_SPECS[fault].expected.check if fault is not None else None
    if stop is not None:  # where the fault table says check stops, every surface stops
        code = str(stop.code) if stop.code else None
        where = (stop.step, code, str(stop.origin) if code else None)
        assert (read[-1].step, read[-1].code, read[-1].origin) == where


# -- the TUI -------------------------------------------------------------------------------
async def _tui(
    url: str, options: ClientOptions, invocations: list[Invocation], tmp_path: Path
) -> tuple[list[Verdict], Path]:
    """Steps 1-6 (2 r), then each invocation from the editor (ctrl+t for a negative test,
    ctrl+j); the verdict each time as the Steps and Results screens show it, and the
    session the app autosaved."""
    dirs = UserDirs(tmp_path / "config", tmp_path / "data")
    app = snapshot_app(Target(url, skill_id=SKILL), options, dirs=dirs)
    verdicts: list[Verdict] = []
    # The smallest terminal a person may use (a laptop split at a plugfest): every screen
    # fits it, and each frame has fewer cells to draw (about a sixth less CPU a case).
    async with app.run_test(size=SMALL) as pilot:
        await press(pilot, "2", "r")
        for invocation in invocations:
            run = app.current_run
            if run is None or run.step(Step.SCHEMAS).status is not StepStatus.PASSED:
                break  # steps 1-6 failed: nothing to invoke
            await enter_arguments(pilot, json.dumps(invocation.arguments))
            await press(pilot, *(["ctrl+t"] if invocation.send_anyway else []), "ctrl+j")
            assert isinstance(app.screen, ResultsScreen)
            verdicts.append(await _shown(pilot, app))
        if not verdicts:
            verdicts.append(await _shown(pilot, app))
        await settle(pilot)  # the autosave, a thread worker, is done
    [entry] = history.list_history()
    return verdicts, history.entry_path(entry)


async def _shown(pilot: Pilot[Any], app: SiaApp) -> Verdict:
    """The verdict on the Results screen (6) and the Steps screen (2), as a user reads it."""
    await press(pilot, "6")
    results = static_text(app, "#status") + "\n" + static_text(app, "#result-body")
    await press(pilot, "2")
    steps = app.screen.query_one(StepList)
    marks = [str(steps.get_option_at_index(i).prompt).split()[0] for i in range(11)]
    if "✘" in marks:
        step = marks.index("✘") + 1
        assert f"step {step}" in results, results  # Results names the failing step
        evidence = static_text(app, "#evidence-body")  # Steps shows the failed step
        assert evidence.startswith(f"✘ Step {step}:"), evidence
        found = re.search(r"^code (\S+)  origin (\S+)", evidence, re.MULTILINE)
        party = re.search(r"^At fault: ([\w-]+):", evidence, re.MULTILINE)
        assert party is not None, evidence
        code, origin = found.groups() if found else (None, None)
        return Verdict("failed", step, code, origin, party.group(1))
    if "NEGATIVE TEST PASSED" in results:
        return Verdict(RunOutcome.NEGATIVE_TEST_PASSED.value)
    return Verdict("passed" if marks == ["✔"] * 11 else "incomplete")


# -- the commands ----------------------------------------------------------------------------
async def _cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """A command's output; in a thread, as it runs its own event loop."""
    capsys.readouterr()
    code = await asyncio.to_thread(run_cli, argv)
    out = capsys.readouterr().out
    assert code in (0, 1, 3), (argv, code, out)
    return out


def _from_json(report: dict[str, Any]) -> Verdict:
    error, blame = report["error"] or {}, report["at_fault"] or {}
    code = error.get("code")
    return Verdict(
        report["outcome"],
        error.get("step"),
        code,
        error.get("origin") if code else None,
        blame.get("party"),
    )


async def _check(
    url: str,
    invocation: Invocation,
    flags: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> Verdict:
    """``check --json`` with the invocation's arguments."""
    if invocation.send_anyway and not _check_sends_anyway():
        # `check --send-anyway` is not there yet: the run and the report it would print.
        return _from_json(run_to_json(await _negative_run(url)))
    arguments = tmp_path / "arguments.json"
    arguments.write_text(json.dumps(invocation.arguments), encoding="utf-8")
    argv = ["check", url, "--skill", SKILL, "--args", str(arguments), "--json", *flags]
    if invocation.send_anyway:
        argv.append("--send-anyway")
    return _from_json(json.loads(await _cli(argv, capsys)))


def _check_sends_anyway() -> bool:
    import argparse

    from sia_tui.cli import cmd_check

    parser = argparse.ArgumentParser()
    cmd_check.register(parser.add_subparsers())
    _, unknown = parser.parse_known_args(["check", "card.json", "--send-anyway"])
    return not unknown


async def _negative_run(url: str) -> Any:
    procedure = Procedure(Target(url, skill_id=SKILL), ClientOptions())
    procedure.set_arguments(APPENDIX_B_INVALID_ARGUMENTS, send_anyway=True)
    try:
        return await procedure.run_all()
    finally:
        await procedure.aclose()


async def _each(argv: list[str], capsys: pytest.CaptureFixture[str]) -> list[Verdict]:
    """Each invocation's verdict in a ``replay --json`` or ``rerun --json`` report, all of
    them the same as recorded."""
    report = json.loads(await _cli(argv, capsys))
    assert report["same"], report
    return [_from_json(each) for each in report["invocations"]]


#: A Markdown escape (``md_text``): the backslash before a special character.
_ESCAPED = re.compile(r"\\([\\`*_\[\]<>|#~!])")
#: The outcome labels, longest first ("NEGATIVE TEST PASSED" before "PASSED").
_LABELS = sorted(RunOutcome, key=lambda o: -len(o.label))


async def _report(
    path: Path, number: int, total: int, capsys: pytest.CaptureFixture[str]
) -> Verdict:
    """The verdict the Markdown bug report gives invocation ``number``, as a vendor reads it."""
    argv = ["report", str(path)] + (["--invocation", str(number)] if total > 1 else [])
    text = _ESCAPED.sub(r"\1", await _cli(argv, capsys))
    summary = text.splitlines()[2].strip("*").split(": ", 1)[1]
    headline = re.sub(r"^invocation \d+ of \d+: ", "", summary)
    outcome = next(o for o in _LABELS if headline.startswith(o.label)).value
    found = re.search(r"^- found at: step (\d+)", text, re.MULTILINE)
    if found is None:
        return Verdict(outcome)
    code = re.search(r"^- code: (\S+) \((\w+)\)", text, re.MULTILINE)
    party = re.search(r"^- at fault: ([\w-]+):", text, re.MULTILINE)
    assert party is not None, text
    return Verdict(
        outcome,
        int(found.group(1)),
        code.group(1) if code else None,
        code.group(2) if code else None,
        party.group(1),
    )
