"""Validation errors listed part by part, so memory stays bounded whatever the instance's size.

jsonschema-rs builds every error of a call before the first can be read, each with a copy
of the value it is about (800,000 errors cost 1.3 GB). So an instance too big to list in
one call is split where its schema allows: a part that validates is skipped at once
(``is_valid`` stops at its first error); a part small enough is listed in one call; a big
object or array whose schema only checks its own members is checked for its own keywords
(on a stub with its keys, or its length) and then split into those members. Listing stops
after ``limits.MAX_FINDINGS`` errors, and counting after ``limits.MAX_COUNTED_ERRORS``.
A big part whose schema combines subschemas (``anyOf``, ``allOf``...) cannot be split: its
first error is listed with a note, the only case where errors are left unlisted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import jsonschema_rs

from sia_tui.core import limits
from sia_tui.core.bounded import MORE_RULE, MoreFindings, more_findings
from sia_tui.core.findings import Finding, Severity
from sia_tui.core.jsonkit.pointer import display, escape, resolve

#: Where the schema is registered for the part validators when it has no absolute ``$id``.
ROOT_URI = "urn:sia-tui:schema"
#: Keywords a part's stub (its keys, or its length) is checked against.
_OWN = frozenset(
    {
        "type",
        "required",
        "minProperties",
        "maxProperties",
        "dependentRequired",
        "propertyNames",
        "minItems",
        "maxItems",
    }
)
#: Keywords that judge a value without looking into it, or not at all: no part to split.
_NOT_INTO = frozenset(
    {
        "$schema",
        "$id",
        "$anchor",
        "$dynamicAnchor",
        "$comment",
        "$defs",
        "definitions",
        "$vocabulary",
        "title",
        "description",
        "default",
        "examples",
        "deprecated",
        "readOnly",
        "writeOnly",
        "contentEncoding",
        "contentMediaType",
        "contentSchema",
        "format",
        "pattern",
        "minLength",
        "maxLength",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
    }
)
_INTO = frozenset({"properties", "additionalProperties", "prefixItems", "items"})
#: An error converted to a Finding: (error, the part's path, the stub's schema pointer or
#: None for a part validator, whether the error is about a stub).
ToFinding = Callable[[Any, tuple[str, ...], str | None], Finding]


def count_values(value: Any, beyond: int | None = None) -> int:
    """How many JSON values ``value`` holds, itself included (without recursion); once
    past ``beyond`` the count stops there, so asking "is it big?" costs little."""
    if not isinstance(value, dict | list):
        return 1
    count, stack = 1, [value]
    while stack:
        node = stack.pop()
        children = node.values() if isinstance(node, dict) else node
        count += len(children)
        if beyond is not None and count > beyond:
            return count
        stack.extend(c for c in children if isinstance(c, dict | list))
    return count


@dataclass(frozen=True)
class Split:
    """How one schema location splits an object or array: its own keywords, then members."""

    at: str
    #: The validator of the location's own keywords (those in ``own_keywords``).
    own: Any
    own_keywords: frozenset[str]
    node: dict[str, Any]

    def stub(self, value: Any) -> Any:
        """What the own keywords read: the keys (values null), or an array of the length."""
        if isinstance(value, dict):
            return dict.fromkeys(value)
        counted = ("minItems", "maxItems", "items", "prefixItems")
        return [None] * len(value) if any(k in self.own_keywords for k in counted) else []

    def members(self, value: Any) -> Iterator[tuple[Any, str, str]]:
        """(member, its schema location, its token) for every member a subschema governs."""
        node, at = self.node, self.at
        if isinstance(value, dict):
            properties = node.get("properties", {})
            extra = node.get("additionalProperties")
            for name, member in value.items():
                if name in properties:
                    if isinstance(properties[name], dict):
                        yield member, f"{at}/properties/{escape(name)}", name
                elif isinstance(extra, dict):
                    yield member, f"{at}/additionalProperties", name
            return
        prefix = node.get("prefixItems", [])
        items = node.get("items")
        for index, member in enumerate(value):
            if index < len(prefix):
                if isinstance(prefix[index], dict):
                    yield member, f"{at}/prefixItems/{index}", str(index)
            elif isinstance(items, dict):
                yield member, f"{at}/items", str(index)


@dataclass
class Tally:
    """The findings kept, the errors counted, and whether counting stopped early."""

    kept: list[Finding] = field(default_factory=list)
    notes: list[Finding] = field(default_factory=list)
    counted: int = 0
    stopped: bool = False

    @property
    def full(self) -> bool:
        return self.counted >= limits.MAX_COUNTED_ERRORS

    def add(self, errors: Iterator[Any], convert: Callable[[Any], Finding]) -> None:
        for error in errors:
            if self.full:
                self.stopped = True
                return
            self.counted += 1
            if len(self.kept) < limits.MAX_FINDINGS:
                self.kept.append(convert(error))

    def findings(self) -> list[Finding]:
        """The kept findings, the notes, then one closing count of what was left out."""
        left_out = self.counted - len(self.kept)
        closing: list[Finding] = []
        if self.stopped:
            closing.append(at_least(left_out))
        elif left_out:
            closing.append(more_findings(left_out, left_out, limits.MAX_FINDINGS))
        return self.kept + self.notes + closing


def at_least(left_out: int) -> MoreFindings:
    """The closing finding when counting stopped: at least ``left_out`` more errors."""
    return MoreFindings(
        f"at least {left_out} more error(s) not kept: at most {limits.MAX_FINDINGS} are kept "
        f"and shown, and counting stops at {limits.MAX_COUNTED_ERRORS}",
        severity=Severity.ERROR,
        rule=MORE_RULE,
        left_out=left_out,
        left_out_errors=left_out,
        at_least=True,
    )


class PartValidators:
    """A validator for any location of one schema, and how that location splits a value."""

    def __init__(self, schema: Any, options: dict[str, Any], members: int) -> None:
        self.schema = schema
        self._options = options
        #: Object members of the whole schema: a part's errors are at most values x these.
        self.members = max(members, 1)
        own_id = schema.get("$id") if isinstance(schema, dict) else None
        #: Where the schema is registered; its locations are fragments of this URI.
        self.uri = own_id if isinstance(own_id, str) and ":" in own_id else ROOT_URI
        # One resource, no dynamic references: a location means the same from any entry.
        text = repr(schema)
        self.splittable = isinstance(schema, dict) and not any(
            word in text for word in ("$dynamicRef", "$recursiveRef")
        )
        self._registry: Any = None
        self._validators: dict[str, Any] = {}
        self._splits: dict[str, Split | None] = {}

    def validator(self, at: str) -> Any:
        """The validator of the subschema at ``at`` (None when it cannot be built alone)."""
        if at not in self._validators:
            try:
                if self._registry is None:
                    self._registry = jsonschema_rs.Registry([(self.uri, self.schema)])
                reference = {"$ref": f"{self.uri}#{quote(at, safe='/~')}"}
                self._validators[at] = jsonschema_rs.Draft202012Validator(
                    reference, registry=self._registry, **self._options
                )
            except (jsonschema_rs.ValidationError, ValueError, TypeError):
                self._validators[at] = None
        return self._validators[at]

    def split(self, at: str) -> Split | None:
        """How the subschema at ``at`` splits an object or array, or None when it cannot."""
        if at not in self._splits:
            self._splits[at] = self._split(at, 0) if self.splittable else None
        return self._splits[at]

    def _split(self, at: str, hops: int) -> Split | None:
        try:
            node = resolve(self.schema, at)
        except (KeyError, ValueError, IndexError, TypeError):
            return None
        if not isinstance(node, dict) or ("$id" in node and at):
            return None
        ref = node.get("$ref")
        if ref is not None:
            # A local reference with nothing else that checks: split where it points.
            alone = all(k in _NOT_INTO and k not in _OWN for k in node if k != "$ref")
            local = isinstance(ref, str) and ref.startswith("#") and hops < 16
            return self._split(ref[1:], hops + 1) if alone and local else None
        if any(k not in _OWN and k not in _NOT_INTO and k not in _INTO for k in node):
            return None  # anyOf, allOf, uniqueItems, enum...: the value is judged whole
        own = {k: v for k, v in node.items() if k in _OWN}
        properties = node.get("properties", {})
        if not isinstance(properties, dict):
            return None
        own["properties"] = {k: v if isinstance(v, bool) else True for k, v in properties.items()}
        for key in ("additionalProperties", "items"):
            if isinstance(node.get(key), bool):
                own[key] = node[key]
        prefix = node.get("prefixItems")
        if isinstance(prefix, list):
            own["prefixItems"] = [v if isinstance(v, bool) else True for v in prefix]
        try:
            validator = jsonschema_rs.Draft202012Validator(own, mask="the value", **self._options)
        except (jsonschema_rs.ValidationError, ValueError, TypeError):
            return None
        return Split(at, validator, frozenset(own), node)


def list_in_parts(
    parts: PartValidators, root: Any, instance: Any, to_finding: ToFinding
) -> list[Finding]:
    """Every error of an invalid ``instance``, found part by part (see the module)."""
    tally = Tally()
    _collect(parts, root, instance, "", (), tally, to_finding)
    if not tally.counted and not tally.notes:
        _first(root, instance, (), tally, to_finding)  # the engine said invalid: say why
    return tally.findings()


def _collect(
    parts: PartValidators,
    validator: Any,
    value: Any,
    at: str,
    path: tuple[str, ...],
    tally: Tally,
    to_finding: ToFinding,
) -> None:
    """List ``value``'s errors (known invalid against the subschema at ``at``)."""
    most = limits.MAX_LISTING_WORK // parts.members
    big = isinstance(value, dict | list) and count_values(value, most) > most
    split = parts.split(at) if big else None
    if not big:
        tally.add(validator.iter_errors(value), lambda e: to_finding(e, path, None))
        return
    if split is None:
        _first(validator, value, path, tally, to_finding)
        tally.notes.append(_unsplit_note(value, path, parts.members))
        return
    own = split.at  # where a local $ref led: the real location of the own keywords
    tally.add(split.own.iter_errors(split.stub(value)), lambda e: to_finding(e, path, own))
    for member, member_at, token in split.members(value):
        if tally.full:
            tally.stopped = True
            return
        part = parts.validator(member_at)
        if part is None:  # cannot be checked alone: judge the whole value instead
            _first(validator, value, path, tally, to_finding)
            return
        if not part.is_valid(member):
            _collect(parts, part, member, member_at, (*path, token), tally, to_finding)


def _first(
    validator: Any, value: Any, path: tuple[str, ...], tally: Tally, to_finding: ToFinding
) -> None:
    try:
        validator.validate(value)
    except jsonschema_rs.ValidationError as error:
        tally.add(iter([error]), lambda e: to_finding(e, path, None))
        return
    tally.notes.append(
        Finding("the value fails validation, but the engine named no error", rule="ERR5")
    )


def _unsplit_note(value: Any, path: tuple[str, ...], members: int) -> Finding:
    values = count_values(value)
    pointer = display("".join("/" + escape(t) for t in path))
    return Finding(
        f"further errors inside {pointer}, if any, are not listed: its schema judges it "
        f"whole (anyOf, allOf, enum...), and listing {values} values against a schema of "
        f"{members} members in one call could cost {values * members} value-member pairs "
        f"of memory, more than {limits.MAX_LISTING_WORK}",
        severity=Severity.INFO,
        rule=MORE_RULE,
    )
