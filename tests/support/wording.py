"""The core's needs worded as the CLI words them, as under ``sia-tui COMMAND``."""

from __future__ import annotations

from contextlib import AbstractContextManager


def cli_words() -> AbstractContextManager[None]:
    """Needs worded as flags while the block runs (a library caller gets the plain words)."""
    from sia_tui.cli.needs import FLAGS
    from sia_tui.core.needs import use_wording

    return use_wording(FLAGS)
