"""The three-way interface digest comparison (RULES CP4): which digest is the odd one out.

One place decides which of the advertised, returned and computed digests disagrees, so
the engine's finding, the Digests screen, `check` and the bug report all say the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class DigestSource(StrEnum):
    """Where one of the three interface digests comes from."""

    ADVERTISED = "advertised"
    RETURNED = "returned"
    COMPUTED = "computed"

    @property
    def label(self) -> str:
        """Words for tables: "advertised in the Agent Card"."""
        return _LABELS[self]

    @property
    def owner(self) -> str:
        """Who carries it, for sentences: "the card's advertised digest"."""
        return _OWNERS[self]


_LABELS = {
    DigestSource.ADVERTISED: "advertised in the Agent Card",
    DigestSource.RETURNED: "returned by describe_skill",
    DigestSource.COMPUTED: "computed here (JCS + SHA-256)",
}
_OWNERS = {
    DigestSource.ADVERTISED: "the card's advertised digest",
    DigestSource.RETURNED: "describe_skill's returned digest",
    DigestSource.COMPUTED: "the digest computed over the returned document",
}


@dataclass(frozen=True)
class DigestRow:
    """One digest compared with the other two: the row of a three-way table."""

    source: DigestSource
    digest: str | None
    #: True when it equals every other digest present, False when not, None when n/a.
    match: bool | None
    #: Short words for a verdict column: "= both", "≠ both", "≠ returned".
    verdict: str
    #: The digest it differs from, so a surface can point at where they first differ.
    compared_with: str | None


def digest_values(
    advertised: str | None, returned: str | None, computed: str | None
) -> dict[DigestSource, str | None]:
    """The three digests by source, in table order."""
    return {
        DigestSource.ADVERTISED: advertised,
        DigestSource.RETURNED: returned,
        DigestSource.COMPUTED: computed,
    }


def odd_one_out(
    advertised: str | None, returned: str | None, computed: str | None
) -> DigestSource | None:
    """The one digest that differs while the other two agree; None otherwise."""
    values = digest_values(advertised, returned, computed)
    if None in values.values() or len(set(values.values())) != 2:
        return None
    return next(s for s, v in values.items() if list(values.values()).count(v) == 1)


def differing_pairs(
    advertised: str | None, returned: str | None, computed: str | None
) -> list[tuple[DigestSource, DigestSource]]:
    """Every pair of present digests that differ (RULES CP4: all present must be equal)."""
    values = digest_values(advertised, returned, computed)
    present = [(source, value) for source, value in values.items() if value is not None]
    return [
        (first, second)
        for index, (first, one) in enumerate(present)
        for second, other in present[index + 1 :]
        if one != other
    ]


def odd_one_out_statement(source: DigestSource) -> str:
    """The sentence every surface shows, e.g. "the card's advertised digest differs from
    both the returned and the computed one"."""
    others = [s.value for s in DigestSource if s is not source]
    return f"{source.owner} differs from both the {others[0]} and the {others[1]} one"


def compare_rows(
    advertised: str | None, returned: str | None, computed: str | None
) -> list[DigestRow]:
    """Each digest against the other two present (RULES CP4: all three must be equal).

    When two agree and one differs, only the odd one out is a mismatch ("≠ both"); the two
    that agree read "= <the other>", so the digests that are right are never blamed.
    """
    values = digest_values(advertised, returned, computed)
    odd = odd_one_out(advertised, returned, computed)
    rows = []
    for source, digest in values.items():
        others = {k: v for k, v in values.items() if k is not source and v is not None}
        if digest is None or not others:
            rows.append(DigestRow(source, digest, None, "", None))
            continue
        if odd is not None:
            if source is odd:
                majority = next(v for k, v in others.items())
                rows.append(DigestRow(source, digest, False, "≠ both", majority))
            else:
                peer = next(k for k, v in others.items() if k is not odd)
                rows.append(DigestRow(source, digest, True, "= " + peer.value, None))
            continue
        differ = [k for k, v in others.items() if v != digest]
        if len(others) == 1:
            verdict = ("≠ " if differ else "= ") + next(iter(others)).value
        else:
            verdict = "≠ both" if differ else "= both"
        rows.append(
            DigestRow(source, digest, not differ, verdict, others[differ[0]] if differ else None)
        )
    return rows
