"""`sia-tui canon`, `digest` and `lint`: offline JCS, digests and document checks."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

# Handlers import what they run: `--help` needs argparse only, canon/digest never load
# the validators, whose import would be most of their start-up time.
if TYPE_CHECKING:
    from sia_tui.core.engine import OfflineVerdict
    from sia_tui.core.errors import SiaError
    from sia_tui.core.interface import DigestRow
    from sia_tui.core.jsonkit import Parsed


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add the canon, digest and lint subcommands."""
    canon = sub.add_parser("canon", help="write the RFC 8785 canonical bytes of a JSON file")
    canon.add_argument("file", help="JSON file, or - for standard input")
    canon.set_defaults(func=run_canon)
    digest = sub.add_parser("digest", help="print the sha256: digest of a JSON file (JCS)")
    digest.add_argument("file", help="JSON file, or - for standard input")
    digest.set_defaults(func=run_digest)
    lint = sub.add_parser("lint", help="verify a Skill Interface Document offline")
    lint.add_argument("document", help="document JSON (or a describe_skill payload), or -")
    lint.add_argument("--digest", help="expected interface digest (sha256:...)")
    lint.add_argument("--json", action="store_true", help="print findings as JSON")
    lint.set_defaults(func=run_lint)


def _read(name: str) -> Parsed:
    """Strictly parse a file or standard input; raises SiaError on any problem."""
    from sia_tui.core import limits
    from sia_tui.core.jsonkit import parse, parse_path

    if name == "-":
        return parse(sys.stdin.buffer.read(limits.MAX_JSON_BYTES + 1), source="<stdin>")
    return parse_path(name)


def digest_of_file(name: str) -> str:
    """What `digest` prints for a file (or - for stdin); raises SiaError on any problem."""
    from sia_tui.core.jsonkit import digest_of

    parsed = _read(name)
    return digest_of(parsed.value, shape=parsed.shape)


def _fail(exc: SiaError, name: str | None = None) -> int:
    """Exit 2 with the error; ``name``: the file, for an error that does not name it (a
    value that parsed but cannot be canonicalized: only its JSON Pointer locates it)."""
    from sia_tui.core.errors import CanonicalizationError

    if name == "-":
        name = "<stdin>"
    where = f"{name}: " if name is not None and isinstance(exc, CanonicalizationError) else ""
    print(f"sia-tui: {where}{exc}", file=sys.stderr)
    return 2


def run_canon(args: argparse.Namespace) -> int:
    """Exactly the canonical bytes, no trailing newline (RULES SR4, SR5)."""
    from sia_tui.core.errors import SiaError
    from sia_tui.core.jsonkit import canonical_bytes
    from sia_tui.core.output import write_data

    try:
        parsed = _read(args.file)
        data = canonical_bytes(parsed.value, shape=parsed.shape)
    except SiaError as exc:
        return _fail(exc, args.file)
    write_data(data)  # exact bytes when redirected; on a terminal, the output policy
    return 0


def run_digest(args: argparse.Namespace) -> int:
    """The draft digest of a JSON value (RULES SR4, SID6)."""
    from sia_tui.core.errors import SiaError

    try:
        print(digest_of_file(args.file))
    except SiaError as exc:
        return _fail(exc, args.file)
    return 0


def run_lint(args: argparse.Namespace) -> int:
    """Steps 4 (when a digest is given or carried), 5 and 6 on a document file; exit 1 on
    an error. The engine's own step code decides, as for a live agent."""
    from sia_tui.core.engine import unwrap_payload, verify_offline
    from sia_tui.core.errors import SiaError
    from sia_tui.core.jsonkit import parse_digest

    try:
        value = _read(args.document).value
        if args.digest is not None:
            parse_digest(args.digest)
    except SiaError as exc:
        return _fail(exc)
    # A whole describe_skill payload is accepted too: lint the document inside it, its own
    # interface_digest being the returned one (RULES CP4: all three are compared).
    document, carried = unwrap_payload(value)
    verdict = verify_offline(document, advertised=args.digest, returned=carried)
    _print(verdict, as_json=args.json)
    return 0 if verdict.ok else 1


#: What each digest is called in `lint`'s table: a file has no Agent Card.
_LINT_LABELS = {
    "advertised": "advertised (--digest)",
    "returned": "returned (interface_digest)",
    "computed": "computed (JCS + SHA-256)",
}


def _digest_rows(verdict: OfflineVerdict) -> list[DigestRow]:
    from sia_tui.core.interface import compare_rows

    digests = verdict.digests
    if digests is None:
        return []
    return compare_rows(digests.advertised, digests.returned, digests.computed)


def _print(verdict: OfflineVerdict, *, as_json: bool) -> None:
    from sia_tui.core.interface import differing_pairs
    from sia_tui.core.jsonkit import display_pointer
    from sia_tui.core.output import printable, terminal_json

    findings, rows = verdict.findings, _digest_rows(verdict)
    if as_json:
        report: dict[str, Any] = {
            "ok": verdict.ok,
            "findings": [
                {
                    "severity": str(f.severity),
                    "rule": f.rule,
                    "pointer": f.pointer,
                    "message": f.message,
                    **f.as_detail(),
                }
                for f in findings
            ],
        }
        if rows:
            # RULES CP4: each digest given or computed, and every pair of them that differs.
            report["digests"] = {
                "values": {str(r.source): r.digest for r in rows},
                "differ": [[str(a), str(b)] for a, b in differing_pairs(*(r.digest for r in rows))],
            }
        print(terminal_json(report))
        return
    for f in findings:
        where = printable(display_pointer(f.pointer))
        print(f"{f.severity}: {where}: {printable(f.message)} [{f.rule}]")
    present = [r for r in rows if r.digest is not None]
    if present:
        print("digests (RULES CP4):")
        width = max(len(_LINT_LABELS[str(r.source)]) for r in present)
        for row in present:
            label = _LINT_LABELS[str(row.source)].ljust(width)
            print(f"  {label}  {printable(str(row.digest))}  {row.verdict}".rstrip())
    if verdict.ok:
        steps = "CP4, CP5 and CP6" if rows else "CP5 and CP6 (no digest given: CP4 not checked)"
        warned = sum(1 for f in findings if str(f.severity) == "warning")
        warnings = f", with {warned} warning(s)" if warned else ""
        print(f"ok: the document passes {steps}{warnings}")
