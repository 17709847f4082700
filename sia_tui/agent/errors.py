"""The A2A-level errors the reference agent answers, with their code on every binding."""

from __future__ import annotations

from sia_tui.core.errors import SiaError


class OperationError(SiaError):
    """An A2A-level error (not one of the draft's ten codes)."""

    def __init__(self, code: int, http_status: int, status: str, reason: str, message: str) -> None:
        super().__init__(message)
        self.code, self.http_status, self.status, self.reason = code, http_status, status, reason
        self.message = message


def task_not_found(task_id: object) -> OperationError:
    """A2A TaskNotFound (-32001 / 404)."""
    return OperationError(
        -32001, 404, "NOT_FOUND", "TASK_NOT_FOUND", f"Task not found: {str(task_id)[:100]}"
    )


def unsupported(message: str) -> OperationError:
    """A2A UnsupportedOperation (-32004 / 400)."""
    return OperationError(-32004, 400, "FAILED_PRECONDITION", "UNSUPPORTED_OPERATION", message)


def invalid_params(message: str) -> OperationError:
    """JSON-RPC -32602 / HTTP 400."""
    return OperationError(-32602, 400, "INVALID_ARGUMENT", "INVALID_PARAMS", message)


def push_not_supported() -> OperationError:
    """A2A PushNotificationNotSupported (-32003 / 400 / FAILED_PRECONDITION)."""
    return OperationError(
        -32003,
        400,
        "FAILED_PRECONDITION",
        "PUSH_NOTIFICATION_NOT_SUPPORTED",
        "Push Notification is not supported",
    )
