"""W3C Trace Context syntax: traceparent read as a receiver must, tracestate checked as
W3C writes it before it is sent, and the CLI flags that set both."""

from __future__ import annotations

import pytest

from sia_tui.cli import main
from sia_tui.core.trace_context import (
    TraceContext,
    TraceStateError,
    checked_tracestate,
    new_span_id,
    parse_traceparent,
)

TRACE = "4bf92f3577b34da6a3ce929d0e0e4736"
SPAN = "00f067aa0ba902b7"


def test_a_traceparent_the_client_writes_parses_back() -> None:
    context = TraceContext.new("acme=1")
    span = new_span_id()
    [(name, value), state] = context.headers(span)
    assert name == "traceparent" and state == ("tracestate", "acme=1")
    parsed = parse_traceparent(value)
    assert parsed is not None and (parsed.trace_id, parsed.span_id) == (context.trace_id, span)
    assert len(context.trace_id) == 32 and len(span) == 16


@pytest.mark.parametrize(
    "value",
    [
        f"00-{TRACE}-{SPAN}-01",
        f" 00-{TRACE}-{SPAN}-00",
        f"cc-{TRACE}-{SPAN}-01-what-the-future-adds",
    ],
)
def test_valid_traceparents(value: str) -> None:
    parsed = parse_traceparent(value)
    assert parsed is not None and parsed.trace_id == TRACE and parsed.span_id == SPAN


@pytest.mark.parametrize(
    "value",
    [
        f"ff-{TRACE}-{SPAN}-01",  # version 255 is invalid
        f"00-{'0' * 32}-{SPAN}-01",  # an all-zero trace id
        f"00-{TRACE}-{'0' * 16}-01",  # an all-zero span id
        f"00-{TRACE.upper()}-{SPAN}-01",  # uppercase hex
        f"00-{TRACE}-{SPAN}-01-extra",  # version 00 has four fields
        f"cc-{TRACE}-{SPAN}-01extra",
        "00-abc-def-01",
        "",
    ],
)
def test_invalid_traceparents_are_ignored(value: str) -> None:
    assert parse_traceparent(value) is None


@pytest.mark.parametrize(
    "text",
    ["acme=1", "congo=t61rcWkgMzE,rojo=00f067aa0ba902b7", "a@b=x y", "k=v, ,j=w", "a-b_c*d/e=!"],
)
def test_valid_tracestates_pass_unchanged(text: str) -> None:
    assert checked_tracestate(text) == text


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("Acme=1", "key"),  # uppercase key
        ("acme", "no '='"),
        ("acme=", "value"),  # an empty value
        ("acme=a,b", "no '='"),
        ("acme=a\tb", "value"),  # a tab inside a value
        ("acme=a=b", "value"),
        ("acme=1,acme=2", "twice"),
        ("1acme=1", "key"),  # a simple key starts with a letter
        ("t@Sys=1", "key"),
        ("t@sysidlongerthan14=1", "key"),
        (",".join(f"k{n}=v" for n in range(33)), "32"),
        ("a=" + "x" * 600, "512"),
        ("", "no list member"),
    ],
)
def test_invalid_tracestates_are_refused_with_the_reason(text: str, why: str) -> None:
    with pytest.raises(TraceStateError, match=why):
        checked_tracestate(text)


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--tracestate", "Bad=1"], "--tracestate is not a W3C tracestate"),
        (["--tracestate", "acme=1", "--no-trace"], "drop --no-trace"),
    ],
)
def test_the_cli_refuses_a_tracestate_it_cannot_send(
    flags: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Usage errors (exit 2) before anything is sent: nothing listens at port 9."""
    code = main(["check", "http://127.0.0.1:9", "--no-cache", *flags])
    assert code == 2
    assert message in capsys.readouterr().err
