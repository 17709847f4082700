"""Argument types for numbers whose range argparse cannot say: a bad value is a located
usage error (exit 2), never a traceback from deep in the server or a verdict on the agent."""

from __future__ import annotations

import argparse

#: The highest TCP port.
MAX_PORT = 65535


def port(text: str) -> int:
    """A TCP port to listen on: 0 (a free one) to 65535."""
    try:
        number = int(text)
    except ValueError:
        number = -1
    if not 0 <= number <= MAX_PORT:
        raise argparse.ArgumentTypeError(f"expected a port from 0 to {MAX_PORT}, got {text!r}")
    return number


def from_one(text: str) -> int:
    """A count from 1: an invocation's number, a size limit in bytes (0 would refuse every
    answer, and the verdict would blame nobody)."""
    try:
        number = int(text)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"expected a number from 1, got {text!r}")
    return number
