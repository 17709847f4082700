"""The bytecode caches a clean clone lacks, written once before xdist's workers start.

Under ``-n auto`` the workers start together and each imports and collects every test
module. On a clean clone no cache exists yet, so every worker rewrote the asserts of every
test module (pytest's assertion rewriting tokenizes each module to quote its asserts: about
5 s of CPU a process) and compiled sia_tui and the test helpers (about 1 s): the same work
once per worker, at the start, where the workers wait for each other. ``tests/conftest.py``
calls ``warm`` from xdist's ``pytest_xdist_setupnodes`` hook, which writes the stale caches
first, split over the cores; a warm checkout pays a stat and a 16-byte read per file.

No public pytest API writes the rewritten-module cache, so this calls pytest's own rewriter
through the four names of ``_pytest.assertion.rewrite`` that ``rewriter()`` checks. If a
pytest release changes them, ``rewriter()`` returns None and says why: the workers rewrite
as before (slower, nothing else changes), and tests/test_warm_caches.py warns with that
reason. This module runs as a script in the processes it starts: stdlib and pytest only.
"""

from __future__ import annotations

import fnmatch
import importlib.util
import inspect
import os
import py_compile
import struct
import subprocess
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from types import CodeType, ModuleType
from typing import Any, NamedTuple

#: The parameters of the pytest 8 functions used (pytest 8.4 when written; uv.lock pins it).
_EXPECTED = {
    "_rewrite_test": ("fn", "config"),
    "_write_pyc": ("state", "co", "source_stat", "pyc"),
    "get_cache_dir": ("file_path",),
}


class Rewriter(NamedTuple):
    """pytest's assertion rewriter: the code of a test module and where its cache goes."""

    rewrite: Callable[[Path, Any], tuple[os.stat_result, CodeType]]
    write_pyc: Callable[[Any, CodeType, os.stat_result, Path], bool]
    cache_dir: Callable[[Path], Path]
    pyc_tail: str

    def pyc_of(self, module: Path) -> Path:
        """Where pytest reads the rewritten ``module`` from."""
        return self.cache_dir(module) / (module.name[: -len(".py")] + self.pyc_tail)


def rewriter() -> Rewriter | str:
    """pytest's rewriter, or the reason it cannot be used (a pytest that changed it)."""
    try:
        from _pytest.assertion import rewrite
    except ImportError as error:
        return f"_pytest.assertion.rewrite is gone ({error})"
    return known_rewriter(rewrite)


def known_rewriter(module: ModuleType) -> Rewriter | str:
    """The rewriter in ``module`` if its names and parameters are the ones known here."""
    for name, parameters in _EXPECTED.items():
        function = getattr(module, name, None)
        found = tuple(inspect.signature(function).parameters) if callable(function) else None
        if found != parameters:
            return (
                f"_pytest.assertion.rewrite.{name} is {found or 'gone'}, not {parameters}: "
                "tests/support/warm_caches.py no longer warms the rewritten test modules, so "
                "every xdist worker on a clean clone rewrites them all (slower, still correct)"
            )
    tail = getattr(module, "PYC_TAIL", None)
    if not isinstance(tail, str):
        return "_pytest.assertion.rewrite.PYC_TAIL is gone: the cache's name is unknown"
    return Rewriter(module._rewrite_test, module._write_pyc, module.get_cache_dir, tail)


class _Trace:
    """The assertion state ``_write_pyc`` reports to (only its ``trace``)."""

    def trace(self, message: str) -> None:
        """Nothing to report: a cache not written is written by the worker that needs it."""


def fresh(pyc: Path, source: Path) -> bool:
    """Whether ``pyc`` holds ``source`` as it is now (CPython's timestamp header, which
    pytest's rewritten pyc repeats: magic, flags 0, mtime and size)."""
    try:
        stat = source.stat()
        with pyc.open("rb") as cached:
            header = cached.read(16)
    except OSError:
        return False
    expected = struct.pack("<LL", int(stat.st_mtime) & 0xFFFFFFFF, stat.st_size & 0xFFFFFFFF)
    return header == importlib.util.MAGIC_NUMBER + b"\0\0\0\0" + expected


