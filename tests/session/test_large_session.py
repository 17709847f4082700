"""A large result (the reference agent's ``large-result`` fault, cut to the size redaction's
fast paths need) saved, redacted and replayed.

Saving a 5 MB result must not copy it again and again (it took 7.6 s and 390 MB; the
figures are ``benchmarks/large_session.py``'s); these tests hold the behaviour the fast paths
must keep: the same verdict after replay, and a secret hidden deep inside the result
redacted in every form.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import pytest

from sia_tui.agent.config import AgentConfig
from sia_tui.agent.faults import Fault
from sia_tui.agent.serving import start_agent
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.redaction.redact import CHUNK, WRITE_ONCE_FROM
from sia_tui.core.run.read_model import Run
from sia_tui.core.session import load_session, save_session
from sia_tui.core.session.replay import replay_session
from sia_tui.core.session.writer import session_text
from tests.session.large_result import cut_large_result
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS
from tests.support.sessions import record_live

#: Slow: started first (tests/conftest.py), so it never ends a run alone.
pytestmark = pytest.mark.slow

SECRET = "canary-deep-inside-5mb-7c1e"
#: The secret sits in sample DEEP of SAMPLES (tests/session/large_result.py says why that many
#: are enough), many chunks and several WRITE_ONCE_FROM into the result.
DEEP = 24 * CHUNK + 7


@pytest.fixture(scope="module")
def large_run() -> Run:
    """A run over real HTTP that received the large result (step 10 refuses its padding),
    recorded once for the module: its tests only read it (``_planted`` puts back what it
    changes)."""
    with pytest.MonkeyPatch.context() as patch:
        assert len(cut_large_result(patch)) > DEEP
        agent = start_agent(AgentConfig(fault=Fault.LARGE_RESULT, step_delay=0.05))
        try:
            run = asyncio.run(
                record_live(agent.url, ClientOptions(), arguments=APPENDIX_B_ARGUMENTS)
            )
        finally:
            agent.stop()
    assert run.failed_step is not None and run.failed_step.step == 10
    return run


async def test_a_saved_large_result_replays_with_the_same_verdict(
    large_run: Run, tmp_path: Path
) -> None:
    path = tmp_path / "large.session.json"
    save_session(large_run, ClientOptions(), path)
    session = load_session(path)
    assert session.manifest_ok, session.warnings
    assert session.run.result is not None
    samples = session.run.result.parts[0].value["x_samples"]
    assert samples == large_run.result.parts[0].value["x_samples"]  # type: ignore[union-attr]
    [result] = (await replay_session(session)).results
    assert result.same
    failed = result.run.failed_step
    assert failed is not None and (failed.step, failed.code) == (10, "output_invalid")


@contextmanager
def _planted(run: Run, note: str) -> Iterator[Run]:
    """``run`` with sample DEEP's note replaced, in the parsed result and in the bytes; the
    parsed note is put back afterwards (the module's tests share ``run``)."""
    assert run.result is not None
    sample = run.result.parts[0].value["x_samples"][DEEP]
    original = sample["note"]
    old = json.dumps(original).encode()
    exchanges = []
    for ex in run.exchanges:
        at = re.search(rb'"sample": ?%d,' % DEEP, ex.response_body)
        if at is not None:
            start = ex.response_body.index(old, at.end())
            body = (
                ex.response_body[:start]
                + json.dumps(note).encode()
                + ex.response_body[start + len(old) :]
            )
            ex = dataclasses.replace(ex, response_body=body)
        exchanges.append(ex)
    assert exchanges != run.exchanges
    sample["note"] = note  # the parsed result is shared by the task, the artifact, the part
    try:
        yield dataclasses.replace(run, exchanges=exchanges)
    finally:
        sample["note"] = original


@pytest.mark.parametrize(
    "form",
    [
        SECRET,
        "".join(f"\\u{ord(c):04x}" for c in SECRET),  # JSON-escaped inside the string
        quote(SECRET, safe="").replace("-", "%2D"),  # percent-encoded
        "&#99;" + SECRET[1:],  # one HTML entity
    ],
    ids=["literal", "json-escaped", "percent", "html-entity"],
)
def test_a_secret_deep_inside_a_large_result_is_redacted(
    large_run: Run, tmp_path: Path, form: str
) -> None:
    path = tmp_path / "large.session.json"
    with _planted(large_run, f"an echo of {form} in the padding") as run:
        saved = save_session(run, ClientOptions(), path, secret_values=[SECRET])
    text = path.read_text(encoding="utf-8")
    # Booleans first: a failing `in` over megabytes would have pytest diff the whole text.
    found = [f for f in (SECRET, form, json.dumps(form)[1:-1]) if f in text]
    assert found == []
    assert (SECRET in json.dumps(json.loads(text))) is False
    # The response body and the one parsed copy (sia-session/3 stores a payload once).
    assert text.count("an echo of «redacted:secret» in the padding") == 2
    assert any(f"/x_samples/{DEEP}/note" in hit.where for hit in saved.redactions)
    assert any("response body" in hit.where for hit in saved.redactions)


def test_the_session_text_is_the_document_with_its_outline_indented() -> None:
    document = {
        "format": "sia-session/2",
        "run": {"steps": [{"step": 1, "findings": [{"message": 'a "quoted"\nline'}]}]},
        "exchanges": [],
        "empty": {},
    }
    text = session_text(document)
    assert json.loads(text) == document
    assert text.splitlines()[:4] == [
        "{",
        ' "format": "sia-session/2",',
        ' "run": {',
        '  "steps": [',
    ]
    assert '   {"step": 1, "findings": [{"message": "a \\"quoted\\"\\nline"}]}' in text


def test_a_run_holding_a_large_result_has_a_short_repr(large_run: Run) -> None:
    """asyncio repr()s the run a finished task returned (restoring SIGINT at the end of
    ``asyncio.run``): a full repr of 5 MB took half a second and ~45 MB there."""
    assert len(repr(large_run)) < 1000
    size = len(large_run.exchanges[-1].response_body)
    assert size > 8 * WRITE_ONCE_FROM and f"response_body=<{size}" in repr(large_run.exchanges[-1])
