"""Regenerate the A2A wire schemas sia-tui ships (sia_tui/core/wire/a2a-*.schema.json).

Run ``uv run python scripts/a2a_wire_schema.py`` after changing the message descriptions
(sia_tui/core/a2a/grpc/messages.py, sia_tui/core/trust/card_fields.py) or the generator
(sia_tui/core/wire/generate.py); tests/wire/test_generate.py fails until the files agree.
"""

from __future__ import annotations

from sia_tui.core.wire.generate import write_all


def main() -> None:
    for path in write_all():
        print(f"updated {path}")


if __name__ == "__main__":
    main()
