"""The editor never offers an example that fails the input schema as if it were valid: it
starts with the first valid one and says which failed, or warns that the one it shows fails."""

from __future__ import annotations

import copy
from typing import Any

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.jsonkit.canonical import digest_of
from sia_tui.core.run.read_model import Target
from sia_tui.tui.engine_port import UpdateCallback
from sia_tui.tui.screens.invoke import InvokeScreen
from sia_tui.tui.storage import UserDirs
from sia_tui.tui.widgets.argument_editor import ArgumentEditor
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS
from tests.support.scripted_agent import BASE, DOCUMENT, ScriptedAgent, artifact, task
from tests.support.tui import SIZE, record_notices, settle, snapshot_app, wait_until

#: One type error at /condition/threshold.
WRONG_TYPE = {
    **APPENDIX_B_ARGUMENTS,
    "condition": {**APPENDIX_B_ARGUMENTS["condition"], "threshold": "eighty"},
}


def _document(examples: list[Any]) -> dict[str, Any]:
    document = copy.deepcopy(DOCUMENT)
    reference = document["input_schema"]
    reference["resolution"]["schema"]["examples"] = examples
    reference["digest"] = digest_of(reference["resolution"]["schema"])
    return document


class ExampleAgent(ScriptedAgent):
    """A scripted agent whose document's input schema has the examples a test gives."""

    def __init__(self, document: dict[str, Any]) -> None:
        digest = digest_of(document)
        payload = {"interface_digest": digest, "skill_interface": document}
        super().__init__(
            describe=lambda: task(
                "TASK_STATE_COMPLETED", artifacts=[artifact("d1", "describe_skill", payload)]
            )
        )
        self.digest = digest

    def card(self) -> dict[str, Any]:
        card = super().card()
        card["capabilities"]["extensions"][0]["params"]["skills"][0]["interface_digest"] = (
            self.digest
        )
        return card


async def _editor_start(examples: list[Any], user_dirs: UserDirs) -> tuple[str, list[str]]:
    """What the editor holds once opened after steps 1-6, and every notice shown."""
    agent = ExampleAgent(_document(examples))

    def build(target: Target, options: ClientOptions, on_update: UpdateCallback) -> Procedure:
        return Procedure(target, options, transport=agent.transport(), on_update=on_update)

    app = snapshot_app(Target(BASE), engine_factory=build, dirs=user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        told = record_notices(app)
        await pilot.press("2", "r")
        await settle(pilot)
        await pilot.press("5")
        screen = app.screen
        assert isinstance(screen, InvokeScreen)
        editor = screen.query_one(ArgumentEditor)
        await wait_until(pilot, lambda: not editor.read_only)
        await settle(pilot)
        return editor.text, told


async def test_the_editor_starts_with_the_first_valid_example_and_names_the_failing_one(
    user_dirs: UserDirs,
) -> None:
    text, told = await _editor_start([WRONG_TYPE, APPENDIX_B_ARGUMENTS], user_dirs)
    assert '"threshold": 80' in text and "eighty" not in text
    [notice] = [t for t in told if t.startswith("The editor starts with")]
    assert notice.startswith(
        "The editor starts with the input schema's examples[1], the first valid example"
    )
    assert "the input schema's examples[0] fails it at /condition/threshold" in notice


async def test_an_example_that_fails_is_offered_with_a_warning(user_dirs: UserDirs) -> None:
    text, told = await _editor_start([WRONG_TYPE], user_dirs)
    assert "eighty" in text  # nothing better to start from: shown, and said to fail
    [notice] = [t for t in told if t.startswith("The editor starts with")]
    assert notice.startswith(
        "The editor starts with the input schema's examples[0], which fails the input schema "
        "at /condition/threshold: "
    )
