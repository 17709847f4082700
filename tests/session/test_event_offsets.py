"""A session keeps when each stream event arrived (``event_offsets_ms``, optional in
``sia-session/6``): recorded by the one recording layer, saved, read back, and refused
where an edited file makes them wrong."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.errors import SiaError
from sia_tui.core.session import load_session
from tests.support.agents import StartAgent
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS
from tests.support.mocks import saved
from tests.support.sessions import record_live


@pytest.fixture
async def stream_session(reference_agent: StartAgent, tmp_path: Path) -> Path:
    agent = reference_agent()
    run = await record_live(
        agent.url, ClientOptions(), arguments=APPENDIX_B_ARGUMENTS, mode="stream"
    )
    return saved(run, ClientOptions(), tmp_path)


def test_each_event_keeps_its_arrival_through_save_and_load(stream_session: Path) -> None:
    [stream] = [ex for ex in load_session(stream_session).run.exchanges if ex.events]
    offsets = stream.event_offsets_ms
    assert len(offsets) == len(stream.events) > 1
    assert list(offsets) == sorted(offsets)  # in arrival order
    assert offsets[0] >= 0 and offsets[-1] <= stream.elapsed_ms
    # An answer that is not a stream has none, and writes no member.
    data = json.loads(stream_session.read_text(encoding="utf-8"))
    assert [("event_offsets_ms" in ex) for ex in data["exchanges"]] == [
        bool(ex["events"]) for ex in data["exchanges"]
    ]


@pytest.mark.parametrize("edit", ["one too few", "negative", "text"])
def test_edited_event_times_are_refused_where_they_are(stream_session: Path, edit: str) -> None:
    data = json.loads(stream_session.read_text(encoding="utf-8"))
    index = next(i for i, ex in enumerate(data["exchanges"]) if ex["events"])
    offsets = data["exchanges"][index]["event_offsets_ms"]
    if edit == "one too few":
        offsets.pop()
    else:
        offsets[0] = -1 if edit == "negative" else "soon"
    stream_session.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SiaError, match=f"at /exchanges/{index}/event_offsets_ms"):
        load_session(stream_session)
