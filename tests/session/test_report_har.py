"""HAR 1.2 of a session: valid for browser devtools, Charles and Insomnia, and redacted."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from sia_tui.core.a2a import ClientOptions
from sia_tui.core.exchange import Exchange
from sia_tui.core.session import har_of_run, save_session
from tests.support.sessions import (
    CANARIES,
    CANARY_ARGUMENT,
    canary_options,
    digest_card_run,
    run_session_cli,
)

_NUMBER = (int, float)


def _fields(obj: Any, where: str, spec: dict[str, type | tuple[type, ...]]) -> None:
    assert isinstance(obj, dict), where
    for name, kind in spec.items():
        assert name in obj, f"{where}.{name} is required by HAR 1.2"
        assert isinstance(obj[name], kind), f"{where}.{name}: {obj[name]!r}"


def _pairs(items: Any, where: str) -> None:
    assert isinstance(items, list), where
    for item in items:
        _fields(item, where, {"name": str, "value": str})


def check_har_1_2(har: Any) -> list[dict[str, Any]]:
    """The required members of HAR 1.2 (W3C draft "HTTP Archive (HAR) format"), with their
    types, as an importer reads them; returns the entries."""
    _fields(har, "har", {"log": dict})
    log = har["log"]
    _fields(log, "log", {"version": str, "creator": dict, "entries": list})
    assert log["version"] == "1.2"
    _fields(log["creator"], "log.creator", {"name": str, "version": str})
    for i, entry in enumerate(log["entries"]):
        at = f"entries[{i}]"
        spec: dict[str, type | tuple[type, ...]] = {"startedDateTime": str, "time": _NUMBER}
        spec |= {"request": dict, "response": dict}
        _fields(entry, at, spec)
        _fields(entry, at, {"cache": dict, "timings": dict})
        datetime.fromisoformat(entry["startedDateTime"])  # ISO 8601, as browsers write it
        request, response, timings = entry["request"], entry["response"], entry["timings"]
        _fields(request, f"{at}.request", {"method": str, "url": str, "httpVersion": str})
        _fields(request, f"{at}.request", {"cookies": list, "queryString": list})
        _fields(request, f"{at}.request", {"headersSize": int, "bodySize": int})
        _pairs(request["headers"], f"{at}.request.headers")
        _pairs(request["queryString"], f"{at}.request.queryString")
        if "postData" in request:
            _fields(request["postData"], f"{at}.request.postData", {"mimeType": str, "text": str})
        _fields(response, f"{at}.response", {"status": int, "statusText": str})
        _fields(response, f"{at}.response", {"httpVersion": str, "cookies": list})
        _fields(response, f"{at}.response", {"content": dict, "redirectURL": str})
        _fields(response, f"{at}.response", {"headersSize": int, "bodySize": int})
        _pairs(response["headers"], f"{at}.response.headers")
        _fields(response["content"], f"{at}.response.content", {"size": int, "mimeType": str})
        _fields(timings, f"{at}.timings", {"send": _NUMBER, "wait": _NUMBER, "receive": _NUMBER})
        assert all(timings[k] >= 0 for k in ("send", "wait", "receive")), timings
        optional = [timings.get(k, -1) for k in ("blocked", "dns", "connect", "ssl")]
        assert all(isinstance(v, _NUMBER) and (v == -1 or v >= 0) for v in optional)
    entries: list[dict[str, Any]] = log["entries"]
    return entries


def _har(run: Any = None, **kwargs: Any) -> list[dict[str, Any]]:
    text = har_of_run(run or digest_card_run(), canary_options(), [CANARY_ARGUMENT], **kwargs)
    assert not [c for c in CANARIES if c in text]
    return check_har_1_2(json.loads(text))


def test_every_exchange_is_an_entry_with_its_request_and_response() -> None:
    card, describe = _har()
    assert card["request"]["method"] == "GET"
    assert card["request"]["url"].endswith("/.well-known/agent-card.json?token=«redacted:token»")
    assert card["request"]["queryString"] == [{"name": "token", "value": "«redacted:token»"}]
    assert card["response"]["status"] == 200
    assert card["response"]["content"]["mimeType"] == "application/json"
    assert json.loads(card["response"]["content"]["text"])["name"] == "Reference"
    assert card["time"] == 3.5 and card["timings"]["wait"] == 3.5
    assert card["startedDateTime"] == "1970-01-01T00:00:01.000+00:00"
    assert describe["request"]["postData"]["mimeType"] == "application/json"
    assert "SendMessage" in describe["request"]["postData"]["text"]
    assert {"name": "Authorization", "value": "«redacted:authorization»"} in (
        describe["request"]["headers"]
    )


def test_a_transport_failure_is_an_entry_with_status_0_and_its_error() -> None:
    run = digest_card_run()
    run.exchanges[1] = replace(
        run.exchanges[1], status=None, response_headers=(), response_body=b"", events=()
    )
    run.exchanges[1] = replace(run.exchanges[1], error="connection refused")
    _, failed = _har(run)
    assert failed["response"]["status"] == 0
    assert failed["response"]["_error"] == "connection refused"


def test_a_grpc_call_is_a_pseudo_entry_that_says_so() -> None:
    run = digest_card_run()
    call = Exchange(
        seq=3,
        purpose="invoke",
        method="POST",
        url="grpc://127.0.0.1:9/a2a.v1.A2AService/SendMessage",
        request_headers=(("authorization", f"Bearer {CANARIES[1]}"),),
        request_body=b'{"request": {}}',
        status=5,
        events=(b'{"task": {}}',),
        elapsed_ms=2.0,
        message_sizes=(10, 20),
    )
    run.exchanges.append(call)
    *_, grpc = _har(run)
    assert grpc["response"]["status"] == 404  # NOT_FOUND as HTTP
    assert grpc["response"]["statusText"] == "gRPC NOT_FOUND (5)"
    assert grpc["response"]["content"]["text"] == '{"task": {}}'
    assert "gRPC call" in grpc["comment"] and "ProtoJSON" in grpc["comment"]


def test_report_format_har_writes_a_file_tools_import(tmp_path: Path) -> None:
    session = tmp_path / "s.session.json"
    save_session(digest_card_run(), canary_options(), session, secret_values=[CANARY_ARGUMENT])
    out = tmp_path / "s.har"
    # The status is the session's verdict: the digest-card run failed (1).
    assert run_session_cli(["report", str(session), "--format", "har", "-o", str(out)]) == 1
    text = out.read_text(encoding="utf-8")
    assert not [c for c in CANARIES if c in text]
    har = json.loads(text)
    assert har["log"]["creator"]["name"] == "sia-tui"
    assert len(check_har_1_2(har)) == 2


def test_report_har_to_stdout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    session = tmp_path / "s.session.json"
    save_session(digest_card_run(), ClientOptions(), session)
    assert run_session_cli(["report", str(session), "--format", "har"]) == 1
    assert len(check_har_1_2(json.loads(capsys.readouterr().out))) == 2


@pytest.mark.usefixtures("cli_wording")
def test_report_har_of_one_invocation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    session = tmp_path / "s.session.json"
    save_session(digest_card_run(), ClientOptions(), session)
    argv = ["report", str(session), "--format", "har", "--invocation"]
    assert run_session_cli([*argv, "1"]) == 1
    assert len(check_har_1_2(json.loads(capsys.readouterr().out))) == 2
    assert run_session_cli([*argv, "2"]) == 2  # the session holds one invocation
    assert "--invocation 2" in capsys.readouterr().err
