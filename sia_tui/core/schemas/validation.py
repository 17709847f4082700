"""JSON Schema 2020-12 instance validation with located findings (RULES ERR5, FMT1, FMT2, SR7).

Engine: jsonschema-rs, chosen by measurement (docs/CORE.md, benchmarks/validation_engine.py).
The pure-Python jsonschema package is the authority on the 2020-12 metaschema, because
its error paths point into the schema precisely; it is imported only when the engine's
own metaschema check finds a schema invalid (or cannot judge it), see ``_metaschema_errors``.
"""

from __future__ import annotations

import functools
import json
import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urljoin

import jsonschema_rs

from sia_tui.core import limits
from sia_tui.core.bounded import MORE_RULE, error_count, error_count_text
from sia_tui.core.constants import DIALECT_2020_12
from sia_tui.core.errors import CanonicalizationError, JsonInputError, SchemaError
from sia_tui.core.findings import Finding
from sia_tui.core.jsonkit.canonical import digest_of
from sia_tui.core.jsonkit.pointer import join, locate_values, resolve, split
from sia_tui.core.jsonkit.strictjson import loads

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError as MetaschemaError

    from sia_tui.core.schemas.error_listing import PartValidators


@functools.cache
def _python_metaschema() -> Draft202012Validator:
    """The authoritative metaschema validator; jsonschema and referencing load here.

    Offline (RULES SR7: nothing a schema names is ever fetched). "regex" is left to
    jsonschema-rs: it speaks ECMA-262 (``\\p{Letter}``); Python's re does not.
    """
    import referencing.exceptions
    from jsonschema import Draft202012Validator, FormatChecker
    from referencing import Registry, Resource

    def refuse_retrieval(uri: str) -> Resource[Any]:
        raise referencing.exceptions.NoSuchResource(ref=uri)  # type: ignore[call-arg]

    return Draft202012Validator(
        Draft202012Validator.META_SCHEMA,
        registry=Registry(retrieve=refuse_retrieval),  # type: ignore[call-arg]
        format_checker=FormatChecker(formats=[f for f in FormatChecker.checkers if f != "regex"]),
    )


# The same metaschema compiled by the engine (bundled, never fetched), pinned to 2020-12
# whatever "$schema" the checked schema names, as the Python validator is. It asserts no
# format: neither does the Python one for the three the metaschema uses (uri and
# uri-reference have no checker installed, regex is left out). It is never more lenient
# than the Python validator (tests/core/test_metaschema_native.py), so its "valid" is
# final and costs microseconds; anything else is decided, and located, by the Python one.
_NATIVE_METASCHEMA = jsonschema_rs.Draft202012Validator({"$ref": DIALECT_2020_12}, offline=True)
# Deeper schemas go to the Python validator, which gives up near 110 levels with a
# finding of its own: the fast path must not turn that finding into a pass.
_NATIVE_METASCHEMA_DEPTH = 64


def _metaschema_errors(schema: Any) -> list[MetaschemaError]:
    """Every 2020-12 metaschema violation of ``schema`` (RULES SR2); may raise RecursionError."""
    try:
        shallow = not (
            isinstance(schema, dict | list) and _too_deep(schema, _NATIVE_METASCHEMA_DEPTH)
        )
        natively_valid = shallow and bool(_NATIVE_METASCHEMA.is_valid(schema))
    except (ValueError, TypeError, OverflowError):
        natively_valid = False  # a value the engine cannot take: the Python validator judges
    if natively_valid:
        return []
    return list(_python_metaschema().iter_errors(schema))


_PATTERN_OPTIONS = jsonschema_rs.FancyRegexOptions(backtrack_limit=limits.MAX_REGEX_BACKTRACKS)
_WEAK_KEYWORDS = frozenset({"anyOf", "oneOf", "allOf", "not", "if", "then", "else", "$ref"})
_LIMIT_KEYWORDS = frozenset(
    {
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minLength",
        "maxLength",
        "minItems",
        "maxItems",
        "minProperties",
        "maxProperties",
    }
)
_JSON_TYPES = {
    bool: "boolean",
    int: "integer",
    float: "number",
    str: "string",
    type(None): "null",
    list: "array",
    dict: "object",
}


def json_type(value: Any) -> str:
    """The JSON type name of a decoded value."""
    return _JSON_TYPES.get(type(value), type(value).__name__)


def shape(value: Any) -> str:
    """What a container is without its members: "object with 3 members", "array of 9 items"."""
    if isinstance(value, dict):
        return f"object with {len(value)} members"
    if isinstance(value, list):
        return f"array of {len(value)} items"
    return render(value)


