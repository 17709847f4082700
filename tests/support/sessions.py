"""Test data for session tests: a hand-built digest-card run carrying canary secrets."""

from __future__ import annotations

import json

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.a2a.task_views import Artifact, Part, Task
from sia_tui.core.codes import DetectedBy, ErrorCode
from sia_tui.core.exchange import Exchange
from sia_tui.core.findings import Finding
from sia_tui.core.run.later_evidence import DigestEvidence
from sia_tui.core.run.read_model import Digests, Run, StepStatus, Target

#: One canary per input path; none may appear in any saved or printed output.
CANARY_HEADER = "canary-hdr-7f3a91c2"
CANARY_BEARER = "canary-bearer-5d2e8b14"
CANARY_USERINFO = "canary-pass-0c6f4a77"
CANARY_QUERY = "canary-query-9b1d3e55"
CANARY_ARGUMENT = "canary-arg-2a8c6f09"
#: The value of a header no name marks as a credential, marked with --secret-header.
CANARY_MARKED_HEADER = "canary-mhdr-4e1b7c30"
CANARIES = (CANARY_HEADER, CANARY_BEARER, CANARY_USERINFO, CANARY_QUERY, CANARY_ARGUMENT)

ADVERTISED = "sha256:" + "a" * 64
COMPUTED = "sha256:" + "b" * 64
BASE = f"http://alice:{CANARY_USERINFO}@127.0.0.1:9/agent?token={CANARY_QUERY}"


def canary_options() -> ClientOptions:
    """Options carrying a secret header and a bearer token."""
    return ClientOptions(
        headers=(("X-Tenant-Key", CANARY_HEADER), ("X-Trace", "visible-1")), bearer=CANARY_BEARER
    )


def digest_card_run() -> Run:
    """A run that failed at step 4 (advertised digest differs), with secrets on every path."""
    run = Run(target=Target(location=BASE, skill_id="evaluate_resource_condition"))
    auth = (("Authorization", f"Bearer {CANARY_BEARER}"), ("X-Tenant-Key", CANARY_HEADER))
    card = {"name": "Reference", "url": BASE, "note": f"echo {CANARY_BEARER}"}
    run.exchanges.append(
        Exchange(
            seq=1,
            purpose="agent card",
            method="GET",
            url=f"http://alice:{CANARY_USERINFO}@127.0.0.1:9/.well-known/agent-card.json"
            f"?token={CANARY_QUERY}",
            request_headers=auth,
            request_body=b"",
            status=200,
            response_headers=(
                ("Content-Type", "application/json"),
                ("Set-Cookie", "sid=cookie-value-123456; Path=/"),
            ),
            response_body=json.dumps(card).encode(),
            started_at=1.0,
            elapsed_ms=3.5,
        )
    )
    describe = {
        "jsonrpc": "2.0",
        "id": 1,
        "result": {"task": {"id": "t1", "status": {"state": "TASK_STATE_COMPLETED"}}},
    }
    run.exchanges.append(
        Exchange(
            seq=2,
            purpose="describe_skill",
            method="POST",
            url="http://127.0.0.1:9/agent",
            request_headers=auth,
            request_body=b'{"method":"SendMessage","arg":"' + CANARY_ARGUMENT.encode() + b'"}',
            status=200,
            response_headers=(("Content-Type", "application/json"),),
            response_body=json.dumps(describe).encode(),
            elapsed_ms=4.0,
            events=(b'{"event":1}', b"\xff\xfe binary"),
        )
    )
    run.digests = Digests(advertised=ADVERTISED, returned=COMPUTED, computed=COMPUTED)
    run.skill_id = "evaluate_resource_condition"
    run.skill_version = "1.0"
    run.arguments = {"resource_id": "r-1", "password": CANARY_ARGUMENT}
    for step in run.steps[:3]:
        step.status = StepStatus.PASSED
        step.message = "ok"
    run.steps[1].exchanges = [1]
    failed = run.steps[3]
    failed.status = StepStatus.FAILED
    failed.code = ErrorCode.INTERFACE_INVALID
    failed.origin = DetectedBy.LOCAL
    failed.message = "the advertised digest differs from the returned and computed digests"
    failed.hint = "Compare the digests in the inspector."
    failed.evidence = DigestEvidence(
        advertised=ADVERTISED,
        returned=COMPUTED,
        computed=COMPUTED,
        forensics="<script>alert(1)</script> <b>agent</b>",
    )
    failed.findings = [
        Finding(
            "digest mismatch",
            pointer="/interface_digest",
            rule="CP4",
            code=ErrorCode.INTERFACE_INVALID,
            expected=ADVERTISED,
            actual=COMPUTED,
        )
    ]
    for step in run.steps[4:]:
        step.status = StepStatus.SKIPPED
    art = Artifact("a1", "describe_skill", (Part("data", {"x": 1}),), {"artifactId": "a1"})
    run.task = Task("t1", "c1", "TASK_STATE_COMPLETED", None, (art,), {"id": "t1"})
    run.warnings = ["a forgiven thing"]
    return run


def run_session_cli(argv: list[str]) -> int:
    """Run one session subcommand through its own argparse registration."""
    import argparse

    from sia_tui.cli import cmd_session

    parser = argparse.ArgumentParser(prog="sia-tui")
    cmd_session.register(parser.add_subparsers())
    args = parser.parse_args(argv)
    from tests.support.wording import cli_words

    with cli_words():  # as `sia-tui` dispatches it: needs worded as flags
        code: int = args.func(args)
    return code


async def record_live(
    url: str, options: object, *, arguments: object = None, mode: str | None = None
) -> Run:
    """Run the real procedure against ``url`` (a reference agent on 127.0.0.1)."""
    from sia_tui.core.engine.procedure import Procedure

    assert isinstance(options, ClientOptions)
    procedure = Procedure(Target(url, skill_id="evaluate_resource_condition", mode=mode), options)
    if arguments is not None:
        procedure.set_arguments(arguments)
    try:
        return await procedure.run_all()
    finally:
        await procedure.aclose()


async def record_two_invocations(url: str, options: ClientOptions) -> Run:
    """A negative test (invalid arguments sent anyway), then the valid Appendix B
    arguments, in one run against ``url``: the issue's session of two invocations."""
    from sia_tui.core.engine.procedure import Procedure
    from tests.support.appendix_b import APPENDIX_B_ARGUMENTS, APPENDIX_B_INVALID_ARGUMENTS

    procedure = Procedure(Target(url, skill_id="evaluate_resource_condition"), options)
    try:
        procedure.set_arguments(APPENDIX_B_INVALID_ARGUMENTS, send_anyway=True)
        await procedure.run_all()
        procedure.set_arguments(APPENDIX_B_ARGUMENTS)
        return await procedure.run_all()
    finally:
        await procedure.aclose()
