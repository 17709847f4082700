"""The eleven-step client procedure (RULES CP0-CP13), driven by the CLI and the TUI alike."""