def render(value: Any) -> str:
    """A short one-line rendering of a value for ``expected``/``actual``."""
    if isinstance(value, dict) and len(value) > 20:
        return f"object with {len(value)} members"
    if isinstance(value, list) and len(value) > 20:
        return f"array of {len(value)} items"
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    limit = limits.MAX_RENDERED_CHARS
    return text if len(text) <= limit else text[: limit - 1] + "…"


def check_schema(schema: Any) -> list[Finding]:
    """Metaschema findings for ``schema`` (pointers into the schema), empty when valid."""
    try:
        errors = sorted(_metaschema_errors(schema), key=lambda e: list(map(str, e.path)))
    except RecursionError:
        return [Finding("schema is nested too deeply to check", rule="SR2")]
    findings = [
        Finding(
            e.message[:300],
            pointer=join(e.path),
            rule="SR2",
            keyword=str(e.validator),
            schema_path=join(e.schema_path),
        )
        for e in errors
    ]
    if not findings and isinstance(schema, dict | bool):
        try:  # regexes (ECMA-262) are checked by the engine itself, when it compiles
            jsonschema_rs.Draft202012Validator(schema, offline=True)
        except jsonschema_rs.ValidationError as exc:
            if exc.kind.name != "$ref":  # unembedded $ref is SR7's business, not SR2's
                findings.append(
                    Finding(
                        str(exc.message).splitlines()[0][:300],
                        pointer=join(exc.instance_path),
                        rule="SR2",
                        keyword=str(exc.kind.name),
                    )
                )
        except (ValueError, TypeError):
            pass  # the metaschema check above is authoritative for shape
    return findings


