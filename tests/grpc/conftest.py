"""grpc imported the way sia-tui imports it (quiet) before any test module imports it
itself: its C core would otherwise write log lines into the test output."""

from __future__ import annotations

import sia_tui.core.a2a.grpc.runtime  # noqa: F401
