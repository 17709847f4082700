"""Before xdist's workers start, the caches they read are written once (tests/conftest.py,
tests/support/warm_caches.py): the rewritten test modules pytest reads, and the bytecode
of the other modules."""

from __future__ import annotations

import importlib.util
import marshal
import sys
import uuid
import warnings
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest

from tests import conftest
from tests.support.warm_caches import Rewriter, known_rewriter, rewriter

_TEST_MODULE = "def test_sum():\n    total = 1 + 1\n    assert total == 3\n"


def _rewriter_or_warn() -> Rewriter | None:
    """pytest's rewriter; if a pytest release changed it, a warning (not a failure: the
    suite is only slower on a clean clone) that the run's warnings summary shows."""
    found = rewriter()
    if isinstance(found, str):
        warnings.warn(f"The warm-up of bytecode caches is off: {found}", stacklevel=2)
        return None
    return found


def _a_checkout(root: Path) -> tuple[Path, Path]:
    """A test module (a name no other test imports) and a helper module under ``root``."""
    module = root / f"test_warmed_{uuid.uuid4().hex}.py"
    module.write_text(_TEST_MODULE)
    helper = root / "helper.py"
    helper.write_text("VALUE = 1\n")
    return module, helper


def test_pytest_reads_the_rewritten_module_that_the_controller_wrote(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hook xdist calls before its workers start writes the rewritten test module
    where pytest reads it, and pytest's own import of the module then rewrites nothing."""
    rw = _rewriter_or_warn()
    if rw is None:
        return
    module, helper = _a_checkout(tmp_path)
    config = SimpleNamespace(
        args=[str(tmp_path)],
        invocation_params=SimpleNamespace(dir=tmp_path),
        getoption={"assertmode": "rewrite"}.__getitem__,
        getini={"enable_assertion_pass_hook": False, "python_files": ["test_*.py"]}.__getitem__,
    )
    conftest.pytest_xdist_setupnodes(config)  # type: ignore[arg-type]

    pyc = rw.pyc_of(module)
    assert pyc.is_file(), "the controller wrote no rewritten test module"
    warmed = pyc.read_bytes()
    written = pyc.stat()
    assert Path(importlib.util.cache_from_source(str(helper))).is_file(), "nor compiled helpers"

    monkeypatch.syspath_prepend(tmp_path)
    try:
        imported = importlib.import_module(module.stem)
        read = pyc.stat()
        del sys.modules[module.stem]
        pyc.unlink()
        importlib.import_module(module.stem)  # pytest rewrites it and writes its own cache
    finally:
        sys.modules.pop(module.stem, None)
    # pytest writes its cache to a new file and renames it over the old one
    assert (read.st_ino, read.st_mtime_ns) == (written.st_ino, written.st_mtime_ns), (
        "pytest rewrote the module itself: the cache the controller wrote is not the one "
        "pytest reads"
    )
    with pytest.raises(AssertionError, match=r"assert 2 == 3"):
        imported.test_sum()  # the asserts in it are rewritten: a failure explains itself
    own = pyc.read_bytes()
    assert own[:16] == warmed[:16], "pytest's header (the source's mtime and size) differs"
    assert marshal.loads(own[16:]) == marshal.loads(warmed[16:]), "pytest's code differs"


def test_a_fresh_checkout_is_not_warmed_again(tmp_path: Path) -> None:
    """Once the caches are written, the next run finds nothing stale (a warm checkout pays
    a stat and a small read per file), including after pytest wrote a cache itself."""
    rw = _rewriter_or_warn()
    if rw is None:
        return
    from tests.support.warm_caches import stale, warm

    module, _ = _a_checkout(tmp_path)
    assert stale([tmp_path], ["test_*.py"], [], rw), "a new checkout has stale caches"
    warm([tmp_path], ["test_*.py"], [], processes=2)
    assert not stale([tmp_path], ["test_*.py"], [], rw)


def test_a_pytest_whose_rewriter_changed_is_not_used() -> None:
    """The warm-up uses four names of pytest's private rewriter: renamed or with other
    parameters, it says so and warms nothing (the workers rewrite, as without it)."""
    changed = ModuleType("rewrite")
    assert "gone" in str(known_rewriter(changed))

    def rewrite(fn: Path, config: object, extra: object) -> None: ...

    changed._rewrite_test = rewrite  # type: ignore[attr-defined]
    assert "_rewrite_test" in str(known_rewriter(changed))
