"""Contract lock files (``sia-lock/1``): what ``sia-tui pin`` records and ``--lock`` reads.

Per agent and skill: the advertised skill_version and interface_digest and the document
itself, so a later run can tell an unchanged interface from one that drifted, and show the
structural diff. A lock is read as untrusted JSON (strict, bounded), and every pinned
document must still hash to its digest: a hand-edited lock is refused, never half-used.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import replace
from typing import Any

from sia_tui import __version__
from sia_tui.core.errors import JsonInputError
from sia_tui.core.jsonkit import strictjson
from sia_tui.core.jsonkit.canonical import digest_of
from sia_tui.core.trust.records import ContractLock, PinnedAgent, PinnedSkill, TrustFileError

#: The format this sia-tui writes and reads.
LOCK_FORMAT = "sia-lock/1"


def lock_document(lock: ContractLock) -> dict[str, Any]:
    """The lock file's JSON, agents and skills in the order they were pinned."""
    return {
        "format": LOCK_FORMAT,
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "tool": f"sia-tui {__version__}",
        "agents": [
            {
                "agent": agent.agent,
                "card": agent.card,
                "skills": [
                    {
                        "skill_id": s.skill_id,
                        "skill_version": s.skill_version,
                        "interface_digest": s.interface_digest,
                        "document": s.document,
                    }
                    for s in agent.skills
                ],
            }
            for agent in lock.agents
        ],
    }


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise TrustFileError(f"at {where}: expected a string")
    return value


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise TrustFileError(f"at {where}: expected an array")
    return value


def _skill(item: Any, where: str) -> PinnedSkill:
    if not isinstance(item, dict) or not isinstance(item.get("document"), dict):
        raise TrustFileError(f"at {where}: expected a skill with its document (an object)")
    skill = PinnedSkill(
        skill_id=_text(item.get("skill_id"), f"{where}/skill_id"),
        skill_version=_text(item.get("skill_version"), f"{where}/skill_version"),
        interface_digest=_text(item.get("interface_digest"), f"{where}/interface_digest"),
        document=item["document"],
    )
    if digest_of(skill.document) != skill.interface_digest:
        raise TrustFileError(
            f"at {where}: the pinned document does not hash to its interface_digest: the "
            "lock was edited after it was pinned; pin the skill again"
        )
    return skill


def lock_from_json(value: Any, source: str) -> ContractLock:
    """A lock from its parsed JSON; ``TrustFileError`` names the first problem's pointer."""
    if not isinstance(value, dict) or value.get("format") != LOCK_FORMAT:
        raise TrustFileError(f"{source}: not a {LOCK_FORMAT} lock (write one with sia-tui pin)")
    agents = []
    for i, item in enumerate(_list(value.get("agents"), f"{source}: /agents")):
        where = f"{source}: /agents/{i}"
        if not isinstance(item, dict):
            raise TrustFileError(f"at {where}: expected an object")
        skills = _list(item.get("skills"), f"{where}/skills")
        agents.append(
            PinnedAgent(
                agent=_text(item.get("agent"), f"{where}/agent"),
                card=_text(item.get("card"), f"{where}/card"),
                skills=tuple(_skill(s, f"{where}/skills/{j}") for j, s in enumerate(skills)),
            )
        )
    return ContractLock(agents=tuple(agents))


def read_lock(path: str) -> ContractLock:
    """``--lock``: the lock file at ``path``, checked whole, with the digest of its bytes."""
    try:
        data = strictjson.read_json_file(path)
        value = strictjson.loads(data, source=path)
    except JsonInputError as exc:
        raise TrustFileError(f"cannot read the lock: {exc}") from None
    lock = lock_from_json(value, path)
    return replace(lock, digest="sha256:" + hashlib.sha256(data).hexdigest())


def narrowed(lock: ContractLock, *, agent: str, card: str, skill_id: str) -> ContractLock:
    """``lock`` with only the entry a run of ``skill_id`` compares (:func:`find_pinned`
    finds the same entry in it, so a replay compares alike) and the lock's digest. A
    session keeps this: a lock of 12 MB made a session of 12 MB."""
    entry, pinned = find_pinned(lock, agent=agent, card=card, skill_id=skill_id)
    if entry is None:
        return ContractLock(digest=lock.digest)
    kept = replace(entry, skills=(pinned,) if pinned is not None else ())
    return ContractLock(agents=(kept,), digest=lock.digest)


def with_pinned(lock: ContractLock, pinned: PinnedAgent) -> ContractLock:
    """``lock`` with ``pinned``'s skills recorded: an agent pinned before (same card, or same
    name) keeps its other skills, and a skill pinned again is replaced."""
    agents = list(lock.agents)
    for index, agent in enumerate(agents):
        if agent.card == pinned.card or agent.agent == pinned.agent:
            new_ids = {s.skill_id for s in pinned.skills}
            kept = tuple(s for s in agent.skills if s.skill_id not in new_ids)
            agents[index] = replace(pinned, skills=kept + pinned.skills)
            return ContractLock(agents=tuple(agents))
    return ContractLock(agents=(*agents, pinned))


def find_pinned(
    lock: ContractLock, *, agent: str, card: str, skill_id: str
) -> tuple[PinnedAgent | None, PinnedSkill | None]:
    """The lock's entry for this agent (by card location, else by card name) and skill."""
    entry = pinned_agent(lock, agent=agent, card=card)
    if entry is None:
        return None, None
    return entry, next((s for s in entry.skills if s.skill_id == skill_id), None)


def pinned_agent(lock: ContractLock, *, agent: str, card: str) -> PinnedAgent | None:
    """The lock's entry for this agent: by card location, else by its one card name."""
    entry = next((a for a in lock.agents if a.card == card), None)
    if entry is None:
        named = [a for a in lock.agents if a.agent == agent]
        entry = named[0] if len(named) == 1 else None
    return entry
