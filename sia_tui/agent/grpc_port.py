"""A grpc.aio server started on a port: the reference agent's gRPC binding and the mock's."""

from __future__ import annotations

from sia_tui.core.a2a.grpc.runtime import grpc


async def started_server(
    handler: grpc.GenericRpcHandler,
    host: str,
    port: int,
    tls: grpc.ServerCredentials | None = None,
) -> tuple[grpc.aio.Server, str]:
    """``handler`` served on ``host:port`` (0: a free port), with TLS when given ``tls``;
    the started server and the ``host:port`` it listens on (``OSError`` when unbound)."""
    server = grpc.aio.server()
    server.add_generic_rpc_handlers((handler,))
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    try:
        bound = server.add_secure_port(where, tls) if tls else server.add_insecure_port(where)
    except RuntimeError:  # grpc's word for a port it cannot bind
        bound = 0
    if bound == 0:
        raise OSError(f"the gRPC port cannot be bound (in use?) at {where}")
    await server.start()
    return server, f"[{host}]:{bound}" if ":" in host else f"{host}:{bound}"
