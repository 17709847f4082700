"""``KeptEvents``: what a stream's exchange keeps of its events, for every binding.

A stream may send events without end, each a few bytes (the size limits count bytes, not
events). The exchange keeps the first ``MAX_STREAM_EVENTS_KEPT - 1`` and the latest (the
one that ended the stream, which a replay needs to end it the same way) and counts the rest.
"""

from __future__ import annotations

from sia_tui.core.limits import MAX_STREAM_EVENTS_KEPT


class KeptEvents:
    """A stream's events as its exchange records them, with each one's size (gRPC)."""

    def __init__(self, limit: int = MAX_STREAM_EVENTS_KEPT) -> None:
        self._limit = max(limit, 2)
        self._first: list[tuple[bytes, int]] = []
        self._latest: tuple[bytes, int] | None = None
        #: Events that arrived and are not kept (counted, not listed).
        self.not_kept = 0

    def add(self, data: bytes, size: int = 0) -> None:
        """One more event (``size``: its size on the wire, where that differs)."""
        if len(self._first) < self._limit - 1:
            self._first.append((data, size))
            return
        if self._latest is not None:
            self.not_kept += 1
        self._latest = (data, size)

    def _kept(self) -> list[tuple[bytes, int]]:
        return self._first if self._latest is None else [*self._first, self._latest]

    def events(self) -> tuple[bytes, ...]:
        """The kept events, in arrival order."""
        return tuple(data for data, _ in self._kept())

    def sizes(self) -> tuple[int, ...]:
        """The kept events' sizes, in the same order."""
        return tuple(size for _, size in self._kept())

    def __len__(self) -> int:
        return len(self._first) + (self._latest is not None)
