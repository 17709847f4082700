"""An agent whose every string is live Textual markup and terminal escapes, for the TUI tour.

Markup that a widget parsed would run an action when the text is clicked (``@click``) or
crash the app when it does not parse (an unbalanced closing tag); the escapes would set the
window title, write the clipboard and clear the screen. The run still passes steps 1-11,
so every screen has something to show: card, skills and their examples, an extra skill the
extension advertises, a record kind, a result with a supporting record, a status message.
Streamed, the invocation is rejected instead, with an error object made of the payload.
"""

from __future__ import annotations

import json
from typing import Any

from tests.hostile.attacks_terminal import INJECT
from tests.hostile.honest import SKILL, Honest, agent_message, sse, task
from tests.hostile.registry import Attack, register
from tests.hostile.server import Reply, Request
from tests.support.documents import RECORD_SCHEMA, reference

#: What each action would do if its markup were parsed and clicked: write a file into the
#: working directory, close the app, show a toast.
ACTIONS = ("app.screenshot('pwned.svg','.')", "app.quit", "app.notify('PWNED')")
#: Every action over a few characters of text, then markup that does not parse at all.
MARKUP = "".join(f"[@click={action}]click-{n}[/]" for n, action in enumerate(ACTIONS)) + "[/oops]"
#: The whole payload: markup first (a click on a list row lands on it), escapes after.
HOSTILE = MARKUP + INJECT
#: A skill id of the card that the extension advertises too (the compose pickers list it).
EVIL_SKILL = "evil" + HOSTILE
#: The record kind the document declares and the record artifact's name.
KIND = "observation" + HOSTILE
#: The record artifact's id, which the result references.
RECORD = "record" + HOSTILE


def _card(card: dict[str, Any]) -> None:
    card["name"] = HOSTILE
    card["description"] = HOSTILE
    card["version"] = HOSTILE
    card["provider"] = {"organization": HOSTILE, "url": "http://x/" + HOSTILE}
    for skill in card["skills"]:
        if skill["id"] == SKILL:
            skill.update(
                name=HOSTILE,
                description=HOSTILE,
                tags=[HOSTILE],
                # The console puts the first one in its editor: an escape at its very start.
                examples=[INJECT + MARKUP, json.dumps({"text": HOSTILE})],
            )
    evil = {"id": EVIL_SKILL, "name": HOSTILE, "description": HOSTILE, "tags": [HOSTILE]}
    # Twice: one id for two options in the skill list.
    card["skills"] += [evil, dict(evil, examples=[HOSTILE])]
    params = card["capabilities"]["extensions"][0]["params"]
    # Well-formed, so the extension still advertises the skill under test.
    params["skills"].append(
        {"skill_id": EVIL_SKILL, "skill_version": "1.0", "interface_digest": "sha256:" + "0" * 64}
    )


def _document(document: dict[str, Any]) -> None:
    document["supporting_record_schemas"] = {KIND: reference(RECORD_SCHEMA)}


def answer() -> dict[str, Any]:
    """The completed task: a valid result that references a valid record, all of it text an
    agent chose."""
    result = {
        "artifactId": "result-1",
        "name": SKILL,
        "parts": [{"data": {"result": "condition_met", "supporting_record_refs": [RECORD]}}],
    }
    record = {
        "artifactId": RECORD,
        "name": KIND,
        "parts": [{"data": {"record_id": RECORD, "note": HOSTILE}}],
    }
    completed = task("TASK_STATE_COMPLETED", artifacts=[result, record])
    completed["status"]["message"] = agent_message(HOSTILE, message_id=HOSTILE)
    return completed


def rejected() -> dict[str, Any]:
    """A task rejected with the draft's error object (RULES ERR1), every string the payload."""
    error = {
        "code": "input_invalid",
        "message": HOSTILE,
        "details": [
            {key: HOSTILE for key in ("schema_path", "keyword", "expected", "actual")}
            | {"instance_path": "/" + HOSTILE}
        ],
    }
    answer = task("TASK_STATE_REJECTED")
    answer["status"]["message"] = {
        "role": "ROLE_AGENT",
        "messageId": "error",
        "parts": [{"data": error, "mediaType": "application/json"}],
    }
    return answer


async def _stream(request: Request, reply: Reply, honest: Honest) -> None:
    await reply.head(200, [("Content-Type", "text/event-stream")])
    await reply.write(sse(request, {"task": rejected()}))


async def _invoke(request: Request, reply: Reply, honest: Honest) -> None:
    await reply.rpc(request, {"task": answer()})


register(
    Attack(
        "inject-tui",
        "live markup (@click actions, a tag that does not parse) and escapes in every string",
        {"invoke": _invoke, "stream": _stream},
        edit_card=_card,
        edit_document=_document,
    )
)
