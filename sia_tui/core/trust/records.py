"""What the trust room answers: signature verdicts, the user's trust anchors, its errors."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from sia_tui.core.errors import SiaError


class TrustFileError(SiaError):
    """A trusted-keys JWKS, a signing key or a lock file cannot be used (one line)."""

    kind = "trust_file"


class SignatureVerdict(StrEnum):
    """What one Agent Card signature proves (docs/TRUST.md)."""

    #: A trusted key with an allowed algorithm verifies it under one canonicalization.
    VERIFIED = "verified"
    #: A trusted kid, an allowed algorithm, and the signature does not verify.
    INVALID = "invalid"
    #: No trusted key has its kid, or its header or algorithm is refused: proves nothing.
    UNVERIFIABLE = "unverifiable"


class Canonicalization(StrEnum):
    """The bytes a card signature may cover; A2A#2122 disputes which one is right."""

    #: A2A 1.0 section 8.4.1: defaults removed by field presence, REQUIRED fields kept.
    A2A_1_0 = "a2a-1.0"
    #: a2a-sdk 1.3.0: ProtoJSON, then every empty string, list and map removed.
    DROP_EMPTY = "drop-empty"
    #: RFC 8785 of the card without ``signatures``, nothing else removed.
    JCS_ONLY = "jcs-only"


#: The only signature algorithms accepted (A2A 1.0 section 8.4.2; never none or HMAC).
ALLOWED_ALGORITHMS = ("ES256", "ES384", "RS256", "PS256", "EdDSA")


@dataclass(kw_only=True)
class SignatureCheck:
    """The verdict on one entry of the card's ``signatures``, in the card's order."""

    index: int
    #: From the protected header; None when it lacks them (then refused).
    kid: str | None = None
    alg: str | None = None
    verdict: SignatureVerdict
    #: The canonicalization that verified (None unless verified).
    canonicalization: Canonicalization | None = None
    #: Why it is not verified, in one sentence (with the forensics when invalid).
    reason: str | None = None
    #: The header's ``jku``: a hint shown to the user, never fetched (RULES SR7).
    jku: str | None = None
    #: Trusted keys with this kid that were not tried, and why (over the per-kid cap, an
    #: RSA modulus over the size limit), else None.
    keys_not_tried: str | None = None

    @property
    def summary(self) -> str:
        """One line every surface shows: "#0 key-1 ES256: verified (a2a-1.0)"."""
        who = f"#{self.index} {self.kid or '(no kid)'} {self.alg or '(no alg)'}"
        how = f" ({self.canonicalization})" if self.canonicalization else ""
        why = f": {self.reason}" if self.reason else ""
        skipped = f" [{self.keys_not_tried}]" if self.keys_not_tried else ""
        return f"{who}: {self.verdict}{how}{why}{skipped}"


@dataclass(frozen=True)
class TrustedKey:
    """One public key the user trusts, as a public JWK (private members never kept)."""

    kid: str
    jwk: dict[str, Any] = field(hash=False)
    #: When the key stops being usable (JWK ``exp`` or its certificate's notAfter), epoch s.
    expires: float | None = None


@dataclass(frozen=True)
class TrustAnchors:
    """What the user trusts and requires of a run: keys, a required signature, a lock.

    Stored with the run's target, so a saved session is replayed against the same anchors
    (replay re-verifies). Keys are public; a lock holds documents the agent published.
    """

    keys: tuple[TrustedKey, ...] = ()
    #: Where the keys came from (a file or a URL the user named), for display.
    keys_source: str | None = None
    #: Step 1 fails unless at least one signature is verified (``--require-signature``).
    require_signature: bool = False
    #: The contract lock step 4 compares the interface with (``--lock``).
    lock: ContractLock | None = field(default=None, hash=False)
    #: Where the lock came from, for display.
    lock_source: str | None = None

    def keys_for(self, kid: str) -> list[TrustedKey]:
        """Every trusted key with this kid (several during a rotation)."""
        return [key for key in self.keys if key.kid == kid]


# -- the contract lock ----------------------------------------------------------------------
@dataclass(frozen=True)
class PinnedSkill:
    """One skill as ``sia-tui pin`` recorded it: what was advertised, and the document."""

    skill_id: str
    skill_version: str
    interface_digest: str
    document: dict[str, Any] = field(hash=False)


@dataclass(frozen=True)
class PinnedAgent:
    """The skills pinned for one agent, named by its card's name and location."""

    agent: str
    card: str
    skills: tuple[PinnedSkill, ...] = ()


@dataclass(frozen=True)
class ContractLock:
    """A lock file: the interfaces a client was written against (docs/TRUST.md)."""

    agents: tuple[PinnedAgent, ...] = ()
    #: ``sha256:<hex>`` of the lock file's bytes as read (None for a lock built in memory).
    #: A session keeps it with the one entry a run compared, not the whole lock.
    digest: str | None = None


class LockStatus(StrEnum):
    """How the interface an agent advertises now compares with its lock."""

    #: Same skill_version and interface_digest.
    UNCHANGED = "unchanged"
    #: Same skill_version, another digest: the interface changed without a bump (SID2).
    DRIFT = "drift"
    #: The version was bumped as the changes require (minor: compatible, major: breaking).
    VERSION_CHANGED = "version-changed"
    #: A bump that breaks SID2: major with only compatible changes, minor with breaking ones.
    WRONG_BUMP = "wrong-bump"
    #: The lock pins nothing for this agent and skill: nothing could be compared.
    NOT_PINNED = "not-pinned"


#: Statuses that fail the run (exit 1).
FAILING_LOCK_STATUSES = frozenset({LockStatus.DRIFT, LockStatus.WRONG_BUMP})


@dataclass(kw_only=True)
class LockChange:
    """One structural change from the pinned document (the diff API's ``Change``, flat)."""

    pointer: str
    where: str
    kind: str
    impact: str
    reason: str


@dataclass(kw_only=True)
class LockComparison:
    """The interface now against its lock, with the diff from the pinned document."""

    status: LockStatus
    skill_id: str
    #: The agent entry of the lock that was compared (its card name), if one was found.
    agent: str | None = None
    pinned_version: str | None = None
    pinned_digest: str | None = None
    current_version: str | None = None
    current_digest: str | None = None
    #: "breaking", "compatible" or "none": the class of the changes (None: no diff made).
    diff_verdict: str | None = None
    changes: list[LockChange] = field(default_factory=list)
    #: The comparison in one sentence, the same on every surface.
    reason: str = ""

    @property
    def summary(self) -> str:
        """One line every surface shows: "drift: skill changed under the same version..."."""
        diff = f" [{self.diff_verdict}, {len(self.changes)} changes]" if self.diff_verdict else ""
        return f"{self.status}: {self.reason}{diff}"
