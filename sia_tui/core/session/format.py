"""The ``sia-session/6`` document: build it from a Run (redacted) and read it back."""

from __future__ import annotations

import base64
import binascii
import dataclasses
import hashlib
import platform
import re
import time
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

from sia_tui import __version__
from sia_tui.core.constants import DOCUMENT_MEMBER
from sia_tui.core.engine.steps.trust import target_to_save
from sia_tui.core.exchange import Exchange
from sia_tui.core.findings import Finding
from sia_tui.core.jsonkit.pointer import walk
from sia_tui.core.output.policy import printable
from sia_tui.core.redaction.redact import RedactionHit, Redactor, placeholder
from sia_tui.core.run.read_model import STEP_TITLES, Run
from sia_tui.core.session.dataclass_json import SessionError, from_json, to_json
from sia_tui.core.session.formats import FORMAT, READABLE_FORMATS
from sia_tui.core.session.grpc_recorded import check_grpc_exchange
from sia_tui.core.session.invocations import (
    invocations_member,
    past_run_members,
    session_exchanges,
    share_exchanges,
    verdict_members,
)
from sia_tui.core.session.payloads import compact_payloads, expand_payloads
from sia_tui.core.session.upgrade import upgrade_run
from sia_tui.core.trace_context import is_span_id, is_trace_id

#: Formats whose artifact payloads are stored once (``payloads.py``).
_COMPACT_PAYLOADS = ("sia-session/3", "sia-session/4", FORMAT)
#: Formats that hold every invocation of the run (``invocations.py``).
_INVOCATION_FORMATS = ("sia-session/4", FORMAT)
#: Libraries whose version can change a verdict; recorded for the environment section.
DEPENDENCIES = ("httpx", "jsonschema", "rfc8785", "textual", "platformdirs")


@dataclass
class LoadedSession:
    """A session read back from disk: ``run`` is rebuilt for read-only display."""

    run: Run
    created: str
    tool: dict[str, Any]
    environment: dict[str, Any]
    #: The client options as recorded (secrets replaced by placeholders).
    options: dict[str, Any]
    redactions: list[RedactionHit]
    #: Problems found while loading that do not stop display (manifest mismatch...).
    warnings: list[str] = field(default_factory=list)
    #: True when every body hash in the manifest matched.
    manifest_ok: bool = True
    path: str | None = None
    #: The format the file declared (an older one is upgraded on load).
    format: str = FORMAT
    #: The ``probe`` member of a session that recorded a ``sia-tui probe`` run, as JSON.
    probe: dict[str, Any] | None = None
    #: The ``fuzz`` member of a session that recorded a ``sia-tui fuzz`` run (seed, corpus).
    fuzz: dict[str, Any] | None = None


