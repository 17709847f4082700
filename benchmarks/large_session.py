"""`check --save` of a 5 MB result, against json.loads + json.dumps of the same body.

Run on demand: ``uv run python benchmarks/large_session.py``. The reference agent serves
``--fault large-result`` (a result padded to 5 MB as sent) on 127.0.0.1 in this process;
one run of each, as subprocesses with the same interpreter:

- the candidate: ``sia-tui check URL --skill evaluate_resource_condition --args example
  --save FILE`` (exits 1: step 10 refuses the undeclared padding, as it should);
- the baseline: ``python -c BARE BODY``, which reads the same response body from a file,
  ``json.loads`` it and ``json.dumps`` it once.

Prints each one's wall-clock time and peak RSS (``ru_maxrss`` of the child), the ratio,
and the session file's size. The goal (README, Performance): under about 1.5 s and 200 MB here, and
peak RSS under 500 MB anywhere. Asserts nothing but that the session was written.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cli_startup import SIA_TUI

from sia_tui.agent.config import AgentConfig
from sia_tui.agent.faults import Fault
from sia_tui.agent.serving import start_agent
from sia_tui.agent.skills import large_samples

BARE = """
import json, sys
value = json.loads(open(sys.argv[1], "rb").read())
json.dumps(value)
"""


def timed_child(argv: list[str]) -> tuple[float, float]:
    """Wall-clock seconds and peak RSS in MB of one child run to the end."""
    started = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(child.pid, 0)
    return time.perf_counter() - started, usage.ru_maxrss / 1024


def main() -> None:
    """Start the agent, time the baseline and the candidate once each, print the figures."""
    agent = start_agent(AgentConfig(fault=Fault.LARGE_RESULT), quiet=True)
    try:
        with tempfile.TemporaryDirectory(prefix="sia-large-") as folder:
            body = Path(folder) / "body.json"
            result = {"jsonrpc": "2.0", "id": 1, "result": {"x_samples": large_samples()}}
            body.write_text(json.dumps(result), encoding="utf-8")
            session = Path(folder) / "large.session.json"
            check = [*SIA_TUI, "check", agent.url, "--skill", "evaluate_resource_condition"]
            check += ["--args", "example", "--save", str(session)]
            base_s, base_mb = timed_child([sys.executable, "-c", BARE, str(body)])
            ours_s, ours_mb = timed_child(check)
            assert session.exists(), "check --save wrote no session"
            print(f"body: {body.stat().st_size / 1e6:.1f} MB as sent")
            print(f"baseline json.loads+json.dumps: {base_s:.2f} s, peak RSS {base_mb:.0f} MB")
            print(f"check --save: {ours_s:.2f} s, peak RSS {ours_mb:.0f} MB")
            print(f"ratio: {ours_s / base_s:.1f}x time, {ours_mb / base_mb:.1f}x RSS")
            print(f"session file: {session.stat().st_size / 1e6:.1f} MB")
            print(
                f"goal: < 1.5 s: {'meets' if ours_s < 1.5 else 'MISSES'}; "
                f"< 200 MB: {'meets' if ours_mb < 200 else 'MISSES'}"
            )
    finally:
        agent.stop()


if __name__ == "__main__":
    main()
