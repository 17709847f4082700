"""`sia-tui probe`: deliberately wrong requests, each graded against the draft's rules.

This package is the probe API the CLI and the TUI import (like ``sia_tui.core.engine``):
the engine that learns the interface and sends the probes, the typed report they read,
its JSON, JUnit and text forms, and probe sessions. Names load on first use
(``lazy_api``), so importing the API is light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sia_tui.core import lazy_api

if TYPE_CHECKING:  # the one list: type checkers read it, exports_of() reads it at run time
    from sia_tui.core.probe.prober import Prober as Prober
    from sia_tui.core.probe.report_json import REPORT_FORMAT as REPORT_FORMAT
    from sia_tui.core.probe.report_json import probe_to_json as probe_to_json
    from sia_tui.core.probe.report_junit import write_probe_junit as write_probe_junit
    from sia_tui.core.probe.report_text import observed_line as observed_line
    from sia_tui.core.probe.report_text import render_probe_text as render_probe_text
    from sia_tui.core.probe.results import DRAFT as DRAFT
    from sia_tui.core.probe.results import Grade as Grade
    from sia_tui.core.probe.results import Observation as Observation
    from sia_tui.core.probe.results import PlannedProbe as PlannedProbe
    from sia_tui.core.probe.results import ProbeKind as ProbeKind
    from sia_tui.core.probe.results import ProbeReport as ProbeReport
    from sia_tui.core.probe.results import ProbeResult as ProbeResult
    from sia_tui.core.probe.session import CheckedSession as CheckedSession
    from sia_tui.core.probe.session import ProbeReplay as ProbeReplay
    from sia_tui.core.probe.session import load_checked_session as load_checked_session
    from sia_tui.core.probe.session import probe_member as probe_member
    from sia_tui.core.probe.session import replay_probes as replay_probes
    from sia_tui.core.probe.session import report_from_session as report_from_session
    from sia_tui.core.probe.session import save_probe_session as save_probe_session
    from sia_tui.core.probe.session import session_run as session_run

#: Public name -> (module, attribute): the lines above, read once at import.
_EXPORTS = lazy_api.exports_of(__file__)
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    return lazy_api.resolve(__name__, _EXPORTS, name)
