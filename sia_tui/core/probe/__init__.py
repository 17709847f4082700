"""`sia-tui probe`: deliberately wrong requests, each graded against the draft's rules."""
