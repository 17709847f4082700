"""Redaction of one 8 MiB body, by what it is made of, and reading a session of millions of
small values (a secret in any escape form; MAX_SESSION_VALUES).

Run on demand: ``uv run python benchmarks/redaction.py``. Prints seconds per body for the
redaction and for the refuse-to-save leak check, and the ratio for twice the body (linear
cost shows about 2). Plain text takes the fast path (no decoded view is built); runs of one
escape are decoded in C; escapes broken up by literal characters are the worst case (one
piece each). Then the time and peak memory of ``sia-tui replay`` on a session padded with
20 million values, refused before decoding. Last, a body echoing a secret 8,000 and 16,000
times, each echo a redaction noted once (it was a list lookup: 8,000 took 8.7 s; goal:
linear, about 2 for twice the echoes). First, the save of a card whose 78 KB description
holds a URL with userinfo and a run of ``a.a.a.`` (98 s before the scan replaced the
backtracking pattern). Asserts nothing.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sia_tui.core.redaction.redact import Redactor
from tests.support.sessions import canary_options

SIZE = 8 * 1024 * 1024
BODIES = {
    "plain JSON": '{"a": "' + "x" * 60 + '", "b": [1, 2, 3, 4, 5, 6, 7, 8]},',
    "base64": "QUJD",
    "\\u0041 run": "\\u0041",
    "%41 run": "%41",
    "%41a (broken runs)": "%41a",
    "&#65; entities": "&#65;",
}


def seconds(call: object, *args: object) -> float:
    started = time.perf_counter()
    call(*args)  # type: ignore[operator]
    return time.perf_counter() - started


def redaction() -> None:
    redactor = Redactor.from_options(canary_options(), secret_values=["canary-arg-2a8c6f09"])
    print(f"{'body (8 MiB)':22} {'redact':>8} {'x2 ratio':>9} {'leak check':>11}")
    for name, unit in BODIES.items():
        body = unit * (SIZE // len(unit))
        once = seconds(redactor.text, body, "body")
        twice = seconds(redactor.text, body * 2, "body")
        check = seconds(redactor.leaks, body)
        print(f"{name:22} {once:7.2f}s {twice / once:9.1f} {check:10.2f}s")


def huge_session() -> None:
    from sia_tui.core.session import save_session
    from tests.support.sessions import digest_card_run

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "s.session.json"
        save_session(digest_card_run(), canary_options(), path)
        text = path.read_text(encoding="utf-8")
        with path.open("w", encoding="utf-8") as handle:
            handle.write(text[: text.rindex("}")] + ', "padding": [0' + ",0" * 20_000_000 + "]}")
        child = Path(__file__).parents[1] / "tests" / "hostile" / "measured_child.py"
        done = subprocess.run(
            [sys.executable, str(child), "replay", str(path)], capture_output=True, text=True
        )
        measured = json.loads(done.stderr.rsplit("SIA-MEASURED ", 1)[1])
        size = path.stat().st_size / 2**20
        print(
            f"replay of a {size:.0f} MB session of 20M values: exit {measured['exit']}, "
            f"{measured['seconds']:.1f} s, peak {measured['peak_rss_mb']:.0f} MB\n"
        )


def echoes() -> None:
    times = []
    for count in (8_000, 16_000):
        redactor = Redactor.from_options(canary_options())
        echoed = [f"echo {canary_options().bearer}"] * count
        times.append(seconds(redactor.value, echoed, "body"))
        print(f"{count} echoed secrets: {times[-1]:.3f} s, {len(redactor.hits)} redactions noted")
    print(f"x2 echoes: x{times[1] / times[0]:.1f} time (was 8.7 s at 8,000: quadratic)")


def userinfo_description() -> None:
    """``check --save``'s redaction of a card whose description holds one
    ``scheme://user:pass@`` URL and then a run of ``a.a.a.``: the URL-userinfo regex
    backtracked from every word (98 s at 78 KB, about 40 minutes at 390 KB); now one scan
    anchored on ``://``. Saves the whole session, as ``--save`` does."""
    import dataclasses

    from sia_tui.core.session import save_session
    from tests.support.sessions import digest_card_run

    print(f"{'card description':22} {'save':>8}")
    for size in (78_000, 390_000):
        description = "see http://user:pass@host/ " + "a." * (size // 2)
        card = json.dumps({"name": "x", "description": description}).encode()
        run = digest_card_run()
        run.exchanges[0] = dataclasses.replace(run.exchanges[0], response_body=card)
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "s.session.json"
            took = seconds(save_session, run, canary_options(), path)
        print(f"{size // 1000:>19} KB {took:7.2f}s")


if __name__ == "__main__":
    userinfo_description()
    huge_session()
    redaction()
    echoes()
