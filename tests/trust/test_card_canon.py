"""The three canonicalizations of a card signature's payload (A2A 1.0 section 8.4.1)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from a2a.types import a2a_pb2
from google.api import field_behavior_pb2  # type: ignore[import-untyped]
from google.protobuf import json_format

from sia_tui.agent.a2a_wire import agent_card
from sia_tui.agent.config import AgentConfig
from sia_tui.agent.documents import build_documents
from sia_tui.core.trust.card_canon import _drop_empty, payload_bytes, payload_value
from sia_tui.core.trust.card_fields import (
    LIST,
    MAP,
    MESSAGE,
    MESSAGES,
    OPTIONAL_SCALAR,
    SCALAR,
    STRUCT,
)
from sia_tui.core.trust.records import Canonicalization
from tests.support.signing import CARD

#: A2A 1.0 section 8.4.1, "Example of Default Value Removal": the card and its bytes.
SPEC_CARD = {
    "name": "Example Agent",
    "description": "",
    "capabilities": {"streaming": False, "pushNotifications": False, "extensions": []},
    "skills": [],
}
SPEC_BYTES = (
    b'{"capabilities":{"pushNotifications":false,"streaming":false},'
    b'"description":"","name":"Example Agent","skills":[]}'
)


def test_a2a_1_0_reproduces_the_specifications_worked_example_byte_for_byte() -> None:
    assert payload_bytes(SPEC_CARD, Canonicalization.A2A_1_0) == SPEC_BYTES
    signed = {**SPEC_CARD, "signatures": [{"protected": "x", "signature": "y"}]}
    assert payload_bytes(signed, Canonicalization.A2A_1_0) == SPEC_BYTES


def test_the_three_canonicalizations_differ_where_the_dispute_is() -> None:
    """A2A#2122: REQUIRED empties stay (a2a-1.0), every empty goes (drop-empty), nothing
    goes (jcs-only); an implicit false is a default, an explicitly set optional is not."""
    spec = payload_value(CARD, Canonicalization.A2A_1_0)
    sdk = payload_value(CARD, Canonicalization.DROP_EMPTY)
    plain = payload_value(CARD, Canonicalization.JCS_ONLY)
    assert spec["description"] == "" and spec["skills"][0]["tags"] == []
    assert "required" not in spec["capabilities"]["extensions"][0]
    assert spec["capabilities"]["streaming"] is False
    assert "securityRequirements" not in spec
    assert spec["capabilities"]["extensions"][0]["params"] == {"a": ""}  # a Struct as served
    assert "description" not in sdk and "tags" not in sdk["skills"][0]
    assert "params" not in sdk["capabilities"]["extensions"][0]
    assert sdk["capabilities"]["streaming"] is False
    assert plain == CARD
    assert len({payload_bytes(CARD, how) for how in Canonicalization}) == 3


def test_unknown_members_are_kept_by_a2a_1_0_and_dropped_by_drop_empty() -> None:
    card = {**CARD, "url": "https://legacy.example", "x-vendor": {"k": 1}}
    assert payload_value(card, Canonicalization.A2A_1_0)["x-vendor"] == {"k": 1}
    assert "url" not in payload_value(card, Canonicalization.DROP_EMPTY)


def _descriptor_table() -> dict[str, dict[str, tuple[Any, bool, str | None]]]:
    """The table card_fields.py should hold, read from the a2a-sdk's AgentCard descriptors."""
    table: dict[str, dict[str, tuple[Any, bool, str | None]]] = {}

    def visit(message: Any) -> None:
        name = message.name
        if name in table:
            return
        table[name] = {}
        for f in message.fields:
            required = (
                field_behavior_pb2.REQUIRED
                in f.GetOptions().Extensions[field_behavior_pb2.field_behavior]
            )
            sub = f.message_type
            if sub is not None and sub.GetOptions().map_entry:
                value = sub.fields_by_name["value"].message_type
                table[name][f.json_name] = (MAP, required, value.name if value else None)
                if value is not None:
                    visit(value)
            elif f.is_repeated:
                table[name][f.json_name] = (LIST, required, sub.name if sub else None)
                if sub is not None:
                    visit(sub)
            elif sub is not None and sub.full_name == "google.protobuf.Struct":
                table[name][f.json_name] = (STRUCT, required, None)
            elif sub is not None:
                table[name][f.json_name] = (MESSAGE, required, sub.name)
                visit(sub)
            else:
                shape = OPTIONAL_SCALAR if f.has_presence else SCALAR
                table[name][f.json_name] = (shape, required, None)

    visit(a2a_pb2.AgentCard.DESCRIPTOR)
    return table


def test_the_field_table_is_the_a2a_sdks_agent_card() -> None:
    """card_fields.py was read from a2a.proto: REQUIRED, presence and shape of every field."""
    ours = {
        message: {name: (f.shape, f.required, f.of) for name, f in fields.items()}
        for message, fields in MESSAGES.items()
    }
    assert ours == _descriptor_table()


def _sdk_drop_empty(card: dict[str, Any]) -> Any:
    """What a2a-sdk 1.3.0 signs: ProtoJSON of the parsed card, signatures out, empties out."""
    message = json_format.ParseDict(card, a2a_pb2.AgentCard(), ignore_unknown_fields=True)
    written = json_format.MessageToDict(message)
    written.pop("signatures", None)
    return _drop_empty(written)


@pytest.mark.parametrize(
    "card",
    [
        CARD,
        SPEC_CARD,
        agent_card(AgentConfig(), build_documents(AgentConfig()), "http://127.0.0.1:1"),
        {**CARD, "provider": {"url": "", "organization": "o"}, "iconUrl": ""},
    ],
    ids=["disputed", "spec-example", "reference-agent", "explicit-empties"],
)
def test_drop_empty_is_what_the_a2a_sdk_signs(card: dict[str, Any]) -> None:
    """The ProtoJSON step is the SDK's own serializer (unknown fields, defaults, presence);
    JCS makes its float numbers and our integers the same bytes."""
    ours = payload_bytes(card, Canonicalization.DROP_EMPTY)
    sdk = _sdk_drop_empty(json.loads(json.dumps(card)))
    theirs = payload_bytes({"x": sdk}, Canonicalization.JCS_ONLY)
    assert b'{"x":' + ours + b"}" == theirs
