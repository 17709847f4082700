"""A plugfest file built to exhaust the TOML reader: deep nesting and endless dotted keys are
refused before ``tomllib`` reads them, with the line, never a traceback or minutes of CPU."""

from __future__ import annotations

from pathlib import Path

import pytest

from sia_tui.core import limits
from sia_tui.core.matrix import PlugfestError, load_plugfest
from tests.hostile.measure import run_measured

AGENT = '[[agent]]\nname = "a"\ncard = "http://127.0.0.1:9"\n'


def _problem(tmp_path: Path, text: str) -> str:
    path = tmp_path / "PLUGFEST.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(PlugfestError) as caught:
        load_plugfest(path, {})
    (problem,) = caught.value.problems
    return problem.render("PLUGFEST.toml")


@pytest.mark.parametrize(
    "nested",
    ["[" * 5000 + "]" * 5000, "{a = " * 5000 + "1" + "}" * 5000],
    ids=["arrays", "inline-tables"],
)
def test_deep_nesting_is_refused_on_its_line(tmp_path: Path, nested: str) -> None:
    """5,000 levels raised RecursionError inside tomllib."""
    problem = _problem(tmp_path, f"{AGENT}\nx = {nested}\n")
    depth = limits.MAX_TOML_DEPTH
    assert problem == f"PLUGFEST.toml:5: nested deeper than {depth} arrays or tables"


@pytest.mark.parametrize(
    "text",
    ["[" + ".".join(["a"] * 20_000) + "]\nx = 1\n", ".".join(["a"] * 10_000) + " = 1\n"],
    ids=["table-header", "dotted-key"],
)
def test_endless_dotted_keys_are_refused_on_their_line(tmp_path: Path, text: str) -> None:
    """A dotted key costs tomllib time quadratic in its parts (200 KB: 36 s)."""
    problem = _problem(tmp_path, AGENT + text)
    parts = limits.MAX_TOML_KEY_PARTS
    assert problem == f"PLUGFEST.toml:4: a key or table name of more than {parts} dotted parts"


def test_dots_and_brackets_in_strings_comments_and_numbers_count_for_nothing(
    tmp_path: Path,
) -> None:
    deep = "[" * 100 + "." * 100
    text = (
        f'name = "{deep}"\n'
        f"# {deep}\n"
        f"arguments = '{deep}.json'\n"
        "deadline = 1.5\n"
        f'[[skill]]\nid = """\n{deep}\n"""\n'
        f"[[skill]]\nid = '''\n{deep}x\n'''\n"
        f"{AGENT}"
        '[agent.headers]\n"x.y.z" = "1.2.3"\n'
    )
    path = tmp_path / "PLUGFEST.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(PlugfestError) as caught:  # the arguments file does not exist
        load_plugfest(path, {})
    assert [p.key for p in caught.value.problems] == ["arguments"], caught.value


def test_a_megabyte_dotted_header_is_refused_at_once_by_the_command(tmp_path: Path) -> None:
    """1 MB of ``[a.a.a...]`` parsed for minutes."""
    path = tmp_path / "PLUGFEST.toml"
    path.write_text(AGENT + "[" + ".".join(["a"] * 500_000) + "]\n", encoding="utf-8")
    measured = run_measured(["matrix", str(path), "--json"])
    assert measured.exit == 2
    assert ":4: a key or table name of more than" in measured.stderr
