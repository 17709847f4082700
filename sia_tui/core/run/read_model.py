"""``Run``: the read model of a run of the procedure, and the answers it gives every surface.

The TUI screens, ``check`` (text and ``--json``), the reports, replay/rerun and compose read
its answers and compute no verdict of their own: ``run.verdict`` (``verdicts.py``: the
outcome, why, who is at fault, whether it is finished) and ``run.answers`` (``answers.py``:
the interface, the trust anchors, the task, the artifacts). What a run records is
``RunState`` (``state.py``); each step's typed evidence is in ``evidence.py``. ``Step``,
``StepResult``, ``Target``... are importable from here too.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from sia_tui.core.run.answers import RunAnswers
from sia_tui.core.run.evidence import StepStatus as StepStatus
from sia_tui.core.run.state import STEP_TITLES as STEP_TITLES
from sia_tui.core.run.state import Digests as Digests
from sia_tui.core.run.state import RecordResult as RecordResult
from sia_tui.core.run.state import RunState
from sia_tui.core.run.state import Step as Step
from sia_tui.core.run.state import StepResult as StepResult
from sia_tui.core.run.state import Target as Target
from sia_tui.core.run.verdicts import RunVerdict

if TYPE_CHECKING:
    from sia_tui.core.a2a.task_views import StreamEvent


@dataclass(repr=False)  # RunState's short repr: a run may hold megabytes
class Run(RunState):
    """Everything one run of the procedure learned, and every answer it gives.

    Its own members are few: what it recorded (``RunState``'s fields, ``next_step``,
    ``failed_step``, ``step(Step.X)``, ``evidence(Kind)``), the invocations before this one
    (``past_invocations``, ``invocations``) and its live stream (``live_events``). Every
    answer is behind one of two read-only views, computed on each access:

    - ``run.verdict`` (``verdicts.RunVerdict``): how the run went and where it stands:
      ``outcome``, ``summary``, ``headline``, ``at_fault``, ``finished``, ``waiting_for_*``...
    - ``run.answers`` (``answers.RunAnswers``): what it learned about the interface, the
      trust anchors, the task and its artifacts: ``input_schema``, ``consent_need``,
      ``lock``, ``result_value``, ``wire``...
    """

    #: The invocations made before the current one, oldest first: each the run as that
    #: invocation left it (steps 1-6 shared, its own steps 7-11, arguments, task and
    #: exchanges), never changed again. The current invocation is the run itself.
    past_invocations: list[Run] = field(default_factory=list)

    # A new view on each access (it holds nothing but the run): a copy of the run never
    # answers from the run it was copied from.
    @property
    def verdict(self) -> RunVerdict:
        """How the run went and where it stands: ``run.verdict.outcome``, ``.headline``..."""
        return RunVerdict(self)

    @property
    def answers(self) -> RunAnswers:
        """What the run learned: ``run.answers.input_schema``, ``.lock``, ``.wire``..."""
        return RunAnswers(self)

    @property
    def invocations(self) -> list[Invocation]:
        """Every invocation of this run in order, each with its own verdict; the last is
        the run itself (a run that invoked nothing is one "invocation" of steps 1-6)."""
        runs = [*self.past_invocations, self]
        return [Invocation(number, len(runs), run) for number, run in enumerate(runs, 1)]

    @property
    def live_events(self) -> list[StreamEvent]:
        """This invocation's stream events while it is in flight, for a live view; [] once
        the run is finished, when every surface reads what the steps recorded (a reopened
        session, which keeps no events, shows the same)."""
        return [] if self.verdict.finished else self.stream_events


@dataclass(frozen=True)
class Invocation:
    """One invocation of a session: its place in the sequence and the run as it ended.

    ``run`` answers everything about it (``run.verdict.outcome``, ``run.verdict.at_fault``,
    ``run.arguments``, ``run.exchanges``): every surface reads an invocation's verdict there.
    """

    number: int
    """1-based, in the order the invocations were sent."""
    total: int
    """How many invocations the session holds."""
    run: Run

    @property
    def label(self) -> str:
        """ "invocation 2 of 3"."""
        return f"invocation {self.number} of {self.total}"


def frozen_copy(run: Run) -> Run:
    """A copy of ``run`` that later steps leave as it is: a past invocation, or what a
    saving thread reads while the engine moves on (steps are replaced, never edited, once
    they ended)."""
    return replace(
        run,
        steps=list(run.steps),
        exchanges=list(run.exchanges),
        records=list(run.records),
        warnings=list(run.warnings),
        digests=replace(run.digests),
        past_invocations=list(run.past_invocations),
        stream_steps=list(run.stream_steps),
        stream_events=list(run.stream_events),
        # The receiver may still append while a saving thread reads the copy.
        push=None
        if run.push is None
        else replace(
            run.push, deliveries=list(run.push.deliveries), refused=list(run.push.refused)
        ),
    )
