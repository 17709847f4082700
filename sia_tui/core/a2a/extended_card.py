"""GetExtendedAgentCard: what the extended card adds to the public one.

The request per binding and dialect is built in ``http/extended_card.py`` (gRPC has none).
"""

from __future__ import annotations

from sia_tui.core.a2a.views import AgentCard

#: The operation name an exchange of this call is recorded under.
PURPOSE = "extended agent card"
#: Top-level members whose change is not worth a line (the signatures cover the public card).
_IGNORED = frozenset({"signatures"})


def what_it_adds(public: AgentCard, extended: AgentCard) -> str:
    """One line: the skills the extended card adds (or drops) and the members it changes."""
    before = {s.id for s in public.skills}
    after = {s.id for s in extended.skills}
    parts = []
    if added := sorted(after - before):
        parts.append(f"adds skills {', '.join(added[:20])}")
    if dropped := sorted(before - after):
        parts.append(f"drops skills {', '.join(dropped[:20])}")
    changed = sorted(
        name
        for name in set(public.raw) | set(extended.raw)
        if name not in _IGNORED
        and name != "skills"
        and public.raw.get(name) != extended.raw.get(name)
    )
    if changed:
        parts.append(f"changes {', '.join(changed[:20])}")
    return "; ".join(parts) or "adds nothing to the public card"
