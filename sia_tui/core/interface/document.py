"""Skill Interface Document verification: CP4 digests, CP5 schema and ids, CP6, SID8, ADV1/ADV3."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sia_tui.core.bounded import MORE_RULE
from sia_tui.core.codes import ErrorCode
from sia_tui.core.constants import EXTENSION_URI, INTERFACE_VERSION
from sia_tui.core.errors import CanonicalizationError, DigestFormatError, SchemaError
from sia_tui.core.findings import Finding, Severity
from sia_tui.core.interface.threeway import (
    DigestSource,
    differing_pairs,
    digest_values,
    odd_one_out,
)
from sia_tui.core.jsonkit.canonical import digest_of, parse_digest
from sia_tui.core.jsonkit.numbers import unsafe_number_findings
from sia_tui.core.jsonkit.pointer import join
from sia_tui.core.schemas.dialect import dialect_findings
from sia_tui.core.schemas.examples import example_findings
from sia_tui.core.schemas.sischema import load_skill_interface_schema

if TYPE_CHECKING:
    from sia_tui.core.interface.forensics import ForensicsVerdict
    from sia_tui.core.schemas.validation import CompiledSchema

_VERSION = re.compile(r"(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\Z")
# Which rule a trusted-schema violation breaks, by the document member it is under.
_RULE_BY_MEMBER = {
    "interface_version": "SID3",
    "skill_version": "SID2",
    "interaction": "SID4",
    "authority": "SID5",
    "skill_id": "SID1",
    "constraints": "SID1",
}
_RULE_BY_REF_MEMBER = {"dialect": "SR2", "resolution": "SR3", "digest": "SR4"}
_OPERATION_SELECTORS = ("operation", "action", "op", "command", "verb")


def _bad(message: str, pointer: str, rule: str, **extra: Any) -> Finding:
    return Finding(message, pointer=pointer, rule=rule, code=ErrorCode.INTERFACE_INVALID, **extra)


def _diagnose(
    declared: str, value: Any, *, reference: dict[str, Any] | None = None
) -> ForensicsVerdict:
    """Which vendor mistake reproduces a wrong digest (forensics.py), loaded at the first
    wrong digest: a run whose digests agree never reads it."""
    from sia_tui.core.interface.forensics import diagnose_digest

    return diagnose_digest(declared, value, reference=reference)


def _trusted_schema() -> CompiledSchema:
    from sia_tui.core.schemas.validation import compile_schema

    return compile_schema(load_skill_interface_schema())


@dataclass(frozen=True)
class DigestCheck:
    """CP4: the interface digest as advertised, as returned, and as computed here."""

    advertised: str | None
    returned: str | None
    computed: str | None
    findings: tuple[Finding, ...] = ()
    forensics: ForensicsVerdict | None = None
    #: The digest that differs while the other two agree (None: all agree, or no majority).
    odd_one_out: DigestSource | None = None
    #: Which digest the forensics verdict explains (the one that is wrong).
    forensics_of: DigestSource | None = None

    @property
    def ok(self) -> bool:
        """True when the digests present are well-formed and equal."""
        return not self.findings

    @property
    def differing(self) -> list[tuple[DigestSource, DigestSource]]:
        """Every pair of present digests that differ."""
        return differing_pairs(self.advertised, self.returned, self.computed)


def _digest_format(value: Any, what: str, pointer: str, rule: str) -> list[Finding]:
    try:
        parse_digest(value)
    except DigestFormatError as exc:
        return [
            _bad(
                f"the {what} digest is malformed: {exc.message}",
                pointer,
                rule,
                keyword="digest",
                actual=str(value)[:80],
            )
        ]
    return []


#: Where a finding about each digest points: the card advertisement or the payload member.
_DIGEST_POINTER = {
    DigestSource.ADVERTISED: "",
    DigestSource.RETURNED: "/interface_digest",
    DigestSource.COMPUTED: "/interface_digest",
}


#: Who advertises the digest, in sentences: a live run reads it in the Agent Card; `lint`
#: is given it with --digest.
CARD_ADVERTISER = "the Agent Card"


def _odd_finding(
    source: DigestSource,
    values: dict[DigestSource, str | None],
    forensics: ForensicsVerdict,
    advertiser: str,
) -> Finding:
    """One finding naming the odd digest, the agreeing pair, and the forensics verdict."""
    odd = str(values[source])
    agreed = next(str(v) for s, v in values.items() if s is not source)
    if source is DigestSource.COMPUTED:
        fact = (
            f"the document hashes to {odd}, not to the interface digest {agreed} that the "
            "advertised and returned digests agree on: the agent computes its interface "
            "digest wrongly (RULES SID6)"
        )
        expected, actual = odd, agreed
    elif source is DigestSource.ADVERTISED:
        fact = (
            f"{advertiser} advertises {odd}, but describe_skill returned {agreed} and the "
            "document hashes to it too"
        )
        expected, actual = agreed, odd
    else:
        fact = (
            f"describe_skill returned {odd}, but {advertiser} advertises {agreed} and the "
            "document hashes to it too"
        )
        expected, actual = agreed, odd
    return _bad(
        f"{fact}; {forensics.explanation}",
        _DIGEST_POINTER[source],
        "SID6" if source is DigestSource.COMPUTED else "CP4",
        expected=expected,
        actual=actual,
    )


def _pair_finding(
    pair: tuple[DigestSource, DigestSource],
    values: dict[DigestSource, str | None],
    document: Any,
    advertiser: str,
) -> tuple[Finding, ForensicsVerdict | None]:
    """One finding for two digests that differ, with no third to say which one is wrong."""
    first, second = pair
    one, other = str(values[first]), str(values[second])
    if second is not DigestSource.COMPUTED:  # advertised and returned
        message = f"describe_skill returned digest {other} but {advertiser} advertises {one}"
        return _bad(message, "/interface_digest", "CP4", expected=one, actual=other), None
    verdict = _diagnose(one, document)
    if first is DigestSource.RETURNED:
        message = f"the returned document hashes to {other}, not {one}: {verdict.explanation}"
    else:
        message = (
            f"the document hashes to {other}, not to {one} that {advertiser} advertises: "
            f"{verdict.explanation}"
        )
    finding = _bad(message, _DIGEST_POINTER[first], "CP4", expected=other, actual=one)
    return finding, verdict


def verify_digests(
    document: Any,
    advertised: str | None,
    returned: str | None,
    *,
    advertiser: str = CARD_ADVERTISER,
) -> DigestCheck:
    """Three-way digest check (RULES CP4, SID6) over the digests present; each malformed
    digest is explained. None is a digest nobody gave (a file has no Agent Card).

    When two digests agree and one differs, one finding names the odd one out and the
    forensics verdict explains that digest (never the two that agree). Otherwise each
    pair that differs, in the order advertised, returned, computed, gets its own finding.
    """
    findings: list[Finding] = []
    verdict: ForensicsVerdict | None = None
    explained: DigestSource | None = None
    try:
        computed: str | None = digest_of(document)
    except CanonicalizationError:
        # No digest is defined (an integer beyond 2**53 - 1): the forensics say where, and
        # whether the agent hashed its exact digits.
        computed = None
        explained = DigestSource.RETURNED if returned is not None else DigestSource.ADVERTISED
        verdict = _diagnose(str(returned if returned is not None else advertised), document)
        findings.append(
            _bad(f"the document has no RFC 8785 digest: {verdict.explanation}", "", "SID6")
        )
        findings += unsafe_number_findings(document)
    if advertised is not None:
        findings += _digest_format(advertised, "advertised", "", "ADV1")
    if returned is not None:
        findings += _digest_format(returned, "returned", "/interface_digest", "CP4")
    values = digest_values(advertised, returned, computed)
    odd = odd_one_out(advertised, returned, computed)
    if odd is not None:
        # The wrong digest is the odd one; with the document's own digest wrong, the pair
        # that agrees is what the vendor computed.
        explained = odd if odd is not DigestSource.COMPUTED else DigestSource.RETURNED
        verdict = _diagnose(str(values[explained]), document)
        findings.append(_odd_finding(odd, values, verdict, advertiser))
        findings += unsafe_number_findings(document)
        return DigestCheck(advertised, returned, computed, tuple(findings), verdict, odd, explained)
    present = [source for source, value in values.items() if value is not None]
    # No odd one out: the present digests all agree, or each differs from the next one.
    for pair in zip(present, present[1:], strict=False):
        if values[pair[0]] == values[pair[1]]:
            continue
        finding, pair_verdict = _pair_finding(pair, values, document, advertiser)
        findings.append(finding)
        if pair_verdict is not None:
            verdict, explained = pair_verdict, pair[0]
            findings += unsafe_number_findings(document)
    return DigestCheck(advertised, returned, computed, tuple(findings), verdict, None, explained)


def _rule_for(pointer: str) -> str:
    parts = pointer.split("/")[1:]
    if not parts:
        return "SID1"
    if parts[0] in ("input_schema", "output_schema", "supporting_record_schemas"):
        # The Schema Reference member: one level down, or two under the record map.
        depth = 2 if parts[0] == "supporting_record_schemas" else 1
        member = parts[depth] if len(parts) > depth else ""
        return _RULE_BY_REF_MEMBER.get(member, "SR1")
    return _RULE_BY_MEMBER.get(parts[0], "CP5")


def validate_document(document: Any, *, skill_id: str, skill_version: str) -> list[Finding]:
    """CP5: the trusted schema (SID7), interface_version "1.0", ids, SID8 and SID9."""
    findings = [
        f
        if f.rule == MORE_RULE  # a count or limit note stays as it is
        else _bad(
            f.message,
            f.pointer,
            _rule_for(f.pointer),
            schema_path=f.schema_path,
            keyword=f.keyword,
            expected=f.expected,
            actual=f.actual,
        )
        for f in _trusted_schema().validate(document)
    ]
    if not isinstance(document, dict):
        return findings
    # interface_version "1.0" (SID3) is the trusted schema's const; no second finding here.
    for member, wanted in (("skill_id", skill_id), ("skill_version", skill_version)):
        if member in document and document[member] != wanted:
            findings.append(
                _bad(
                    f"{member} is {document[member]!r} but {wanted!r} was selected",
                    f"/{member}",
                    "CP5",
                    expected=wanted,
                    actual=str(document[member])[:80],
                )
            )
    records = document.get("supporting_record_schemas")
    if isinstance(records, dict) and document.get("skill_id") in records:
        findings.append(
            _bad(
                "a supporting-record kind equals the skill id",  # RULES SID8
                join(["supporting_record_schemas", document["skill_id"]]),
                "SID8",
            )
        )
    findings += _advise_single_operation(document)
    return findings


def _advise_single_operation(document: dict[str, Any]) -> list[Finding]:
    """RULES SID9 (advisory): an operation selector in the input suggests several skills."""
    schema = embedded_schema(document.get("input_schema"))
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict):
        return []
    for name in _OPERATION_SELECTORS:
        spec = properties.get(name)
        if isinstance(spec, dict) and isinstance(spec.get("enum"), list) and len(spec["enum"]) > 1:
            return [
                Finding(
                    f"the input selects one of {len(spec['enum'])} operations with {name!r}; "
                    "operations with different effects should be separate skills",
                    severity=Severity.WARNING,
                    rule="SID9",
                    pointer=join(["input_schema", "resolution", "schema", "properties", name]),
                )
            ]
    return []


def embedded_schema(reference: Any) -> Any:
    """The inline schema of a Schema Reference (RULES SR3), or None when there is none."""
    if isinstance(reference, dict) and isinstance(reference.get("resolution"), dict):
        return reference["resolution"].get("schema")
    return None


def schema_at(document: dict[str, Any], path: tuple[str, ...]) -> Any:
    """The inline schema of the Schema Reference at ``path`` of a validated document."""
    node: Any = document
    for key in path:
        node = node[key]
    return embedded_schema(node)


@dataclass(frozen=True)
class SchemaRefCheck:
    """CP6 for one Schema Reference: declared vs computed digest, and the metaschema."""

    role: str
    pointer: str
    declared: str | None
    computed: str | None
    match: bool
    findings: tuple[Finding, ...] = ()
    forensics: ForensicsVerdict | None = None

    @property
    def ok(self) -> bool:
        """True when the digest matches and the schema is a valid 2020-12 schema."""
        return self.match and not any(f.severity is Severity.ERROR for f in self.findings)


def _references(document: dict[str, Any]) -> list[tuple[str, str, Any]]:
    found: list[tuple[str, str, Any]] = [
        (role, f"/{role}", document.get(role))
        for role in ("input_schema", "output_schema")
        if role in document
    ]
    records = document.get("supporting_record_schemas")
    if isinstance(records, dict):
        found += [
            (f"supporting_record_schemas/{kind}", join(["supporting_record_schemas", kind]), ref)
            for kind, ref in records.items()
        ]
    return found


def _remote_refs(schema: Any, pointer: str) -> list[Finding]:
    """RULES SR7: a $ref to a URI the schema does not embed can never be completed."""
    ids, refs, stack = set(), [], [(pointer, schema)]
    while stack:
        where, node = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("$id"), str):
                ids.add(node["$id"].partition("#")[0])
            if isinstance(node.get("$ref"), str):
                refs.append((f"{where}/$ref", node["$ref"]))
            stack.extend((f"{where}/{join([k])[1:]}", v) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((f"{where}/{i}", v) for i, v in enumerate(node))
    return [
        _bad(
            f"$ref {ref!r} names a schema that is not embedded; it is never fetched, so "
            "the interface is incomplete",
            where,
            "SR7",
        )
        for where, ref in refs
        if ":" in ref.partition("#")[0] and ref.partition("#")[0] not in ids
    ]


def _usability(schema: Any, schema_pointer: str) -> list[Finding]:
    """SR7 and what the engine alone catches: the schema must compile offline."""
    from sia_tui.core.schemas.validation import compile_schema  # jsonschema: loaded when first used

    remote = _remote_refs(schema, schema_pointer)
    if remote:
        return remote
    try:
        compile_schema(schema)
    except SchemaError as exc:
        rule = "SR7" if "SR7" in exc.message else "SR2"
        return [
            _bad(f"the schema cannot be used: {exc.message}", schema_pointer + exc.pointer, rule)
        ]
    return []


def _example_findings(role: str, schema: Any, schema_pointer: str) -> list[Finding]:
    """The schema's own examples against it: the editor starts from the input's (CP7)."""
    from sia_tui.core.schemas.validation import compile_schema

    what, rule = ("the input schema", "CP7") if role == "input_schema" else ("its schema", "CP10")
    return example_findings(compile_schema(schema), schema, schema_pointer, what=what, rule=rule)


def verify_embedded_schemas(document: Any) -> list[SchemaRefCheck]:
    """CP6: every embedded schema against its declared digest, plus a metaschema check, its
    own $schema (SR2) and its own examples."""
    from sia_tui.core.schemas.validation import check_schema  # jsonschema: loaded when first used

    if not isinstance(document, dict):
        return []
    checks = []
    for role, pointer, reference in _references(document):
        declared = reference.get("digest") if isinstance(reference, dict) else None
        schema = embedded_schema(reference)
        if schema is None:
            checks.append(
                SchemaRefCheck(
                    role,
                    pointer,
                    declared,
                    None,
                    False,
                    (
                        _bad(
                            "no inline schema in resolution.schema", f"{pointer}/resolution", "SR3"
                        ),
                    ),
                )
            )
            continue
        findings = _digest_format(declared, "schema", f"{pointer}/digest", "SR4")
        try:
            computed: str | None = digest_of(schema)
        except CanonicalizationError as exc:
            computed = None
            findings.append(
                _bad(
                    f"the schema cannot be canonicalized: {exc}",
                    f"{pointer}/resolution/schema",
                    "SR4",
                )
            )
        verdict = None
        if computed is not None and declared != computed:
            verdict = _diagnose(str(declared), schema, reference=reference)
            findings.append(
                _bad(
                    f"the embedded schema hashes to {computed}, not {declared}: "
                    f"{verdict.explanation}",
                    f"{pointer}/digest",
                    "CP6",
                    expected=computed,
                    actual=str(declared)[:80],
                )
            )
        schema_pointer = f"{pointer}/resolution/schema"
        metaschema = [
            _bad(
                f"not a valid JSON Schema 2020-12: {f.message}",
                schema_pointer + f.pointer,
                "SR2",
                keyword=f.keyword,
            )
            for f in check_schema(schema)
        ]
        unusable = metaschema or _usability(schema, schema_pointer)
        findings += unusable + dialect_findings(schema, schema_pointer)
        if not unusable:
            findings += _example_findings(role, schema, schema_pointer)
        checks.append(
            SchemaRefCheck(
                role,
                pointer,
                declared,
                computed,
                computed is not None and declared == computed,
                tuple(findings),
                verdict,
            )
        )
    return checks


def check_advertisement(extension_raw: Any) -> list[Finding]:
    """ADV1 shape, interface_version "1.0", ADV3 one binding per skill_id, digest format."""
    if not isinstance(extension_raw, dict):
        return [_bad("the extension entry must be an object", "", "ADV1")]
    findings = []
    if extension_raw.get("uri") != EXTENSION_URI:
        findings.append(
            _bad(
                "the extension uri is not the schema-interface URI",
                "/uri",
                "ADV1",
                expected=EXTENSION_URI,
                actual=str(extension_raw.get("uri"))[:120],
            )
        )
    if "required" in extension_raw and not isinstance(extension_raw["required"], bool):
        findings.append(_bad("required must be a boolean", "/required", "ADV1"))
    params = extension_raw.get("params")
    if not isinstance(params, dict):
        return [*findings, _bad("params must be an object", "/params", "ADV1")]
    if params.get("interface_version") != INTERFACE_VERSION:
        findings.append(
            _bad(
                'params.interface_version must be "1.0"',
                "/params/interface_version",
                "ADV1",
                expected='"1.0"',
                actual=str(params.get("interface_version"))[:80],
            )
        )
    skills = params.get("skills")
    if not isinstance(skills, list):
        return [*findings, _bad("params.skills must be an array", "/params/skills", "ADV1")]
    seen: dict[str, int] = {}
    for index, entry in enumerate(skills):
        where = f"/params/skills/{index}"
        if not isinstance(entry, dict):
            findings.append(_bad("each skills entry must be an object", where, "ADV1"))
            continue
        skill_id = entry.get("skill_id")
        if not isinstance(skill_id, str) or not skill_id:
            findings.append(
                _bad("skill_id must be a non-empty string", f"{where}/skill_id", "ADV1")
            )
        elif skill_id in seen:
            findings.append(
                _bad(  # RULES ADV3
                    f"skill {skill_id!r} is bound twice (also at /params/skills/{seen[skill_id]}); "
                    "exactly one skill_version/interface_digest per skill_id",
                    f"{where}/skill_id",
                    "ADV3",
                )
            )
        else:
            seen[skill_id] = index
        version = entry.get("skill_version")
        if not isinstance(version, str) or not _VERSION.match(version):
            findings.append(
                _bad(
                    f"skill_version {version!r} is not MAJOR.MINOR",
                    f"{where}/skill_version",
                    "SID2",
                )
            )
        findings += _digest_format(
            entry.get("interface_digest"), "advertised", f"{where}/interface_digest", "ADV1"
        )
    return findings
