"""The plugfest file: every problem located (line and key), secrets only from the environment,
and no file, however wrong, makes the loader crash."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sia_tui.core.matrix.plugfest import (
    EXAMPLE,
    MAX_FILE_BYTES,
    PlugfestError,
    _check,
    load_plugfest,
)
from sia_tui.core.matrix.plugfest_agents import AGENT_KEYS, Consents

DOCS_EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "PLUGFEST.toml"


def _load(tmp_path: Path, text: str, environ: dict[str, str] | None = None) -> Any:
    path = tmp_path / "PLUGFEST.toml"
    path.write_text(text, encoding="utf-8")
    return load_plugfest(path, environ or {})


def _problems(tmp_path: Path, text: str, environ: dict[str, str] | None = None) -> list[str]:
    with pytest.raises(PlugfestError) as caught:
        _load(tmp_path, text, environ)
    return str(caught.value).splitlines()


def test_a_complete_file_is_read(tmp_path: Path) -> None:
    (tmp_path / "args").mkdir()
    (tmp_path / "args" / "link.json").write_text('{"link_id": "l-1"}')
    text = """
name = "IETF hackathon"
arguments = "example"
bindings = ["HTTP+JSON", "jsonrpc"]
modes = ["stream"]
deadline = 30
jobs = 4

[[agent]]
name = "vendor-a"
card = "https://a.example"
bearer_env = "A_TOKEN"
headers = { "X-Tenant" = "plugfest" }
header_env = { "X-Api-Key" = "A_KEY" }
timeout = 5

[[agent]]
name = "vendor-b"
card = "https://b.example/.well-known/agent-card.json"
skills = ["check_link_capacity"]

[[skill]]
id = "check_link_capacity"
arguments = "args/link.json"

[[expect]]
agent = "vendor-b"
skill = "check_link_capacity"
cell = "HTTP+JSON/stream"
step = 4
code = "interface_invalid"
reason = "ticket 12"
"""
    plugfest = _load(tmp_path, text, {"A_TOKEN": "tok-123456", "A_KEY": "key-abcdef"})
    assert plugfest.name == "IETF hackathon"
    assert plugfest.bindings == ("http-json", "jsonrpc") and plugfest.modes == ("stream",)
    assert (plugfest.deadline, plugfest.jobs) == (30, 4)
    a, b = plugfest.agents
    assert a.options.bearer == "tok-123456" and a.options.read_timeout == 5
    assert a.options.headers == (("X-Tenant", "plugfest"), ("X-Api-Key", "key-abcdef"))
    assert a.secret_values == ("key-abcdef",) and a.secret_headers == ("X-Api-Key",)
    assert b.skills == ("check_link_capacity",)
    assert plugfest.arguments_for("check_link_capacity").value == {"link_id": "l-1"}
    assert plugfest.arguments_for("other").source == EXAMPLE
    (expect,) = plugfest.expectations
    assert (expect.cell, expect.step, expect.code, expect.line) == (
        "HTTP+JSON/stream",
        4,
        "interface_invalid",
        26,
    )
    assert plugfest.column_keys == ["HTTP+JSON/stream", "JSONRPC/stream"]


def test_the_documented_example_is_valid() -> None:
    """docs/examples/PLUGFEST.toml is what the README tells people to copy."""
    plugfest = load_plugfest(DOCS_EXAMPLE, {"VENDOR_B_TOKEN": "secret-token-value"})
    assert [a.name for a in plugfest.agents] == ["reference", "digest-card", "v03"]
    assert plugfest.expectations


def test_syntax_errors_name_the_line(tmp_path: Path) -> None:
    assert _problems(tmp_path, 'name = "x"\ndeadline = \n') == [
        f"{tmp_path / 'PLUGFEST.toml'}:2: not valid TOML: Invalid value (column 12)"
    ]


def test_every_problem_is_reported_at_once_with_line_and_key(tmp_path: Path) -> None:
    text = """
deadlin = 3
jobs = 0
bindings = ["soap"]
modes = ["push", "sync", "stream"]

[[agent]]
name = "a"
card = "https://a.example"
bearer_env = "MISSING"
skils = ["x"]

[[agent]]
card = "nothing-here.json"

