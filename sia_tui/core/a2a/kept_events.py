"""``KeptEvents``: what a stream's exchange keeps of its events, for every binding.

A stream may send events without end, each a few bytes (the size limits count bytes, not
events). The exchange keeps the first ``MAX_STREAM_EVENTS_KEPT - 1`` and the latest (the
one that ended the stream, which a replay needs to end it the same way) and counts the rest.
Each kept event keeps when it arrived too, so a mock can serve a stream at its own pace.
"""

from __future__ import annotations

import time

from sia_tui.core.limits import MAX_STREAM_EVENTS_KEPT

#: (data, size on the wire, arrival on ``time.perf_counter``'s clock)
_Kept = tuple[bytes, int, float]


class KeptEvents:
    """A stream's events as its exchange records them, with each one's size (gRPC)."""

    def __init__(self, limit: int = MAX_STREAM_EVENTS_KEPT) -> None:
        self._limit = max(limit, 2)
        self._first: list[_Kept] = []
        self._latest: _Kept | None = None
        #: Events that arrived and are not kept (counted, not listed).
        self.not_kept = 0

    def add(self, data: bytes, size: int = 0) -> None:
        """One more event (``size``: its size on the wire, where that differs)."""
        kept = (data, size, time.perf_counter())
        if len(self._first) < self._limit - 1:
            self._first.append(kept)
            return
        if self._latest is not None:
            self.not_kept += 1
        self._latest = kept

    def _kept(self) -> list[_Kept]:
        return self._first if self._latest is None else [*self._first, self._latest]

    def events(self) -> tuple[bytes, ...]:
        """The kept events, in arrival order."""
        return tuple(data for data, _, _ in self._kept())

    def sizes(self) -> tuple[int, ...]:
        """The kept events' sizes, in the same order."""
        return tuple(size for _, size, _ in self._kept())

    def offsets_ms(self, started: float) -> tuple[float, ...]:
        """When each kept event arrived, in milliseconds after ``started`` (a
        ``time.perf_counter()`` reading: when the exchange began)."""
        return tuple(round((at - started) * 1000.0, 3) for _, _, at in self._kept())

    def __len__(self) -> int:
        return len(self._first) + (self._latest is not None)
