"""The reference agent against A2A 1.0 requirements the official TCK checks, on JSON-RPC,
HTTP+JSON and gRPC. Each test is named by the TCK requirement id it covers (the TCK's
``1.0-dev`` registry); the tests are ours, the TCK is not a dependency."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

import httpx
import pytest

from sia_tui.core.a2a.grpc import messages as pb
from sia_tui.core.a2a.grpc.runtime import grpc
from tests.support.agent_wire import V1, Agent
from tests.support.agents import StartAgent
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS

BINDINGS = ["jsonrpc", "rest", "grpc"]
#: InvalidParams as each binding writes it (A2A 1.0 section 5.4).
INVALID = {"jsonrpc": -32602, "rest": (400, "INVALID_PARAMS"), "grpc": "INVALID_ARGUMENT"}
PUSH_OFF = {
    "jsonrpc": -32003,
    "rest": (400, "PUSH_NOTIFICATION_NOT_SUPPORTED"),
    "grpc": "FAILED_PRECONDITION",
}
NOT_FOUND = {"jsonrpc": -32001, "rest": (404, "TASK_NOT_FOUND"), "grpc": "NOT_FOUND"}
_GRPC = {
    "ListTasks": ("ListTasksRequest", "ListTasksResponse"),
    "GetTask": ("GetTaskRequest", "Task"),
    "CreateTaskPushNotificationConfig": (
        "TaskPushNotificationConfig",
        "TaskPushNotificationConfig",
    ),
    "GetTaskPushNotificationConfig": (
        "GetTaskPushNotificationConfigRequest",
        "TaskPushNotificationConfig",
    ),
    "ListTaskPushNotificationConfigs": (
        "ListTaskPushNotificationConfigsRequest",
        "ListTaskPushNotificationConfigsResponse",
    ),
    "DeleteTaskPushNotificationConfig": ("DeleteTaskPushNotificationConfigRequest", None),
}


class Failure(Exception):
    """An A2A error as the binding wrote it: a JSON-RPC code, (HTTP status, reason) or a
    gRPC status code name."""

    def __init__(self, error: Any) -> None:
        super().__init__(error)
        self.error = error


class Caller:
    """One A2A method call on one binding of a running reference agent."""

    def __init__(self, http: httpx.AsyncClient, base: str, grpc_address: str | None) -> None:
        self.http, self.base, self.grpc_address = http, base, grpc_address

    async def __call__(self, binding: str, method: str, params: dict[str, Any]) -> Any:
        if binding == "jsonrpc":
            response = await Agent(self.http, self.base).rpc(method, params)
            body = response.json()
            if "error" in body:
                raise Failure(body["error"]["code"])
            return body["result"]
        if binding == "rest":
            return await self._rest(method, params)
        return await self._grpc(method, params)

    async def _rest(self, method: str, params: dict[str, Any]) -> Any:
        rest = self.base + "/a2a/rest"
        query = {k: str(v).lower() if isinstance(v, bool) else v for k, v in params.items()}
        if method == "ListTasks":
            response = await self.http.get(f"{rest}/tasks?{urlencode(query)}", headers=V1)
        elif method == "GetTask":
            task_id = query.pop("id")
            response = await self.http.get(f"{rest}/tasks/{task_id}?{urlencode(query)}", headers=V1)
        else:
            configs = f"{rest}/tasks/{params['taskId']}/pushNotificationConfigs"
            one = f"{configs}/{params.get('id')}"
            if method.startswith("Create"):
                response = await self.http.post(configs, content=json.dumps(params), headers=V1)
            elif method.startswith("List"):
                response = await self.http.get(configs, headers=V1)
            elif method.startswith("Get"):
                response = await self.http.get(one, headers=V1)
            else:
                response = await self.http.delete(one, headers=V1)
        body = response.json()
        if response.status_code != 200:
            raise Failure((response.status_code, body["error"]["details"][0]["reason"]))
        return body

    async def _grpc(self, method: str, params: dict[str, Any]) -> Any:
        request, answer = _GRPC[method]
        assert self.grpc_address is not None
        async with grpc.aio.insecure_channel(self.grpc_address) as channel:
            call: Any = channel.unary_unary(f"/{pb.SERVICE}/{method}")
            try:
                data = await call(pb.encode(request, params), metadata=(("a2a-version", "1.0"),))
            except grpc.aio.AioRpcError as exc:
                raise Failure(exc.code().name) from None
        return {} if answer is None else pb.decode(answer, data)


async def _failure(call: Any) -> Any:
    with pytest.raises(Failure) as caught:
        await call
    return caught.value.error


@pytest.fixture
def start(reference_agent: StartAgent, http: httpx.AsyncClient) -> Any:
    def started(**config: Any) -> tuple[Agent, Caller]:
        running = reference_agent(grpc_port=0, **config)
        return Agent(http, running.url), Caller(http, running.url, running.companion_address)

    return started


async def _text_task(agent: Agent, text: str, **message: Any) -> dict[str, Any]:
    """A plain-A2A task (a text message that names no skill), sent blocking."""
    body = {"message": {"messageId": f"m-{text}", "role": "ROLE_USER", "parts": [{"text": text}]}}
    body["message"].update(message)
    response = await agent.rpc("SendMessage", body)
    task: dict[str, Any] = response.json()["result"]["task"]
    return task


async def _completed_task(agent: Agent) -> dict[str, Any]:
    """A COMPLETED skill task with artifacts (Appendix B's skill)."""
    task = await agent.invoke("evaluate_resource_condition", APPENDIX_B_ARGUMENTS)
    assert task["status"]["state"] == "TASK_STATE_COMPLETED" and task["artifacts"]
    return task


@pytest.mark.parametrize("binding", BINDINGS)
async def test_core_list_002_filters_context_status_and_time(start: Any, binding: str) -> None:
    """ListTasks reads contextId, status and statusTimestampAfter; totalSize counts the
    tasks that match, not every task (a context that does not exist lists none)."""
    agent, call = start()
    first = await _text_task(agent, "one", contextId="ctx-a")
    second = await _text_task(agent, "two", contextId="ctx-a")
    done = await _completed_task(agent)

    nowhere = await call(binding, "ListTasks", {"contextId": "no-such-context"})
    assert nowhere.get("tasks", []) == [] and nowhere.get("totalSize", 0) == 0
    in_a = await call(binding, "ListTasks", {"contextId": "ctx-a"})
    assert [t["id"] for t in in_a["tasks"]] == [second["id"], first["id"]]
    assert in_a["totalSize"] == 2
    # The skill task and its describe_skill task completed; the two text tasks wait.
    completed = await call(binding, "ListTasks", {"status": "TASK_STATE_COMPLETED"})
    assert completed["totalSize"] == 2 and completed["tasks"][0]["id"] == done["id"]
    waiting = await call(binding, "ListTasks", {"status": "TASK_STATE_INPUT_REQUIRED"})
    assert [t["id"] for t in waiting["tasks"]] == [second["id"], first["id"]]
    after = await call(
        binding, "ListTasks", {"statusTimestampAfter": second["status"]["timestamp"]}
    )
    assert after["totalSize"] == 2 and after["tasks"][0]["id"] == done["id"]


@pytest.mark.parametrize("binding", BINDINGS)
async def test_core_list_005_artifacts_only_when_asked_and_history_limited(
    start: Any, binding: str
) -> None:
    """includeArtifacts defaults to false; historyLength keeps the most recent messages
    (0: none), on ListTasks and GetTask alike."""
    agent, call = start()
    done = await _completed_task(agent)

    plain = await call(binding, "ListTasks", {})
    assert [t.get("artifacts", []) for t in plain["tasks"]] == [[], []]
    full = await call(binding, "ListTasks", {"includeArtifacts": True})
    assert full["tasks"][0]["id"] == done["id"]
    assert len(full["tasks"][0]["artifacts"]) == len(done["artifacts"])
    short = await call(binding, "ListTasks", {"historyLength": 0})
    assert short["tasks"][0].get("history", []) == []
    one = await call(binding, "GetTask", {"id": done["id"], "historyLength": 1})
    assert len(one["history"]) == 1


#: Invalid ListTasks arguments, each with the bindings that can carry it: a gRPC enum cannot
#: carry an unknown state name, nor a gRPC Timestamp text.
_INVALID_LIST_ARGUMENTS: list[tuple[str, dict[str, Any], tuple[str, ...]]] = [
    ("page-size-0", {"pageSize": 0}, tuple(BINDINGS)),
    ("page-size-negative", {"pageSize": -1}, tuple(BINDINGS)),
    ("page-size-101", {"pageSize": 101}, tuple(BINDINGS)),
    ("status", {"status": "TASK_STATE_NONSENSE"}, tuple(b for b in BINDINGS if b != "grpc")),
    ("timestamp", {"statusTimestampAfter": "yesterday"}, tuple(b for b in BINDINGS if b != "grpc")),
    ("history", {"historyLength": -1}, tuple(BINDINGS)),
]


@pytest.mark.parametrize(
    ("binding", "params"),
    [
        pytest.param(binding, params, id=f"{binding}-{name}")
        for name, params, bindings in _INVALID_LIST_ARGUMENTS
        for binding in bindings
    ],
)
async def test_core_err_002_list_tasks_refuses_invalid_arguments(
    start: Any, binding: str, params: dict[str, Any]
) -> None:
    """Every binding refuses the same invalid ListTasks argument with InvalidParams:
    pageSize 0 is not "unset" (the proto's minimum is 1)."""
    _, call = start()
    assert await _failure(call(binding, "ListTasks", params)) == INVALID[binding]


@pytest.mark.parametrize("binding", BINDINGS)
async def test_core_err_002_get_task_refuses_negative_history_length(
    start: Any, binding: str
) -> None:
    agent, call = start()
    task = await _text_task(agent, "hello")
    params = {"id": task["id"], "historyLength": -1}
    assert await _failure(call(binding, "GetTask", params)) == INVALID[binding]


PUSH_CALLS = [
    ("CreateTaskPushNotificationConfig", {"url": "http://127.0.0.1:9/hook"}),
    ("GetTaskPushNotificationConfig", {"id": "c1"}),
    ("ListTaskPushNotificationConfigs", {}),
    ("DeleteTaskPushNotificationConfig", {"id": "c1"}),
]


@pytest.mark.parametrize("binding", BINDINGS)
@pytest.mark.parametrize(("method", "params"), PUSH_CALLS, ids=[m for m, _ in PUSH_CALLS])
async def test_core_cap_001_push_config_methods_without_push_answer_not_supported(
    start: Any, binding: str, method: str, params: dict[str, Any]
) -> None:
    """With push off (the card says pushNotifications false) each push notification
    config method is PushNotificationNotSupportedError, not "method not found"."""
    agent, call = start()
    assert (await agent.card())["capabilities"]["pushNotifications"] is False
    task = await _text_task(agent, "hello")
    failure = await _failure(call(binding, method, {"taskId": task["id"], **params}))
    assert failure == PUSH_OFF[binding]


@pytest.mark.parametrize("binding", BINDINGS)
async def test_push_create_get_list_del_001_manage_a_config(start: Any, binding: str) -> None:
    """PUSH-CREATE-001, PUSH-GET-001/002, PUSH-LIST-001, PUSH-DEL-001/002 with push on."""
    agent, call = start(push="on")
    task = await _text_task(agent, "hello")
    keys = {"taskId": task["id"]}
    created = await call(
        binding,
        "CreateTaskPushNotificationConfig",
        {**keys, "url": "http://127.0.0.1:9/hook", "token": "tok-1"},
    )
    assert created["taskId"] == task["id"] and created["url"] == "http://127.0.0.1:9/hook"
    assert created["id"] and created["token"] == "tok-1"
    config = {**keys, "id": created["id"]}
    assert await call(binding, "GetTaskPushNotificationConfig", config) == created
    listed = await call(binding, "ListTaskPushNotificationConfigs", keys)
    assert listed["configs"] == [created]
    await call(binding, "DeleteTaskPushNotificationConfig", config)
    await call(binding, "DeleteTaskPushNotificationConfig", config)  # idempotent
    assert (await call(binding, "ListTaskPushNotificationConfigs", keys)).get("configs", []) == []
    gone = await _failure(call(binding, "GetTaskPushNotificationConfig", config))
    assert gone == NOT_FOUND[binding]


async def test_push_create_001_a_created_config_receives_the_task_events(
    reference_agent: StartAgent, http: httpx.AsyncClient
) -> None:
    """A config created after the task started gets its later events, with its token."""
    from sia_tui.core.a2a.push.receiver import PushReceiver

    agent = Agent(http, reference_agent(push="on").url)
    task = await _text_task(agent, "first")
    hook = PushReceiver(token="tok-create", max_body_bytes=1 << 20)
    url = await hook.start()
    try:
        hook.expect(task["id"])
        config = {"taskId": task["id"], "url": url, "token": "tok-create"}
        created = (await agent.rpc("CreateTaskPushNotificationConfig", config)).json()["result"]
        assert created["taskId"] == task["id"]
        follow_up = {"messageId": "m-2", "role": "ROLE_USER", "parts": [{"text": "again"}]}
        await agent.rpc("SendMessage", {"message": {**follow_up, "taskId": task["id"]}})
        assert await hook.wait_for(lambda d: d.task_state is not None, timeout=10)
    finally:
        await hook.stop()
    delivery = hook.deliveries[0]
    assert delivery.token_ok and delivery.task_id_ok


@pytest.mark.parametrize("request_id", [{"a": 1}, [1], True, 1.5])
async def test_jsonrpc_fmt_001_an_id_json_rpc_does_not_allow_is_an_invalid_request(
    reference_agent: StartAgent, http: httpx.AsyncClient, request_id: Any
) -> None:
    """JSON-RPC 2.0 section 4: an id is a string, a number without fraction, or null."""
    url = reference_agent().url + "/a2a/jsonrpc"
    body = {"jsonrpc": "2.0", "id": request_id, "method": "ListTasks", "params": {}}
    answer = (await http.post(url, json=body, headers=V1)).json()
    assert answer["error"]["code"] == -32600 and answer["id"] is None
    assert "result" not in answer


@pytest.mark.parametrize(
    "body",
    [
        {"jsonrpc": "1.0", "id": "own-id", "method": "ListTasks"},
        {"jsonrpc": "2.0", "id": "own-id"},
        {"jsonrpc": "2.0", "id": "own-id", "method": 7},
    ],
    ids=["version", "no-method", "method-not-string"],
)
async def test_jsonrpc_fmt_001_an_invalid_request_gets_its_own_id_back(
    reference_agent: StartAgent, http: httpx.AsyncClient, body: dict[str, Any]
) -> None:
    url = reference_agent().url + "/a2a/jsonrpc"
    answer = (await http.post(url, json=body, headers=V1)).json()
    assert answer["error"]["code"] == -32600 and answer["id"] == "own-id"


@pytest.mark.parametrize("binding", ["jsonrpc", "rest"])
@pytest.mark.parametrize("message_id", [None, "", 7])
async def test_dm_msg_001_a_message_without_message_id_is_refused(
    reference_agent: StartAgent, http: httpx.AsyncClient, binding: str, message_id: Any
) -> None:
    """``Message.message_id`` is REQUIRED: InvalidParams, and no task is created."""
    agent = Agent(http, reference_agent().url, binding)
    message: dict[str, Any] = {"role": "ROLE_USER", "parts": [{"text": "hello"}]}
    if message_id is not None:
        message["messageId"] = message_id
    if binding == "jsonrpc":
        answer = (await agent.rpc("SendMessage", {"message": message})).json()
        assert answer["error"]["code"] == -32602
    else:
        response = await http.post(
            agent.rest_url + "/message:send", content=json.dumps({"message": message}), headers=V1
        )
        assert response.status_code == 400
    listed = (await agent.rpc("ListTasks", {})).json()["result"]
    assert listed["totalSize"] == 0


async def test_dm_serial_004_message_members_under_their_proto_names_are_read(
    reference_agent: StartAgent, http: httpx.AsyncClient
) -> None:
    """ProtoJSON parsers accept a field's proto name as well as its JSON name: a message
    with ``message_id`` and ``task_id`` is read, and continues its task."""
    agent = Agent(http, reference_agent().url, "rest")
    task = await _text_task(agent, "hello")
    message = {
        "message_id": "m-2",
        "task_id": task["id"],
        "role": "ROLE_USER",
        "parts": [{"text": "more"}],
    }
    response = await http.post(
        agent.rest_url + "/message:send", content=json.dumps({"message": message}), headers=V1
    )
    assert response.status_code == 200
    assert response.json()["task"]["id"] == task["id"]


async def test_dm_msg_001_grpc_message_without_message_id_is_refused(start: Any) -> None:
    _, call = start()
    running_grpc = call.grpc_address
    assert running_grpc is not None
    message = {"role": "ROLE_USER", "parts": [{"text": "hello"}]}
    async with grpc.aio.insecure_channel(running_grpc) as channel:
        send: Any = channel.unary_unary(f"/{pb.SERVICE}/SendMessage")
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await send(
                pb.encode("SendMessageRequest", {"message": message}),
                metadata=(("a2a-version", "1.0"),),
            )
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT


async def test_core_execution_mode_001_a_plain_text_message_is_a_conversation(
    reference_agent: StartAgent, http: httpx.AsyncClient
) -> None:
    """A text message naming no skill is a plain-A2A task: a blocking send returns at the
    interrupted state with the echo; a follow-up continues it; CancelTask ends it."""
    agent = Agent(http, reference_agent().url)
    task = await _text_task(agent, "hello")
    assert task["status"]["state"] == "TASK_STATE_INPUT_REQUIRED"
    assert task["status"]["message"]["parts"] == [{"text": "echo: hello"}]
    follow_up = {"messageId": "m-2", "role": "ROLE_USER", "parts": [{"text": "again"}]}
    params = {"message": {**follow_up, "taskId": task["id"]}}
    again = (await agent.rpc("SendMessage", params)).json()["result"]["task"]
    assert again["status"]["message"]["parts"] == [{"text": "echo: again"}]
    canceled = (await agent.rpc("CancelTask", {"id": task["id"]})).json()["result"]
    assert canceled["status"]["state"] == "TASK_STATE_CANCELED"


async def test_core_execution_mode_002_return_immediately_leaves_a_plain_task_working(
    reference_agent: StartAgent, http: httpx.AsyncClient
) -> None:
    agent = Agent(http, reference_agent().url)
    message = {"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": "long"}]}
    params = {"message": message, "configuration": {"returnImmediately": True}}
    task = (await agent.rpc("SendMessage", params)).json()["result"]["task"]
    polled = (await agent.rpc("GetTask", {"id": task["id"]})).json()["result"]
    assert polled["status"]["state"] == "TASK_STATE_WORKING"
    canceled = (await agent.rpc("CancelTask", {"id": task["id"]})).json()["result"]
    assert canceled["status"]["state"] == "TASK_STATE_CANCELED"


async def test_card_proto_002_grpc_interface_url_is_host_and_port(
    reference_agent: StartAgent, http: httpx.AsyncClient
) -> None:
    """A2A 1.0.2's corrected ``AgentInterface.url``: a gRPC address is "hostname:port",
    no scheme, no path."""
    running = reference_agent(grpc_port=0)
    card = await Agent(http, running.url).card()
    grpc_urls = [i["url"] for i in card["supportedInterfaces"] if i["protocolBinding"] == "GRPC"]
    assert grpc_urls == [running.companion_address]
    host, _, port = grpc_urls[0].rpartition(":")
    assert "://" not in grpc_urls[0] and host and port.isdigit()
