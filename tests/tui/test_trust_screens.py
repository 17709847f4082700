"""The trust anchors on screen: signatures on the Overview, the lock on the Digests screen."""

from __future__ import annotations

from typing import Any

import pytest

from sia_tui.agent.faults import Fault
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.pin import pin_agent
from sia_tui.core.run.read_model import Target
from sia_tui.core.trust import jws
from sia_tui.core.trust.records import ContractLock, TrustAnchors
from sia_tui.tui.app import SiaApp
from sia_tui.tui.storage import UserDirs
from tests.support.agents import StartAgent
from tests.support.signing import anchors, jwks_server
from tests.support.tui import SIZE, settle, snapshot_app, static_text

SKILL = "evaluate_resource_condition"


@pytest.fixture
def signed_app(reference_agent: StartAgent, user_dirs: UserDirs) -> SiaApp:
    """The reference agent signing its card with a trusted key, and with one the user does
    not trust (a second signature whose jku points at a loopback server)."""
    key = jws.generate("ES256", "vendor-key-1")
    agent = reference_agent(sign_key=key)
    return snapshot_app(Target(agent.url, anchors=anchors(key)), dirs=user_dirs)


async def _drift_lock(start: StartAgent) -> ContractLock:
    pinned = await pin_agent(Target(start().url), ClientOptions(), [SKILL])
    assert pinned.pinned is not None
    return ContractLock(agents=(pinned.pinned,))


@pytest.fixture
async def drifted_app(reference_agent: StartAgent, user_dirs: UserDirs) -> SiaApp:
    lock = await _drift_lock(reference_agent)
    agent = reference_agent(fault=Fault.DRIFT_WRONG_BUMP)
    target = Target(agent.url, skill_id=SKILL, anchors=TrustAnchors(lock=lock))
    return snapshot_app(target, dirs=user_dirs)


async def test_the_overview_lists_each_signature_with_its_verdict(signed_app: SiaApp) -> None:
    async with signed_app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        text = static_text(signed_app, "#card-body")
        assert "Signatures (A2A 1.0 section 8.4)" in text
        assert "#0 vendor-key-1 ES256  verified (a2a-1.0)" in text


async def test_a_jku_is_shown_as_never_fetched(
    reference_agent: StartAgent, user_dirs: UserDirs
) -> None:
    key = jws.generate("EdDSA", "k")
    with jwks_server() as (url, hits):
        agent = reference_agent(sign_key={**key, "kid": "k"})
        app = snapshot_app(Target(agent.url), dirs=user_dirs)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            text = static_text(app, "#card-body")
        assert "unverifiable" in text and "no trusted keys were given" in text
        assert hits == []


async def test_the_digests_screen_shows_a_wrong_bump_and_its_diff(drifted_app: SiaApp) -> None:
    async with drifted_app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2", "r")
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        text = static_text(drifted_app, "#forensics")
        assert "Contract lock: wrong-bump" in text
        assert "a minor bump with breaking changes" in text
        assert "/input_schema/resolution/schema/properties/condition" in text


def test_snapshot_overview_with_a_verified_signature(snap_compare: Any, signed_app: SiaApp) -> None:
    """A tall terminal (120x64) shows the whole card: below 'Schema-interface extension' and
    its skills, 'Signatures (A2A 1.0 section 8.4)': '#0 vendor-key-1 ES256' and, in the
    match colour, 'verified (a2a-1.0)'."""
    assert snap_compare(signed_app, terminal_size=(120, 64), run_before=settle)


def test_snapshot_digests_with_a_wrong_bump(snap_compare: Any, drifted_app: SiaApp) -> None:
    """Step 4 failed: under the three-way table the panel reads 'Contract lock: wrong-bump'
    in the mismatch colour with why (1.0 -> 1.1, a minor bump with breaking changes, RULES
    SID2), 'diff from the pinned document: breaking' and the one breaking change at
    /input_schema/.../operator/enum."""

    async def to_digests(pilot: Any) -> None:
        await settle(pilot)
        await pilot.press("2", "r")
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)

    assert snap_compare(drifted_app, terminal_size=SIZE, run_before=to_digests)


async def test_the_overview_names_the_trusted_keys_not_tried(
    reference_agent: StartAgent, user_dirs: UserDirs
) -> None:
    """Six trusted keys under the signature's kid: the first four are tried (the first
    verifies), and the Overview's Signatures block names the two that were not."""
    key = jws.generate("ES256", "vendor-key-1")
    others = [jws.generate("ES256", "vendor-key-1") for _ in range(5)]
    agent = reference_agent(sign_key=key)
    app = snapshot_app(Target(agent.url, anchors=anchors(key, *others)), dirs=user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        text = " ".join(static_text(app, "#card-body").split())
    assert "#0 vendor-key-1 ES256 verified (a2a-1.0)" in text
    assert "2 of the 6 trusted keys with kid vendor-key-1 not tried:" in text
    assert "key 5 (past the 4 tried per kid); key 6 (past the 4 tried per kid)" in text
