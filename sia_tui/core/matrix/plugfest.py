"""The plugfest file (``PLUGFEST.toml``): who is tested, on what, how, and what may fail.

``load_plugfest`` reads it with the standard library's ``tomllib`` and checks it whole:
every problem is reported at once with its key and line (:class:`PlugfestError`), and no
file, however wrong, makes it crash. Secrets come from the environment (``bearer_env``,
``header_env``); one written in the file is refused unless ``allow_inline_secrets = true``,
and then warned about loudly. docs/PLUGFEST.md describes every key.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from sia_tui.core.a2a.views import BindingChoice
from sia_tui.core.errors import FileInputError, SiaError
from sia_tui.core.invocation_mode import InvocationMode
from sia_tui.core.local_file import read_regular_file
from sia_tui.core.matrix.plugfest_agents import NO_CONSENT, AgentEntry, Consents, read_agent
from sia_tui.core.matrix.toml_lines import key_lines
from sia_tui.core.matrix.toml_reader import Problem, TableReader
from sia_tui.core.matrix.toml_shape import shape_problem

#: ``arguments = "example"``: take each skill's arguments from its document's examples.
EXAMPLE = "example"
#: How the file may spell a binding -> the engine's name (``Target.binding``).
BINDING_SPELLINGS = {
    "jsonrpc": "jsonrpc",
    "json-rpc": "jsonrpc",
    "http+json": "http-json",
    "http-json": "http-json",
    "http_json": "http-json",
    "rest": "http-json",
    "grpc": "grpc",
}
#: The engine's binding name -> the A2A protocolBinding label shown in every table.
BINDING_LABELS = {choice.value: choice.protocol_binding.value for choice in BindingChoice}
#: The bindings of a file that names none: gRPC is a column when asked for (most agents at
#: a plugfest serve the JSON bindings; a GRPC column would be "skip" for each of them).
DEFAULT_BINDINGS = ("jsonrpc", "http-json")
MODES = (InvocationMode.SYNC, InvocationMode.STREAM, InvocationMode.POLL)
DEFAULT_DEADLINE = 120.0
DEFAULT_JOBS = 8
MAX_JOBS = 64
#: Largest plugfest file read (it is a hand-written list, not data).
MAX_FILE_BYTES = 1024 * 1024
#: The key of the probe column (``probe = true``), for ``[[expect]] cell = "probe"``.
PROBE_KEY = "probe"

_TOP_KEYS = (
    "name",
    "arguments",
    "bindings",
    "modes",
    "probe",
    "deadline",
    "jobs",
    "allow_inline_secrets",
    "agent",
    "skill",
    "expect",
)
_SKILL_KEYS = ("id", "arguments")
_EXPECT_KEYS = ("agent", "skill", "cell", "step", "code", "reason")


def binding_mode_key(binding: str, mode: str) -> str:
    """The key of a binding/mode column: ``JSONRPC/sync``, ``HTTP+JSON/poll``."""
    return f"{BINDING_LABELS[binding]}/{mode}"


class PlugfestError(SiaError):
    """The plugfest file cannot be used; ``problems`` says every reason, located."""

    def __init__(self, source: str, problems: list[Problem]) -> None:
        self.source = source
        self.problems = problems
        super().__init__("\n".join(p.render(source) for p in problems))


@dataclass(frozen=True)
class Arguments:
    """A skill's arguments: ``example`` (from its document) or the JSON value of a file."""

    #: ``example``, or the file as written in the plugfest file.
    source: str
    value: Any = None

    @property
    def example(self) -> bool:
        """True for ``arguments = "example"``."""
        return self.source == EXAMPLE


@dataclass(frozen=True)
class SkillEntry:
    """One ``[[skill]]``: a skill to try on every agent that offers it, with its arguments."""

    id: str
    #: None: the file's default ``arguments``.
    arguments: Arguments | None = None


@dataclass(frozen=True)
class Expectation:
    """One ``[[expect]]``: a failure the baseline already knows about, and why."""

    agent: str
    reason: str
    skill: str | None = None
    #: A binding/mode column key (``HTTP+JSON/stream``); None: every column of the row.
    cell: str | None = None
    step: int | None = None
    code: str | None = None
    line: int | None = None

    def describe(self) -> str:
        """``vendor-b evaluate_resource_condition HTTP+JSON/stream step 4 interface_invalid``."""
        parts = [self.agent, self.skill or "(every skill)", self.cell or "(every cell)"]
        if self.step is not None:
            parts.append(f"step {self.step}")
        if self.code:
            parts.append(self.code)
        return " ".join(parts)


