"""Which processes a test left behind (Linux /proc; the suite runs on Linux)."""

from __future__ import annotations

from pathlib import Path


def _parents() -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, state letter) for every process we can read."""
    table: dict[int, tuple[int, str]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # it ended while we looked
        state, parent = stat.rsplit(")", 1)[1].split()[:2]
        table[int(entry.name)] = (int(parent), state)
    return table


def live_descendants(pid: int) -> list[int]:
    """Processes below ``pid`` that still run (zombies awaiting a wait() are over)."""
    table = _parents()
    found: list[int] = []
    frontier = [pid]
    while frontier:
        parent = frontier.pop()
        for child, (ppid, state) in table.items():
            if ppid == parent and child not in found:
                frontier.append(child)
                if state != "Z":
                    found.append(child)
    return found


def still_running(pids: list[int], *, until_reaped: bool = False) -> list[int]:
    """Those of ``pids`` that have not ended. A zombie has ended, unless ``until_reaped``:
    our own children must also be reaped (asyncio's watcher does it) before a test ends."""
    table = _parents()
    return [pid for pid in pids if pid in table and (until_reaped or table[pid][1] != "Z")]
