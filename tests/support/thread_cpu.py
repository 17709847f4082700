"""Timing for ratio tests: a call's CPU time in its own thread, without the collector."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def thread_cpu(call: Callable[[], T]) -> tuple[float, T]:
    """``call()``'s time in this thread's CPU, and its answer. On a loaded machine time spent
    waiting for a core is not the call's, nor are other threads' (an agent serving another
    test); as in ``timeit``, a collection of the whole test process's objects is not the
    call's either, so the collector is off meanwhile."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        started = time.thread_time()
        answer = call()
        return time.thread_time() - started, answer
    finally:
        if collecting:
            gc.enable()
