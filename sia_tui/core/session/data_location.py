"""sia-tui's data dir, where the history, the TUI's recent targets and edits live.

A module of its own: the TUI names the dir as it starts, before (and often without)
reading the history.
"""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_data_dir

#: Environment variable that moves the data dir (tests, portable installs).
DATA_DIR_ENV = "SIA_TUI_DATA_DIR"


def data_dir() -> Path:
    """sia-tui's data dir: ``SIA_TUI_DATA_DIR``, else platformdirs' ``user_data_dir``.

    The history lives under it, and the TUI's recent targets and argument edits too.
    """
    return Path(os.environ.get(DATA_DIR_ENV) or user_data_dir("sia-tui", appauthor=False))
