"""Shared fixtures: the reference agent on 127.0.0.1 with an ephemeral port."""

from __future__ import annotations

import itertools
import os
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

import sia_tui
from sia_tui.agent.config import AgentConfig
from sia_tui.agent.serving import RunningAgent, start_agent
from tests.support.agents import StartAgent
from tests.support.garbage import collect_young_less_often, freeze_what_lives

# Bytecode caches on, whatever the environment says: with PYTHONDONTWRITEBYTECODE set (as on
# many CI images) every xdist worker compiled all it imports again (about 11 s of CPU each) and
# so did every `sia-tui` child a test starts. The caches go to the gitignored __pycache__.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

# grpc's C core reads its log level once, when grpc is first imported. sia-tui imports it
# quiet (core/a2a/grpc/runtime.py), but the tests' SDK agent imports it first through the
# a2a-sdk, and a stray "Got goaway" line then landed in pytest's progress output.
os.environ.setdefault("GRPC_VERBOSITY", "NONE")

#: No hypothesis deadline: a per-example time limit is a wall-clock assertion, which a
#: loaded machine breaks (tests assert what a run did; benchmarks/ hold the times).
settings.register_profile("sia-tui", deadline=None)
settings.load_profile("sia-tui")

#: xdist workers per core under ``-n auto``. Most tests wait (agents' step delays, Pilot's
#: idle waits, timeouts), using about half a core each, so one worker per core left half the
#: machine idle; on two cores, four workers still left it idle about a tenth of the run
#: (276 s against 262 s with five). Six did no worse than five, in the same CPU time
#: (clean clones of one day's work: 227, 230, 236, 238 and 245 s with six, 235 and 242 s
#: with five; the machine's own noise is about 15 s), and leave less idle while tests wait.
WORKERS_PER_CORE = 3


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto``: three workers per core, at least one (``-n N`` or
    PYTEST_XDIST_AUTO_NUM_WORKERS=N still sets N)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # xdist's own hook reads it
    return max(1, int(WORKERS_PER_CORE * _usable_cores()))


