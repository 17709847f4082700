"""grpc, imported quiet: the one place sia-tui imports it (the client and the agent).

grpc's C core writes its own log lines straight to file descriptor 2 (a GOAWAY from a
server that restarts, say): inside the TUI they would tear the screen, and in ``check``
they would mix with the report. What goes wrong reaches the user as a call's status or a
TransportError instead. A ``GRPC_VERBOSITY`` the user sets (to debug) still wins.
"""

from __future__ import annotations

import os

os.environ.setdefault("GRPC_VERBOSITY", "NONE")

import grpc  # noqa: E402  (after the setting: the C core reads it once, at import)
import grpc.aio  # noqa: E402

__all__ = ["grpc"]
