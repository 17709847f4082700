"""Message ids: every message sia-tui sends carries a fresh random UUID, written as
``str(uuid.uuid4())`` writes one, without importing :mod:`uuid` (which imports
:mod:`platform` on Linux: about 6 ms of every `check`)."""

from __future__ import annotations

import subprocess
import sys
import uuid

from hypothesis import given
from hypothesis import strategies as st

from sia_tui.core.a2a.http.codec import make_user_message
from sia_tui.core.a2a.http.codec_v03 import CodecV03
from sia_tui.core.a2a.http.codec_v1 import CodecV1
from sia_tui.core.a2a.http.wire import new_message_id, uuid4_text


@given(st.binary(min_size=16, max_size=16))
def test_a_message_id_is_what_uuid4_writes_for_the_same_random_bytes(raw: bytes) -> None:
    """The differential: ``uuid.uuid4()`` is ``UUID(bytes=os.urandom(16), version=4)``."""
    assert uuid4_text(raw) == str(uuid.UUID(bytes=raw, version=4))


def test_the_edges_of_the_sixteen_bytes() -> None:
    for raw in (bytes(16), b"\xff" * 16, bytes(range(16)), bytes(range(255, 239, -1))):
        assert uuid4_text(raw) == str(uuid.UUID(bytes=raw, version=4))


def test_every_message_a_codec_builds_has_a_fresh_version_4_id() -> None:
    """An agent reads a random version 4 UUID in each message, as before."""
    ids = [
        CodecV1().make_user_message({})["messageId"],
        CodecV1().make_text_message("hi")["messageId"],
        CodecV03().make_user_message({})["messageId"],
        CodecV03().make_text_message("hi")["messageId"],
        make_user_message({}, dialect="1.0")["messageId"],
        new_message_id(),
    ]
    assert len(set(ids)) == len(ids)
    for text in ids:
        parsed = uuid.UUID(text)
        assert (parsed.version, parsed.variant, str(parsed)) == (4, uuid.RFC_4122, text)


def test_building_requests_does_not_load_uuid() -> None:
    """The codecs (every command that sends) leave :mod:`uuid` and :mod:`platform` unloaded."""
    script = (
        "import sys\n"
        "from sia_tui.core.a2a.http.codec import make_user_message\n"
        "make_user_message({}, dialect='1.0'); make_user_message({}, dialect='0.3')\n"
        "print(sorted({'uuid', 'platform'} & set(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
