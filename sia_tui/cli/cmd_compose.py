"""`sia-tui compose` (RULES CMP1-CMP3) and `sia-tui diff` (structural diff, RULES SID2)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from sia_tui.cli.flags import (
    UsageError,
    add_connection_flags,
    client_options,
    command_redactor,
    read_json_input,
)
from sia_tui.core.engine import SiaError, display_pointer, paint, printable, terminal_json
from sia_tui.core.session import readable_range

# The engine, validators and httpx are imported by the functions that run them, so that
# building the parser (`--help`, other commands) stays light: every start pays for it.
if TYPE_CHECKING:
    from sia_tui.core.compose import CompositionVerdict
    from sia_tui.core.compose import FileDocument as Side  # one document to compare
    from sia_tui.core.engine import ClientOptions
    from sia_tui.core.interface_diff import InterfaceDiff
    from sia_tui.core.session import Redactor

_COLOURS = {"breaking": "31", "compatible": "32", "info": "2"}  # by Impact value


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add `compose` and `diff`."""
    compose = sub.add_parser(
        "compose",
        help="may one skill's output feed another's input? (RULES CMP1-CMP3)",
        description="Fetch and validate both Skill Interface Documents (or read them from "
        "document, payload or session files, checked offline), then compare the "
        "upstream output Schema Reference with the downstream input one. Exit 0: direct "
        "composition allowed; 1: not allowed (or the instance is invalid); 2: usage, unreadable "
        "input, or a document could not be obtained.",
    )
    compose.add_argument(
        "up_card",
        metavar="UP_CARD",
        help="upstream agent (URL or card file), or a Skill Interface Document, describe_skill "
        "payload or saved session file",
    )
    compose.add_argument("up_skill", metavar="UP_SKILL", help="upstream skill id")
    compose.add_argument(
        "down_card", metavar="DOWN_CARD", help="downstream agent, or a document or session file"
    )
    compose.add_argument("down_skill", metavar="DOWN_SKILL", help="downstream skill id")
    compose.add_argument(
        "--instance",
        metavar="FILE|-",
        help="an upstream output value to validate downstream (RULES CMP3)",
    )
    compose.add_argument("--json", action="store_true", help="print one JSON object")
    add_connection_flags(compose)
    compose.set_defaults(func=main_compose)

    diff = sub.add_parser(
        "diff",
        help="structural diff of two Skill Interface Documents (RULES SID2)",
        description="Each side is CARD#SKILL (fetched and validated live), a saved session "
        f"({readable_range()}), or a document file (a bare document or a describe_skill payload). "
        "Exit 0: no breaking change and the version rule holds; 1: breaking change, version "
        "rule violated, or a document file that fails steps 4-6 offline (as `lint` would "
        "say); 2: usage or unreadable input.",
    )
    diff.add_argument("a", metavar="A", help="the older side")
    diff.add_argument("b", metavar="B", help="the newer side")
    diff.add_argument("--json", action="store_true", help="print one JSON object")
    add_connection_flags(diff)
    diff.set_defaults(func=main_diff)


async def resolve_side(label: str, spec: str, options: ClientOptions) -> Side:
    """A file when the path exists, else ``CARD#SKILL`` fetched live."""
    from pathlib import Path

    from sia_tui.core.compose import obtain_side

    if Path(spec).is_file():
        return await obtain_side(label, spec, None, options, refuse_invalid=False)
    card, sep, skill = spec.rpartition("#")
    if not sep or not card or not skill:
        raise UsageError(f"{label}: {spec!r} is neither a file nor CARD#SKILL")
    return await obtain_side(label, card, skill, options)


