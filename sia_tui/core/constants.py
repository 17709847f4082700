"""Wire names from WIRE.md, each in one place so a reconstructed name can change once."""

from __future__ import annotations

from typing import Final

#: The schema-interface extension URI (RULES ADV1).
EXTENSION_URI: Final = (
    "https://agentic-network-management.github.io/agent-schema-interfaces/"
    "extensions/schema-interface/v1"
)
#: The only interface version this client understands (RULES SID3).
INTERFACE_VERSION: Final = "1.0"
#: The id of the retrieval skill (RULES ADV2).
DESCRIBE_SKILL: Final = "describe_skill"
#: JSON Schema dialect of every embedded schema in 1.0 (RULES SR2).
DIALECT_2020_12: Final = "https://json-schema.org/draft/2020-12/schema"
#: Member of the describe_skill artifact that carries the document. [reconstructed] (WIRE.md)
DOCUMENT_MEMBER: Final = "skill_interface"
#: Member of the describe_skill artifact that carries the document digest (RULES DS2).
DIGEST_MEMBER: Final = "interface_digest"
#: `resolution.type` of an inline Schema Reference. [reconstructed] (WIRE.md)
INLINE_RESOLUTION: Final = "inline"
#: Digest prefix; SHA-256 is the only algorithm in 1.0 (RULES SR4).
DIGEST_PREFIX: Final = "sha256:"

#: The Agent Card member that holds its signatures (A2A 1.0 section 8.4).
CARD_SIGNATURES: Final = "signatures"

#: A2A header names (WIRE.md).
VERSION_HEADER: Final = "A2A-Version"
EXTENSIONS_HEADER: Final = "A2A-Extensions"
LEGACY_EXTENSIONS_HEADER: Final = "X-A2A-Extensions"
#: Well-known Agent Card paths, current first, then the 0.2/0.3 fallback.
CARD_PATHS: Final = ("/.well-known/agent-card.json", "/.well-known/agent.json")
