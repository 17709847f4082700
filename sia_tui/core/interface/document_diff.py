"""Structural diff of two Skill Interface Documents and the version rule check (RULES SID2)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from sia_tui.core.jsonkit.pointer import join
from sia_tui.core.schemas.schema_diff import Change, Role, diff_schemas, json_equal
from sia_tui.core.schemas.schema_diff import Impact as Impact  # part of the diff API

_VERSION = re.compile(r"(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)")
#: Constraints whose larger value is more permissive for the client (WIRE.md).
_LIMITS = ("max_input_bytes", "max_duration_seconds")
_KNOWN_TOP = (
    "interface_version",
    "skill_id",
    "skill_version",
    "input_schema",
    "output_schema",
    "supporting_record_schemas",
    "interaction",
    "constraints",
    "authority",
)


@dataclass(frozen=True)
class VersionVerdict:
    """Whether B's skill_version follows from A's by the draft's rule (RULES SID2)."""

    old: Any
    new: Any
    #: "breaking", "compatible" or "none": the class of the whole change set.
    change_class: str
    #: The version SID2 asks for, or None when A's version cannot be read.
    expected: str | None
    follows: bool
    message: str

    def to_json(self) -> dict[str, Any]:
        """JSON-serializable form for ``--json``."""
        return {
            "old": self.old,
            "new": self.new,
            "change_class": self.change_class,
            "expected": self.expected,
            "follows": self.follows,
            "message": self.message,
        }


@dataclass
class InterfaceDiff:
    """Every change from document A to document B, and the SID2 version verdict."""

    changes: list[Change]
    version: VersionVerdict
    notes: list[str] = field(default_factory=list)

    @property
    def breaking(self) -> list[Change]:
        """Changes that break a client written against A."""
        return [c for c in self.changes if c.impact is Impact.BREAKING]

    @property
    def to_review(self) -> list[Change]:
        """Changes that keep their verdict but may change what a value means."""
        return [c for c in self.changes if c.review]

    @property
    def ok(self) -> bool:
        """No breaking change and the version rule followed (CLI exit 0)."""
        return not self.breaking and self.version.follows

    def to_json(self) -> dict[str, Any]:
        """JSON-serializable form for ``--json``."""
        return {
            "breaking": len(self.breaking),
            "compatible": sum(c.impact is Impact.COMPATIBLE for c in self.changes),
            "info": sum(c.impact is Impact.INFO for c in self.changes),
            "review": len(self.to_review),
            "version": self.version.to_json(),
            "changes": [c.to_json() for c in self.changes],
            "notes": list(self.notes),
        }


