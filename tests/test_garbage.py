"""The collections before a test process freezes what lives (tests/support/garbage.py):
garbage whose finalizers leave more garbage is all gone first, so nothing frozen is garbage
and an object that warns when collected still warns."""

from __future__ import annotations

from tests.support.garbage import MOST_COLLECTIONS, collect_until_clean


class _Link:
    """A cycle with a finalizer that leaves the next link of a chain as new garbage."""

    def __init__(self, left: int, finalized: list[int]) -> None:
        self.me, self.left, self.finalized = self, left, finalized

    def __del__(self) -> None:
        self.finalized.append(self.left)
        if self.left:
            _Link(self.left - 1, self.finalized)


def test_garbage_left_by_finalizers_is_collected_before_the_freeze() -> None:
    finalized: list[int] = []
    collect_until_clean()  # what earlier tests left
    _Link(2, finalized)
    ran = collect_until_clean()
    assert finalized == [2, 1, 0], "a link of the chain was still garbage when frozen"
    assert ran <= MOST_COLLECTIONS  # as many as pytest's own cleanup makes, at most