@dataclass(frozen=True)
class Plugfest:
    """A checked plugfest file."""

    source: Path
    name: str
    agents: tuple[AgentEntry, ...]
    #: ``[[skill]]`` entries; empty: every skill each card advertises.
    skills: tuple[SkillEntry, ...] = ()
    arguments: Arguments = Arguments(EXAMPLE)
    bindings: tuple[str, ...] = DEFAULT_BINDINGS
    modes: tuple[str, ...] = MODES
    probe: bool = False
    deadline: float = DEFAULT_DEADLINE
    jobs: int = DEFAULT_JOBS
    expectations: tuple[Expectation, ...] = ()
    #: What was accepted but deserves a loud word (an inline secret, TLS checks off).
    warnings: tuple[str, ...] = ()

    def arguments_for(self, skill_id: str) -> Arguments:
        """The ``[[skill]]`` entry's arguments, else the file's default."""
        entry = next((s for s in self.skills if s.id == skill_id), None)
        return entry.arguments if entry is not None and entry.arguments else self.arguments

    @property
    def column_keys(self) -> list[str]:
        """Every verdict column: binding/mode, bindings first, in the file's order; probe."""
        keys = [binding_mode_key(b, m) for b in self.bindings for m in self.modes]
        return keys + [PROBE_KEY] if self.probe else keys


def load_plugfest(
    path: str | Path, environ: Mapping[str, str] | None = None, consents: Consents = NO_CONSENT
) -> Plugfest:
    """Read and check the plugfest file at ``path``; :class:`PlugfestError` lists every problem.
    ``consents``: the command's flags; the file's own ``allow_cross_origin`` and ``insecure``
    are used only where they consent."""
    source = Path(path)
    try:  # never more than the limit: `matrix /dev/zero` read until MemoryError
        raw = read_regular_file(source, MAX_FILE_BYTES).data
    except FileInputError as exc:
        raise PlugfestError(str(source), [Problem(f"cannot read: {exc.reason}")]) from None
    if len(raw) > MAX_FILE_BYTES:
        raise PlugfestError(str(source), [Problem(f"larger than {MAX_FILE_BYTES} bytes")])
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PlugfestError(str(source), [Problem(f"not UTF-8 text (byte {exc.start})")]) from None
    shape = shape_problem(text)  # before tomllib: it recurses, and long keys cost it minutes
    if shape is not None:
        raise PlugfestError(str(source), [Problem(shape[0], line=shape[1])])
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PlugfestError(str(source), [_syntax_problem(str(exc))]) from None
    return _check(source, text, data, os.environ if environ is None else environ, consents)


def _syntax_problem(message: str) -> Problem:
    """tomllib says ``Invalid value (at line 2, column 5)``: keep the line in front."""
    import re

    found = re.search(r"\(at line (\d+), column (\d+)\)$", message)
    if found is None:
        return Problem(f"not valid TOML: {message}")
    text = message[: found.start()].rstrip()
    return Problem(f"not valid TOML: {text} (column {found.group(2)})", line=int(found.group(1)))


def _check(
    source: Path,
    text: str,
    data: dict[str, Any],
    environ: Mapping[str, str],
    consents: Consents,
) -> Plugfest:
    problems: list[Problem] = []
    warnings: list[str] = []
    reader = TableReader(key_lines(text), problems)
    reader.known_keys(data, (), _TOP_KEYS)
    base = source.parent
    inline_ok = reader.boolean(data, (), "allow_inline_secrets", False)
    agents = []
    for index, table in enumerate(reader.tables(data, "agent")):
        agent = read_agent(
            reader, table, ("agent", index), base, environ, inline_ok, warnings, consents
        )
        if agent is not None:
            agents.append(agent)
    if not agents and "agent" not in data:
        reader.problem((), "no [[agent]] tables: name at least one agent to test")
    _unique(reader, [a.name for a in agents], "agent", "name")
    arguments = _arguments(reader, data, (), base) or Arguments(EXAMPLE)
    skills = _skills(reader, data, base)
    bindings = _bindings(reader, data)
    modes = _modes(reader, data)
    probe = reader.boolean(data, (), "probe", False)
    plugfest = Plugfest(
        source=source,
        name=reader.string(data, (), "name") or source.stem,
        agents=tuple(agents),
        skills=tuple(skills),
        arguments=arguments,
        bindings=tuple(bindings),
        modes=tuple(modes),
        probe=probe,
        deadline=reader.number(data, (), "deadline", DEFAULT_DEADLINE, low=0.1, high=3600),
        jobs=int(reader.number(data, (), "jobs", DEFAULT_JOBS, low=1, high=MAX_JOBS, integer=True)),
        warnings=tuple(warnings),
    )
    expectations = _expectations(reader, data, plugfest)
    if problems:  # in file order, so the list reads top to bottom like the file
        raise PlugfestError(str(source), sorted(problems, key=lambda p: p.line or 0))
    return replace(plugfest, expectations=tuple(expectations))


