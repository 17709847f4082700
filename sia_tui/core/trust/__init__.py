"""Trust anchors: Agent Card signatures (A2A 1.0 section 8.4) and the contract lock.

A room of the core, above ``a2a`` and ``interface`` and below the engine, which verifies a
card's signatures at step 1 and compares the interface with a lock at step 4. cli/ and
tui/ reach it through the engine API (``sia_tui.core.engine``). Only ``jws.py`` imports
the JOSE library, and only a module that verifies or makes a signature imports ``jws``.
"""
