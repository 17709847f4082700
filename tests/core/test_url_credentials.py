"""A location is shown and stored without its credentials (RULES SR7)."""

from __future__ import annotations

import pytest

from sia_tui.core.redaction.userinfo import strip_credentials


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("http://alice:s3cret@host:8080/card.json", "http://host:8080/card.json"),
        ("https://only-user@host/", "https://host/"),
        (
            "http://host/.well-known/agent-card.json?token=abc%2d123&x=1",
            "http://host/.well-known/agent-card.json?token=«redacted:token»&x=1",
        ),
        ("http://h/c?a=1&API_KEY=k-9#frag", "http://h/c?a=1&API_KEY=«redacted:api_key»#frag"),
        ("http://h/c?tokenizer=plain", "http://h/c?tokenizer=plain"),
        ("./cards/vendor.json", "./cards/vendor.json"),
        ("http://[::1", "http://[::1"),
    ],
)
def test_a_location_loses_userinfo_and_query_tokens(given: str, kept: str) -> None:
    assert strip_credentials(given) == kept
