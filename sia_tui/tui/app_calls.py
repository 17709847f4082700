"""The app as its services see it: the Textual calls they make, and ``@work`` for a service.

``SiaApp`` owns small services (``EngineActions``, ``SessionActions``, ``InvocationView``,
``Exports``); each is handed the app typed as a narrow Protocol built on ``AppCalls``, so
what a service may touch is written next to it and mypy checks ``SiaApp`` against it where
the app builds the service. A service is not a DOM node, so Textual's ``@work`` cannot run
its methods; ``app_work`` runs them as the app's workers, in the same groups and with the
same names, so "exclusive" cancels what it did when the methods were the app's own.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import partial, wraps
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, Protocol, TypeVar

if TYPE_CHECKING:
    from textual.message import Message
    from textual.notifications import SeverityLevel
    from textual.screen import Screen
    from textual.worker import Worker
    from textual.worker_manager import WorkerManager


class AppCalls(Protocol):
    """Textual's ``App`` calls a service makes (``notify`` is ``SafeOutputApp``'s door)."""

    @property
    def workers(self) -> WorkerManager: ...
    @property
    def current_mode(self) -> str: ...
    def notify(
        self, message: str, *, title: str = "", severity: SeverityLevel = "information"
    ) -> None: ...
    def withdraw_notices(self, title: str) -> None: ...
    def push_screen(
        self, screen: Screen[Any], callback: Callable[[Any], None] | None = None
    ) -> object: ...
    def switch_mode(self, mode: str) -> Awaitable[object]: ...
    def call_later(self, callback: Callable[..., Any], *args: Any, **kwargs: Any) -> bool: ...
    def call_from_thread(self, callback: Callable[..., Any], *args: Any, **kwargs: Any) -> Any: ...
    def post_message(self, message: Message) -> bool: ...


class Service(Protocol):
    """A service of the app: it reaches Textual through ``app``."""

    @property
    def app(self) -> object: ...


_S = TypeVar("_S", bound=Service)
_P = ParamSpec("_P")


def app_work(
    *, group: str, exclusive: bool = False, thread: bool = False
) -> Callable[[Callable[Concatenate[_S, _P], Any]], Callable[Concatenate[_S, _P], Worker[Any]]]:
    """Textual's ``@work`` for a service's method: the worker belongs to the service's app."""

    def decorator(
        method: Callable[Concatenate[_S, _P], Any],
    ) -> Callable[Concatenate[_S, _P], Worker[Any]]:
        @wraps(method)
        def start(service: _S, /, *args: _P.args, **kwargs: _P.kwargs) -> Worker[Any]:
            from textual.dom import DOMNode

            app = service.app
            assert isinstance(app, DOMNode)
            worker: Worker[Any] = app.run_worker(
                partial(method, service, *args, **kwargs),
                name=method.__name__,
                group=group,
                description=f"{method.__name__}()",
                exclusive=exclusive,
                thread=thread,
            )
            return worker

        return start

    return decorator
