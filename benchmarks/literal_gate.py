"""What the literal widgets' gate costs: ``inert`` on what a pane shows, clean and dirty.

Every text widget passes what it draws through ``inert`` (widgets/literal.py); on text that
``DisplayPolicy.literal`` made it finds nothing to replace. Run on demand:
``uv run python benchmarks/literal_gate.py``. Prints figures, asserts nothing.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from functools import partial

from textual.content import Content

from sia_tui.tui.display import DEFAULT_VIEW_LIMIT, PLAIN
from sia_tui.tui.widgets.literal import inert

ROUNDS = 20
#: A line of pretty JSON an agent might send, and the same with an escape in it.
CLEAN_LINE = '  "observation": "utilization 42 percent at 2026-08-11T12:00:01Z",\n'
DIRTY_LINE = '  "observation": "utilization \x1b]0;pwned\x07 42 \u202e percent",\n'


def _median_ms(work: Callable[[], object]) -> float:
    times = []
    for _ in range(ROUNDS):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def main() -> None:
    """Print the gate's time next to the time of making the same text literal."""
    for size in (DEFAULT_VIEW_LIMIT, 1024 * 1024):
        clean_text = (CLEAN_LINE * (size // len(CLEAN_LINE) + 1))[:size]
        dirty_text = (DIRTY_LINE * (size // len(DIRTY_LINE) + 1))[:size]
        clean_content, dirty_content = Content(clean_text), Content(dirty_text)
        literal = _median_ms(partial(PLAIN.literal, clean_text, multiline=True))
        clean = _median_ms(partial(inert, clean_content))
        dirty = _median_ms(partial(inert, dirty_content))
        print(
            f"{size // 1024:5d} KB  literal {literal:7.2f} ms   gate, clean {clean:7.2f} ms "
            f"({clean / literal:4.2f}x)   gate, an escape per line {dirty:7.2f} ms"
        )


if __name__ == "__main__":
    main()
