"""What a request asks, as the mock matches it: binding path, A2A method, skill, subject.

One function reads a request, recorded or live, so a recorded exchange and the request
that should replay it get equal keys by construction. The subject is the JCS digest of the
skill's arguments (RFC 8785, the digest the draft's documents use), the task a GetTask or
CancelTask names, or the task a follow-up message answers.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit

from sia_tui.core.errors import JsonInputError, SiaError
from sia_tui.core.exchange import Exchange
from sia_tui.core.jsonkit.canonical import digest_of
from sia_tui.core.jsonkit.strictjson import loads

#: Deepest request body read for a key (arguments nest; a request deeper was edited in).
MAX_KEY_DEPTH = 128
#: The HTTP+JSON routes (A2A 1.0 section 11.3) by the method they stand for; linear
#: patterns over a path the client sent (bounded by the server's URL limit).
_REST_SEND = re.compile(r"/message:(send|stream)\Z")
_REST_TASK = re.compile(r"/tasks/([^/:]+)(:cancel|:subscribe)?\Z")
_REST_METHODS = {
    "send": "SendMessage",
    "stream": "SendStreamingMessage",
    "": "GetTask",
    ":cancel": "CancelTask",
    ":subscribe": "SubscribeToTask",
}
#: JSON-RPC methods whose params name a task (1.0 and 0.3 spellings).
_TASK_METHODS = frozenset(
    {"GetTask", "CancelTask", "SubscribeToTask", "tasks/get", "tasks/cancel", "tasks/resubscribe"}
)
#: Subject prefixes: a digest of arguments is the only subject ``--match loose`` ignores.
ARGUMENTS = "arguments "
TASK = "task "
FOLLOW_UP = "follow-up on task "


@dataclass(frozen=True)
class RequestKey:
    """One request as the mock matches it."""

    path: str
    method: str
    skill: str | None = None
    subject: str = ""

    def loose(self) -> RequestKey:
        """The key ``--match loose`` compares: without the arguments' digest."""
        if self.subject.startswith(ARGUMENTS):
            return RequestKey(self.path, self.method, self.skill)
        return self

    def __str__(self) -> str:
        skill = f" skill {self.skill}" if self.skill is not None else ""
        subject = f" {self.subject}" if self.subject else ""
        where = "" if " " in self.method else f" at {self.path}"  # "GET /path" says it
        return f"{self.method}{skill}{subject}{where}"


def path_of(url: str) -> str:
    """The percent-decoded path of a recorded URL (sessions redact userinfo and queries)."""
    try:
        return unquote(urlsplit(url).path) or "/"
    except ValueError:
        return url


def request_key(http_method: str, path: str, body: bytes, max_bytes: int) -> RequestKey:
    """The key of a request: JSON-RPC by its body, HTTP+JSON by its route, else the raw
    HTTP method and path (a push config call, an OAuth2 token request, a card)."""
    value = json_body(body, max_bytes) if body else None
    if isinstance(value, dict) and value.get("jsonrpc") is not None:
        method = value.get("method")
        if isinstance(method, str):
            return call_key(path, method[:200], value.get("params"))
    if http_method == "POST" and (send := _REST_SEND.search(path)):
        return call_key(path, _REST_METHODS[send.group(1)], value)
    if (task := _REST_TASK.search(path)) is not None:
        method = _REST_METHODS[task.group(2) or ""]
        return RequestKey(path, method, subject=TASK + task.group(1)[:200])
    return RequestKey(path, f"{http_method} {path[:200]}")


def grpc_call_key(ex: Exchange, max_bytes: int) -> RequestKey:
    """The key of a recorded gRPC call: its method path and ProtoJSON request."""
    path = path_of(ex.url)
    return call_key(path, path.rpartition("/")[2][:200], json_body(ex.request_body, max_bytes))


def json_body(body: bytes, max_bytes: int) -> Any:
    """A request body read as JSON, bounded (None when it is not JSON)."""
    try:
        return loads(body, max_bytes=max_bytes, max_depth=MAX_KEY_DEPTH)
    except (JsonInputError, SiaError, ValueError, RecursionError):
        return None


def call_key(path: str, method: str, params: Any) -> RequestKey:
    """The key of an A2A call by its method and params (JSON-RPC, HTTP+JSON, gRPC as
    ProtoJSON: the three carry the same 1.0 members)."""
    if not isinstance(params, dict):
        return RequestKey(path, method)
    if method in _TASK_METHODS:
        task = params.get("id")
        return RequestKey(path, method, subject=TASK + str(task)[:200] if task else "")
    message = params.get("message")
    if not isinstance(message, dict):
        return RequestKey(path, method)
    parts = message.get("parts")
    parts = parts if isinstance(parts, list) else []
    call = next(
        (
            p["data"]
            for p in parts
            if isinstance(p, dict) and isinstance(p.get("data"), dict) and "skill" in p["data"]
        ),
        None,
    )
    skill = str(call["skill"])[:200] if call is not None else None
    task = message.get("taskId")
    if isinstance(task, str) and task:
        return RequestKey(path, method, skill, FOLLOW_UP + task[:200])
    # A plain message (no skill) is matched by its parts, which carry no generated ids.
    arguments = call.get("arguments") if call is not None else parts
    return RequestKey(path, method, skill, ARGUMENTS + _digest(arguments))


def _digest(value: Any) -> str:
    """The JCS digest of ``value``; a value JCS cannot write (a number beyond IEEE 754)
    by the SHA-256 of its sorted JSON, which is equal wherever the value is."""
    try:
        return digest_of(value)
    except (SiaError, ValueError, TypeError, OverflowError):
        import json

        text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
        return "sha256:" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
