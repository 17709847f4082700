"""The app is composed of services, not a chain of base classes, and its keys still reach them."""

from __future__ import annotations

import inspect

from textual.actions import parse
from textual.app import App
from textual.binding import Binding

from sia_tui.tui import app as app_module
from sia_tui.tui.app import SiaApp
from sia_tui.tui.safe_output import SafeOutputApp


def test_the_app_has_one_base_below_textual_and_owns_its_services() -> None:
    """A reader of ``SiaApp`` finds its features in the services it builds, not in five base
    classes sharing one ``self``: only ``SafeOutputApp`` (Textual's own toast and crash
    doors, which must be the App's methods) sits between it and Textual's ``App``."""
    assert SiaApp.__bases__ == (SafeOutputApp,)
    assert SafeOutputApp.__bases__ == (App,)
    built = inspect.getsource(SiaApp.__init__)
    for service in ("InvocationView", "SessionActions", "Exports", "EngineActions", "Connection"):
        assert f"{service}(self" in built, f"SiaApp does not build its {service}"
        assert inspect.isclass(getattr(app_module, service))


def test_every_key_of_the_app_names_an_action_the_app_has() -> None:
    """Textual looks a binding's action up on the App itself (``action_<name>``): a service
    method without its one-line ``action_`` on the app would make its key do nothing."""
    for binding in SiaApp.BINDINGS:
        assert isinstance(binding, Binding)
        namespace, name, _ = parse(binding.action)
        assert namespace == ""
        assert callable(getattr(SiaApp, f"action_{name}", None)), (binding.key, name)