def _show(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return printable(text if len(text) <= 80 else text[:77] + "...")


def render_verdict(verdict: CompositionVerdict, up: Side, down: Side, colour: bool) -> str:
    """The composition verdict as text; agent strings made inert."""
    mark = paint("✔", "32", colour) if verdict.composable else paint("✘", "31", colour)
    lines = [
        f"sia-tui compose: {_show(up.source)} -> {_show(down.source)}",
        f"upstream   {_show(verdict.upstream_skill)} output_schema"
        f"  (describe_skill task {_show(up.task_id or '-')})",
        f"downstream {_show(verdict.downstream_skill)} input_schema"
        f"  (describe_skill task {_show(down.task_id or '-')})",
        "",
    ]
    for f in verdict.fields:
        state = paint("equal " if f.equal else "DIFFER", "32" if f.equal else "31", colour)
        lines.append(f"  {state} {f.name:<10} {_show(f.upstream)}")
        if not f.equal:
            lines.append(f"  {'':6} {'':<10} {_show(f.downstream)}")
    for finding in verdict.digest_findings:
        lines.append(f"  ✘ {printable(finding.message)} [{finding.rule}]")
    if verdict.instance_findings is not None:
        lines.append("")
        state = "valid" if not verdict.instance_findings else "INVALID"
        lines.append(f"instance against the downstream input schema: {state} (RULES CMP3)")
        for finding in verdict.instance_findings[:20]:
            at = f" line {finding.line}" if finding.line else ""
            where = display_pointer(finding.pointer)
            lines.append(f"  {where}{at}: {printable(finding.message)}")
    if verdict.look_alike:
        lines += ["", "the schemas look alike:"] + [f"  - {x}" for x in verdict.look_alike]
    lines += [""] + [printable(n) for n in verdict.notes]
    for side in (up, down):
        lines += [f"{side.label} note: {printable(n)}" for n in side.notes]
    lines += ["", f"{mark} {printable(verdict.summary())}"]
    return "\n".join(lines) + "\n"


def render_diff(diff: InterfaceDiff, a: Side, b: Side, colour: bool) -> str:
    """The diff as text: one line per change, then the version verdict."""
    from sia_tui.core.interface_diff import Impact

    lines = []
    for side in (a, b):
        lines.append(
            f"{side.label}: {_show(side.document.get('skill_id'))} "
            f"{_show(side.document.get('skill_version'))}  ({_show(side.source)})"
        )
        lines += [f"   note: {printable(n)}" for n in side.notes]
    lines += [f"note: {printable(n)}" for n in diff.notes] + [""]
    if not diff.changes:
        lines.append("no structural change")
    for c in diff.changes:
        name = c.impact.value.upper() if c.impact is Impact.BREAKING else c.impact.value
        tag = paint(f"{name:<10}", _COLOURS[c.impact.value], colour)
        change = f"{c.aspect} {c.kind}"
        if c.kind == "changed":
            change += f": {_show(c.old)} -> {_show(c.new)}"
        elif (c.new if c.kind == "added" else c.old) is not None:
            change += f": {_show(c.new if c.kind == 'added' else c.old)}"
        lines.append(f"{tag} {printable(c.where)}: {printable(change)}")
        lines.append(f"{'':10} {printable(c.reason)}  at {printable(c.pointer)}")
        if c.review:
            lines.append(f"{'':10} {paint(printable(c.review), '33', colour)}")
    v = diff.version
    lines += ["", paint(printable(v.message), "32" if v.follows else "31", colour)]
    for side in (a, b):
        if not side.valid:
            # RULES CP4-CP6: an invalid document is never approved, whatever its versions say.
            text = f"{side.label} fails steps 4-6 (see its notes): an invalid document"
            lines.append(paint(text + ", not approved", "31", colour))
    counts = diff.to_json()
    lines.append(
        f"{counts['breaking']} breaking, {counts['compatible']} compatible, "
        f"{counts['info']} informational change(s)"
        + (f"; {counts['review']} to review: meaning may have changed" if counts["review"] else "")
    )
    return "\n".join(lines) + "\n"


async def _compose(
    args: argparse.Namespace, options: ClientOptions
) -> tuple[CompositionVerdict, Side, Side]:
    from sia_tui.core.compose import check_composition, obtain_side

    instance = read_json_input(args.instance) if args.instance else None
    up = await obtain_side("upstream", args.up_card, args.up_skill, options)
    down = await obtain_side("downstream", args.down_card, args.down_skill, options)
    verdict = check_composition(
        up.document,
        down.document,
        instance=instance[0] if instance else None,
        instance_text=instance[1] if instance else None,
        has_instance=instance is not None,
        upstream_task_id=up.task_id,
        downstream_task_id=down.task_id,
    )
    return verdict, up, down


def _emit(args: argparse.Namespace, redactor: Redactor, text: str, report: dict[str, Any]) -> None:
    """Print text or JSON with credentials (flags, URL userinfo/query secrets) redacted."""
    if args.json:
        print(terminal_json(redactor.value(report, "report")))
    else:
        sys.stdout.write(redactor.text(text, "report"))


def main_compose(args: argparse.Namespace) -> int:
    """Run `compose`: exit 0 composable, 1 not, 2 usage or a side not obtained."""
    import asyncio

    try:
        options = client_options(args)
    except SiaError as exc:
        print(f"sia-tui compose: {printable(str(exc))}", file=sys.stderr)
        return 2
    redactor = command_redactor(args, options, [args.up_card, args.down_card])
    try:
        verdict, up, down = asyncio.run(_compose(args, options))
    except SiaError as exc:  # UsageError and SideError included
        print(f"sia-tui compose: {printable(redactor.text(str(exc), 'error'))}", file=sys.stderr)
        return 2
    report = {
        **verdict.to_json(),
        "upstream": {**up.to_json(), "role": "output_schema"},
        "downstream": {**down.to_json(), "role": "input_schema"},
    }
    _emit(args, redactor, render_verdict(verdict, up, down, sys.stdout.isatty()), report)
    return 0 if verdict.composable else 1


async def _diff(args: argparse.Namespace, options: ClientOptions) -> tuple[Side, Side]:
    return await resolve_side("A", args.a, options), await resolve_side("B", args.b, options)


def main_diff(args: argparse.Namespace) -> int:
    """Run `diff`: exit 0 no breaking change, 1 breaking, version rule violated or an invalid
    document file, 2 usage."""
    import asyncio

    from sia_tui.core.interface_diff import diff_documents

    try:
        options = client_options(args)
    except SiaError as exc:
        print(f"sia-tui diff: {printable(str(exc))}", file=sys.stderr)
        return 2
    redactor = command_redactor(args, options, [args.a, args.b])
    try:
        a, b = asyncio.run(_diff(args, options))
    except SiaError as exc:  # UsageError and SideError included
        print(f"sia-tui diff: {printable(redactor.text(str(exc), 'error'))}", file=sys.stderr)
        return 2
    diff = diff_documents(a.document, b.document)
    ok = diff.ok and a.valid and b.valid
    report = {"a": a.to_json(), "b": b.to_json(), "ok": ok, **diff.to_json()}
    _emit(args, redactor, render_diff(diff, a, b, sys.stdout.isatty()), report)
    return 0 if ok else 1
