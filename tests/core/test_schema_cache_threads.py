"""The compiled-schema cache is shared by the UI thread and workers: it must stay consistent."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

import pytest

from sia_tui.core import limits
from sia_tui.core.schemas import validation
from sia_tui.core.schemas.validation import compile_schema

THREADS = 8
ROUNDS = 200


class _SlowLookups(OrderedDict[str, Any]):
    """Storage that yields the GIL inside every lookup, so that without the cache's lock
    another thread evicts the entry between the lookup and the recency update."""

    def get(self, key: str, default: Any = None) -> Any:
        found = super().get(key, default)
        time.sleep(0.0001)
        return found


@pytest.fixture
def tiny_racy_cache(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A cache of 3 for 5 schemas: nearly every lookup races an eviction."""
    monkeypatch.setattr(limits, "SCHEMA_CACHE_SIZE", 3)
    monkeypatch.setattr(validation._CACHE, "_items", _SlowLookups())
    yield
    validation._CACHE.clear()


def test_threads_hammering_the_cache_always_get_the_right_schema(tiny_racy_cache: None) -> None:
    schemas = [{"const": n} for n in range(5)]
    errors: list[BaseException] = []
    start = threading.Barrier(THREADS)

    def hammer(offset: int) -> None:
        try:
            start.wait()
            for i in range(ROUNDS):
                n = (i + offset) % len(schemas)
                compiled = compile_schema(schemas[n])
                assert compiled.is_valid(n) and not compiled.is_valid(n + 1)
        except BaseException as exc:  # noqa: BLE001 - collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=hammer, args=(t,)) for t in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads)
    assert errors == []
    assert len(validation._CACHE) <= limits.SCHEMA_CACHE_SIZE


def test_the_same_schema_compiled_twice_is_one_cached_object() -> None:
    schema = {"type": "integer", "minimum": 12345}
    assert compile_schema(schema) is compile_schema(dict(schema))
