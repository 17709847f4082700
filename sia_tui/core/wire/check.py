"""The wire check: every A2A message of an exchange against its revision's JSON Schema.

Each exchange is checked from what it recorded (the raw bytes, each stream event, gRPC
messages as ProtoJSON), so a live run, a replayed session and a bug report give the same
verdict. The message kind comes from the binding and the operation: the card, the
JSON-RPC envelope of each method, HTTP+JSON's bodies by path, a gRPC method's messages.

Agent text is untrusted: it is parsed by the strict loader (bounded size and depth), the
schemas check no deeper than the A2A envelope (a Part's ``data`` is any JSON), the engine
keeps at most ``limits.MAX_FINDINGS`` errors per message and this module at most
``limits.MAX_WIRE_ISSUES`` per exchange, and nothing here raises on what an agent sent.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any
from urllib.parse import urlsplit

from sia_tui.core import limits
from sia_tui.core.bounded import MORE_RULE, MoreFindings
from sia_tui.core.constants import VERSION_HEADER
from sia_tui.core.errors import SiaError
from sia_tui.core.exchange import Exchange
from sia_tui.core.findings import Finding
from sia_tui.core.jsonkit.pointer import escape, resolve, split
from sia_tui.core.jsonkit.strictjson import loads
from sia_tui.core.schemas import CompiledSchema, compile_schema
from sia_tui.core.wire.revisions import A2A_0_3, A2A_1_0, wire_schema
from sia_tui.core.wire.verdict import WireIssue, WireSeverity, WireVerdict

#: The purpose under which the client records a card fetch (``A2AClient.get_card``).
CARD_PURPOSE = "agent card"
_CARD = "AgentCard"
_STREAM_EVENT = "StreamResponse"
_ERROR, _WARNING = WireSeverity.ERROR, WireSeverity.WARNING


@cache
def _defs(revision: str) -> dict[str, Any]:
    defs: dict[str, Any] = wire_schema(revision)["$defs"]
    return defs


def _reachable(defs: dict[str, Any], kind: str) -> dict[str, Any]:
    """The definitions ``kind`` refers to, directly or not: a kind's validator carries only
    these (the engine's error listing costs values x schema members)."""
    found: dict[str, Any] = {}
    todo = [kind]
    while todo:
        name = todo.pop()
        if name in found or name not in defs:
            continue
        found[name] = defs[name]
        stack: list[Any] = [defs[name]]
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                if (ref := _ref_of(node)) is not None:
                    todo.append(ref)
                stack.extend(node.values())
            elif isinstance(node, list):
                stack.extend(node)
    return found


@cache
def _validator(revision: str, kind: str) -> CompiledSchema:
    """The compiled validator of one kind (compiled once per process)."""
    defs = _reachable(_defs(revision), kind)
    return compile_schema({"$defs": defs, "$ref": "#/$defs/" + escape(kind)})


def _ref_of(schema: Any) -> str | None:
    ref = schema.get("$ref") if isinstance(schema, dict) else None
    return ref.rpartition("/")[2] if isinstance(ref, str) else None


def result_kind(method: str) -> str | None:
    """The message an A2A 1.0 method answers with (``GetTask`` -> ``Task``)."""
    envelope = _defs(A2A_1_0).get(f"JSONRPCResponse.{method}")
    return _ref_of(envelope["properties"]["result"]) if envelope else None


def params_kind(method: str) -> str | None:
    """The message an A2A 1.0 method is called with (``GetTask`` -> ``GetTaskRequest``)."""
    envelope = _defs(A2A_1_0).get(f"JSONRPCRequest.{method}")
    return _ref_of(envelope["properties"]["params"]) if envelope else None


def _field_name(revision: str, kind: str, member: str) -> str | None:
    properties = _defs(revision).get(kind, {}).get("properties", {})
    title = properties.get(member, {}).get("title") if isinstance(properties, dict) else None
    return title if isinstance(title, str) else None


def _located(schema_path: str) -> tuple[str, str | None]:
    """The kind (its ``$defs`` entry) and the member whose schema a path points into."""
    tokens = split(schema_path)
    kind, member = "", None
    for index, token in enumerate(tokens[:-1]):
        if token == "$defs":
            kind, member = tokens[index + 1], None
        elif token == "properties" and tokens[index - 1] != "properties" and kind:
            member = tokens[index + 1]
    return kind, member


def _names(text: str | None) -> list[str]:
    """Member names the engine listed (``expected``/``actual`` are compact JSON arrays)."""
    try:
        names = json.loads(text or "")
    except ValueError:
        return []
    return [n for n in names if isinstance(n, str)] if isinstance(names, list) else []


def _one_of(revision: str, kind: str) -> str:
    options = _defs(revision).get(kind, {}).get("oneOf", [])
    members = [m for option in options for m in option.get("required", [])]
    return ", ".join(members)


def _unknown_members(revision: str, kind: str, value: Any, pointer: str) -> list[str]:
    """The members of the object at ``pointer`` that ``kind`` does not define (the engine's
    own list is cut short when it is long)."""
    try:
        node = resolve(value, pointer)
    except (KeyError, IndexError, ValueError, TypeError):
        return []
    known = _defs(revision).get(kind, {}).get("properties", {})
    if not isinstance(node, dict):
        return []
    return [name for name in node if name not in known][: limits.MAX_WIRE_ISSUES]


def _issues(revision: str, where: str, base: str, finding: Finding, value: Any) -> list[WireIssue]:
    kind, member = _located(finding.schema_path or "")
    kind = kind or "message"
    pointer = base + finding.pointer
    keyword = finding.keyword or ""
    if keyword == "additionalProperties":
        names = _names(finding.actual) or _unknown_members(revision, kind, value, finding.pointer)
        return [
            WireIssue(
                _WARNING,
                where,
                f"{pointer}/{escape(name)}",
                kind,
                None,
                "unknown member",
                f"member {name!r} is not in A2A {revision}'s {kind}",
            )
            for name in names[: limits.MAX_WIRE_ISSUES]
        ] or [WireIssue(_WARNING, where, pointer, kind, None, "unknown member", finding.message)]
    if keyword == "required":
        missing = (_names(finding.expected) or ["?"])[0]
        field = _field_name(revision, kind, missing)
        return [
            WireIssue(
                _ERROR,
                where,
                f"{pointer}/{escape(missing)}",
                kind,
                field,
                "missing",
                f"required member {missing!r} is missing",
            )
        ]
    field = _field_name(revision, kind, member) if member else None
    if keyword == "oneOf":
        problem, message = "exactly one", f"must hold exactly one of {_one_of(revision, kind)}"
    elif keyword in ("enum", "const"):
        problem, message = "unknown value", f"{finding.actual} is not a value A2A {revision} knows"
    elif keyword == "type":
        problem = "wrong type"
        message = f"must be {finding.expected}, not {finding.actual}"
    elif keyword == "format":
        problem, message = "wrong format", f"{finding.actual} is not a {finding.expected} value"
    else:
        problem, message = keyword or "invalid", finding.message
    return [WireIssue(_ERROR, where, pointer, kind, field, problem, message)]


class _Collector:
    """The issues of one exchange, bounded: errors first, the rest counted."""

    def __init__(self, revision: str) -> None:
        self.revision = revision
        self.kinds: list[str] = []
        self.issues: list[WireIssue] = []
        #: Findings the engine counted without keeping them.
        self.uncounted = 0
        self.uncounted_errors = 0

    def check(self, where: str, kind: str, value: Any, base: str = "") -> None:
        if kind not in _defs(self.revision):
            return
        self.kinds.append(kind)
        try:
            findings = _validator(self.revision, kind).validate(value, depth_checked=True)
        except (SiaError, ValueError, TypeError, RecursionError) as exc:
            self.issues.append(
                WireIssue(_ERROR, where, base, kind, None, "not checkable", str(exc)[:200])
            )
            return
        for finding in findings:
            if isinstance(finding, MoreFindings):  # the engine's own cap: counted
                self.uncounted += finding.left_out
                self.uncounted_errors += finding.left_out_errors
            elif finding.rule != MORE_RULE:  # a note on what was listed is no wire issue
                self.issues.extend(_issues(self.revision, where, base, finding, value))

    def parse(self, where: str, raw: bytes) -> Any:
        """The JSON value of a message, or None (with an error) when it is not JSON."""
        try:
            return loads(raw)
        except SiaError as exc:
            self.issues.append(
                WireIssue(_ERROR, where, "", "message", None, "not JSON", str(exc)[:200])
            )
            return None

    def verdict(self) -> WireVerdict:
        ordered = sorted(self.issues, key=lambda i: i.severity is not _ERROR)
        kept = ordered[: limits.MAX_WIRE_ISSUES]
        left = ordered[limits.MAX_WIRE_ISSUES :]
        return WireVerdict(
            revision=self.revision,
            kinds=tuple(dict.fromkeys(self.kinds)),
            issues=tuple(kept),
            more=len(left) + self.uncounted,
            more_errors=sum(1 for i in left if i.severity is _ERROR) + self.uncounted_errors,
        )


def _revision_of(exchange: Exchange) -> str | None:
    version = exchange.header(VERSION_HEADER, response=False)
    if version is None:
        return None
    return A2A_0_3 if version.strip().startswith("0.") else A2A_1_0


def _http_operation(method: str, path: str) -> str | None:
    """The A2A operation of an HTTP+JSON request (both revisions: 0.3 adds ``/v1``)."""
    if path.endswith("/message:send"):
        return "SendMessage"
    if path.endswith("/message:stream"):
        return "SendStreamingMessage"
    if path.endswith(("/extendedAgentCard", "/card")):
        return "GetExtendedAgentCard"
    if "/tasks/" in path and "pushNotificationConfigs" not in path:
        if path.endswith(":cancel"):
            return "CancelTask"
        if path.endswith(":subscribe"):
            return "SubscribeToTask"
        return "GetTask" if method == "GET" else None
    return "ListTasks" if path.endswith("/tasks") and method == "GET" else None


#: What a 0.3 agent answers an operation with, by the 0.3 schema's names.
_RESULTS_0_3 = {
    "SendMessage": "SendMessageResponse",
    "SendStreamingMessage": _STREAM_EVENT,
    "SubscribeToTask": _STREAM_EVENT,
    "GetTask": "Task",
    "CancelTask": "Task",
    "GetExtendedAgentCard": _CARD,
}


def _result(revision: str, operation: str) -> str | None:
    return _RESULTS_0_3.get(operation) if revision == A2A_0_3 else result_kind(operation)


def _check_card(exchange: Exchange) -> WireVerdict | None:
    if exchange.status != 200 or exchange.truncated or not exchange.response_body:
        return None
    probe = _Collector(A2A_1_0)
    card = probe.parse("response", exchange.response_body)
    if isinstance(card, dict) and "supportedInterfaces" not in card and "url" in card:
        probe = _Collector(A2A_0_3)  # a 0.3 card: tolerated, checked as 0.3
    if card is not None:
        probe.check("response", _CARD, card)
    return probe.verdict()


def _check_jsonrpc(exchange: Exchange, collector: _Collector, request: dict[str, Any]) -> None:
    method = request.get("method")
    if not isinstance(method, str):
        return
    collector.check("request", f"JSONRPCRequest.{method}", request)
    bodies = [(f"event {n}", raw) for n, raw in enumerate(exchange.events, 1)]
    if not bodies and exchange.response_body and not exchange.truncated:
        bodies = [("response", exchange.response_body)]
    for where, raw in bodies:
        answer = collector.parse(where, raw)
        if answer is None:
            continue
        failed = isinstance(answer, dict) and "error" in answer and "result" not in answer
        collector.check(
            where, "JSONRPCErrorResponse" if failed else f"JSONRPCResponse.{method}", answer
        )


def _check_http(exchange: Exchange, collector: _Collector) -> None:
    operation = _http_operation(exchange.method, urlsplit(exchange.url).path)
    if operation is None:
        return
    revision = collector.revision
    sends = operation in ("SendMessage", "SendStreamingMessage")
    if sends and exchange.request_body:
        request = collector.parse("request", exchange.request_body)
        if request is not None:
            kind = "SendMessageRequest" if revision == A2A_1_0 else "MessageSendParams"
            collector.check("request", kind, request)
    result = _result(revision, operation)
    for n, raw in enumerate(exchange.events, 1):
        event = collector.parse(f"event {n}", raw)
        if event is not None:
            collector.check(f"event {n}", _STREAM_EVENT, event)
    if exchange.events or not exchange.response_body or exchange.truncated:
        return
    answer = collector.parse("response", exchange.response_body)
    if answer is None:
        return
    if exchange.status is not None and exchange.status >= 400:
        if revision == A2A_1_0:
            collector.check("response", "HTTPError", answer)
    elif result:
        collector.check("response", result, answer)


def _check_grpc(exchange: Exchange, collector: _Collector) -> None:
    method = exchange.url.rpartition("/")[2]
    params, result = params_kind(method), result_kind(method)
    for where, raw, kind in (("request", exchange.request_body, params),):
        if kind and raw:
            value = collector.parse(where, raw)
            if value is not None:
                collector.check(where, kind, value)
    for n, raw in enumerate(exchange.events, 1):
        event = collector.parse(f"event {n}", raw)
        if event is not None:
            collector.check(f"event {n}", _STREAM_EVENT, event)
    if exchange.status == 0 and not exchange.events and exchange.response_body and result:
        answer = collector.parse("response", exchange.response_body)
        if answer is not None:
            collector.check("response", result, answer)


def check_exchange(exchange: Exchange) -> WireVerdict | None:
    """The wire verdict of one exchange, or None when it carries no A2A message (a token
    endpoint, a transport failure before any answer)."""
    try:
        if exchange.purpose == CARD_PURPOSE:
            return _check_card(exchange)
        if exchange.grpc:
            collector = _Collector(A2A_1_0)
            _check_grpc(exchange, collector)
            return collector.verdict() if collector.kinds or collector.issues else None
        revision = _revision_of(exchange)
        if revision is None:
            return None
        collector = _Collector(revision)
        request = _request_object(exchange.request_body)
        if isinstance(request, dict) and "jsonrpc" in request:
            _check_jsonrpc(exchange, collector, request)
        else:
            _check_http(exchange, collector)
        return collector.verdict() if collector.kinds or collector.issues else None
    except (SiaError, ValueError, TypeError, KeyError, RecursionError) as exc:
        # RULES SR7: never crash on what an agent sent; say the check could not run.
        issue = WireIssue(_ERROR, "exchange", "", "message", None, "not checkable", str(exc)[:200])
        return WireVerdict(A2A_1_0, (), (issue,))


def _request_object(body: bytes) -> Any:
    if not body.lstrip().startswith(b"{"):
        return None
    try:
        return loads(body)
    except SiaError:
        return None


def check_push_body(body: str, revision: str = A2A_1_0) -> WireVerdict:
    """The wire verdict of one push delivery's body (A2A 1.0 posts a StreamResponse; a 0.3
    agent posts the Task)."""
    collector = _Collector(revision)
    value = collector.parse("push", body.encode())
    if value is not None:
        collector.check("push", _STREAM_EVENT if revision == A2A_1_0 else "Task", value)
    return collector.verdict()
