"""The A2A 0.3 codec: slash methods, ``kind`` discriminators, lowercase roles, REST under /v1."""

from __future__ import annotations

from typing import Any

from sia_tui.core.a2a.http.wire import (
    JSON_CONTENT_TYPE,
    WireRequest,
    check_operation,
    encode,
    new_message_id,
    rest_url,
    task_path,
)
from sia_tui.core.a2a.views import Interface, ProtocolBinding
from sia_tui.core.constants import EXTENSIONS_HEADER, LEGACY_EXTENSIONS_HEADER
from sia_tui.core.errors import A2AProtocolError

METHODS = {
    "send": "message/send",
    "stream": "message/stream",
    "get": "tasks/get",
    "cancel": "tasks/cancel",
    "subscribe": "tasks/resubscribe",
}


def _configuration(
    return_immediately: bool, push: dict[str, Any] | None, member: str
) -> dict[str, Any]:
    """0.3 agents may answer immediately unless asked to block (1.0 inverted the flag); a
    webhook goes in ``member`` (JSON-RPC ``pushNotificationConfig``, REST's proto field
    ``pushNotification``)."""
    configuration: dict[str, Any] = {"blocking": not return_immediately}
    if push is not None:
        configuration[member] = push
    return configuration


def to_proto03(message: dict[str, Any]) -> dict[str, Any]:
    """The 0.3 REST (ProtoJSON) form: enum role, ``content`` and ``{"data": {"data": ...}}``."""
    content = []
    for part in message.get("parts", []):
        if part.get("kind") == "data":
            content.append({"data": {"data": part.get("data")}})
        elif part.get("kind") == "text":
            content.append({"text": part.get("text")})
    proto = {
        "messageId": message.get("messageId"),
        "role": "ROLE_USER" if message.get("role") == "user" else "ROLE_AGENT",
        "content": content,
    }
    # A follow-up names the task it continues (A2A section 3.4.3).
    proto.update({k: message[k] for k in ("taskId", "contextId") if k in message})
    return proto


class CodecV03:
    """Requests for A2A 0.3 interfaces (JSON-RPC and the /v1 REST binding)."""

    version = "0.3"

    def make_user_message(self, data: Any) -> dict[str, Any]:
        """One ``user`` message with a single ``kind: data`` part."""
        return {
            "kind": "message",
            "messageId": new_message_id(),
            "role": "user",
            "parts": [{"kind": "data", "data": data}],
        }

    def make_text_message(self, text: str) -> dict[str, Any]:
        """One ``user`` message with a single ``kind: text`` part (the plain A2A console)."""
        return {
            "kind": "message",
            "messageId": new_message_id(),
            "role": "user",
            "parts": [{"kind": "text", "text": text}],
        }

    def extension_headers(self, uri: str) -> list[tuple[str, str]]:
        """Both names, as the SDK's 0.3 compat client sends them."""
        return [(EXTENSIONS_HEADER, uri), (LEGACY_EXTENSIONS_HEADER, uri)]

    def build(
        self,
        iface: Interface,
        operation: str,
        *,
        rpc_id: int,
        message: dict[str, Any] | None = None,
        task_id: str | None = None,
        return_immediately: bool = False,
        push: dict[str, Any] | None = None,
    ) -> WireRequest:
        """The HTTP request for ``operation`` on ``iface``."""
        check_operation(iface, operation)
        sending = operation in ("send", "stream")
        if iface.binding == ProtocolBinding.JSONRPC:
            params: dict[str, Any] = (
                {
                    "message": message,
                    "configuration": _configuration(
                        return_immediately, push, "pushNotificationConfig"
                    ),
                }
                if sending
                else {"id": task_id}
            )
            if iface.tenant:
                params["tenant"] = iface.tenant
            envelope = {
                "jsonrpc": "2.0",
                "id": rpc_id,
                "method": METHODS[operation],
                "params": params,
            }
            return WireRequest(
                operation, "POST", iface.url, encode(envelope), JSON_CONTENT_TYPE, rpc_id
            )
        if sending:
            assert message is not None
            path = "/v1/message:send" if operation == "send" else "/v1/message:stream"
            body = {
                "message": to_proto03(message),
                "configuration": _configuration(return_immediately, push, "pushNotification"),
            }
            return WireRequest(
                operation,
                "POST",
                rest_url(iface, path),
                encode(body),
                JSON_CONTENT_TYPE,
                proto03=True,
            )
        assert task_id is not None
        if operation == "get":
            return WireRequest(
                operation, "GET", rest_url(iface, "/v1" + task_path(task_id)), proto03=True
            )
        return WireRequest(
            operation,
            "POST",
            rest_url(iface, "/v1" + task_path(task_id) + ":" + operation),
            b"{}",
            JSON_CONTENT_TYPE,
            proto03=True,
        )

    def build_list(
        self, iface: Interface, *, rpc_id: int, page_size: int, page_token: str | None = None
    ) -> WireRequest:
        """A2A 0.3 has no ListTasks (1.0 added it): refused before anything is sent."""
        raise A2AProtocolError(
            "ListTasks does not exist in A2A 0.3 (it is new in 1.0): this agent's "
            "interface cannot list its tasks"
        )


CODEC = CodecV03()
