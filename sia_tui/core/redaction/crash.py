"""A crash as it may be printed: the traceback without a local variable, secrets redacted.

Textual's crash screen lists every frame's local variables, and the bearer token, an API
key and a URL's password are locals of the code that sends them. The standard traceback
shows none; what it does show (the code, each exception's message, chained ones too) may
still quote a secret, so it passes the same ``Redactor`` as a saved session.
"""

from __future__ import annotations

import traceback

from sia_tui.core.redaction.redact import Redactor


def crash_report(error: BaseException, *redactors: Redactor) -> str:
    """The traceback of ``error`` (and the exceptions it chains), no locals, through each
    redactor (one per set of credentials: a plugfest has one per agent)."""
    text = "".join(traceback.format_exception(error))
    for redactor in redactors:
        text = redactor.text(text, "traceback")
    return text
