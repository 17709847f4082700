"""``python -m sia_tui``."""

from sia_tui.cli import main

raise SystemExit(main())
