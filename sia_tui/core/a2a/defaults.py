"""The client's default timeouts and size limits, written once.

``ClientOptions`` takes its field defaults from here, and the CLI shows them in ``--help``
(as httpx keeps ``DEFAULT_TIMEOUT_CONFIG`` for its client and CLI). Plain numbers with no
imports, so that building the CLI parser stays light.
"""

from __future__ import annotations

#: Seconds to establish a connection (TCP + TLS).
CONNECT_TIMEOUT = 5.0
#: Seconds to wait for the next bytes of a response.
READ_TIMEOUT = 15.0
#: Seconds a whole non-streaming exchange may take, headers and body together.
TOTAL_TIMEOUT = 60.0
#: Seconds one run of the procedure may spend in its steps (``--deadline``): whatever
#: ``max_duration_seconds`` an agent declares, a run ends within it.
DEADLINE = 120.0
#: Seconds a stream may stay silent (SDK servers ping every 15 s).
STREAM_IDLE_TIMEOUT = 60.0
#: Response ceiling: large enough for any sane card or document, small enough to stay safe.
MAX_RESPONSE_BYTES = 8 * 1024 * 1024
#: Ceiling for one SSE event's data.
MAX_EVENT_BYTES = 2 * 1024 * 1024