def _resource_pointers(schema: Any) -> dict[str, str]:
    """Base URI of every ``$id`` resource -> its pointer, to place absolute locations."""
    found: dict[str, str] = {}
    stack: list[tuple[str, str, Any]] = [("", "", schema)]
    while stack:
        pointer, base, node = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("$id"), str):
                base = urljoin(base, node["$id"]).partition("#")[0]
                found.setdefault(base, pointer)
            stack.extend((f"{pointer}/{join([k])[1:]}", base, v) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((f"{pointer}/{i}", base, v) for i, v in enumerate(node))
    return found


def _instance_order(instance: Any, pointers: Iterable[str]) -> dict[str, tuple[int, ...]]:
    """Pointer -> a key that sorts in document order, for the given pointers only (walking
    every value of an 8 MiB instance to order a thousand findings would cost gigabytes)."""
    positions: dict[int, dict[str, int]] = {}
    order: dict[str, tuple[int, ...]] = {}
    for pointer in pointers:
        node, key = instance, []
        for token in split(pointer):
            if isinstance(node, list):
                index = int(token) if token.isdigit() and int(token) < len(node) else len(node)
                key.append(index)
                node = node[index] if index < len(node) else None
            elif isinstance(node, dict):
                members = positions.setdefault(id(node), {k: n for n, k in enumerate(node)})
                key.append(members.get(token, len(node)))
                node = node.get(token)
            else:
                key.append(0)
        order[pointer] = tuple(key)
    return order


def _members(schema: Any) -> int:
    """How many object members a schema has, all levels (a bound on keywords per value)."""
    count, stack = 0, [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            count += len(node)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return count


def _too_deep(instance: Any, limit: int) -> bool:
    """True when containers nest deeper than ``limit`` (checked without recursion)."""
    stack: list[tuple[Any, int]] = [(instance, 1)]
    while stack:
        node, depth = stack.pop()
        children = node.values() if isinstance(node, dict) else node
        for child in children:
            if isinstance(child, dict | list):
                if depth + 1 > limit:
                    return True
                stack.append((child, depth + 1))
    return False


@dataclass(frozen=True)
class TextValidation:
    """The outcome of validating editor text: a parse error or the findings."""

    value: Any
    parse_error: JsonInputError | None
    findings: list[Finding] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when the text parsed and validated."""
        return self.parse_error is None and not self.findings

    @property
    def problem_count(self) -> int:
        """How many errors the findings stand for; a note that the list stops is none."""
        return error_count(self.findings)

    @property
    def problems(self) -> str:
        """The error count as shown: "3", or "at least 10000" when counting stopped."""
        return error_count_text(self.findings)


class CompiledSchema:
    """A checked 2020-12 schema, ready to validate instances; build with :func:`compile_schema`."""

    def __init__(self, schema: Any, digest: str) -> None:
        self.schema = schema
        self.digest = digest
        # RULES SR7: offline, so a $ref to anything not embedded fails here, unfetched.
        # RULES FMT1: formats are asserted (date-time per RFC 3339, leap seconds included).
        # A backtracking pattern (backreference, lookaround) is capped far below the
        # engine's default, so a hostile one costs microseconds per string, not 25 ms.
        options: dict[str, Any] = {
            "validate_formats": True,
            "offline": True,
            "pattern_options": _PATTERN_OPTIONS,
        }
        self._options = options
        self._validator = jsonschema_rs.Draft202012Validator(schema, **options)
        self._resources = _resource_pointers(schema)

    @functools.cached_property
    def _parts(self) -> PartValidators:
        """The validators of its parts, for instances too big to list in one call: built
        at the first invalid instance (a passing run never loads error_listing)."""
        from sia_tui.core.schemas.error_listing import PartValidators

        parts = PartValidators(self.schema, self._options, _members(self.schema))
        # What the engine locates under the schema's own URI is at its root; only an
        # error's location reads it, and errors are listed through these parts.
        self._resources.setdefault(parts.uri, "")
        return parts

    def is_valid(self, instance: Any) -> bool:
        """True when ``instance`` validates."""
        if isinstance(instance, dict | list) and _too_deep(instance, limits.MAX_JSON_DEPTH):
            return False
        try:
            return bool(self._validator.is_valid(instance))
        except (ValueError, TypeError, OverflowError):
            return False

    def validate(
        self, instance: Any, *, source_text: str | None = None, depth_checked: bool = False
    ) -> list[Finding]:
        """Every validation error as a located Finding, in instance order (RULES ERR5, FMT2).

        At most ``limits.MAX_FINDINGS`` are kept; one closing finding counts the rest.
        ``depth_checked``: the caller proved the instance nests at most
        ``limits.MAX_JSON_DEPTH`` levels (strict parsing does), so it is not walked again.
        """
        findings = self._findings(instance, depth_checked)
        # "N more" counts and limit notes close the list, whatever their pointer.
        closing = [f for f in findings if f.rule == MORE_RULE]
        findings = [f for f in findings if f.rule != MORE_RULE]
        if len(findings) <= 1 and source_text is None:
            return findings + closing  # nothing to order (a too-deep instance is never walked)
        if source_text is not None:
            positions = locate_values(source_text, {f.pointer for f in findings})
            located = []
            for f in findings:
                where = positions.get(f.pointer)
                located.append(f if where is None else replace(f, line=where[0], column=where[1]))
            ordered = sorted(
                located, key=lambda f: (f.line or 0, f.column or 0, f.schema_path or "")
            )
            return ordered + closing
        order = _instance_order(instance, {f.pointer for f in findings})
        ordered = sorted(findings, key=lambda f: (order[f.pointer], f.schema_path or ""))
        return ordered + closing

    def _findings(self, instance: Any, depth_checked: bool = False) -> list[Finding]:
        # The engine recurses natively and would crash the process on a value nested
        # tens of thousands deep (one built in code; strictjson already caps parsed input,
        # and walking a 1 MB value again took a third of the editor's validation time).
        deep = not depth_checked and isinstance(instance, dict | list)
        if deep and _too_deep(instance, limits.MAX_JSON_DEPTH):
            return [
                Finding(
                    f"the instance nests deeper than {limits.MAX_JSON_DEPTH} levels "
                    "and is not validated",
                    rule="ERR5",
                )
            ]
        try:
            if self._validator.is_valid(instance):
                return []  # fast, and the same verdict as listing the errors
            # Part by part, so the memory the engine's errors take stays bounded.
            from sia_tui.core.schemas.error_listing import list_in_parts

            return list_in_parts(self._parts, self._validator, instance, self._finding)
        except (ValueError, TypeError, OverflowError, RecursionError) as exc:
            # A value the engine cannot take (e.g. nesting past its own limit) is reported.
            return [Finding(f"the instance cannot be validated: {exc}"[:300], rule="ERR5")]

    def _finding(
        self, error: Any, path: tuple[str, ...] = (), stub_at: str | None = None
    ) -> Finding:
        """``error`` as a Finding; ``path``: where its part is, ``stub_at``: the schema
        location whose own keywords judged the part's stub (error_listing.py)."""
        keyword = str(error.kind.name)
        details: dict[str, Any] = error.kind.as_dict() or {}
        expected: str | None = render(details) if details else None
        actual = shape(error.instance) if stub_at is not None else render(error.instance)
        if keyword == "type":
            types = details.get("types", details.get("type"))
            expected = " or ".join(types) if isinstance(types, list) else str(types)
            actual = json_type(error.instance)
        elif keyword == "required":
            expected, actual = render([details.get("property")]), "missing"
        elif keyword == "additionalProperties":
            expected, actual = "no other members", render(details.get("unexpected"))
        elif keyword in _LIMIT_KEYWORDS or keyword in ("enum", "const", "format", "pattern"):
            wanted = next(
                (
                    details[k]
                    for k in (
                        "limit",
                        "options",
                        "expected_value",
                        "format",
                        "pattern",
                        "multiple_of",
                    )
                    if k in details
                ),
                details,
            )
            expected = render(wanted)
        elif keyword in _WEAK_KEYWORDS:
            actual = json_type(error.instance)
        message = str(error.message)
        if stub_at is not None:
            schema_path = stub_at + join(error.schema_path)
        else:
            schema_path = self._keyword_location(error)
        if keyword == "pattern" and "backtracking" in message:
            # RULES ERR5: the overrun is a located finding (the value is not validated).
            expected = self._pattern_at(schema_path)
            message = (
                f"the pattern {expected} needs more than {limits.MAX_REGEX_BACKTRACKS} "
                "backtracking steps on this value; it was not evaluated, so the value is "
                "not validated"
            )
        return Finding(
            message if len(message) <= 300 else message[:299] + "…",
            pointer=join([*path, *error.instance_path]),
            rule="ERR5",
            keyword=keyword,
            schema_path=schema_path,
            expected=expected,
            actual=actual,
        )

    def _pattern_at(self, schema_path: str) -> str:
        try:
            return render(resolve(self.schema, schema_path))
        except (KeyError, IndexError, ValueError, TypeError):
            return "(unknown)"

    def _keyword_location(self, error: Any) -> str:
        """The real pointer of the failing keyword in this schema, through ``$ref``."""
        absolute = error.absolute_keyword_location
        if isinstance(absolute, str):
            base, _, fragment = absolute.partition("#")
            if base in self._resources and (fragment == "" or fragment.startswith("/")):
                return self._resources[base] + unquote(fragment)
        return join(error.schema_path)


class _SchemaCache:
    """Compiled schemas by digest, least recently used first out.

    The UI thread and engine workers share it, so one lock makes lookup-and-refresh and
    insert-and-evict single steps (unlocked, a lookup can race an eviction: KeyError).
    Compiling happens outside the lock; when two threads compile the same schema, the
    first one stored is kept.
    """

    def __init__(self) -> None:
        self._items: OrderedDict[str, CompiledSchema] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> CompiledSchema | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: str, compiled: CompiledSchema) -> CompiledSchema:
        """Store ``compiled`` unless another thread stored ``key`` first; return the kept one."""
        with self._lock:
            kept = self._items.setdefault(key, compiled)
            self._items.move_to_end(key)
            while len(self._items) > limits.SCHEMA_CACHE_SIZE:
                self._items.popitem(last=False)
            return kept

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)


