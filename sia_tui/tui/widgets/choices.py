"""A checkbox that Enter never toggles.

On the Invoke screen Tab goes from the response-mode picker to the send-anyway box, and the
compact picker showed no focus: Enter meant for the picker armed send-anyway, turning the
next invocation into a deliberate negative test (``LiteralSelect`` now shows its focus).
"""

from __future__ import annotations

from textual.binding import Binding
from textual.widgets import Checkbox


class SpaceCheckbox(Checkbox, inherit_bindings=False):
    """A ``Checkbox`` toggled by Space or a click, never by Enter (a key that means "open"
    or "send" elsewhere)."""

    BINDINGS = [Binding("space", "toggle_button", "Toggle", show=False)]
