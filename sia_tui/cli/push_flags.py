"""``--push`` and ``--push-url``: push notifications for a run (docs: README, "Push")."""

from __future__ import annotations

import argparse
from typing import Any
from urllib.parse import urlsplit

from sia_tui.cli.flags import UsageError


def add_push_flags(parser: argparse.ArgumentParser) -> None:
    """The two ways to ask for push notifications; at most one."""
    group = parser.add_argument_group("push notifications").add_mutually_exclusive_group()
    group.add_argument(
        "--push",
        action="store_true",
        help="register a webhook on 127.0.0.1 (an ephemeral port, a per-run token) with the "
        "invocation and show each delivery beside the stream or poll; an agent that refuses "
        "it (loopback URLs SHOULD be refused) gives push.error and the run goes on",
    )
    group.add_argument(
        "--push-url",
        metavar="URL",
        help="register this webhook instead: a receiver you run where the agent can reach it "
        "(sia-tui cannot see its deliveries)",
    )


def push_from(args: Any) -> str | None:
    """``Target.push`` from the flags: "loopback", the ``--push-url``, or None."""
    url = getattr(args, "push_url", None)
    if url:
        try:
            parts = urlsplit(url)
        except ValueError:
            parts = None
        if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
            raise UsageError(f"--push-url wants an http(s) URL, got {url[:100]!r}")
        return str(url)
    if not getattr(args, "push", False):
        return None
    from sia_tui.core.run import LOOPBACK  # loaded by a run with push, not to parse or check

    return LOOPBACK
