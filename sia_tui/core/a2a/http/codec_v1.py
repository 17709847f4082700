"""The A2A 1.0 codec: PascalCase JSON-RPC methods, member-discriminated parts, wrapper results."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from sia_tui.core.a2a.http.wire import (
    JSON_CONTENT_TYPE,
    REST_CONTENT_TYPE,
    WireRequest,
    check_operation,
    encode,
    new_message_id,
    rest_url,
    task_path,
)
from sia_tui.core.a2a.views import Interface, ProtocolBinding
from sia_tui.core.constants import EXTENSIONS_HEADER

METHODS = {
    "send": "SendMessage",
    "stream": "SendStreamingMessage",
    "get": "GetTask",
    "cancel": "CancelTask",
    "subscribe": "SubscribeToTask",
}


class CodecV1:
    """Requests for A2A 1.0 interfaces (JSON-RPC and HTTP+JSON)."""

    version = "1.0"

    def make_user_message(self, data: Any) -> dict[str, Any]:
        """One ROLE_USER message with a single data part (WIRE.md)."""
        return {
            "messageId": new_message_id(),
            "role": "ROLE_USER",
            "parts": [{"data": data, "mediaType": "application/json"}],
        }

    def make_text_message(self, text: str) -> dict[str, Any]:
        """One ROLE_USER message with a single text part (the plain A2A console)."""
        return {"messageId": new_message_id(), "role": "ROLE_USER", "parts": [{"text": text}]}

    def extension_headers(self, uri: str) -> list[tuple[str, str]]:
        """``A2A-Extensions`` only; 1.0 dropped the X- name."""
        return [(EXTENSIONS_HEADER, uri)]

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
        """The HTTP request for ``operation`` on ``iface``.

        ``return_immediately`` asks the agent not to wait for a final state (poll mode);
        ``push`` (``{url, token}``) registers a webhook inline, its task id left empty
        because the task does not exist yet (A2A 1.0 ``taskPushNotificationConfig``).
        """
        check_operation(iface, operation)
        sending: dict[str, Any] = {"message": message}
        configuration: dict[str, Any] = {}
        if return_immediately:
            configuration["returnImmediately"] = True
        if push is not None:
            configuration["taskPushNotificationConfig"] = push
        if configuration:
            sending["configuration"] = configuration
        if iface.binding == ProtocolBinding.JSONRPC:
            params: dict[str, Any] = (
                dict(sending) if operation in ("send", "stream") else {"id": task_id}
            )
            if iface.tenant:
                params["tenant"] = iface.tenant  # A2A 1.0 section 8.3.2: copy the tenant
            envelope = {
                "jsonrpc": "2.0",
                "id": rpc_id,
                "method": METHODS[operation],
                "params": params,
            }
            return WireRequest(
                operation, "POST", iface.url, encode(envelope), JSON_CONTENT_TYPE, rpc_id
            )
        if operation in ("send", "stream"):
            path = "/message:send" if operation == "send" else "/message:stream"
            return WireRequest(
                operation, "POST", rest_url(iface, path), encode(sending), REST_CONTENT_TYPE
            )
        assert task_id is not None
        if operation == "get":
            return WireRequest(operation, "GET", rest_url(iface, task_path(task_id)))
        return WireRequest(
            operation,
            "POST",
            rest_url(iface, task_path(task_id) + ":" + operation),
            b"{}",
            REST_CONTENT_TYPE,
        )

    def build_list(
        self, iface: Interface, *, rpc_id: int, page_size: int, page_token: str | None = None
    ) -> WireRequest:
        """ListTasks: one page of the agent's tasks (JSON-RPC, or ``GET /tasks``)."""
        check_operation(iface, "list")
        # A2A 1.0 lists tasks without their artifacts unless asked: the listing counts them
        # and opens a task read-only with them.
        params: dict[str, Any] = {"pageSize": page_size, "includeArtifacts": True}
        if page_token:
            params["pageToken"] = page_token
        if iface.binding == ProtocolBinding.JSONRPC:
            if iface.tenant:
                params["tenant"] = iface.tenant
            envelope = {"jsonrpc": "2.0", "id": rpc_id, "method": "ListTasks", "params": params}
            return WireRequest(
                "list", "POST", iface.url, encode(envelope), JSON_CONTENT_TYPE, rpc_id
            )
        query = {**params, "includeArtifacts": "true"}  # a query string spells it in text
        return WireRequest("list", "GET", rest_url(iface, "/tasks?" + urlencode(query)))


CODEC = CodecV1()
