"""Browser mode (``sia-tui web``): textual-serve behind a per-launch token (not headless)."""
