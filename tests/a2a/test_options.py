"""Client options: safe defaults and TLS settings turned into an SSL context."""

from __future__ import annotations

import ssl
from pathlib import Path

import pytest

from sia_tui.core.a2a.http.recorder import ssl_context
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.errors import TransportError


def test_defaults_are_safe() -> None:
    options = ClientOptions()
    assert (options.connect_timeout, options.read_timeout) == (5.0, 15.0)
    assert options.max_response_bytes == 8 * 1024 * 1024
    assert options.verify is True and options.follow_redirects is False
    assert options.allow_cross_origin is False and options.extensions is True
    assert ssl_context(options) is True  # httpx's verified default context


def test_verify_off_gives_an_unverified_context() -> None:
    context = ssl_context(ClientOptions(verify=False))
    assert isinstance(context, ssl.SSLContext)
    assert context.verify_mode == ssl.CERT_NONE and not context.check_hostname


def test_unreadable_ca_file_is_a_transport_error(tmp_path: Path) -> None:
    with pytest.raises(TransportError, match="cannot load TLS files"):
        ssl_context(ClientOptions(verify=str(tmp_path / "missing-ca.pem")))
    with pytest.raises(TransportError, match="cannot load TLS files"):
        ssl_context(ClientOptions(cert=str(tmp_path / "missing-cert.pem")))


def test_options_are_immutable() -> None:
    options = ClientOptions()
    with pytest.raises(AttributeError):
        options.bearer = "x"  # type: ignore[misc]