def _obj(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _parse_version(value: Any) -> tuple[int, int] | None:
    if isinstance(value, str) and _VERSION.fullmatch(value):
        major, minor = value.split(".")
        return int(major), int(minor)
    return None


def check_version_rule(old: Any, new: Any, change_class: str) -> VersionVerdict:
    """Apply RULES SID2: breaking -> major+1 and minor 0; compatible -> minor+1; none -> same."""
    parsed_old, parsed_new = _parse_version(old), _parse_version(new)
    if parsed_old is None or parsed_new is None:
        bad = old if parsed_old is None else new
        return VersionVerdict(
            old,
            new,
            change_class,
            None,
            False,
            f"version rule violated: {bad!r} is not MAJOR.MINOR (SID2)",
        )
    major, minor = parsed_old
    expected = {"breaking": f"{major + 1}.0", "compatible": f"{major}.{minor + 1}"}.get(
        change_class, old
    )
    if new == expected:
        return VersionVerdict(
            old,
            new,
            change_class,
            expected,
            True,
            f"version rule followed: {change_class} change, {old} -> {new}"
            if change_class != "none"
            else "no change, same version",
        )
    if parsed_new < parsed_old:
        why = "the version went backwards (are A and B swapped?)"
    elif change_class == "none":
        why = "no interface change but the version changed"
    elif new == old:
        why = f"{change_class} change but the version is unchanged"
    elif change_class == "breaking" and parsed_new[0] == major:
        why = "breaking change but minor bump"
    elif change_class == "compatible" and parsed_new[0] > major:
        why = "compatible change but major bump"
    else:
        why = f"{change_class} change but version {new}"
    return VersionVerdict(
        old,
        new,
        change_class,
        expected,
        False,
        f"version rule violated: {why} (expected {expected})",
    )


def _diff_reference(old: Any, new: Any, *, pointer: str, label: str, role: Role) -> list[Change]:
    """Reference fields first (identity, RULES SR6), then the embedded schemas."""
    if not (isinstance(old, dict) and isinstance(new, dict)):
        if json_equal(old, new):
            return []
        return [
            Change(
                pointer,
                label,
                "schema_reference",
                "changed",
                old,
                new,
                Impact.BREAKING,
                "the Schema Reference is missing or malformed on one side",
            )
        ]
    changes: list[Change] = []
    for key, impact, reason in (
        ("schema_uri", Impact.BREAKING, "the reference names a different schema identity"),
        ("dialect", Impact.BREAKING, "the schema is written in a different dialect"),
        ("version", Impact.INFO, "a composition partner must carry the same version (CMP1)"),
    ):
        if not json_equal(old.get(key), new.get(key)):
            changes.append(
                Change(
                    f"{pointer}/{key}",
                    label,
                    key,
                    "changed",
                    old.get(key),
                    new.get(key),
                    impact,
                    reason,
                )
            )
    old_schema = _obj(old.get("resolution")).get("schema")
    new_schema = _obj(new.get("resolution")).get("schema")
    changes += diff_schemas(
        old_schema, new_schema, role=role, label=label, base_pointer=f"{pointer}/resolution/schema"
    )
    if not json_equal(old.get("digest"), new.get("digest")):
        changes.append(
            Change(
                f"{pointer}/digest",
                label,
                "digest",
                "changed",
                old.get("digest"),
                new.get("digest"),
                Impact.INFO,
                "the digest follows the schema content (SR4)",
            )
        )
    return changes


def _diff_interaction(old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    changes: list[Change] = []
    om = {m for m in old.get("response_modes") or [] if isinstance(m, str)}
    nm = {m for m in new.get("response_modes") or [] if isinstance(m, str)}
    for mode in sorted(om - nm):
        changes.append(
            Change(
                "/interaction/response_modes",
                "interaction",
                "response_modes",
                "removed",
                mode,
                None,
                Impact.BREAKING,
                f"clients that use '{mode}' can no longer",
            )
        )
    for mode in sorted(nm - om):
        changes.append(
            Change(
                "/interaction/response_modes",
                "interaction",
                "response_modes",
                "added",
                None,
                mode,
                Impact.COMPATIBLE,
                f"'{mode}' is a new option; old clients do not need it",
            )
        )
    oc, nc = old.get("cancellable"), new.get("cancellable")
    if not json_equal(oc, nc):
        lost = oc is True
        changes.append(
            Change(
                "/interaction/cancellable",
                "interaction",
                "cancellable",
                "changed",
                oc,
                nc,
                Impact.BREAKING if lost else Impact.COMPATIBLE,
                "clients that cancel can no longer" if lost else "cancelling becomes possible",
            )
        )
    changes += _diff_members(
        old, new, "/interaction", "interaction", skip=("response_modes", "cancellable")
    )
    return changes


def _diff_constraints(old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    changes: list[Change] = []
    for key in sorted(set(old) | set(new)):
        o, n = old.get(key), new.get(key)
        if json_equal(o, n):
            continue
        kind = "added" if key not in old else "removed" if key not in new else "changed"
        if kind == "removed":
            impact, reason = Impact.COMPATIBLE, "a constraint was lifted"
        elif kind == "added":
            impact, reason = Impact.BREAKING, "a new constraint may reject requests that passed"
        elif key in _LIMITS and isinstance(o, int | float) and isinstance(n, int | float):
            tighter = n < o
            impact = Impact.BREAKING if tighter else Impact.COMPATIBLE
            reason = "the limit was lowered" if tighter else "the limit was raised"
        else:
            impact, reason = Impact.BREAKING, "the constraint changed in a way not classified"
        changes.append(
            Change(f"/constraints/{key}", "constraints", key, kind, o, n, impact, reason)
        )
    return changes


def _diff_authority(old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    changes: list[Change] = []
    if not json_equal(old.get("default_mode"), new.get("default_mode")):
        changes.append(
            Change(
                "/authority/default_mode",
                "authority",
                "default_mode",
                "changed",
                old.get("default_mode"),
                new.get("default_mode"),
                Impact.BREAKING,
                "the skill now acts differently (observe/recommend/execute); "
                "authority is descriptive, never a permission (SID5)",
            )
        )
    oa, na = old.get("approval_may_be_required"), new.get("approval_may_be_required")
    if not json_equal(oa, na):
        stricter = na is True
        changes.append(
            Change(
                "/authority/approval_may_be_required",
                "authority",
                "approval_may_be_required",
                "changed",
                oa,
                na,
                Impact.BREAKING if stricter else Impact.COMPATIBLE,
                "invocations may now wait for an approval"
                if stricter
                else "approval is no longer expected",
            )
        )
    changes += _diff_members(
        old, new, "/authority", "authority", skip=("default_mode", "approval_may_be_required")
    )
    return changes


def _diff_members(
    old: dict[str, Any], new: dict[str, Any], pointer: str, label: str, skip: tuple[str, ...]
) -> list[Change]:
    """Members this tool does not know: any difference counts as breaking."""
    return [
        Change(
            f"{pointer}/{key}",
            label,
            key,
            "changed",
            old.get(key),
            new.get(key),
            Impact.BREAKING,
            "an unknown member changed; this tool cannot classify it",
        )
        for key in sorted((set(old) | set(new)) - set(skip))
        if not json_equal(old.get(key), new.get(key))
    ]


def _diff_records(old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    changes: list[Change] = []
    for kind in sorted(set(old) | set(new)):
        pointer = join(["supporting_record_schemas", kind])
        label = f"record {kind}"
        if kind not in old:
            changes.append(
                Change(
                    pointer,
                    label,
                    "record kind",
                    "added",
                    None,
                    kind,
                    Impact.COMPATIBLE,
                    "a new record kind; old clients can ignore artifacts they do not use",
                )
            )
        elif kind not in new:
            changes.append(
                Change(
                    pointer,
                    label,
                    "record kind",
                    "removed",
                    kind,
                    None,
                    Impact.BREAKING,
                    "clients that read this record lose it",
                )
            )
        else:
            changes += _diff_reference(
                old[kind], new[kind], pointer=pointer, label=label, role=Role.OUTPUT
            )
    return changes


def diff_documents(a: Any, b: Any) -> InterfaceDiff:
    """Compare document A (older) with B (newer) for a client written against A."""
    da, db = _obj(a), _obj(b)
    notes: list[str] = []
    if not json_equal(da.get("skill_id"), db.get("skill_id")):
        notes.append(
            f"the documents describe different skills ({da.get('skill_id')!r} vs "
            f"{db.get('skill_id')!r}); the diff compares them anyway"
        )
    changes: list[Change] = []
    if not json_equal(da.get("interface_version"), db.get("interface_version")):
        changes.append(
            Change(
                "/interface_version",
                "document",
                "interface_version",
                "changed",
                da.get("interface_version"),
                db.get("interface_version"),
                Impact.BREAKING,
                "a different interface version (SID3)",
            )
        )
    changes += _diff_reference(
        da.get("input_schema"),
        db.get("input_schema"),
        pointer="/input_schema",
        label="input",
        role=Role.INPUT,
    )
    changes += _diff_reference(
        da.get("output_schema"),
        db.get("output_schema"),
        pointer="/output_schema",
        label="output",
        role=Role.OUTPUT,
    )
    changes += _diff_records(
        _obj(da.get("supporting_record_schemas")), _obj(db.get("supporting_record_schemas"))
    )
    changes += _diff_interaction(_obj(da.get("interaction")), _obj(db.get("interaction")))
    changes += _diff_constraints(_obj(da.get("constraints")), _obj(db.get("constraints")))
    changes += _diff_authority(_obj(da.get("authority")), _obj(db.get("authority")))
    changes += _diff_members(da, db, "", "document", skip=_KNOWN_TOP)
    if any(c.impact is Impact.BREAKING for c in changes):
        change_class = "breaking"
    else:
        change_class = "compatible" if changes else "none"
    verdict = check_version_rule(da.get("skill_version"), db.get("skill_version"), change_class)
    return InterfaceDiff(changes, verdict, notes)
