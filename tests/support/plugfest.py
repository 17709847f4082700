"""Plugfest files for matrix tests: agents by name and URL, plus any extra TOML."""

from __future__ import annotations

import socket
from pathlib import Path

from tests.support.agents import StartAgent


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


#: The sample plugfest of the Matrix screen's tests: four vendors, three skills.
SAMPLE_AGENTS: dict[str, str | None] = {
    "vendor-a": None,
    "vendor-b": "digest-card",
    "vendor-c": "output-invalid",
    "vendor-d": "v03",
}
EVALUATE = '[[skill]]\nid = "evaluate_resource_condition"\n'
COMPOSABLE = (
    '[[skill]]\nid = "measure_available_bandwidth"\n'
    '[[skill]]\nid = "admit_traffic_demand"\narguments = "available-bandwidth.json"\n'
)
EXPECT_B = '[[expect]]\nagent = "vendor-b"\nstep = 4\nreason = "ticket 12: a stale digest"\n'


def sample_plugfest(
    folder: Path,
    start: StartAgent,
    agents: dict[str, str | None] | None = None,
    skills: str = EVALUATE + COMPOSABLE + EXPECT_B,
    head: str = "",
) -> Path:
    """Reference agents with the given faults (by default: a clean one, digest-card
    (expected), output-invalid (a new failure), v03 (JSONRPC only)) and ``skills``."""
    (folder / "available-bandwidth.json").write_text(
        '{"link_id": "link-7", "value": 250, "unit": "Mbit/s"}', encoding="utf-8"
    )
    urls = {name: start(fault=fault).url for name, fault in (agents or SAMPLE_AGENTS).items()}
    head = 'name = "IETF hackathon table 7"\n' + head
    return plugfest_file(folder, urls, skills, head=head)
