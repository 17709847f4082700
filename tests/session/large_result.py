"""The reference agent's ``large-result`` fault cut to the size the bounds on its path need.

The fault sends about 5 MB (39,000 samples). Past 64 KB nothing on an HTTP run's path to a
saved session changes until the client's 8 MiB response limit: redaction writes a value of
WRITE_ONCE_FROM or more once and asks about a long array CHUNK members at a time. 32 CHUNKs
of samples (~500 KB, 8 x WRITE_ONCE_FROM) take every one of those paths; 5 MB proves no more
there. Keep 5 MB where a bound lies below it: gRPC's 4 MiB default message size, the 4 MiB
bodies ``rerun`` diffs (past it, compared by equality), the TUI's 1 MiB pretty-printing.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from sia_tui.agent import skills
from sia_tui.core.redaction.redact import CHUNK, WRITE_ONCE_FROM

#: Samples kept: 32 CHUNKs, about 500 KB of JSON text.
SAMPLES = 32 * CHUNK


def cut_large_result(patch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Make the in-process reference agents' ``large-result`` fault send SAMPLES samples
    (until ``patch`` is undone); returns them."""
    samples = skills.large_samples()[:SAMPLES]
    assert len(json.dumps(samples)) > 8 * WRITE_ONCE_FROM
    patch.setattr(skills, "large_samples", lambda: samples)
    return samples
