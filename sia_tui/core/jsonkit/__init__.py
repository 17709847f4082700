"""JSON text and canonical bytes: the strict loader for untrusted text, one walk of a
value's shape, where a problem sits, RFC 6901 pointers, RFC 8785 bytes and digests."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sia_tui.core import lazy_api

if TYPE_CHECKING:  # type checkers read these; the table below is the run-time side
    from sia_tui.core.jsonkit.canonical import canonical_bytes as canonical_bytes
    from sia_tui.core.jsonkit.canonical import digest_of as digest_of
    from sia_tui.core.jsonkit.canonical import parse_digest as parse_digest
    from sia_tui.core.jsonkit.pointer import PositionIndex as PositionIndex
    from sia_tui.core.jsonkit.pointer import display_pointer as display_pointer
    from sia_tui.core.jsonkit.strictjson import Parsed as Parsed
    from sia_tui.core.jsonkit.strictjson import load_path as load_path
    from sia_tui.core.jsonkit.strictjson import loads as loads
    from sia_tui.core.jsonkit.strictjson import parse as parse
    from sia_tui.core.jsonkit.strictjson import parse_path as parse_path
    from sia_tui.core.jsonkit.strictjson import read_json_file as read_json_file
    from sia_tui.core.jsonkit.strictjson import read_json_text as read_json_text
#: Public name -> the module that defines it (tests/test_layering.py holds it to the
#: imports above, which type checkers read).
_EXPORTS: dict[str, str] = {
    "Parsed": "sia_tui.core.jsonkit.strictjson",
    "PositionIndex": "sia_tui.core.jsonkit.pointer",
    "canonical_bytes": "sia_tui.core.jsonkit.canonical",
    "digest_of": "sia_tui.core.jsonkit.canonical",
    "display_pointer": "sia_tui.core.jsonkit.pointer",
    "load_path": "sia_tui.core.jsonkit.strictjson",
    "loads": "sia_tui.core.jsonkit.strictjson",
    "parse": "sia_tui.core.jsonkit.strictjson",
    "parse_digest": "sia_tui.core.jsonkit.canonical",
    "parse_path": "sia_tui.core.jsonkit.strictjson",
    "read_json_file": "sia_tui.core.jsonkit.strictjson",
    "read_json_text": "sia_tui.core.jsonkit.strictjson",
}
__all__ = sorted(_EXPORTS)


if not TYPE_CHECKING:  # mypy then checks every name against the imports above

    def __getattr__(name: str) -> Any:
        return lazy_api.resolve(__name__, _EXPORTS, name)
