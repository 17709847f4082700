"""Fixtures for the A2A client tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest

from sia_tui.core.a2a.client import A2AClient
from sia_tui.core.a2a.options import ClientOptions
from tests.support.mock_a2a import Handler, Recorder


@pytest.fixture
def make_client() -> Callable[..., tuple[A2AClient, Recorder]]:
    """Build a client on a MockTransport: ``client, agent = make_client(handler, **options)``."""

    def build(handler: Handler, **options: Any) -> tuple[A2AClient, Recorder]:
        agent = Recorder(handler)
        client = A2AClient(ClientOptions(**options), transport=httpx.MockTransport(agent))
        return client, agent

    return build
