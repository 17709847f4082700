"""Against an agent that is not ours: a2a-sdk 1.3.0's own GrpcHandler serving the schema-
interface peer, sync and streaming; and every ErrorInfo reason read as its A2A error."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import grpc.aio
import pytest
from a2a.types import a2a_pb2
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2  # type: ignore[import-untyped]

from sia_tui.cli import main
from sia_tui.core.a2a.client import A2AClient
from sia_tui.core.a2a.http.wire import A2A_ERRORS
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.a2a.views import Interface
from sia_tui.core.errors import A2AProtocolError
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS


@pytest.mark.parametrize("mode", ["sync", "stream"])
def test_check_passes_over_the_sdks_grpc_handler(
    sdk_grpc_agent_url: str, mode: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """All eleven steps over a2a-sdk's GrpcHandler: its ProtoJSON doubles (80.0) still hash
    and validate as the integers they were."""
    args = tmp_path / "args.json"
    args.write_text(json.dumps(APPENDIX_B_ARGUMENTS))
    argv = ["check", sdk_grpc_agent_url, "--skill", "evaluate_resource_condition"]
    argv += ["--args", str(args), "--binding", "grpc", "--mode", mode, "--json", "--no-cache"]
    code = main(argv)
    report = json.loads(capsys.readouterr().out)
    assert [s["status"] for s in report["steps"]] == ["passed"] * 11, report["error"]
    assert code == 0 and report["binding"] == "GRPC" and report["mode"] == mode
    assert report["result"]["result"] == "condition_not_met"


async def test_the_sdks_task_not_found_is_read_by_its_reason(sdk_grpc_agent_url: str) -> None:
    client = A2AClient(ClientOptions())
    async with client:
        card = await client.fetch_card(sdk_grpc_agent_url)
        (iface,) = [i for i in card.card.interfaces if i.binding == "GRPC"]
        with pytest.raises(A2AProtocolError, match="TASK_NOT_FOUND: TaskNotFoundError"):
            await client.get_task(iface, "no-such-task")


# -- every reason, from a server that answers each ------------------------------------------

_CODES = {"TASK_NOT_FOUND": grpc.StatusCode.NOT_FOUND, "INTERNAL_ERROR": grpc.StatusCode.INTERNAL}


async def _refuse(request: a2a_pb2.GetTaskRequest, context: grpc.aio.ServicerContext) -> None:  # type: ignore[type-arg]
    """Answers GetTask(id=REASON) with the A2A error of that reason, as a2a-sdk does."""
    reason = request.id
    code = _CODES.get(reason, grpc.StatusCode.FAILED_PRECONDITION)
    status = status_pb2.Status(code=code.value[0], message=f"refused: {reason}")
    detail = any_pb2.Any()
    detail.Pack(error_details_pb2.ErrorInfo(reason=reason, domain="a2a-protocol.org"))
    status.details.append(detail)
    context.set_trailing_metadata((("grpc-status-details-bin", status.SerializeToString()),))
    await context.abort(code, status.message)


@pytest.fixture
async def refusing_server() -> AsyncIterator[str]:
    server = grpc.aio.server()
    handler = grpc.unary_unary_rpc_method_handler(
        _refuse,
        request_deserializer=a2a_pb2.GetTaskRequest.FromString,
        response_serializer=a2a_pb2.Task.SerializeToString,
    )
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler("lf.a2a.v1.A2AService", {"GetTask": handler}),)
    )
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    try:
        yield f"127.0.0.1:{port}"
    finally:
        await server.stop(grace=None)


@pytest.mark.parametrize("reason", list(A2A_ERRORS))
async def test_each_error_info_reason_shows_as_its_a2a_error(
    refusing_server: str, reason: str
) -> None:
    """Six A2A errors share FAILED_PRECONDITION: the reason tells them apart."""
    client = A2AClient(ClientOptions())
    client.bind_card_location("http://127.0.0.1:1")
    async with client:
        with pytest.raises(A2AProtocolError) as error:
            await client.get_task(Interface(refusing_server, "GRPC", "1.0"), reason)
    name = A2A_ERRORS[reason][0]
    assert f"({reason}: {name})" in str(error.value) and error.value.code == reason
    assert json.loads(client.exchanges[0].response_body)["details"][0]["reason"] == reason


async def test_a_status_without_error_info_is_named_by_its_code(refusing_server: str) -> None:
    client = A2AClient(ClientOptions())
    client.bind_card_location("http://127.0.0.1:1")
    async with client:
        with pytest.raises(A2AProtocolError, match="UNIMPLEMENTED.*not an A2A 1.0 gRPC service"):
            await client.cancel(Interface(refusing_server, "GRPC", "1.0"), "t")
