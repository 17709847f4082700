"""One transport interface: every A2A binding behind ``Binding``, each call written once.

A developer adding a fourth binding, or changing how a call is recorded, touches the
binding and the one place the client chooses it; the calls themselves never ask which
binding they are on.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from sia_tui.core.a2a.card import parse_card
from sia_tui.core.a2a.views import BindingChoice, ProtocolBinding
from sia_tui.core.engine.steps.discovery import choose_interface
from sia_tui.core.task_state import TaskState

A2A = Path(__file__).resolve().parents[2] / "sia_tui" / "core" / "a2a"
#: The modules that write the A2A calls, and the one that chooses the binding.
CALLS = ("client.py", "client_tasks.py", "client_streams.py")
CHOOSER = "client_base.py"


def binding_questions(source: str) -> list[int]:
    """Lines that ask which binding an interface uses (``iface.binding`` read)."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Attribute)
        and node.attr == "binding"
        and isinstance(node.ctx, ast.Load)
        and isinstance(node.value, ast.Name)
        and node.value.id == "iface"
    ]


@pytest.mark.parametrize("name", CALLS)
def test_the_calls_never_ask_which_binding(name: str) -> None:
    """Each call is written once: no call module branches on the interface's binding."""
    source = (A2A / name).read_text(encoding="utf-8")
    assert binding_questions(source) == [], f"{name} asks which binding an interface uses"


def test_the_client_chooses_a_binding_in_one_place() -> None:
    """The binding of an interface is chosen once, in the client's state."""
    source = (A2A / CHOOSER).read_text(encoding="utf-8")
    assert len(binding_questions(source)) == 1


def test_a_user_binding_name_is_the_cards_protocol_binding() -> None:
    """The user's spellings (kept in sessions and reports) map to the card's names."""
    assert {c.value: c.protocol_binding.value for c in BindingChoice} == {
        "jsonrpc": "JSONRPC",
        "http-json": "HTTP+JSON",
        "grpc": "GRPC",
    }
    assert set(BindingChoice.__members__) == set(ProtocolBinding.__members__)


def test_choosing_a_binding_by_the_users_name() -> None:
    """``--binding http-json`` picks the card's HTTP+JSON interface, not the first one."""
    card = parse_card(
        {
            "name": "a",
            "supportedInterfaces": [
                {
                    "url": "https://a.example/rpc",
                    "protocolBinding": "JSONRPC",
                    "protocolVersion": "1.0",
                },
                {
                    "url": "https://a.example/rest",
                    "protocolBinding": "HTTP+JSON",
                    "protocolVersion": "1.0",
                },
                {"url": "a.example:50051", "protocolBinding": "GRPC", "protocolVersion": "1.0"},
            ],
        }
    )
    chosen = {name: choose_interface(card, name) for name in ("http-json", "grpc", None)}
    assert {name: i.url if i else None for name, i in chosen.items()} == {
        "http-json": "https://a.example/rest",
        "grpc": "a.example:50051",
        None: "https://a.example/rpc",
    }


def test_the_grpc_task_states_are_the_task_states() -> None:
    """The gRPC enum is spelled once: TaskState, in a2a.proto's order."""
    from sia_tui.core.a2a.grpc import messages as pb

    descriptor = pb.POOL.FindEnumTypeByName(f"{pb.PACKAGE}.TaskState")
    assert [v.name for v in descriptor.values] == [s.value for s in TaskState]
