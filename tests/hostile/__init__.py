"""A hostile A2A agent and the tests that run sia-tui against it.

``server.py`` serves raw HTTP/1.1 on 127.0.0.1 (byte-level control), ``honest.py`` is the
correct agent every attack builds on, ``registry.py`` holds the attacks by name
(``attacks_wire.py``, ``attacks_content.py``), and ``measure.py`` runs ``sia-tui check`` in
a child process that reports its wall time and peak RSS. ``tui_tour.py`` drives the TUI
through every screen and keeps what it writes to the terminal (``test_tui_tour.py``), and
``tampering.py`` hand-edits a session file.
"""
