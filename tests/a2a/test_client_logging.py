"""An A2AClient leaves the process's loggers alone: the application installs log redaction
(the CLI's ``run``, the TUI app), and a client only adds its credentials to that filter."""

from __future__ import annotations

import base64
import logging
from collections.abc import Iterator
from typing import Any

import pytest

from sia_tui.core.a2a.client import A2AClient
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.redaction.redact import HTTP_LOGGERS, install_log_redaction

TOKEN = "tok-LOGCANARY-0123456789"


def _filters() -> dict[str, list[Any]]:
    return {name: list(logging.getLogger(name).filters) for name in HTTP_LOGGERS}


@pytest.fixture
def bare_http_loggers() -> Iterator[None]:
    """The HTTP loggers without any filter (an embedding program's), restored afterwards."""
    saved = _filters()
    for name, filters in saved.items():
        for found in filters:
            logging.getLogger(name).removeFilter(found)
    yield
    for name, filters in saved.items():
        logger = logging.getLogger(name)
        for found in list(logger.filters):
            logger.removeFilter(found)
        for found in filters:
            logger.addFilter(found)


@pytest.mark.usefixtures("bare_http_loggers")
async def test_constructing_a_client_leaves_the_http_loggers_filters_unchanged() -> None:
    before = _filters()
    client = A2AClient(ClientOptions(bearer=TOKEN, headers=(("X-Api-Key", TOKEN),)))
    await client.aclose()
    assert _filters() == before


@pytest.mark.usefixtures("bare_http_loggers")
async def test_a_client_adds_its_credentials_to_the_filter_the_application_installed(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The token, echoed base64-encoded in a response header httpcore logs at DEBUG."""
    caplog.set_level(logging.DEBUG, logger="httpcore.http11")
    install_log_redaction()
    client = A2AClient(ClientOptions(bearer=TOKEN))
    await client.aclose()
    echoed = base64.b64encode(TOKEN.encode()).decode()
    headers = [(b"X-Echo", echoed.encode())]
    logging.getLogger("httpcore.http11").debug(
        "receive_response_headers.complete return_value=%r", (b"HTTP/1.1", 200, b"OK", headers)
    )
    assert "receive_response_headers.complete" in caplog.text
    assert echoed not in caplog.text and "«redacted:authorization»" in caplog.text


@pytest.mark.usefixtures("bare_http_loggers")
async def test_a_token_issued_during_the_run_is_redacted_from_the_log_at_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """An OAuth2 token is in no option: once issued (``IssuedSecrets``), the installed filter
    redacts it from a body httpcore logs, and the run's redactor knows it too."""
    from sia_tui.core.redaction.issued import IssuedSecrets
    from sia_tui.core.redaction.redact import Redactor

    caplog.set_level(logging.DEBUG, logger="httpcore.http11")
    install_log_redaction()
    client = A2AClient(ClientOptions())
    client.issued.add(TOKEN, "access_token")
    await client.aclose()
    logging.getLogger("httpcore.http11").debug("receive_response_body %r", f'{{"t":"{TOKEN}"}}')
    assert "receive_response_body" in caplog.text
    assert TOKEN not in caplog.text and "«redacted:access_token»" in caplog.text
    issued = IssuedSecrets()
    issued.add(TOKEN, "access_token")
    redactor = Redactor.from_options(ClientOptions(), issued=issued.pairs())
    assert TOKEN not in redactor.text(f"echo {TOKEN}", "body")
    assert TOKEN not in repr(issued)


@pytest.mark.usefixtures("bare_http_loggers")
def test_a_cli_crash_report_redacts_a_token_issued_during_the_run() -> None:
    """The CLI's crash report is built after the run is gone: the token it fetched is
    redacted still (the log filter learned it when it was issued)."""
    import argparse

    from sia_tui.cli.flags import crash_redactor
    from sia_tui.core.redaction.crash import crash_report
    from sia_tui.core.redaction.issued import IssuedSecrets

    install_log_redaction()
    IssuedSecrets().add(TOKEN, "access_token")
    report = crash_report(RuntimeError(f"echoed {TOKEN}"), crash_redactor(argparse.Namespace()))
    assert "echoed" in report and TOKEN not in report
