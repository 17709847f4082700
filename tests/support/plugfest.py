"""Plugfest files for matrix tests: agents by name and URL, plus any extra TOML."""

from __future__ import annotations

import socket
from pathlib import Path


def plugfest_file(folder: Path, agents: dict[str, str], extra: str = "", *, head: str = "") -> Path:
    """Write ``folder/PLUGFEST.toml``: ``head`` (top-level keys), one [[agent]] per entry,
    then ``extra`` (``[[skill]]``, ``[[expect]]`` tables...)."""
    lines = [head.strip()] if head else []
    for name, url in agents.items():
        lines += ["[[agent]]", f'name = "{name}"', f'card = "{url}"']
    path = folder / "PLUGFEST.toml"
    path.write_text("\n".join(lines) + "\n" + extra.strip() + "\n", encoding="utf-8")
    return path


def closed_port_url() -> str:
    """A loopback URL nobody listens on (the port was bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"