[[expect]]
agent = "nobody"
cell = "JSONRPC/poll"
code = "not_a_code"
"""
    prefix = str(tmp_path / "PLUGFEST.toml")
    assert _problems(tmp_path, text) == [
        f"{prefix}:2: deadlin: unknown key; did you mean 'deadline'? (known: agent, "
        "allow_inline_secrets, arguments, bindings, deadline, expect, jobs, modes, name, probe, "
        "skill)",
        f"{prefix}:3: jobs: must be an integer from 1 to 64, not 0",
        f"{prefix}:4: bindings: unknown binding 'soap' (JSONRPC, HTTP+JSON or GRPC)",
        f"{prefix}:5: modes: unknown mode 'push' (sync, stream or poll)",
        f"{prefix}:10: [[agent]] #1, bearer_env: environment variable MISSING is not set "
        "(or empty)",
        f"{prefix}:11: [[agent]] #1, skils: unknown key; did you mean 'skills'? (known: "
        + ", ".join(sorted(AGENT_KEYS))
        + ")",
        f"{prefix}:13: [[agent]] #2: 'name' is required",
        f"{prefix}:14: [[agent]] #2, card: 'nothing-here.json' is not a URL and no such file",
        f"{prefix}:16: [[expect]] #1: 'reason' is required",
        f"{prefix}:17: [[expect]] #1, agent: no [[agent]] is named 'nobody'",
        f"{prefix}:18: [[expect]] #1, cell: no column 'JSONRPC/poll' (columns: JSONRPC/sync, "
        "JSONRPC/stream, HTTP+JSON/sync, HTTP+JSON/stream)",
        f"{prefix}:19: [[expect]] #1, code: 'not_a_code' is not one of the draft's ten codes",
    ]


@pytest.mark.parametrize(
    ("agent", "what"),
    [
        ('headers = { Authorization = "Bearer abc.def.ghi" }', "header Authorization"),
        ('headers = { "X-Api-Key" = "k-123456" }', "header X-Api-Key"),
        ('bearer = "abc.def.ghi"', "bearer"),
    ],
)
def test_a_secret_written_in_the_file_is_refused(tmp_path: Path, agent: str, what: str) -> None:
    text = f'[[agent]]\nname = "a"\ncard = "https://a.example"\n{agent}\n'
    (problem,) = _problems(tmp_path, text)
    assert problem.endswith(
        f"{what} is a secret written in the file; put it in an environment variable and name "
        "the variable (bearer_env, header_env), or set allow_inline_secrets = true"
    )
    assert ":4:" in problem


def test_a_password_in_the_card_url_is_refused(tmp_path: Path) -> None:
    text = '[[agent]]\nname = "a"\ncard = "https://user:pw@a.example"\n'
    (problem,) = _problems(tmp_path, text)
    assert (
        ":3: [[agent]] #1, card: the user name or password in the card URL is a secret" in problem
    )


def test_inline_secrets_when_allowed_are_used_and_warned_about(tmp_path: Path) -> None:
    text = (
        "allow_inline_secrets = true\n"
        '[[agent]]\nname = "a"\ncard = "https://a.example"\nbearer = "abc.def.ghi"\n'
    )
    plugfest = _load(tmp_path, text)
    assert plugfest.agents[0].options.bearer == "abc.def.ghi"
    (warning,) = plugfest.warnings
    assert warning.startswith("WARNING: [[agent]] #1, bearer: bearer is a secret written")
    assert "abc.def.ghi" not in warning


def test_arguments_files_are_read_strictly_and_located(tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text('{"a": 1,\n "a": 2}')
    text = (
        '[[agent]]\nname = "a"\ncard = "https://a.example"\n'
        '[[skill]]\nid = "s"\narguments = "bad.json"\n'
        '[[skill]]\nid = "t"\narguments = "missing.json"\n'
    )
    first, second = _problems(tmp_path, text)
    assert ":6: [[skill]] #1, arguments: bad.json: " in first
    assert first.endswith("bad.json:2:2: duplicate member name 'a'")
    assert ":9: [[skill]] #2, arguments: missing.json: " in second


def test_a_card_file_is_found_next_to_the_plugfest_file(tmp_path: Path) -> None:
    (tmp_path / "card.json").write_text(json.dumps({"name": "x"}))
    plugfest = _load(tmp_path, '[[agent]]\nname = "a"\ncard = "card.json"\n')
    assert plugfest.agents[0].card == str(tmp_path / "card.json")


def test_unusable_files(tmp_path: Path) -> None:
    assert _problems(tmp_path, "") == [
        f"{tmp_path / 'PLUGFEST.toml'}: no [[agent]] tables: name at least one agent to test"
    ]
    path = tmp_path / "PLUGFEST.toml"
    path.write_bytes(b'name = "\xff"\n')
    with pytest.raises(PlugfestError, match=r"not UTF-8 text \(byte 8\)"):
        load_plugfest(path, {})
    path.write_bytes(b"#" * (MAX_FILE_BYTES + 1))
    with pytest.raises(PlugfestError, match="larger than"):
        load_plugfest(path, {})
    with pytest.raises(PlugfestError, match="cannot read"):
        load_plugfest(tmp_path / "absent.toml", {})


def test_probe_adds_a_column_a_baseline_may_name(tmp_path: Path) -> None:
    text = (
        'probe = true\nmodes = ["sync"]\nbindings = ["JSONRPC"]\n'
        '[[agent]]\nname = "a"\ncard = "https://a.example"\n'
        '[[expect]]\nagent = "a"\ncell = "probe"\nreason = "accepts stale digests"\n'
    )
    plugfest = _load(tmp_path, text)
    assert plugfest.probe and plugfest.column_keys == ["JSONRPC/sync", "probe"]
    assert plugfest.expectations[0].cell == "probe"


_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 10**6), st.floats(), st.text(max_size=12)
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
_AGENT = st.dictionaries(st.sampled_from(AGENT_KEYS), _VALUES, max_size=6)
_TOP = st.fixed_dictionaries(
    {},
    optional={
        "name": _VALUES,
        "bindings": _VALUES,
        "modes": _VALUES,
        "deadline": _VALUES,
        "jobs": _VALUES,
        "arguments": _VALUES,
        "probe": _VALUES,
        "agent": st.one_of(_VALUES, st.lists(_AGENT, max_size=3)),
        "skill": st.one_of(
            _VALUES,
            st.lists(st.dictionaries(st.sampled_from(["id", "arguments"]), _VALUES), max_size=2),
        ),
        "expect": st.one_of(
            _VALUES, st.lists(st.dictionaries(st.text(max_size=6), _VALUES), max_size=2)
        ),
    },
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=_TOP)
def test_no_structure_crashes_the_checker(data: dict[str, Any]) -> None:
    """Whatever the parsed TOML holds (wrong types everywhere), the answer is a Plugfest or a
    PlugfestError, never another exception."""
    try:
        _check(Path("/nonexistent/P.toml"), "", data, {}, Consents())
    except PlugfestError as exc:
        assert exc.problems


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list("[]{}=\"'.,#\n abc_-01xé\\")), max_size=120))
def test_no_text_crashes_the_loader(tmp_path_factory: pytest.TempPathFactory, text: str) -> None:
    """Arbitrary text, valid TOML or not, loads or is refused with problems: never a crash."""
    path = tmp_path_factory.mktemp("fuzz") / "P.toml"
    path.write_text(text, encoding="utf-8")
    try:
        load_plugfest(path, {})
    except PlugfestError as exc:
        assert exc.problems


CONSENTING_FILE = """
[[agent]]
name = "vendor-a"
card = "https://a.example/"
bearer_env = "VENDOR_A_TOKEN"
allow_cross_origin = true
insecure = true
"""


def test_the_file_gives_no_consent_only_the_command_flags_do(tmp_path: Path) -> None:
    """RULES SR7: a plugfest file handed to you saying allow_cross_origin and insecure sends
    no credential to another origin and turns no TLS check off; each request is warned
    about, and `matrix --allow-cross-origin --insecure` gives the consent."""
    environ = {"VENDOR_A_TOKEN": "secret-token-value"}
    path = tmp_path / "PLUGFEST.toml"
    path.write_text(CONSENTING_FILE, encoding="utf-8")
    [agent] = load_plugfest(path, environ).agents
    assert not agent.options.allow_cross_origin and agent.options.verify is True
    warnings = load_plugfest(path, environ).warnings
    assert any(
        "allow_cross_origin: not used" in w and "--allow-cross-origin" in w for w in warnings
    )
    assert any("insecure: not used" in w and "--insecure" in w for w in warnings)
    consents = Consents(allow_cross_origin=True, insecure=True)
    [agent] = load_plugfest(path, environ, consents).agents
    assert agent.options.allow_cross_origin and agent.options.verify is False
