"""A2A 1.0 client (with 0.3 tolerance) on httpx: cards, codecs, SSE, recorded exchanges."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sia_tui.core import lazy_api

if TYPE_CHECKING:  # type checkers read these; the table below is the run-time side
    from sia_tui.core.a2a.auth.plan import AuthPlan as AuthPlan
    from sia_tui.core.a2a.auth.plan import plan_for as plan_for
    from sia_tui.core.a2a.options import API_KEY_ENV as API_KEY_ENV
    from sia_tui.core.a2a.options import CLIENT_SECRET_ENV as CLIENT_SECRET_ENV
    from sia_tui.core.a2a.options import ClientOptions as ClientOptions
    from sia_tui.core.a2a.options import OAuth2Problem as OAuth2Problem
    from sia_tui.core.a2a.options import OAuth2Refused as OAuth2Refused
    from sia_tui.core.a2a.options import OAuth2Settings as OAuth2Settings
    from sia_tui.core.a2a.options import oauth2_credentials as oauth2_credentials
    from sia_tui.core.a2a.options import read_secret_file as read_secret_file
    from sia_tui.core.a2a.push.receiver import Delivery as Delivery
    from sia_tui.core.a2a.task_views import Artifact as Artifact
    from sia_tui.core.a2a.task_views import Message as Message
    from sia_tui.core.a2a.task_views import Part as Part
    from sia_tui.core.a2a.task_views import StreamEvent as StreamEvent
    from sia_tui.core.a2a.task_views import Task as Task
    from sia_tui.core.a2a.views import AgentCard as AgentCard
    from sia_tui.core.a2a.views import CardSkill as CardSkill
    from sia_tui.core.a2a.views import Interface as Interface
#: Public name -> the module that defines it (tests/test_layering.py holds it to the
#: imports above, which type checkers read).
_EXPORTS: dict[str, str] = {
    "API_KEY_ENV": "sia_tui.core.a2a.options",
    "AgentCard": "sia_tui.core.a2a.views",
    "Artifact": "sia_tui.core.a2a.task_views",
    "AuthPlan": "sia_tui.core.a2a.auth.plan",
    "CLIENT_SECRET_ENV": "sia_tui.core.a2a.options",
    "CardSkill": "sia_tui.core.a2a.views",
    "ClientOptions": "sia_tui.core.a2a.options",
    "Delivery": "sia_tui.core.a2a.push.receiver",
    "Interface": "sia_tui.core.a2a.views",
    "Message": "sia_tui.core.a2a.task_views",
    "OAuth2Problem": "sia_tui.core.a2a.options",
    "OAuth2Refused": "sia_tui.core.a2a.options",
    "OAuth2Settings": "sia_tui.core.a2a.options",
    "Part": "sia_tui.core.a2a.task_views",
    "StreamEvent": "sia_tui.core.a2a.task_views",
    "Task": "sia_tui.core.a2a.task_views",
    "oauth2_credentials": "sia_tui.core.a2a.options",
    "plan_for": "sia_tui.core.a2a.auth.plan",
    "read_secret_file": "sia_tui.core.a2a.options",
}
__all__ = sorted(_EXPORTS)


if not TYPE_CHECKING:  # mypy then checks every name against the imports above

    def __getattr__(name: str) -> Any:
        return lazy_api.resolve(__name__, _EXPORTS, name)