_CACHE = _SchemaCache()


def compile_schema(schema: Any) -> CompiledSchema:
    """Check ``schema`` against the 2020-12 metaschema and compile it (cached by digest).

    Raises ``SchemaError`` with the pointer of the first metaschema violation, or for a
    ``$ref`` that is not embedded (RULES SR7: it is never fetched).
    """
    try:
        key = digest_of(schema)
    except CanonicalizationError:
        key = "json:" + json.dumps(schema, sort_keys=True)
    cached = _CACHE.get(key)
    if cached is not None:
        return cached
    if not isinstance(schema, dict | bool):
        raise SchemaError(f"a schema must be an object or a boolean, not {json_type(schema)}")
    try:
        errors = _metaschema_errors(schema)
        worst = _best_match(errors) if errors else None
    except RecursionError:
        raise SchemaError("schema is nested too deeply") from None
    if worst is not None:
        raise SchemaError(
            f"invalid JSON Schema 2020-12: {worst.message[:300]}", pointer=join(worst.path)
        )
    try:
        # A private copy: the caller may mutate their dict, the cache must not change.
        compiled = CompiledSchema(json.loads(json.dumps(schema)), key)
    except jsonschema_rs.ValidationError as exc:
        raise _engine_schema_error(exc) from None
    except (ValueError, TypeError) as exc:
        raise SchemaError(f"the schema cannot be compiled: {exc}"[:300]) from None
    return _CACHE.put(key, compiled)


def _best_match(errors: list[MetaschemaError]) -> MetaschemaError | None:
    from jsonschema.exceptions import best_match

    worst: MetaschemaError | None = best_match(errors)
    return worst


def _engine_schema_error(exc: Any) -> SchemaError:
    message = str(exc.message).splitlines()[0][:300]
    if exc.kind.name == "$ref":
        return SchemaError(
            f"{message} (remote references are never retrieved, RULES SR7)",
            pointer=join(exc.schema_path),
        )
    return SchemaError(f"invalid JSON Schema 2020-12: {message}", pointer=join(exc.instance_path))


def validate_json_text(compiled: CompiledSchema, text: str) -> TextValidation:
    """Parse editor text strictly, then validate it with positions (for the argument editor)."""
    try:
        value = loads(text, source="arguments", max_depth=limits.MAX_JSON_DEPTH)
    except JsonInputError as exc:
        return TextValidation(None, exc)
    findings = compiled.validate(value, source_text=text, depth_checked=True)
    return TextValidation(value, None, findings)
