"""A plugfest matrix of 1,200 and 10,002 cells: peak memory and time per cell.

Run on demand: ``uv run python benchmarks/matrix_scale.py`` (about 2.5 minutes on 2 cores).
Cheap loopback agents: two honest A2A agents on 127.0.0.1 (raw asyncio servers in this
process), named by 200 and by 1,667 ``[[agent]]`` entries, one skill each, both bindings and
three modes (JSONRPC runs, HTTP+JSON does not apply): six cells a row. `sia-tui matrix
--json` runs in a child process. Goal: 10,000 cells under 500 MB peak, time linear in cells.
Before the bounds, 1,200 cells took 61 s and 1,071 MB (the matrix's repr when asyncio.run
returned it, every composition pair with both its rows) and memory grew with every cell.
Asserts nothing.
"""

from __future__ import annotations

import json
import tempfile
from contextlib import ExitStack
from pathlib import Path

from measured import against, measure

from tests.hostile.honest import ARGUMENTS
from tests.hostile.registry import Attack
from tests.hostile.server import HostileServer

ROWS = (200, 1_667)
HONEST = Attack("honest", "answers every request correctly")


def main() -> None:
    with tempfile.TemporaryDirectory() as name, ExitStack() as stack:
        servers = [stack.enter_context(HostileServer(HONEST.handler)) for _ in range(2)]
        folder = Path(name)
        (folder / "args.json").write_text(json.dumps(ARGUMENTS), encoding="utf-8")
        per_cell: list[float] = []
        for rows in ROWS:
            lines = ['name = "scale"', 'arguments = "args.json"', "jobs = 8"]
            for index in range(rows):
                url = servers[index % len(servers)].url
                lines += ["[[agent]]", f'name = "vendor-{index:04d}"', f'card = "{url}"']
            path = folder / "PLUGFEST.toml"
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
            run = measure(["matrix", str(path), "--json"])
            cells = sum(json.loads(run.stdout)["counts"].values())
            per_cell.append(run.seconds / cells)
            print(
                f"{cells:>6} cells: {run.seconds:6.1f} s ({1000 * per_cell[-1]:.1f} ms a cell), "
                f"peak {against(run.peak_mb, 500, 'MB')}, exit {run.exit}"
            )
        print(f"time a cell, largest / smallest: {per_cell[-1] / per_cell[0]:.2f} (linear: ~1)")


if __name__ == "__main__":
    main()
