"""Redaction: every credential path becomes a stable placeholder, and nothing else changes."""

from __future__ import annotations

import base64
import json
from urllib.parse import quote

import pytest

from sia_tui.core.redaction.redact import Redactor, mask_headers, placeholder
from tests.support.disguises import disguises, leaked
from tests.support.sessions import CANARY_BEARER, CANARY_HEADER, canary_options


def test_placeholder_is_stable_and_named() -> None:
    assert placeholder("Authorization") == "«redacted:authorization»"


def test_bearer_is_replaced_in_text_and_its_encodings() -> None:
    red = Redactor.from_options(canary_options())
    encoded = base64.b64encode(CANARY_BEARER.encode()).decode()
    text = f"a {CANARY_BEARER} b {encoded} c {quote(CANARY_BEARER)}"
    out = red.text(text, "body")
    assert CANARY_BEARER not in out and encoded not in out
    assert out.startswith("a «redacted:authorization» b «redacted:authorization»")


def test_credential_headers_are_replaced_whole() -> None:
    red = Redactor(secret_headers={"x-tenant-key"})
    headers = (("Cookie", "a=b"), ("X-Tenant-Key", CANARY_HEADER), ("Accept", "x/y"))
    assert red.headers(headers, "request header") == [
        ["Cookie", "«redacted:cookie»"],
        ["X-Tenant-Key", "«redacted:x-tenant-key»"],
        ["Accept", "x/y"],
    ]


def test_url_userinfo_and_token_query_are_redacted_even_when_unknown() -> None:
    red = Redactor()
    out = red.text("see https://bob:hunter22@h.example/x?a=1&access_token=zzz999&b=2", "doc")
    assert out == (
        "see https://«redacted:userinfo»@h.example/x?a=1&access_token=«redacted:access_token»&b=2"
    )
    assert {h.name for h in red.hits} == {"userinfo", "access_token"}


def test_a_learned_header_value_is_scrubbed_from_bodies() -> None:
    red = Redactor()
    red.learn_headers([("Authorization", "Bearer s3cr3t-token-value")])
    assert b"s3cr3t" not in red.data(b'{"echo": "s3cr3t-token-value"}', "response body")


def test_non_utf8_bytes_survive_redaction() -> None:
    red = Redactor.from_options(canary_options())
    body = b"\xff\xfe" + CANARY_BEARER.encode() + b"\x00"
    out = red.data(body, "body")
    assert out.startswith(b"\xff\xfe") and out.endswith(b"\x00")
    assert CANARY_BEARER.encode() not in out


def test_hits_say_where() -> None:
    red = Redactor.from_options(canary_options())
    red.value({"args": {"pw": CANARY_BEARER}}, "run")
    assert [(h.name, h.where) for h in red.hits] == [("authorization", "run /args/pw")]


def test_mask_headers_for_display() -> None:
    shown = mask_headers(
        [("authorization", "Bearer x"), ("X-Custom", "v"), ("X-Api-Key", "k")],
        secret_names=["x-custom"],
    )
    assert shown == [
        ("authorization", "«redacted:authorization»"),
        ("X-Custom", "«redacted:x-custom»"),
        ("X-Api-Key", "«redacted:x-api-key»"),
    ]


def test_a_setting_in_a_header_named_like_a_credential_does_not_corrupt_bodies() -> None:
    red = Redactor()
    red.learn_headers(
        [
            ("X-Session-Mode", "stream"),
            ("Set-Cookie", "sid=cookie-abcdef; Path=/; Expires=Wed, 21 Oct 2026"),
        ]
    )
    body = b'{"response_modes": ["stream"], "at": "Wed, 21 Oct 2026", "c": "cookie-abcdef"}'
    assert red.data(body, "body") == (
        b'{"response_modes": ["stream"], "at": "Wed, 21 Oct 2026", "c": "\xc2\xabredacted:'
        b'set-cookie\xc2\xbb"}'
    )
    assert red.headers((("X-Session-Mode", "stream"),), "h") == [
        ["X-Session-Mode", "«redacted:x-session-mode»"]
    ]


# -- every escape form ---------------------------------------------------------------------


@pytest.mark.parametrize("form", sorted(disguises(CANARY_BEARER)))
def test_a_secret_is_redacted_in_every_form_it_is_echoed_in(form: str) -> None:
    """In a JSON body the escapes are the agent's raw bytes; they decode to the secret."""
    red = Redactor.from_options(canary_options())
    echoed = disguises(CANARY_BEARER)[form]
    body = '{"before": "kept \\u00e9", "echo": "x ' + echoed + ' y", "after": 1}'
    out = red.text(body, "response body")
    assert not leaked(out, {"bearer": CANARY_BEARER})
    assert red.leaks(body) == ["authorization"] and red.leaks(out) == []
    # Only the secret's span is cut: the rest of the bytes are the agent's, unchanged.
    assert out.startswith('{"before": "kept \\u00e9", "echo": "') and out.endswith(
        ' y", "after": 1}'
    )


def test_escapes_nested_three_deep_are_decoded() -> None:
    """A JSON string holding a percent-encoded URL, itself JSON-escaped twice."""
    red = Redactor.from_options(canary_options())
    url = "https://example.net/?t=" + "".join(f"%{b:02x}" for b in CANARY_BEARER.encode())
    body = json.dumps(json.dumps({"u": url}, ensure_ascii=True).replace("%", "\\u0025"))
    assert red.leaks(body) == ["authorization"]
    assert red.leaks(red.text(body, "body")) == []


def test_the_leak_check_reads_decoded_values() -> None:
    """A value that only decoding reveals is found in the document built for saving."""
    red = Redactor.from_options(canary_options())
    escaped = disguises(CANARY_BEARER)["json-u-upper"]
    assert red.leaks_in({"a": [{"b": escaped}]}) == ["authorization"]
    assert red.leaks_in({escaped: 1}) == ["authorization"]
    assert red.leaks_in({"a": "nothing here"}) == []


def test_a_value_from_a_redacted_session_is_no_secret() -> None:
    """Re-saving a loaded session learns its placeholders as header values: they must not
    become secrets (every placeholder would then be a leak)."""
    red = Redactor()
    red.learn_headers([("Set-Cookie", "«redacted:set-cookie»"), ("Cookie", "a=«redacted:x»")])
    assert red.literals == {}
