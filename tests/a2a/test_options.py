"""Client options: safe defaults and TLS settings turned into an SSL context."""

from __future__ import annotations

import ssl
from pathlib import Path

import pytest

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.a2a.recorder import ssl_context
from sia_tui.core.errors import TransportError


def test_defaults_are_safe() -> None:
    options = ClientOptions()
    assert (options.connect_timeout, options.read_timeout) == (5.0, 15.0)
    assert options.max_response_bytes == 8 * 1024 * 1024
    assert options.verify is True and options.follow_redirects is False
    assert options.allow_cross_origin is False and options.extensions is True
    context = ssl_context(options)  # httpx's verified default context, built once
    assert isinstance(context, ssl.SSLContext) and context is ssl_context(ClientOptions())
    assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname


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


def test_the_default_tls_context_is_built_once_per_trust_env() -> None:
    """Every client shares it (loading the CA bundle takes tens of ms); a client that must
    not read SSL_CERT_FILE gets its own."""
    from sia_tui.core.a2a import tls

    tls.warm_up(True)
    trusting = tls.default_tls(True)
    assert tls.default_tls(True) is trusting
    assert tls.default_tls(False) is not trusting
    assert trusting.verify_mode == ssl.CERT_REQUIRED and trusting.check_hostname
