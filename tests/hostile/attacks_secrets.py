"""Attacks on redaction: the agent echoes every credential and argument it was sent, in
every escape form, wherever it may write text.

What it was sent: the bearer token (or the password of Basic auth, which is how httpx sends
URL userinfo), every ``X-*`` header and cookie, every query parameter, and every string of
the arguments. It remembers them, so a later answer (another describe_skill, a probe)
echoes what an earlier request carried.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import json
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from tests.hostile.honest import ARGUMENTS, Honest, agent_message, artifact, task
from tests.hostile.registry import Attack, register
from tests.hostile.server import Reply, Request
from tests.support.disguises import disguises
from tests.support.documents import INPUT_SCHEMA, reference

_MARK = "@@echo@@"
#: Per agent (one per server): every value it was sent so far.
_SENT: dict[int, list[str]] = {}


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _credentials(request: Request) -> list[str]:
    found = []
    for name, value in request.headers.items():
        scheme, _, token = value.partition(" ")
        if name == "authorization" and scheme.lower() == "basic":
            with contextlib.suppress(binascii.Error, UnicodeDecodeError):
                found.append(base64.b64decode(token).decode().partition(":")[2])
        elif name == "authorization":
            found.append(token)
        elif name.startswith("x-") or name == "cookie":
            found.append(value)
    found += [v for _, v in parse_qsl(urlsplit(request.path).query)]
    if request.body:
        envelope = request.json()
        with contextlib.suppress(KeyError, IndexError, TypeError):
            found += _strings(envelope["params"]["message"]["parts"][0]["data"]["arguments"])
    return [v for v in found if len(v) >= 8]


def _remember(request: Request, honest: Honest) -> list[str]:
    sent = _SENT.setdefault(id(honest), [])
    sent += [v for v in _credentials(request) if v not in sent]
    return sent


def _echo(values: list[str]) -> str:
    """A JSON string literal holding every value in every form (escapes left raw)."""
    return '"' + " ".join(f for v in values for f in disguises(v).values()) + '"'


def _with_echo(payload: Any, values: list[str]) -> bytes:
    return json.dumps(payload).replace(json.dumps(_MARK), _echo(values)).encode()


async def _card(request: Request, reply: Reply, honest: Honest) -> None:
    sent = _remember(request, honest)
    card = honest.card()
    card["description"] = _MARK
    card["provider"] = {"organization": _MARK, "url": "https://example.net/"}
    echo = " ".join(disguises(v)["base64"] for v in sent)
    await reply.body(_with_echo(card, sent), headers=[("X-Echo", echo)])


async def _describe(request: Request, reply: Reply, honest: Honest) -> None:
    sent = _remember(request, honest)
    answer = honest.describe_task()
    answer["status"]["message"] = agent_message(
        _MARK, "echo"
    )  # outside the document: the digest holds
    envelope = {"jsonrpc": "2.0", "id": request.rpc_id, "result": {"task": answer}}
    await reply.body(_with_echo(envelope, sent))


async def _invoke(request: Request, reply: Reply, honest: Honest) -> None:
    sent = _remember(request, honest)
    answer = honest.completed()
    answer["status"]["message"] = agent_message(_MARK, "echo")
    answer["artifacts"].append(artifact("echo", {"note": _MARK}, "a2"))
    envelope = {"jsonrpc": "2.0", "id": request.rpc_id, "result": {"task": answer}}
    await reply.body(_with_echo(envelope, sent))


async def _error(request: Request, reply: Reply, honest: Honest) -> None:
    """An agent error (RULES ERR6) whose message and details echo everything."""
    sent = _remember(request, honest)
    failed = task("TASK_STATE_FAILED")
    data = {"code": "input_invalid", "message": _MARK, "details": [{"message": _MARK}]}
    failed["status"]["message"] = {
        "role": "ROLE_AGENT",
        "messageId": "e",
        "parts": [{"data": data}],
    }
    envelope = {"jsonrpc": "2.0", "id": request.rpc_id, "result": {"task": failed}}
    await reply.body(_with_echo(envelope, sent))


register(
    Attack(
        "echo-secrets",
        "every credential and argument it was sent, echoed in every escape form",
        {"card": _card, "describe": _describe, "invoke": _invoke},
    )
)
register(
    Attack(
        "echo-secrets-failing",
        "the same, and the invocation fails with an error that echoes them",
        {"card": _card, "describe": _describe, "invoke": _error},
    )
)


def _publish_arguments(document: dict[str, Any]) -> None:
    """The input schema's example is the arguments a user sends (and may mark secret)."""
    schema = {**INPUT_SCHEMA, "examples": [ARGUMENTS]}
    document["input_schema"] = reference(schema, "https://example.net/schemas/in")


register(
    Attack(
        "echo-secrets-published",
        "the same, with the arguments also published as the input schema's example",
        {"card": _card, "describe": _describe, "invoke": _invoke},
        edit_document=_publish_arguments,
    )
)


async def _cookie_card(request: Request, reply: Reply, honest: Honest) -> None:
    """Credential headers an honest server sends too: a session cookie and a token."""
    await reply.json(
        honest.card(),
        headers=[
            ("Set-Cookie", "sid=cookie-value-123456; Path=/; HttpOnly"),
            ("X-Session-Token", "session-token-abcdef123456"),
        ],
    )


async def _obs_text_cookie(request: Request, reply: Reply, honest: Honest) -> None:
    """A Set-Cookie of obs-text bytes (a C1 control): no cookie can be sent back with it."""
    await reply.json(honest.card(), headers=[("Set-Cookie", "sid=\x9b31m\x85; Path=/")])


register(
    Attack(
        "credential-headers",
        "the card answer sets a cookie and a token header (benign, but redacted when saved)",
        {"card": _cookie_card},
    )
)
register(
    Attack(
        "cookie-obs-text",
        "a Set-Cookie whose value is C1 bytes: the next request must still be built",
        {"card": _obs_text_cookie},
    )
)
