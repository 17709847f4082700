"""Structural JSON diff: the JSON Pointers added, removed or changed between two values."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sia_tui.core.jsonkit.pointer import display, escape

#: Members that differ on every run by design (fresh ids, clocks); not a behaviour change.
VOLATILE_MEMBERS = frozenset(
    {
        "messageId",
        "taskId",
        "contextId",
        "timestamp",
        "artifactId",
        "message_id",
        "task_id",
        "context_id",
        "observed_at",
        "record_id",
        # A W3C trace id an agent echoes (the reference agent's task metadata): one per run.
        "traceId",
        "trace_id",
    }
)
#: Most changes reported per pair of bodies; the rest is counted, not listed.
MAX_CHANGES = 100
MAX_DEPTH = 64


@dataclass(frozen=True)
class JsonChange:
    """One difference at ``pointer``: "added", "removed" or "changed"."""

    op: str
    pointer: str
    before: Any = None
    after: Any = None

    def describe(self) -> str:
        """One line, e.g. ``changed /result/observed_value: 42 -> 43``."""

        def short(value: Any) -> str:
            text = json.dumps(value, ensure_ascii=False, default=str)
            return text if len(text) <= 60 else text[:57] + "..."

        if self.op == "added":
            return f"added {display(self.pointer)}: {short(self.after)}"
        if self.op == "removed":
            return f"removed {display(self.pointer)}: {short(self.before)}"
        return f"changed {display(self.pointer)}: {short(self.before)} -> {short(self.after)}"


def _volatile(container: dict[str, Any], key: str) -> bool:
    if key in VOLATILE_MEMBERS:
        return True
    # A JSON-RPC request id and a task's own id are fresh on every run.
    return key == "id" and ("jsonrpc" in container or "status" in container)


def json_diff(before: Any, after: Any, *, ignore_volatile: bool = True) -> list[JsonChange]:
    """Differences from ``before`` to ``after`` (arrays compared by index)."""
    out: list[JsonChange] = []
    _walk(before, after, "", out, 0, ignore_volatile)
    return out


def _walk(a: Any, b: Any, pointer: str, out: list[JsonChange], depth: int, ignore: bool) -> None:
    if len(out) >= MAX_CHANGES:
        return
    if depth > MAX_DEPTH:
        if a != b:
            out.append(JsonChange("changed", pointer, "(deep)", "(deep)"))
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for key in a:
            if ignore and (_volatile(a, key)):
                continue
            here = f"{pointer}/{escape(key)}"
            if key not in b:
                out.append(JsonChange("removed", here, before=a[key]))
            else:
                _walk(a[key], b[key], here, out, depth + 1, ignore)
        for key in b:
            if key not in a and not (ignore and _volatile(b, key)):
                out.append(JsonChange("added", f"{pointer}/{escape(key)}", after=b[key]))
        return
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            _walk(x, y, f"{pointer}/{i}", out, depth + 1, ignore)
        out.extend(
            JsonChange("removed", f"{pointer}/{i}", before=a[i]) for i in range(len(b), len(a))
        )
        out.extend(JsonChange("added", f"{pointer}/{i}", after=b[i]) for i in range(len(a), len(b)))
        return
    same = (
        a == b
        and type(a) is type(b)
        or (
            isinstance(a, int | float)
            and isinstance(b, int | float)
            and not isinstance(a, bool)
            and not isinstance(b, bool)
            and a == b
        )
    )
    if not same:
        out.append(JsonChange("changed", pointer, a, b))
