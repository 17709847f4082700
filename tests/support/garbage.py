"""The garbage collector in test processes: what lives as long as the process is frozen out
of its way, after collection and again when the session ends.

pytest collects fully five times when a run ends (its unraisable-exception plugin: a chain
of finalizers can leave garbage for the next collection), and the interpreter again as it
exits, each time walking every object still alive: the caches the tests filled, the
controller's reports (0.2-0.3 s a collection in a worker after its share of the suite).
Frozen first, they walk only what is made after."""

from __future__ import annotations

import gc

#: The collector's young-generation threshold in test processes (CPython's default: 700).
#: A Pilot test makes and drops some hundred thousand objects (an app, its widgets, styles);
#: at 700 each one set off hundreds of young collections and a dozen full ones.
YOUNG_COLLECTION_THRESHOLD = 5000

#: At most as many full collections as pytest's own end-of-run cleanup makes.
MOST_COLLECTIONS = 5


def freeze_what_lives() -> None:
    """Collect, then freeze every object still alive (``gc.freeze``): a later full
    collection walks only what was made after. Nothing is kept that was not: garbage made
    later goes at a later collection, as before."""
    collect_until_clean()
    gc.freeze()


def collect_young_less_often() -> None:
    """The young generation's threshold raised to ``YOUNG_COLLECTION_THRESHOLD``."""
    _young, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION_THRESHOLD, middle, old)


def collect_until_clean() -> int:
    """Full collections until one finds no garbage (at most ``MOST_COLLECTIONS``); how
    many ran. A collection that found nothing ran no finalizer and freed nothing, so every
    object it saw is reachable: a further collection would find nothing among them either
    (unless something runs between them and lets go of one)."""
    for done in range(1, MOST_COLLECTIONS + 1):
        if not gc.collect():
            return done
    return MOST_COLLECTIONS
