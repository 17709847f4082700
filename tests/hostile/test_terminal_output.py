"""Every command against an agent (and session files) made of terminal escapes: nothing but
printable text, newlines and tabs reaches stdout or stderr.

The check is independent of sia-tui's own policy: a character is refused by its Unicode
category (C0 and C1 controls, format characters such as bidi overrides, line and paragraph
separators, surrogates, private use). Output is captured, not a terminal, so sia-tui writes
no colour codes of its own here.
"""

from __future__ import annotations

import json
import sys
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest

from sia_tui.cli.parser import run as cli
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.session import autosave, load_session
from tests.hostile.attacks_terminal import INJECT, TERMINAL_ATTACKS
from tests.hostile.honest import ARGUMENTS, SKILL
from tests.hostile.measure import serving
from tests.hostile.tampering import tamper

_REFUSED = {"Cc", "Cf", "Cs", "Co", "Zl", "Zp"}


def unsafe(text: str) -> list[str]:
    """Every character of ``text`` that must not reach a terminal, as U+XXXX."""
    return sorted(
        {f"U+{ord(c):04X}" for c in text if c not in "\n\t" and unicodedata.category(c) in _REFUSED}
    )


class Terminal:
    """Runs commands in-process through the real entry point and collects what they print."""

    def __init__(self, capsys: pytest.CaptureFixture[str]) -> None:
        self.capsys = capsys
        self.printed: dict[str, str] = {}

    def __call__(self, *argv: str) -> int:
        code = cli(list(argv))
        out, err = self.capsys.readouterr()
        self.printed[" ".join(argv[:2])] = out + err
        return code

    def assert_clean(self) -> None:
        dirty = {cmd: unsafe(text) for cmd, text in self.printed.items() if unsafe(text)}
        assert not dirty, dirty
        assert self.printed


@pytest.fixture
def terminal(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Terminal]:
    monkeypatch.setenv("SIA_TUI_DATA_DIR", str(tmp_path / "data"))
    yield Terminal(capsys)


def _arguments(tmp_path: Path) -> str:
    path = tmp_path / "arguments.json"
    path.write_text(json.dumps(ARGUMENTS), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("attack", TERMINAL_ATTACKS)
def test_no_command_prints_an_agents_escapes(
    attack: str, terminal: Terminal, tmp_path: Path
) -> None:
    args = _arguments(tmp_path)
    session, probed = tmp_path / "s.session.json", tmp_path / "p.session.json"
    fast = ["--deadline", "10"]
    with serving(attack) as server:
        url = server.url
        terminal("check", url, "--skill", SKILL, "--args", args, *fast)
        terminal("check", url, "--skill", SKILL, "--args", args, "--json", *fast)
        terminal("check", url, "--skill", SKILL, "--args", args, "--save", str(session), *fast)
        terminal(
            "probe", url, "--skill", SKILL, "--args", args, "--allow-valid-invocations",
            "--junit", str(tmp_path / "junit.xml"), "--save", str(probed), *fast,
        )  # fmt: skip
        terminal("probe", url, "--skill", SKILL, "--args", args, "--json", *fast)
        terminal("compose", url, SKILL, url, SKILL, *fast)
        terminal("diff", f"{url}#{SKILL}", str(session), *fast)
        terminal("rerun", str(session))
    terminal("replay", str(session))
    terminal("replay", str(session), "--json")
    if probed.exists():
        terminal("replay", str(probed))
    terminal("report", str(session))
    terminal("report", str(session), "--format", "html")
    autosave(load_session(session).run, ClientOptions())
    terminal("history")
    terminal("history", "--json")
    terminal.assert_clean()
    # The agent's text is still there to read, made visible.
    assert "␛]52;c;" in "".join(terminal.printed.values())


# -- session files and arguments -------------------------------------------------------------


@pytest.fixture
def recorded(tmp_path: Path, terminal: Terminal) -> Path:
    """A real session of the honest agent (inject-card fails at step 1 with little text)."""
    session = tmp_path / "recorded.session.json"
    with serving("inject-text") as server:
        terminal(
            "check", server.url, "--skill", SKILL, "--args", _arguments(tmp_path),
            "--save", str(session), "--deadline", "10",
        )  # fmt: skip
    terminal.printed.clear()
    return session


def test_tampered_sessions_print_nothing_raw(
    recorded: Path, terminal: Terminal, tmp_path: Path
) -> None:
    """Step titles, URLs (percent-decoded by replay), messages, headers of a hand-edited
    session; a member whose value is refused is quoted in a one-line error."""
    data = json.loads(recorded.read_text(encoding="utf-8"))
    tampered = tmp_path / "tampered.session.json"
    tampered.write_text(json.dumps(tamper(data, INJECT)), encoding="utf-8")
    refused = tmp_path / "refused.session.json"
    data["run"]["steps"][0]["evidence"]["kind"] = "card" + INJECT
    refused.write_text(json.dumps(data), encoding="utf-8")
    for path in (tampered, refused):
        terminal("replay", str(path))
        terminal("replay", str(path), "--json")
        terminal("report", str(path))
        terminal("report", str(path), "--format", "html")
        terminal("diff", str(path), str(path))
    assert terminal("open", str(refused)) == 2
    index = tmp_path / "data" / "history" / "index.json"
    autosave(load_session(recorded).run, ClientOptions())
    entries = json.loads(index.read_text(encoding="utf-8"))
    entries["entries"][0]["target"] += INJECT
    index.write_text(json.dumps(entries), encoding="utf-8")
    terminal("history")
    terminal.assert_clean()
    assert "pwned" in terminal.printed["replay " + str(tampered)]


def test_documents_and_arguments_print_nothing_raw(terminal: Terminal, tmp_path: Path) -> None:
    """lint/digest/canon of a document, and commands echoing what they were given."""
    document = tmp_path / "doc.json"
    document.write_text(json.dumps({"skill_id": INJECT, INJECT: [INJECT]}), encoding="utf-8")
    terminal("lint", str(document))
    terminal("lint", str(document), "--json")
    terminal("digest", str(tmp_path / ("missing" + INJECT)))
    terminal("canon", str(tmp_path / ("missing" + INJECT)))
    terminal("serve-demo", "--fault", INJECT)
    terminal("demo", "--fault", INJECT)
    terminal("web", "open", "--mode", INJECT)  # web checks the TUI's arguments first
    terminal("matrix", str(tmp_path / ("plugfest" + INJECT + ".toml")))
    terminal("check", "http://127.0.0.1:9/" + INJECT, "--header", INJECT)
    with pytest.raises(SystemExit):
        cli(["check", "--mode", INJECT])  # argparse quotes the bad choice
    terminal.printed["argparse"] = "".join(terminal.capsys.readouterr())
    terminal.assert_clean()


def test_canon_writes_exact_bytes_unless_stdout_is_a_terminal(
    tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    """canon's bytes are data (a digest is taken over them): redirected, they are exact; on
    a terminal, the output policy applies like everywhere else."""
    document = tmp_path / "doc.json"
    document.write_text(json.dumps({"a": "\u009b2J\u202e"}), encoding="utf-8")
    assert cli(["canon", str(document)]) == 0
    assert capsysbinary.readouterr().out == '{"a":"\u009b2J\u202e"}'.encode()
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert cli(["canon", str(document)]) == 0
    shown = capsysbinary.readouterr().out.decode()
    assert shown == '{"a":"\\u009b2J\\u202e"}' and not unsafe(shown)