def environment() -> dict[str, Any]:
    """Tool, Python, platform and dependency versions."""
    deps: dict[str, str | None] = {}
    for name in DEPENDENCIES:
        try:
            deps[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            deps[name] = None
    return {
        "python": platform.python_version(),
        "platform": platform.platform(terse=True),
        "dependencies": deps,
    }


def _body(data: bytes) -> dict[str, Any]:
    """UTF-8 text when the bytes are UTF-8, else base64 with an encoding marker."""
    try:
        return {"encoding": "utf-8", "text": data.decode("utf-8")}
    except UnicodeDecodeError:
        return {"encoding": "base64", "data": base64.b64encode(data).decode("ascii")}


def decode_body(body: Any, where: str) -> bytes:
    """Bytes of a recorded body object (see :func:`_body`)."""
    if not isinstance(body, dict):
        raise SessionError(f"at {where}: a body must be an object")
    if body.get("encoding") == "utf-8" and isinstance(body.get("text"), str):
        return str(body["text"]).encode("utf-8", errors="surrogateescape")
    if body.get("encoding") == "base64" and isinstance(body.get("data"), str):
        try:
            return base64.b64decode(str(body["data"]), validate=True)
        except (binascii.Error, ValueError):
            raise SessionError(f"at {where}: the base64 body is damaged") from None
    raise SessionError(f"at {where}: unknown body encoding {body.get('encoding')!r}")


def _sha(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def _exchange(ex: Exchange, red: Redactor, manifest: dict[str, str]) -> dict[str, Any]:
    where = f"exchange {ex.seq}"
    # A value the user marked secret is redacted everywhere except inside the document
    # describe_skill returned (unless the request carried the value): SHA-256 is computed
    # over those bytes, and replay must reach the same verdict on them.
    # The rest of that answer (a status message echoing the value) is redacted, and
    # credentials are redacted everywhere.
    kept = digested(ex) and not red.carries_marked(ex.request_body)
    keep = document_ranges if kept else None
    request_body = red.data(ex.request_body, f"{where} request body")
    response_body = red.data(ex.response_body, f"{where} response body", keep=keep)
    events = [red.data(e, f"{where} event {i}", keep=keep) for i, e in enumerate(ex.events)]
    manifest[f"{ex.seq}/request"] = _sha(request_body)
    manifest[f"{ex.seq}/response"] = _sha(response_body)
    for i, event in enumerate(events):
        manifest[f"{ex.seq}/events/{i}"] = _sha(event)
    return {
        "seq": ex.seq,
        "purpose": ex.purpose,
        "method": ex.method,
        "url": red.text(ex.url, f"{where} URL"),
        "request": {
            "headers": red.headers(ex.request_headers, f"{where} request header"),
            "body": _body(request_body),
        },
        "response": {
            "status": ex.status,
            "headers": red.headers(ex.response_headers, f"{where} response header"),
            "body": _body(response_body),
        },
        "events": [_body(e) for e in events],
        # Events the stream sent past limits.MAX_STREAM_EVENTS_KEPT: counted, not kept.
        **({"events_not_kept": ex.events_not_kept} if ex.events_not_kept else {}),
        # When each kept event arrived, ms after the exchange began (optional: older files
        # have none, and a mock then spreads a stream's events over its duration).
        **({"event_offsets_ms": list(ex.event_offsets_ms)} if ex.event_offsets_ms else {}),
        "digested": kept,
        "started_at": ex.started_at,
        "elapsed_ms": ex.elapsed_ms,
        "error": None if ex.error is None else red.text(ex.error, f"{where} error"),
        "error_kind": ex.error_kind,
        "truncated": ex.truncated,
        # gRPC only: the protobuf sizes beside the ProtoJSON bodies (no member for HTTP).
        **({"message_sizes": list(ex.message_sizes)} if ex.message_sizes else {}),
        # The span id of the exchange's traceparent (optional: none with --no-trace).
        **({"span_id": ex.span_id} if ex.span_id else {}),
    }


def _options(options: object, red: Redactor) -> dict[str, Any]:
    """Options as JSON; credentials become references to placeholders (never values)."""
    if not dataclasses.is_dataclass(options) or isinstance(options, type):
        return {}
    out: dict[str, Any] = {}
    for f in dataclasses.fields(options):
        value = getattr(options, f.name)
        if f.name == "headers" and value:
            pairs = list(value.items()) if isinstance(value, dict) else list(value)
            out[f.name] = red.headers(tuple((str(k), str(v)) for k, v in pairs), "option header")
        elif f.name == "bearer":
            out[f.name] = placeholder("authorization") if value else None
        elif f.name == "secret_values":
            out[f.name] = [placeholder("secret") for _ in value or ()]
        else:
            try:
                out[f.name] = red.value(to_json(value), f"option {f.name}")
            except TypeError:
                out[f.name] = repr(type(value).__name__)
    return out


#: Members of ``run`` a digest is computed over: values the user marked secret are kept in
#: them (credentials are not).
DIGESTED_RUN_MEMBERS = ("document",)


def digested(ex: Exchange) -> bool:
    """True for an exchange whose response carries the document a digest is checked over."""
    return ex.purpose == "describe_skill"


def build_document(
    run: Run,
    options: object,
    redactor: Redactor,
    *,
    probe: dict[str, Any] | None = None,
    fuzz: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The complete, redacted session document for ``run`` (RULES CP11: preserve).

    ``probe`` is the optional ``probe`` member (a ``sia-tui probe`` run's plan and grades).
    """
    every = session_exchanges(run)
    for ex in every:  # learn every credential first, so bodies echoing it are scrubbed
        redactor.learn_headers(ex.request_headers)
        redactor.learn_headers(ex.response_headers)
        redactor.learn_url(ex.url)
    redactor.learn_url(run.target.location)
    manifest: dict[str, str] = {}
    exchanges = [_exchange(ex, redactor, manifest) for ex in every]
    payloads = dataclasses.replace(
        run,
        target=target_to_save(run),
        exchanges=[],
        task=None,
        result=None,
        records=[],
        past_invocations=[],
    )
    raw_run = {**to_json(payloads), **compact_payloads(run)}
    raw_run.pop("past_invocations", None)
    raw_run.pop("stream_steps", None)  # a stream open at saving is not open in the file
    published = {k: raw_run.pop(k, None) for k in DIGESTED_RUN_MEMBERS}
    run_json = redactor.value(raw_run, "run")
    for member, value in published.items():
        run_json[member] = redactor.value(value, f"run {member}", marked=False)
    run_json.pop("exchanges", None)
    document: dict[str, Any] = {
        "format": FORMAT,
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "tool": {"name": "sia-tui", "version": __version__},
        "environment": environment(),
        # The verdict of the run as it is now: its last invocation.
        **verdict_members(run, redactor),
        "document_from_cache": run.from_cache,
        "options": _options(options, redactor),
        "run": run_json,
        "invocations": invocations_member(run, redactor),
        "exchanges": exchanges,
    }
    if probe is not None:  # an optional member: readers that do not know it ignore it
        document["probe"] = redactor.value(probe, "probe")
    if fuzz is not None:  # optional too: a fuzz run's seed and corpus
        document["fuzz"] = redactor.value(fuzz, "fuzz")
    document["redactions"] = [{"name": h.name, "where": h.where} for h in redactor.hits]
    document["manifest"] = {"algorithm": "sha256", "bodies": manifest}
    return document


def document_ranges(text: str) -> list[tuple[int, int]]:
    """Where the Skill Interface Document is in a describe_skill answer (JSON, or SSE
    ``data:`` lines of JSON): the object value of every ``skill_interface`` member."""
    if DOCUMENT_MEMBER not in text:
        return []
    ranges: list[tuple[int, int]] = []
    for start, line in _json_texts(text):
        opened: dict[tuple[Any, ...], int] = {}
        for token in walk(line):
            if token.kind == "value" and token.path[-1:] == (DOCUMENT_MEMBER,):
                if line[token.offset] == "{":
                    opened[token.path] = token.offset
            elif token.kind == "close" and token.path in opened:
                ranges.append((start + opened.pop(token.path), start + token.offset + 1))
    return ranges


def _json_texts(text: str) -> list[tuple[int, str]]:
    """``text`` itself, or each ``data:`` line of an event stream, with its offset."""
    if not text.lstrip().startswith(("data:", "event:", "id:", ":")):
        return [(0, text)]
    out, offset = [], 0
    for line in text.splitlines(keepends=True):
        if line.startswith("data:"):
            out.append((offset + 5, line[5:]))
        offset += len(line)
    return out


def sent_side(document: dict[str, Any]) -> dict[str, Any]:
    """The document without the digested bytes (the describe_skill document in ``run``,
    the bodies of its answer): where no marked value may remain. The answer's bodies are
    checked apart, outside the document (:func:`digested_bodies`)."""
    run = {k: v for k, v in document.get("run", {}).items() if k not in DIGESTED_RUN_MEMBERS}
    exchanges = [
        _without_bodies(ex) if ex.get("digested") else ex for ex in document.get("exchanges", [])
    ]
    return {**document, "run": run, "exchanges": exchanges}


def _without_bodies(ex: dict[str, Any]) -> dict[str, Any]:
    response = {k: v for k, v in ex.get("response", {}).items() if k != "body"}
    return {**{k: v for k, v in ex.items() if k != "events"}, "response": response}


def digested_bodies(document: dict[str, Any]) -> list[str]:
    """The text of every body of a digested answer in a built session document."""
    texts = []
    for ex in document.get("exchanges", []):
        if ex.get("digested"):
            where = f"exchange {ex.get('seq')}"
            for body in [ex["response"]["body"], *ex.get("events", [])]:
                texts.append(decode_body(body, where).decode("utf-8", "surrogateescape"))
    return texts


def body_texts(document: dict[str, Any]) -> list[str]:
    """The text of every UTF-8 body (requests, responses, events) in a built document."""
    bodies = []
    for ex in document.get("exchanges", []):
        bodies += [ex["request"]["body"], ex["response"]["body"], *ex.get("events", [])]
    return [body["text"] for body in bodies if body.get("encoding") == "utf-8"]


def read_document(data: Any, path: str | None = None) -> LoadedSession:
    """Rebuild a :class:`LoadedSession` from a parsed document; checks format and manifest."""
    if not isinstance(data, dict):
        raise SessionError("not a sia-tui session: the file is not a JSON object")
    fmt = data.get("format")
    if fmt not in READABLE_FORMATS:
        raise SessionError(
            f"unsupported session format {fmt!r}; this sia-tui reads "
            f"{' and '.join(repr(f) for f in READABLE_FORMATS)}"
            + (" (written by a newer sia-tui?)" if str(fmt).startswith("sia-session/") else "")
        )
    for member in ("run", "exchanges", "manifest"):
        if member not in data:
            raise SessionError(f"the session has no '{member}' member (truncated or edited?)")
    run_json = _as_dict(data["run"], "/run")
    if fmt == "sia-session/1":
        run_json = upgrade_run(run_json)
    runs = [
        _read_run(past, fmt, f"/invocations/{i}/run")
        for i, past in enumerate(
            past_run_members(data, run_json) if fmt in _INVOCATION_FORMATS else []
        )
    ]
    run = _read_run(run_json, fmt, "/run")
    if not isinstance(data["exchanges"], list):
        raise SessionError("at /exchanges: expected an array")
    bodies = _as_dict(_as_dict(data["manifest"], "/manifest").get("bodies", {}), "/manifest")
    warnings: list[str] = []
    exchanges = [
        _read_exchange(_as_dict(item, f"/exchanges/{i}"), i, bodies, warnings)
        for i, item in enumerate(data["exchanges"])
    ]
    share_exchanges([*runs, run], exchanges)
    run.past_invocations = runs
    redactions = [
        RedactionHit(str(h.get("name")), str(h.get("where")))
        for h in data.get("redactions", [])
        if isinstance(h, dict)
    ]
    return LoadedSession(
        run=run,
        created=str(data.get("created", "")),
        tool=_as_dict(data.get("tool", {}), "/tool"),
        environment=_as_dict(data.get("environment", {}), "/environment"),
        options=_as_dict(data.get("options", {}), "/options"),
        redactions=redactions,
        warnings=warnings,
        manifest_ok=not warnings,
        path=path,
        format=str(fmt),
        probe=None if data.get("probe") is None else _as_dict(data["probe"], "/probe"),
        fuzz=None if data.get("fuzz") is None else _as_dict(data["fuzz"], "/fuzz"),
    )


def _read_run(run_json: dict[str, Any], fmt: str, where: str) -> Run:
    """One invocation's run, typed and checked (its exchanges are given after)."""
    if fmt in _COMPACT_PAYLOADS:
        run_json = expand_payloads(run_json)
    run = from_json(Run, {**run_json, "exchanges": [], "past_invocations": []}, where)
    _check_steps(run)
    if run.trace_id is not None and not is_trace_id(run.trace_id):
        raise SessionError(f"at {where}/trace_id: not a W3C trace id: {_shown(run.trace_id)}")
    return run


#: What a RULES id looks like (CP4, SID8, LIMIT).
_RULE_ID = re.compile(r"[A-Z][A-Za-z0-9.-]{0,31}")


def _check_steps(run: Run) -> None:
    """The procedure's eleven steps in order, each with its own rule, and findings whose
    rule is a RULES id: anything else was edited in (a file with three
    steps, a ``rule`` that is HTML)."""
    if len(run.steps) != len(STEP_TITLES):
        raise SessionError(
            f"at /run/steps: expected the {len(STEP_TITLES)} steps of the procedure, "
            f"found {len(run.steps)}"
        )
    for index, step in enumerate(run.steps):
        number, where = index + 1, f"/run/steps/{index}"
        if step.step != number:
            raise SessionError(f"at {where}/step: expected {number}, found {step.step}")
        if step.rule != STEP_TITLES[number][1]:
            raise SessionError(
                f"at {where}/rule: expected {STEP_TITLES[number][1]!r}, found {_shown(step.rule)}"
            )
        _check_rules(step.findings, f"{where}/findings")
    for index, record in enumerate(run.records):
        _check_rules(record.findings, f"/run/records/{index}/findings")


def _check_rules(findings: list[Finding], where: str) -> None:
    for index, finding in enumerate(findings):
        if finding.rule and not _RULE_ID.fullmatch(finding.rule):
            raise SessionError(f"at {where}/{index}/rule: not a RULES id: {_shown(finding.rule)}")


def _shown(text: str) -> str:
    """A value from the file, short and printable, for a one-line error."""
    return repr(printable(text if len(text) <= 40 else text[:40] + "…"))


def _as_dict(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise SessionError(f"at {where}: expected an object")
    return value


def _read_exchange(
    item: dict[str, Any], index: int, manifest: dict[str, Any], warnings: list[str]
) -> Exchange:
    where = f"/exchanges/{index}"
    request = _as_dict(item.get("request", {}), f"{where}/request")
    response = _as_dict(item.get("response", {}), f"{where}/response")
    seq = item.get("seq")
    if not isinstance(seq, int):
        raise SessionError(f"at {where}/seq: expected an integer")

    def checked(body: Any, key: str) -> bytes:
        data = decode_body(body, f"{where} {key}")
        expected = manifest.get(f"{seq}/{key}")
        if expected != _sha(data):
            warnings.append(
                f"exchange {seq} {key.replace('/', ' ')} body does not match the "
                "manifest: the file was edited after it was saved"
            )
        return data

    events = item.get("events", [])
    if not isinstance(events, list):
        raise SessionError(f"at {where}/events: expected an array")
    raw = {
        "seq": seq,
        "purpose": item.get("purpose"),
        "method": item.get("method"),
        "url": item.get("url"),
        "request_headers": request.get("headers", []),
        "request_body": b"",
        "status": response.get("status"),
        "response_headers": response.get("headers", []),
        "response_body": b"",
        "started_at": item.get("started_at", 0.0),
        "elapsed_ms": item.get("elapsed_ms", 0.0),
        "error": item.get("error"),
        "error_kind": item.get("error_kind"),
        "truncated": item.get("truncated", False),
        "message_sizes": item.get("message_sizes", []),
        "events_not_kept": item.get("events_not_kept", 0),
        "event_offsets_ms": item.get("event_offsets_ms", []),
        "span_id": item.get("span_id"),
        "events": [],
    }
    ex = dataclasses.replace(
        _exchange_from(raw, where),
        request_body=checked(request.get("body"), "request"),
        response_body=checked(response.get("body"), "response"),
        events=tuple(checked(e, f"events/{i}") for i, e in enumerate(events)),
    )
    check_grpc_exchange(ex, where)
    _check_event_offsets(ex, where)
    if ex.span_id is not None and not is_span_id(ex.span_id):
        raise SessionError(f"at {where}/span_id: not a W3C span id: {_shown(ex.span_id)}")
    return ex


def _check_event_offsets(ex: Exchange, where: str) -> None:
    """An edited file's event times are refused where they are: one finite, non-negative
    time per kept event (a mock waits by them, bounded again when it serves)."""
    offsets = ex.event_offsets_ms
    if not offsets:
        return
    if len(offsets) != len(ex.events):
        raise SessionError(
            f"at {where}/event_offsets_ms: {len(offsets)} times for {len(ex.events)} events"
        )
    for index, value in enumerate(offsets):
        if isinstance(value, bool) or not 0.0 <= value < float("inf"):
            raise SessionError(f"at {where}/event_offsets_ms/{index}: not a time in ms")


def _exchange_from(raw: dict[str, Any], where: str) -> Exchange:
    """Decode the non-body members through the typed codec (bodies are added after)."""
    fields = {k: v for k, v in raw.items() if k not in ("request_body", "response_body", "events")}
    decoded = from_json(_ExchangeHead, fields, where)
    return Exchange(
        request_body=b"",
        response_body=b"",
        events=(),
        **{f.name: getattr(decoded, f.name) for f in dataclasses.fields(_ExchangeHead)},
    )


@dataclass(frozen=True)
class _ExchangeHead:
    """Exchange without its bodies: what the typed codec checks."""

    seq: int
    purpose: str
    method: str
    url: str
    request_headers: tuple[tuple[str, str], ...]
    status: int | None = None
    response_headers: tuple[tuple[str, str], ...] = ()
    started_at: float = 0.0
    elapsed_ms: float = 0.0
    error: str | None = None
    error_kind: str | None = None
    truncated: bool = False
    message_sizes: tuple[int, ...] = ()
    events_not_kept: int = 0
    event_offsets_ms: tuple[float, ...] = ()
    span_id: str | None = None
