"""Documented size, depth and length limits for untrusted JSON, in one place."""

from __future__ import annotations

from typing import Final

#: Largest JSON text accepted from outside, in bytes (16 MiB). A Skill Interface
#: Document or a task with records is a few kilobytes; anything near this is hostile
#: or broken, and holding it costs memory in every view that shows raw bytes.
MAX_JSON_BYTES: Final = 16 * 1024 * 1024

#: Deepest nesting of arrays/objects accepted (256 levels). Real schemas and documents
#: stay below 20; the limit keeps recursive consumers (validators, canonicalizer,
#: renderers) far away from Python's recursion limit.
MAX_JSON_DEPTH: Final = 256

#: Longest number literal accepted, in characters. Python refuses int conversion of
#: more than 4300 digits anyway; failing earlier gives a located, readable error.
MAX_NUMBER_CHARS: Final = 1000

#: Longest rendering of a value inside a finding (``expected``/``actual``), in characters.
MAX_RENDERED_CHARS: Final = 120

#: Most compiled schemas kept in the validation cache (keyed by canonical digest).
SCHEMA_CACHE_SIZE: Final = 128

#: Deepest level the argument skeleton generator descends into an input schema.
MAX_SKELETON_DEPTH: Final = 12