def _usable_cores() -> int:
    """The cores this process may run on (all of them where the OS cannot say: macOS)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def pytest_xdist_setupnodes(config: pytest.Config) -> None:
    """Before the workers start (xdist's controller): the caches each worker would write on
    a clean clone, written once over the cores (tests/support/warm_caches.py). What the
    controller imported is frozen as a worker's collection is (pytest_collection_finish):
    its collections during the run walk only the reports it receives."""
    from tests.support.warm_caches import warm

    freeze_what_lives()
    collect_young_less_often()
    if config.getoption("assertmode") != "rewrite" or config.getini("enable_assertion_pass_hook"):
        return  # the rewrite these caches hold is not the one pytest would make
    here = config.invocation_params.dir
    roots = [here / str(argument).split("::")[0] for argument in config.args]
    warm(roots, config.getini("python_files"), [Path(sia_tui.__file__).parent], _usable_cores())


#: Where every Pilot test draws every frame (marked ``frames``): tests/hostile reads what
#: reaches the terminal, frame by frame (tests/support/frames.py).
EVERY_FRAME_DIRECTORIES = (Path(__file__).parent / "hostile",)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked ``slow`` first (in their order), so xdist does not start one last while
    the other workers sit idle. Tests in ``EVERY_FRAME_DIRECTORIES`` are marked ``frames``."""
    for item in items:
        if any(item.path.is_relative_to(folder) for folder in EVERY_FRAME_DIRECTORIES):
            item.add_marker(pytest.mark.frames)
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection imported (modules, classes, the tests) lives as long as the process:
    frozen out of the collector's way, so a full collection during the tests walks only what
    the tests made. In Pilot tests the collector took about a quarter of the CPU (full
    collections walking every module again and again); now about half that."""
    freeze_what_lives()
    collect_young_less_often()


@pytest.fixture(autouse=True)
def frames_drawn(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pilot apps draw only the frames somebody reads, and a full last one; a test marked
    ``frames`` draws every frame (tests/support/frames.py says why)."""
    from tests.support.frames import frames_for

    frames_for(request, monkeypatch)


@pytest.fixture(autouse=True)
def css_parsed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Apps parse each CSS source once per process (tests/support/css_parse.py says why)."""
    from tests.support.css_parse import parse_each_css_once

    parse_each_css_once(monkeypatch)


#: Test defaults: fast steps and a short ``slow`` fault, still longer than test timeouts.
TEST_STEP_DELAY = 0.05
TEST_SLOW_SECONDS = 2.0


@pytest.fixture(scope="session")
def user_dirs_base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One directory per process holding each test's own user directories."""
    return tmp_path_factory.mktemp("user-dirs")


#: Numbers each test's user directories: ``mktemp`` per test listed the whole temporary
#: directory to number the next one (about 1.7 ms of CPU per test, and growing).
_user_dirs_made = itertools.count()


@pytest.fixture(autouse=True)
def isolated_user_dirs(user_dirs_base: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test reads or writes the real user's cache, data or config (platformdirs)."""
    root = user_dirs_base / str(next(_user_dirs_made))
    root.mkdir()
    for name in ("XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        monkeypatch.setenv(name, str(root / name.lower()))
    monkeypatch.setenv("SIA_TUI_CACHE_DIR", str(root / "cache"))
    monkeypatch.setenv("SIA_TUI_DATA_DIR", str(root / "data"))
    # Hermetic colours: NO_COLOR or a theme from the environment must not leak into tests.
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("TEXTUAL_THEME", raising=False)


#: Agents still stopping (uvicorn ends on its next 0.1 s tick, then closes): the next test
#: need not wait for that; the session's end does.
_stopping: list[threading.Thread] = []


def stop_in_background(agent: RunningAgent) -> None:
    """Stop ``agent`` without waiting for it (about 0.2 s per agent, ~500 agents a run)."""
    _stopping[:] = [thread for thread in _stopping if thread.is_alive()]
    thread = threading.Thread(target=agent.stop, name="stopping-reference-agent", daemon=True)
    thread.start()
    _stopping.append(thread)


@pytest.hookimpl(wrapper=True)
def pytest_sessionfinish(session: pytest.Session) -> Iterator[None]:
    """Every agent stopped in the background has ended before the run reports. Once the
    session is over (fixtures torn down), the garbage the tests left is collected and what
    lives is frozen (tests/support/garbage.py): pytest's own five collections at the end
    then walk only what is made after, instead of every cache and report of the run, and
    an object that warns when collected still fails the run."""
    for thread in _stopping:
        thread.join()
    yield
    freeze_what_lives()


@pytest.fixture
def reference_agent() -> Iterator[StartAgent]:
    """A factory: ``reference_agent(fault="digest-card")`` or ``reference_agent(config)``.

    Every agent it starts is stopped after the test.
    """
    started: list[RunningAgent] = []

    def start(config: AgentConfig | None = None, **overrides: Any) -> RunningAgent:
        if config is None:
            settings: dict[str, Any] = {
                "step_delay": TEST_STEP_DELAY,
                "slow_seconds": TEST_SLOW_SECONDS,
            }
            settings.update(overrides)
            config = AgentConfig(**settings)
        agent = start_agent(config)
        started.append(agent)
        return agent

    yield start
    for agent in started:
        stop_in_background(agent)


@pytest.fixture
def sdk_extension_agent_url() -> Iterator[str]:
    """Base URL of a schema-interface agent built with the official a2a-sdk (both bindings).

    Point ``sia-tui check`` / ``Procedure`` at it to test against an agent that is not ours.
    """
    from tests.support.sdk_extension_agent import running_extension_agent

    with running_extension_agent() as url:
        yield url


@pytest.fixture
def sdk_grpc_agent_url() -> Iterator[str]:
    """The same a2a-sdk agent with the SDK's own GrpcHandler serving gRPC as well (the
    card lists GRPC last)."""
    from tests.support.sdk_extension_agent import running_extension_agent

    with running_extension_agent(grpc=True) as url:
        yield url


@pytest.fixture
def cli_wording() -> Iterator[None]:
    """The core's needs worded as the CLI's flags, as under `sia-tui COMMAND` (the test
    reads what the command line says; a library caller gets the plain words)."""
    from tests.support.wording import cli_words

    with cli_words():
        yield
