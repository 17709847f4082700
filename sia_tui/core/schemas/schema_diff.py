"""Structural diff of two JSON Schemas; each change is breaking or compatible for a client."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from sia_tui.core.errors import CanonicalizationError
from sia_tui.core.jsonkit.canonical import canonical_bytes
from sia_tui.core.jsonkit.pointer import escape, unescape
from sia_tui.core.schemas.meaning import meaning_review


class Impact(StrEnum):
    """What a change means for a client written against the older document."""

    BREAKING = "breaking"
    COMPATIBLE = "compatible"
    #: No effect on what a client sends or receives (e.g. a Schema Reference version label).
    INFO = "info"


class Role(StrEnum):
    """Which way the data flows: a client sends input, and receives output and records."""

    INPUT = "input"
    OUTPUT = "output"


@dataclass(frozen=True)
class Change:
    """One difference between document A (older) and document B (newer)."""

    #: RFC 6901 pointer into the document where the change is (RULES FMT2), in B when present.
    pointer: str
    #: Human label of the member, e.g. ``input condition.threshold`` or ``interaction``.
    where: str
    #: What changed: "required", "type", "enum", "minimum", "member", "response_modes"...
    aspect: str
    #: "added", "removed" or "changed".
    kind: str
    old: Any
    new: Any
    impact: Impact
    #: One sentence: why this impact, for this client.
    reason: str
    #: "review: meaning may have changed: ..." when the words or units of a value changed;
    #: the impact stands (validation is what it grades), a person reads the change.
    review: str | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON-serializable form for ``--json``."""
        return {
            "pointer": self.pointer,
            "where": self.where,
            "aspect": self.aspect,
            "kind": self.kind,
            "old": self.old,
            "new": self.new,
            "impact": str(self.impact),
            "reason": self.reason,
            "review": self.review,
        }


#: Keywords that describe but never constrain: changes are compatible for either role.
ANNOTATIONS = frozenset(
    {
        "title",
        "description",
        "examples",
        "$comment",
        "default",
        "deprecated",
        "readOnly",
        "writeOnly",
    }
)
#: Lower bounds (raising one tightens) and upper bounds (raising one loosens).
LOWER_BOUNDS = ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties")
UPPER_BOUNDS = ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties")
#: Keywords this module handles itself; anything else is compared as a whole.
_HANDLED = (
    frozenset(
        {
            "type",
            "enum",
            "const",
            "required",
            "properties",
            "additionalProperties",
            "items",
            "format",
            "pattern",
            "$ref",
            "$defs",
            "definitions",
            "$schema",
            "$id",
            *LOWER_BOUNDS,
            *UPPER_BOUNDS,
        }
    )
    | ANNOTATIONS
)
#: Bound on recursion: schemas come from agents and are untrusted.
MAX_DEPTH = 64

_TIGHTER = "tightened"
_LOOSER = "loosened"
_BOTH = "reshaped"


def json_equal(a: Any, b: Any) -> bool:
    """JSON equality (1 == 1.0, key order ignored), robust to odd values."""
    try:
        return canonical_bytes(a) == canonical_bytes(b)
    except CanonicalizationError:
        return bool(a == b)


def _impact(direction: str, role: Role) -> Impact:
    """A client sends input: tightening rejects what it sent before. It receives output:
    loosening lets through values it was not written to understand."""
    if direction == _BOTH:
        return Impact.BREAKING
    breaking = (direction == _TIGHTER) if role is Role.INPUT else (direction == _LOOSER)
    return Impact.BREAKING if breaking else Impact.COMPATIBLE


def _types(schema: dict[str, Any]) -> set[str] | None:
    raw = schema.get("type")
    if raw is None:
        return None
    names = (
        {raw}
        if isinstance(raw, str)
        else {t for t in raw if isinstance(t, str)}
        if isinstance(raw, list)
        else set()
    )
    return names


