"""The values some answers return (``run.answers.example_arguments``, ``.odd_one_out``,
``.schema_digests``, ``.result_verdict``; ``run.verdict``'s summary and invocation failure).

They live apart from ``answers.py`` and ``verdicts.py`` so that a run which has not reached
them does not build them: `sia-tui open URL` shows the card after step 1, and creating
these six frozen dataclasses cost about 4 ms of its start-up. Each answer that returns one
imports this module; ``sia_tui.core.run`` exports them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sia_tui.core.findings import Finding, Severity

if TYPE_CHECKING:
    from sia_tui.core.a2a.task_views import Artifact
    from sia_tui.core.interface.threeway import DigestSource
    from sia_tui.core.run.later_evidence import SchemaDigest
    from sia_tui.core.run.state import StepResult


@dataclass(frozen=True)
class OddOneOut:
    """The interface digest that differs from the other two, said in one sentence."""

    source: DigestSource
    statement: str


@dataclass(frozen=True)
class ArtifactVerdict:
    """The result artifact (None when the task returned none) with its own findings."""

    artifact: Artifact | None
    findings: list[Finding]

    @property
    def valid(self) -> bool:
        """True when the artifact exists and no error finding is about it."""
        return self.artifact is not None and not any(
            f.severity is Severity.ERROR for f in self.findings
        )


@dataclass(frozen=True)
class UncheckedArtifacts:
    """Artifacts the task sent that step 10 did not check (RULES CP10), and why: streamed
    while the task runs, or received before it was cancelled or step 9 stopped. They are
    shown and saved as received, never as valid records."""

    artifacts: tuple[Artifact, ...]
    #: "received before the task was cancelled; not checked: step 10 did not run".
    why: str
    #: True while the invocation is still in flight (its stream still open, or a question
    #: waiting for a reply): step 10 may still check them.
    in_flight: bool


@dataclass(frozen=True)
class ExampleArguments:
    """Arguments taken from an example, and where the example was found."""

    value: Any
    source: str
    #: Where and why it fails the input schema ("at /threshold: ..."); None when it validates.
    problem: str | None = None
    #: The examples tried before it that fail the input schema ("<source> fails it at ...").
    passed_over: tuple[str, ...] = ()


@dataclass(frozen=True)
class SchemaDigests:
    """Every embedded schema's digest check; ``from_step`` is False when step 6 did not
    run and the core checked the document on request (e.g. after a step-4 failure)."""

    schemas: list[SchemaDigest]
    from_step: bool


@dataclass(frozen=True)
class Summary:
    """Why the run has its outcome: the sentence, and the step it failed at (if any)."""

    text: str
    #: The failed step: the sentence then names it ("at step 4, ...").
    failed_at: StepResult | None = None


@dataclass(frozen=True)
class InvocationFailure:
    """The failed step of a run whose invocation was sent (steps 8-11)."""

    step: int
    code: str
    """The draft code and where it was found (``code_and_origin``); "" without a code."""
    why: str
