"""The step functions of the procedure: 1-3 (discovery), 4-6 (verification), 7-9
(invocation), 10-11 (results), and what they share (a streamed task assembled, the
draft error object read from an agent's answer)."""