def _type_direction(old: set[str] | None, new: set[str] | None) -> str:
    # "integer" is a subset of "number": number -> integer tightens.
    def accepts(outer: set[str] | None, inner: set[str] | None) -> bool:
        if outer is None:
            return True
        if inner is None:
            return False
        return all(t in outer or (t == "integer" and "number" in outer) for t in inner)

    if accepts(old, new):
        return _TIGHTER
    if accepts(new, old):
        return _LOOSER
    return _BOTH


def _properties(schema: dict[str, Any]) -> dict[str, Any]:
    raw = schema.get("properties")
    return raw if isinstance(raw, dict) else {}


def _required(schema: dict[str, Any]) -> set[str]:
    raw = schema.get("required")
    return {r for r in raw if isinstance(r, str)} if isinstance(raw, list) else set()


class SchemaDiffer:
    """Walks two schemas in parallel, following local ``$ref`` in each (never remote: SR7)."""

    def __init__(
        self, old_root: Any, new_root: Any, *, role: Role, label: str, base_pointer: str
    ) -> None:
        self.old_root = old_root
        self.new_root = new_root
        self.role = role
        self.label = label
        self.base = base_pointer
        self.changes: list[Change] = []
        self._seen: set[tuple[str, str]] = set()

    def run(self) -> list[Change]:
        """Compare the two roots and return every change found."""
        self._walk(self.old_root, self.new_root, "", "", "", 0)
        return self.changes

    def _resolve(self, root: Any, schema: Any, pointer: str) -> tuple[Any, str]:
        """Follow local ``#/...`` refs (bounded); a remote ref is left as-is (RULES SR7)."""
        for _ in range(MAX_DEPTH):
            if not isinstance(schema, dict):
                break
            ref = schema.get("$ref")
            if not (isinstance(ref, str) and ref.startswith("#")):
                break
            target: Any = root
            for raw in ref[1:].split("/")[1:] if ref != "#" else []:
                target = target.get(unescape(raw)) if isinstance(target, dict) else None
            if target is None:
                break
            schema, pointer = target, ref[1:]
        return schema, pointer

    def _add(
        self,
        pointer: str,
        member: str,
        aspect: str,
        kind: str,
        old: Any,
        new: Any,
        impact: Impact,
        reason: str,
        review: str | None = None,
    ) -> None:
        where = f"{self.label} {member}" if member else self.label
        self.changes.append(
            Change(self.base + pointer, where, aspect, kind, old, new, impact, reason, review)
        )

    def _walk(
        self, old: Any, new: Any, old_ptr: str, new_ptr: str, member: str, depth: int
    ) -> None:
        old, old_ptr = self._resolve(self.old_root, old, old_ptr)
        new, new_ptr = self._resolve(self.new_root, new, new_ptr)
        if (old_ptr, new_ptr) in self._seen or depth > MAX_DEPTH:
            return  # recursive schema already compared, or hostile depth
        self._seen.add((old_ptr, new_ptr))
        if not (isinstance(old, dict) and isinstance(new, dict)):
            if not json_equal(old, new):
                self._add(
                    new_ptr,
                    member,
                    "schema",
                    "changed",
                    old,
                    new,
                    Impact.BREAKING,
                    "a boolean or malformed schema changed; treated as breaking",
                )
            return
        self._compare_keywords(old, new, new_ptr, member)
        self._compare_properties(old, new, old_ptr, new_ptr, member, depth)
        for key, label in (("items", "[]"), ("additionalProperties", ".*")):
            o, n = old.get(key), new.get(key)
            if isinstance(o, dict) and isinstance(n, dict):
                self._walk(o, n, f"{old_ptr}/{key}", f"{new_ptr}/{key}", member + label, depth + 1)
            elif key == "items" and not json_equal(o, n):
                direction = _TIGHTER if o is None else _LOOSER if n is None else _BOTH
                self._add(
                    f"{new_ptr}/items",
                    member,
                    "items",
                    "changed",
                    o,
                    n,
                    _impact(direction, self.role),
                    f"array items {direction}",
                )

    def _compare_keywords(
        self, old: dict[str, Any], new: dict[str, Any], ptr: str, member: str
    ) -> None:
        ot, nt = _types(old), _types(new)
        if ot != nt:
            d = _type_direction(ot, nt)
            self._add(
                f"{ptr}/type",
                member,
                "type",
                "changed",
                old.get("type"),
                new.get("type"),
                _impact(d, self.role),
                f"accepted types {d}",
            )
        self._compare_enum(old, new, ptr, member)
        for key in ("const", "format", "pattern"):
            o, n = old.get(key), new.get(key)
            if json_equal(o, n):
                continue
            d = _TIGHTER if o is None else _LOOSER if n is None else _BOTH
            kind = "added" if o is None else "removed" if n is None else "changed"
            self._add(
                f"{ptr}/{key}",
                member,
                key,
                kind,
                o,
                n,
                _impact(d, self.role),
                f"{key} {kind}: accepted values {d}",
                meaning_review(key, member, o, n),
            )
        for key in (*LOWER_BOUNDS, *UPPER_BOUNDS):
            self._compare_bound(key, old.get(key), new.get(key), ptr, member)
        self._compare_additional(old, new, ptr, member)
        if not json_equal(old.get("$ref"), new.get("$ref")):  # only unresolvable refs remain
            self._add(
                f"{ptr}/$ref",
                member,
                "$ref",
                "changed",
                old.get("$ref"),
                new.get("$ref"),
                Impact.BREAKING,
                "a reference this tool cannot follow changed (never fetched, RULES SR7)",
            )
        for key in sorted((set(old) | set(new)) - _HANDLED):
            if not json_equal(old.get(key), new.get(key)):
                self._add(
                    f"{ptr}/{escape(key)}",
                    member,
                    key,
                    "changed",
                    old.get(key),
                    new.get(key),
                    Impact.BREAKING,
                    f"'{key}' changed; this tool does not classify it, so it counts as breaking",
                )
        for key in sorted(ANNOTATIONS & (set(old) | set(new))):
            if not json_equal(old.get(key), new.get(key)):
                self._add(
                    f"{ptr}/{escape(key)}",
                    member,
                    "annotation",
                    "changed",
                    old.get(key),
                    new.get(key),
                    Impact.COMPATIBLE,
                    f"'{key}' only annotates; validation is unchanged",
                    meaning_review(key, member, old.get(key), new.get(key)),
                )

    def _compare_enum(
        self, old: dict[str, Any], new: dict[str, Any], ptr: str, member: str
    ) -> None:
        o, n = old.get("enum"), new.get("enum")
        if json_equal(o, n):
            return
        review = meaning_review("enum", member, o, n)
        if not (isinstance(o, list) and isinstance(n, list)):
            d = _TIGHTER if o is None else _LOOSER if n is None else _BOTH
            self._add(
                f"{ptr}/enum",
                member,
                "enum",
                "changed",
                o,
                n,
                _impact(d, self.role),
                f"enumeration {'added' if o is None else 'removed'}: values {d}",
                review,
            )
            return
        removed = [v for v in o if not any(json_equal(v, w) for w in n)]
        added = [v for v in n if not any(json_equal(v, w) for w in o)]
        if removed:
            self._add(
                f"{ptr}/enum",
                member,
                "enum",
                "removed",
                removed,
                None,
                _impact(_TIGHTER, self.role),
                "enum values removed: "
                + (
                    "a client may still send them"
                    if self.role is Role.INPUT
                    else "a client never receives them again"
                ),
                review,
            )
        if added:
            self._add(
                f"{ptr}/enum",
                member,
                "enum",
                "added",
                None,
                added,
                _impact(_LOOSER, self.role),
                "enum values added: "
                + (
                    "a client need not send them"
                    if self.role is Role.INPUT
                    else "a client that must understand the output may not know them"
                ),
                review,
            )

    def _compare_bound(self, key: str, o: Any, n: Any, ptr: str, member: str) -> None:
        if json_equal(o, n):
            return
        if o is None or n is None:
            d = _TIGHTER if o is None else _LOOSER
        elif isinstance(o, int | float) and isinstance(n, int | float):
            raised = n > o
            d = (
                (_TIGHTER if raised else _LOOSER)
                if key in LOWER_BOUNDS
                else (_LOOSER if raised else _TIGHTER)
            )
        else:
            d = _BOTH
        kind = "added" if o is None else "removed" if n is None else "changed"
        self._add(
            f"{ptr}/{key}",
            member,
            key,
            kind,
            o,
            n,
            _impact(d, self.role),
            f"bound {key} {kind}: accepted values {d}",
        )

    def _compare_additional(
        self, old: dict[str, Any], new: dict[str, Any], ptr: str, member: str
    ) -> None:
        o, n = old.get("additionalProperties"), new.get("additionalProperties")
        closed_o, closed_n = o is False, n is False
        if closed_o == closed_n:
            return
        d = _TIGHTER if closed_n else _LOOSER
        self._add(
            f"{ptr}/additionalProperties",
            member,
            "additionalProperties",
            "changed",
            o,
            n,
            _impact(d, self.role),
            "undeclared members now rejected" if closed_n else "undeclared members now accepted",
        )

    def _compare_properties(
        self,
        old: dict[str, Any],
        new: dict[str, Any],
        old_ptr: str,
        new_ptr: str,
        member: str,
        depth: int,
    ) -> None:
        op, np = _properties(old), _properties(new)
        oreq, nreq = _required(old), _required(new)
        prefix = f"{member}." if member else ""
        for name in sorted(set(op) | set(np)):
            child = prefix + name
            p = f"/properties/{escape(name)}"
            if name not in op:
                required = name in nreq
                impact = (
                    Impact.BREAKING if required and self.role is Role.INPUT else Impact.COMPATIBLE
                )
                self._add(
                    new_ptr + p,
                    child,
                    "member",
                    "added",
                    None,
                    "required" if required else "optional",
                    impact,
                    "a new required input member: old clients do not send it"
                    if impact is Impact.BREAKING
                    else f"a new {'required' if required else 'optional'} member: "
                    + (
                        "old clients can ignore it"
                        if self.role is Role.OUTPUT
                        else "old clients need not send it"
                    ),
                )
            elif name not in np:
                self._add(
                    old_ptr + p,
                    child,
                    "member",
                    "removed",
                    "declared",
                    None,
                    Impact.BREAKING,
                    "a removed input member: clients that send it lose its meaning"
                    if self.role is Role.INPUT
                    else "a removed output member: clients that read it no longer get it",
                )
            else:
                self._walk(op[name], np[name], old_ptr + p, new_ptr + p, child, depth + 1)
        for name in sorted((oreq ^ nreq) & set(op) & set(np)):
            now = name in nreq
            d = _TIGHTER if now else _LOOSER
            self._add(
                f"{new_ptr}/required",
                prefix + name,
                "required",
                "added" if now else "removed",
                name in oreq,
                now,
                _impact(d, self.role),
                f"'{name}' is {'now' if now else 'no longer'} required",
            )
        for name in sorted((oreq ^ nreq) - (set(op) & set(np)) - (set(op) ^ set(np))):
            now = name in nreq
            self._add(
                f"{new_ptr}/required",
                prefix + name,
                "required",
                "added" if now else "removed",
                name in oreq,
                now,
                _impact(_TIGHTER if now else _LOOSER, self.role),
                f"'{name}' (undeclared) is {'now' if now else 'no longer'} required",
            )


def diff_schemas(
    old: Any, new: Any, *, role: Role, label: str, base_pointer: str = ""
) -> list[Change]:
    """Every change from schema ``old`` to ``new`` for a client on ``role``'s side of the data."""
    return SchemaDiffer(old, new, role=role, label=label, base_pointer=base_pointer).run()
