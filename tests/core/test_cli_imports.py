"""Commands import what they run, for start-up time: `--help` needs argparse and sia_tui's own
light modules; `digest` and `canon` never load httpx, Textual, asyncio or the validators;
a passing `check` loads neither the pure-Python metaschema validator nor httpx's own
command line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pytest

from sia_tui.cli import parser
from tests.core.command_imports import loaded_modules
from tests.support.agents import StartAgent
from tests.support.otlp_collector import fake_collector

#: What only networked commands, the TUI or validation need.
HEAVY = (
    "httpx",
    "textual",
    "rich",
    "pygments",
    "jsonschema",
    "jsonschema_rs",
    "referencing",
    "starlette",
    "uvicorn",
    "asyncio",
    # The engine package is the lazy engine API (core/lazy_api.py): importing it loads
    # nothing; any module inside it is the heavy part.
    "sia_tui.core.engine.",
    "sia_tui.core.a2a.client",
    "sia_tui.core.a2a.client_base",  # what every part of the client is built on
    "sia_tui.agent",
    "sia_tui.tui",
    # gRPC loads only when a GRPC interface is called.
    "grpc",
    "google.protobuf",
    "sia_tui.core.a2a.grpc.messages",
    # The OpenTelemetry SDK and its exporter's HTTP client load only with --otlp-endpoint.
    "opentelemetry",
    "requests",
    "urllib3",
)


def _heavy(module: str, entry: str) -> bool:
    if entry.endswith("."):  # the modules inside a package, not the package itself
        return module.startswith(entry)
    return module == entry or module.startswith(entry + ".")


def heavy_among(modules: list[str]) -> list[str]:
    return [m for m in modules if any(_heavy(m, h) for h in HEAVY)]


def test_help_imports_only_the_standard_library_and_sia_tui() -> None:
    modules = loaded_modules("--help")
    outside = [
        m
        for m in modules
        if m.split(".")[0] not in (*sys.stdlib_module_names, "sia_tui", "__main__")
    ]
    assert outside == []
    assert heavy_among(modules) == []
    # Nothing is sent, so no log filter is installed: logging stays unloaded.
    assert "logging" not in modules and "sia_tui.core.redaction.redact" not in modules


@pytest.mark.parametrize("command", ["digest", "canon"])
def test_digest_and_canon_import_no_network_tui_or_validator(command: str, tmp_path: Path) -> None:
    document = tmp_path / "small.json"
    document.write_text('{"b": [1, 2.0], "a": "é"}', encoding="utf-8")
    assert heavy_among(loaded_modules(command, str(document))) == []


@pytest.mark.parametrize("command", ["check", "probe", "matrix"])
def test_help_of_a_networked_command_does_not_import_the_network_stack(command: str) -> None:
    assert heavy_among(loaded_modules(command, "--help")) == []


#: What a passing `check` never needs: the pure-Python metaschema validator (only a schema
#: the engine does not pass needs it), httpx's command line (click, rich, pygments), the
#: UI, the agent, the cache directories and the session format (only --save needs it).
CHECK_NEVER = (
    "jsonschema",
    "referencing",
    "click",
    "rich",
    "pygments",
    "textual",
    "platformdirs",
    "starlette",
    "uvicorn",
    "sia_tui.tui",
    "sia_tui.agent",
    "sia_tui.core.session.store",
    # JOSE loads only when a signature is verified or made (docs/TRUST.md).
    "joserfc",
    "cryptography",
    "sia_tui.core.trust.jws",
    "grpc",
    "google.protobuf",
    "sia_tui.core.a2a.grpc.messages",
    # The OpenTelemetry SDK loads only with --otlp-endpoint (docs/TRACING.md).
    "opentelemetry",
    "requests",
    "urllib3",
    "sia_tui.core.session.otlp_export",
    "sia_tui.core.session.run_spans",
)


def test_a_passing_check_imports_only_what_its_steps_run(reference_agent: StartAgent) -> None:
    """The card lists a GRPC interface too (last): a JSON-RPC run loads no grpc."""
    url = reference_agent(grpc_port=0).url
    modules = loaded_modules(
        "check", url, "--skill", "evaluate_resource_condition", "--args", "example"
    )  # exit 0: all eleven steps passed
    assert [m for m in modules if any(_heavy(m, h) for h in CHECK_NEVER)] == []
    assert "httpx" in modules and "jsonschema_rs" in modules


def test_a_signed_card_without_trusted_keys_loads_no_jose(reference_agent: StartAgent) -> None:
    """Without keys every signature is unverifiable from its header alone: nothing is
    verified, so the JOSE library stays out (it loads only to verify or sign)."""
    from sia_tui.core.trust.jws import generate

    url = reference_agent(sign_key=generate("ES256", "k")).url
    modules = loaded_modules(
        "check", url, "--skill", "evaluate_resource_condition", "--args", "example"
    )
    assert [m for m in modules if any(_heavy(m, h) for h in CHECK_NEVER)] == []


def test_a_grpc_check_loads_grpc(reference_agent: StartAgent) -> None:
    """The other side of the rule above: what --binding grpc needs is loaded then."""
    url = reference_agent(grpc_port=0).url
    modules = loaded_modules(
        "check",
        url,
        "--skill",
        "evaluate_resource_condition",
        "--args",
        "example",
        "--binding",
        "grpc",
    )
    assert "grpc" in modules and "sia_tui.core.a2a.grpc.messages" in modules


def test_otlp_endpoint_loads_the_opentelemetry_sdk(reference_agent: StartAgent) -> None:
    """The other side of the rule above: --otlp-endpoint exports through the SDK, loaded
    then."""
    url = reference_agent().url
    with fake_collector() as collector:
        argv = ["check", url, "--skill", "evaluate_resource_condition", "--args", "example"]
        modules = loaded_modules(*argv, "--otlp-endpoint", collector.url)
    assert len(collector.received) == 1
    assert "opentelemetry.sdk.trace" in modules
    assert "opentelemetry.exporter.otlp.proto.http.trace_exporter" in modules


def test_command_owners_match_what_each_module_registers() -> None:
    """`run` imports only the module owning the command: the table must be complete."""
    for name in parser.COMMAND_MODULES:
        sub = argparse.ArgumentParser().add_subparsers()
        __import__(f"sia_tui.cli.{name}", fromlist=["register"]).register(sub)
        for command in sub.choices:
            assert parser.COMMAND_OWNERS.get(command) == name, command
    assert set(parser.COMMAND_OWNERS.values()) == set(parser.COMMAND_MODULES)
    every = parser.build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert isinstance(every, dict)
    assert set(every) == set(parser.COMMAND_OWNERS)


def test_the_top_level_help_lists_every_command_as_the_full_parser_does() -> None:
    """`sia-tui --help` builds the commands as names and one-line helps only (start-up):
    what it prints is the full parser's help, to the byte."""
    listing = parser.build_parser(listing_only=True).format_help()
    assert listing == parser.build_parser().format_help()
    assert all(f"    {command}" in listing for command in parser.COMMAND_OWNERS)
