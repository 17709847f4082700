"""Secrets: redaction by construction, the forms a secret hides in, and locations
without credentials."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sia_tui.core import lazy_api

if TYPE_CHECKING:  # type checkers read these; the table below is the run-time side
    from sia_tui.core.redaction.crash import crash_report as crash_report
    from sia_tui.core.redaction.redact import MIN_LITERAL_LENGTH as MIN_LITERAL_LENGTH
    from sia_tui.core.redaction.redact import RedactionHit as RedactionHit
    from sia_tui.core.redaction.redact import Redactor as Redactor
    from sia_tui.core.redaction.redact import install_log_redaction as install_log_redaction
    from sia_tui.core.redaction.redact import is_credential_header as is_credential_header
    from sia_tui.core.redaction.redact import placeholder as placeholder
    from sia_tui.core.redaction.userinfo import strip_credentials as strip_credentials
#: Public name -> the module that defines it (tests/test_layering.py holds it to the
#: imports above, which type checkers read).
_EXPORTS: dict[str, str] = {
    "MIN_LITERAL_LENGTH": "sia_tui.core.redaction.redact",
    "RedactionHit": "sia_tui.core.redaction.redact",
    "Redactor": "sia_tui.core.redaction.redact",
    "crash_report": "sia_tui.core.redaction.crash",
    "install_log_redaction": "sia_tui.core.redaction.redact",
    "is_credential_header": "sia_tui.core.redaction.redact",
    "placeholder": "sia_tui.core.redaction.redact",
    "strip_credentials": "sia_tui.core.redaction.userinfo",
}
__all__ = sorted(_EXPORTS)


if not TYPE_CHECKING:  # mypy then checks every name against the imports above

    def __getattr__(name: str) -> Any:
        return lazy_api.resolve(__name__, _EXPORTS, name)
