"""The read model of a run: what a run of the procedure recorded, and every answer it gives.

``Run`` (``read_model.py``) is what the TUI, ``check``, the reports, sessions, the probe,
the matrix and the bug report read; the engine (``sia_tui.core.engine``) writes it. Nothing
here sends a request or drives a step.
"""