class Stale(NamedTuple):
    """Modules whose cache is missing or out of date."""

    rewritten: list[Path]  # test modules and conftest files: pytest's rewritten pyc
    compiled: list[Path]  # everything else: the interpreter's own pyc

    def __bool__(self) -> bool:
        return bool(self.rewritten or self.compiled)


def stale(
    roots: Iterable[Path], test_patterns: Sequence[str], packages: Iterable[Path], rw: Rewriter
) -> Stale:
    """The stale caches of the Python files under ``roots`` (test modules are those matching
    ``test_patterns``, pytest's ``python_files``, and conftest files) and ``packages``."""
    result = Stale([], [])
    for root in roots:
        for path in _python_files(root):
            if path.name == "conftest.py" or any(
                fnmatch.fnmatch(path.name, pattern) for pattern in test_patterns
            ):
                if not fresh(rw.pyc_of(path), path):
                    result.rewritten.append(path)
            elif not fresh(Path(importlib.util.cache_from_source(str(path))), path):
                result.compiled.append(path)
    for package in packages:
        for path in _python_files(package):
            if not fresh(Path(importlib.util.cache_from_source(str(path))), path):
                result.compiled.append(path)
    return result


def _python_files(root: Path) -> Iterable[Path]:
    if root.is_file():
        return [root] if root.suffix == ".py" else []
    return (path for path in root.rglob("*.py") if "__pycache__" not in path.parts)


def write(caches: Stale, processes: int) -> None:
    """Write ``caches`` in ``processes`` processes at once (this file run as a script),
    each given about the same number of bytes of source."""
    shares: list[list[str]] = [[] for _ in range(max(1, processes))]
    sizes = [0] * len(shares)
    kinds = [("-r", path) for path in caches.rewritten] + [("-c", path) for path in caches.compiled]
    for kind, path in sorted(kinds, key=lambda item: -item[1].stat().st_size):
        lightest = sizes.index(min(sizes))
        shares[lightest] += [kind, str(path)]
        sizes[lightest] += path.stat().st_size
    running = [
        subprocess.Popen([sys.executable, __file__, *share], stdin=subprocess.DEVNULL)
        for share in shares
        if share
    ]
    for process in running:
        process.wait()


def warm(
    roots: Iterable[Path], test_patterns: Sequence[str], packages: Iterable[Path], processes: int
) -> None:
    """Write the stale caches under ``roots`` and ``packages`` in ``processes`` at once."""
    rw = rewriter()
    if isinstance(rw, str):
        return  # pytest changed: the workers rewrite, as without this module
    caches = stale(roots, test_patterns, packages, rw)
    if caches:
        write(caches, processes)


def _main(arguments: list[str]) -> None:
    """``-r FILE`` rewrites a test module, ``-c FILE`` compiles any other module."""
    rw = rewriter()
    for kind, name in zip(arguments[::2], arguments[1::2], strict=True):
        path = Path(name)
        if kind == "-c":
            # Timestamp pycs, as the import system writes (SOURCE_DATE_EPOCH would make hashes).
            timestamp = py_compile.PycInvalidationMode.TIMESTAMP
            py_compile.compile(name, doraise=False, quiet=2, invalidation_mode=timestamp)
        elif not isinstance(rw, str):
            try:
                # No config: the rewrite a config changes (enable_assertion_pass_hook) is
                # off, and tests/conftest.py warms nothing when it is on.
                source_stat, code = rw.rewrite(path, None)
            except Exception:  # pytest reports a broken module when it imports it
                continue
            rw.cache_dir(path).mkdir(parents=True, exist_ok=True)
            rw.write_pyc(_Trace(), code, source_stat, rw.pyc_of(path))


if __name__ == "__main__":
    _main(sys.argv[1:])
