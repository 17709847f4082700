"""`sia-tui --help` and `sia-tui digest small.json` against a bare Python start-up.

Run on demand: ``uv run python benchmarks/cli_startup.py [ROUNDS]``. The baseline is
``python -c 'import json,hashlib,argparse'`` with the same interpreter; the goal (README,
Performance) is at most 2x. Prints figures and ratios, asserts nothing.

Bytecode: an installed tool runs from cached bytecode, so both sides write and read it
under a temporary ``PYTHONPYCACHEPREFIX`` (warmed before timing), whatever
``PYTHONDONTWRITEBYTECODE`` the shell sets; ``--from-source`` compiles on every run instead.
"""

from __future__ import annotations

import sys
import tempfile
from functools import partial
from pathlib import Path

from pairs import Runner, bytecode_environment, interleaved

GOAL = 2.0
BASELINE = [sys.executable, "-c", "import json,hashlib,argparse"]
# The installed console script when there is one (what users run), else the same code.
_SCRIPT = Path(sys.executable).with_name("sia-tui")
SIA_TUI = (
    [sys.executable, str(_SCRIPT)]
    if _SCRIPT.is_file()
    else [sys.executable, "-c", "import sys; from sia_tui.cli import main; sys.exit(main())"]
)


def main() -> None:
    """Time both commands against the baseline in interleaved pairs."""
    args = [a for a in sys.argv[1:] if a != "--from-source"]
    from_source = "--from-source" in sys.argv[1:]
    rounds = int(args[0]) if args else 40
    with tempfile.TemporaryDirectory() as tmp:
        run = Runner(bytecode_environment(None if from_source else str(Path(tmp) / "pycache")))
        print("bytecode: " + ("compiled on every run" if from_source else "cached"))
        small = Path(tmp) / "small.json"
        small.write_text('{"skill_id": "evaluate_resource_condition", "version": "1.0"}')
        commands = {
            "sia-tui --help": [*SIA_TUI, "--help"],
            "sia-tui digest small.json": [*SIA_TUI, "digest", str(small)],
        }
        for name, argv in commands.items():
            run.cpu.clear()
            pairs = interleaved(partial(run, "bare", BASELINE), partial(run, name, argv), rounds)
            print(pairs.report(name, "python -c 'import json,hashlib,argparse'", GOAL))
            print(run.cpu_ratio(name, "bare"))
            print()


if __name__ == "__main__":
    main()