def _unique(reader: TableReader, values: list[str], table: str, key: str) -> None:
    for index, value in enumerate(values):
        if value in values[:index]:
            reader.problem((table, index, key), f"{value!r} is used twice")


def _arguments(
    reader: TableReader, table: dict[str, Any], path: tuple[str | int, ...], base: Path
) -> Arguments | None:
    """``"example"`` or a JSON file (relative to the plugfest file), read strictly now."""
    from sia_tui.core.errors import JsonInputError
    from sia_tui.core.jsonkit.strictjson import load_path

    spec = reader.string(table, path, "arguments")
    if spec is None or spec == EXAMPLE:
        return Arguments(EXAMPLE) if spec else None
    try:
        return Arguments(spec, load_path(base / spec))
    except JsonInputError as exc:  # a FIFO or a device too: refused, never waited on
        reader.problem((*path, "arguments"), f"{spec}: {exc}")
    return None


def _skills(reader: TableReader, data: dict[str, Any], base: Path) -> list[SkillEntry]:
    skills = []
    for index, table in enumerate(reader.tables(data, "skill")):
        path = ("skill", index)
        reader.known_keys(table, path, _SKILL_KEYS)
        skill_id = reader.string(table, path, "id", required=True)
        arguments = _arguments(reader, table, path, base)
        if skill_id is not None:
            skills.append(SkillEntry(skill_id, arguments))
    _unique(reader, [s.id for s in skills], "skill", "id")
    return skills


def _bindings(reader: TableReader, data: dict[str, Any]) -> list[str]:
    names = reader.strings(data, (), "bindings")
    if names is None:
        return list(DEFAULT_BINDINGS)
    out = []
    for name in names:
        binding = BINDING_SPELLINGS.get(name.lower())
        if binding is None:
            reader.problem(("bindings",), f"unknown binding {name!r} (JSONRPC, HTTP+JSON or GRPC)")
        elif binding not in out:
            out.append(binding)
    if not names:
        reader.problem(("bindings",), "name at least one binding")
    return out or list(DEFAULT_BINDINGS)


def _modes(reader: TableReader, data: dict[str, Any]) -> list[str]:
    modes = reader.strings(data, (), "modes")
    if modes is None:
        return list(MODES)
    for mode in modes:
        if mode not in MODES:
            reader.problem(("modes",), f"unknown mode {mode!r} (sync, stream or poll)")
    if not modes:
        reader.problem(("modes",), "name at least one mode")
    return [m for m in modes if m in MODES] or list(MODES)


def _expectations(
    reader: TableReader, data: dict[str, Any], plugfest: Plugfest
) -> list[Expectation]:
    from sia_tui.core.codes import ErrorCode

    agents = {a.name: a for a in plugfest.agents}
    columns = plugfest.column_keys
    out = []
    for index, table in enumerate(reader.tables(data, "expect")):
        path = ("expect", index)
        reader.known_keys(table, path, _EXPECT_KEYS)
        agent = reader.string(table, path, "agent", required=True)
        reason = reader.string(table, path, "reason", required=True)
        skill = reader.string(table, path, "skill")
        cell = reader.string(table, path, "cell")
        code = reader.string(table, path, "code")
        step = None
        if "step" in table:
            step = int(reader.number(table, path, "step", 0, low=1, high=11, integer=True)) or None
        if agent is not None and agent not in agents:
            reader.problem((*path, "agent"), f"no [[agent]] is named {agent!r}")
        elif agent is not None and skill is not None:
            offered = agents[agent].skills
            if offered is not None and skill not in offered:
                reader.problem((*path, "skill"), f"agent {agent!r} does not list skill {skill!r}")
        if cell is not None and cell not in columns:
            reader.problem((*path, "cell"), f"no column {cell!r} (columns: {', '.join(columns)})")
        if code is not None and code not in {c.value for c in ErrorCode}:
            reader.problem((*path, "code"), f"{code!r} is not one of the draft's ten codes")
        if agent is not None and reason is not None:
            line = reader.lines.get(path)
            out.append(Expectation(agent, reason, skill, cell, step, code, line))
    return out
