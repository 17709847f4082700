"""Files a user names that are not regular files (a FIFO, a device) or are huge: refused at
once with the file named, never waited on or read whole (RULES SR7's spirit for local input:
nothing untrusted gets unbounded time or memory)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.hostile.measure import Measured, run_measured

#: Peak memory of a command that refused its input (the 1 MiB plugfest limit read at most).
REFUSAL_RSS_MB = 200

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")


@pytest.fixture
def fifo(tmp_path: Path) -> Iterator[Path]:
    """A named pipe nobody writes to: opening it for reading used to wait forever."""
    path = tmp_path / "pipe.json"
    os.mkfifo(path)
    yield path


def _refused(args: list[str], *expected: str) -> Measured:
    measured = run_measured(args)
    assert measured.exit == 2, measured.stderr
    for text in expected:
        assert text in measured.stderr, measured.stderr
    return measured


def test_a_fifo_as_check_args_is_refused(fifo: Path) -> None:
    _refused(
        ["check", "http://127.0.0.1:9", "--args", str(fifo)],
        f"{fifo}: cannot read file: it is a named pipe (FIFO), not a regular file",
    )


def test_a_fifo_as_a_session_is_refused(fifo: Path) -> None:
    for command in ("replay", "report"):
        _refused([command, str(fifo)], f"cannot read {fifo}: it is a named pipe (FIFO)")


def test_a_fifo_as_a_card_file_or_a_document_is_refused(fifo: Path) -> None:
    measured = run_measured(["check", str(fifo), "--json"])
    assert measured.exit == 1  # step 1 fails: the card cannot be read
    assert "named pipe (FIFO)" in measured.step(1)["message"]
    for command in ("lint", "digest", "canon"):
        _refused([command, str(fifo)], "it is a named pipe (FIFO), not a regular file")


def test_a_fifo_as_the_plugfest_file_or_its_arguments_is_refused(
    fifo: Path, tmp_path: Path
) -> None:
    _refused(["matrix", str(fifo), "--json"], "cannot read: it is a named pipe (FIFO)")
    plugfest = tmp_path / "PLUGFEST.toml"
    plugfest.write_text(
        f'arguments = "{fifo.name}"\n[[agent]]\nname = "a"\ncard = "http://127.0.0.1:9"\n',
        encoding="utf-8",
    )
    _refused(
        ["matrix", str(plugfest), "--json"],
        ":1: arguments: pipe.json: ",
        "it is a named pipe (FIFO), not a regular file",
    )


def test_a_device_or_a_huge_plugfest_file_is_refused_in_bounded_memory(tmp_path: Path) -> None:
    """`matrix /dev/zero` grew to about 3 GB and ended in MemoryError; a 3 GiB regular file
    was read whole before its 1 MiB check."""
    _refused(["matrix", "/dev/zero", "--json"], "cannot read: it is a character device")
    huge = tmp_path / "PLUGFEST.toml"
    with huge.open("wb") as handle:
        handle.truncate(3 * 1024**3)  # sparse: costs no disk
    measured = _refused(["matrix", str(huge), "--json"], "larger than 1048576 bytes")
    assert measured.peak_rss_mb < REFUSAL_RSS_MB


def test_a_fifo_as_trusted_keys_or_a_lock_is_refused(fifo: Path) -> None:
    """`--trusted-keys FIFO` waited forever on open: it is read through the one reader of
    user-named files, as `--lock` is."""
    for flag in ("--trusted-keys", "--lock"):
        _refused(
            ["check", "http://127.0.0.1:9", flag, str(fifo), "--json"],
            str(fifo),
            "it is a named pipe (FIFO), not a regular file",
        )
