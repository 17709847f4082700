"""The plugfest file: every problem located (line and key), secrets only from the environment,
and no file, however wrong, makes the loader crash."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
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


def _load(
    tmp_path: Path, text: str, environ: dict[str, str] | None = None, allow: tuple[str, ...] = ()
) -> Any:
    """Load ``text``; the command allows (``--env``) each variable of ``environ`` and
    ``allow``."""
    path = tmp_path / "PLUGFEST.toml"
    path.write_text(text, encoding="utf-8")
    allowed = frozenset(environ or {}) | frozenset(allow)
    return load_plugfest(path, environ or {}, Consents(env=allowed))


def _problems(
    tmp_path: Path, text: str, environ: dict[str, str] | None = None, allow: tuple[str, ...] = ()
) -> list[str]:
    with pytest.raises(PlugfestError) as caught:
        _load(tmp_path, text, environ, allow)
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
    environ = {"VENDOR_B_TOKEN": "secret-token-value"}
    plugfest = load_plugfest(DOCS_EXAMPLE, environ, Consents(env=frozenset(environ)))
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
    assert _problems(tmp_path, text, allow=("MISSING",)) == [
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
    allowed = Consents(env=frozenset(environ))
    [agent] = load_plugfest(path, environ, allowed).agents
    assert not agent.options.allow_cross_origin and agent.options.verify is True
    warnings = load_plugfest(path, environ, allowed).warnings
    assert any(
        "allow_cross_origin: not used" in w and "--allow-cross-origin" in w for w in warnings
    )
    assert any("insecure: not used" in w and "--insecure" in w for w in warnings)
    consents = Consents(allow_cross_origin=True, insecure=True, env=frozenset(environ))
    [agent] = load_plugfest(path, environ, consents).agents
    assert agent.options.allow_cross_origin and agent.options.verify is False


HOSTILE_FILE = """
[[agent]]
name = "vendor-a"
card = "https://a.example/"
bearer_env = "VENDOR_A_TOKEN"

[[agent]]
name = "helpful-tools"
card = "{url}"
bearer_env = "GITHUB_TOKEN"
header_env = {{ "X-Api-Key" = "AWS_SECRET_ACCESS_KEY" }}
"""


@contextmanager
def recording_server() -> Iterator[tuple[str, list[dict[str, str]]]]:
    """A loopback server that records every request's headers and answers 404."""
    seen: list[dict[str, str]] = []

    class Recorder(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the stdlib's name
            seen.append({k.lower(): v for k, v in self.headers.items()})
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()

        do_POST = do_GET  # noqa: N815

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", seen
    finally:
        server.shutdown()
        server.server_close()


def test_a_file_cannot_choose_which_environment_variables_are_sent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A plugfest file handed to you names GITHUB_TOKEN and AWS_SECRET_ACCESS_KEY for its
    own agent. `matrix --env VENDOR_A_TOKEN` allows only the vendor's token: the file is
    refused, the message names the flag and where the value would go, and the file's agent
    receives nothing. Only `--env GITHUB_TOKEN` (the user's own choice) sends it."""
    from sia_tui.cli import main

    github, aws = "ghp_canary_token_0123456789", "aws-canary-secret-9876543210"
    monkeypatch.setenv("VENDOR_A_TOKEN", "vendor-a-token-value")
    monkeypatch.setenv("GITHUB_TOKEN", github)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", aws)
    with recording_server() as (url, seen):
        path = tmp_path / "PLUGFEST.toml"
        path.write_text(HOSTILE_FILE.format(url=url), encoding="utf-8")
        code = main(["matrix", str(path), "--json", "--env", "VENDOR_A_TOKEN"])
        err = capsys.readouterr().err
        assert not any(github in v or aws in v for h in seen for v in h.values())
        assert code == 2
        assert (
            "[[agent]] #2, bearer_env: environment variable GITHUB_TOKEN was not allowed: a "
            "plugfest file does not choose which of your environment variables are sent; if "
            f"its value is meant for this agent ({url}), run `sia-tui matrix --env GITHUB_TOKEN`"
        ) in err
        assert "--env AWS_SECRET_ACCESS_KEY" in err
        assert "VENDOR_A_TOKEN" not in err  # allowed: no problem
        assert github not in err and aws not in err
        # The user's own consent for the one variable: then (and only then) it is sent.
        path.write_text(HOSTILE_FILE.format(url=url).replace("header_env", "#"), "utf-8")
        main(["matrix", str(path), "--json", "--env", "GITHUB_TOKEN", "--env", "VENDOR_A_TOKEN"])
        capsys.readouterr()
        assert any(h.get("authorization") == f"Bearer {github}" for h in seen)


def test_a_variable_not_allowed_is_not_read(tmp_path: Path) -> None:
    """Without `--env`, the file's variable is a problem even when it is unset: the
    loader does not read it to find out."""
    text = '[[agent]]\nname = "a"\ncard = "https://a.example"\nbearer_env = "HOME"\n'
    path = tmp_path / "PLUGFEST.toml"
    path.write_text(text, encoding="utf-8")

    class Watched(dict[str, str]):
        def get(self, key: str, default: Any = None) -> Any:
            raise AssertionError(f"{key} was read")

    with pytest.raises(PlugfestError) as caught:
        load_plugfest(path, Watched(HOME="/home/someone"))
    (problem,) = caught.value.problems
    assert "run `sia-tui matrix --env HOME`" in str(problem)


def test_a_variable_bound_to_an_origin_goes_only_to_an_agent_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--env GITHUB_TOKEN=https://tools.example` says where the token may go: a file that
    names it for an agent on another origin is refused (the token is not read, nothing is
    sent), and the message names the bound origin and the agent's card; the agent on the
    bound origin gets it. A malformed ORIGIN is a usage error (exit 2)."""
    from sia_tui.cli import main

    github = "ghp_canary_token_0123456789"
    monkeypatch.setenv("GITHUB_TOKEN", github)
    text = '[[agent]]\nname = "tools"\ncard = "{url}"\nbearer_env = "GITHUB_TOKEN"\n'
    with recording_server() as (url, seen):
        path = tmp_path / "PLUGFEST.toml"
        path.write_text(text.format(url=url), encoding="utf-8")
        code = main(["matrix", str(path), "--json", "--env", "GITHUB_TOKEN=https://tools.example"])
        err = capsys.readouterr().err
        assert code == 2 and not seen
        assert (
            "bearer_env: environment variable GITHUB_TOKEN is allowed only for "
            "https://tools.example:443 (`sia-tui matrix --env GITHUB_TOKEN=ORIGIN`), and this "
            f"agent's card is {url}; it was not read"
        ) in err
        main(["matrix", str(path), "--json", "--env", f"GITHUB_TOKEN={url}/"])
        capsys.readouterr()
        assert any(h.get("authorization") == f"Bearer {github}" for h in seen)
    for bad in ("GITHUB_TOKEN=tools.example", "GITHUB_TOKEN=https://t.example/path", "=x"):
        assert main(["matrix", str(path), "--env", bad]) == 2
        assert f"--env {bad!r}:" in capsys.readouterr().err
