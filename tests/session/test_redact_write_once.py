"""A large value's JSON text written once for a whole redaction walk (and long arrays asked
about in chunks) redacts exactly what asking each container on its own redacts.

The quick "can anything in this container change?" answer may say yes where a container
alone would say no (a match that begins inside it and ends after it), never the reverse;
a yes only costs a look string by string, so the redacted value, the redactions and the
leaks found must all be the same.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sia_tui.core.redaction import redact
from sia_tui.core.redaction.container_text import ContainerTexts
from sia_tui.core.redaction.redact import Redactor

CREDENTIAL = "tok3n-credential-9f2"
MARKED = "marked-value-77aa"
#: Pieces of text near every reason to look string by string: the secrets whole, cut and
#: escaped; URL credentials; escapes of every kind; characters JSON writes escaped.
FRAGMENTS = [
    CREDENTIAL,
    MARKED,
    CREDENTIAL[:6],
    MARKED[-5:],
    "\\u0074ok3n",
    "%6Darked",
    "&#109;",
    "&amp;",
    "https://",
    "user:pw@",
    "@",
    "?token=",
    "&code=",
    '"',
    "\\",
    "\n",
    "é€",
    "plain",
    " ",
]


def _document(rng: random.Random, depth: int = 0) -> Any:
    """A random JSON value of FRAGMENTS (built with ``random``: hypothesis's recursive
    strategies cost ~20 ms of drawing per document, the check itself well under 1 ms)."""
    roll = rng.random()
    if depth >= 3 or roll < 0.35:
        kind = rng.randrange(5)
        if kind == 0:
            return rng.choice([None, True, False, 0, -3, 2**60, 1.5])
        return "".join(rng.choices(FRAGMENTS, k=rng.randrange(4)))
    members = [_document(rng, depth + 1) for _ in range(rng.randrange(6))]
    if roll < 0.6:
        return members
    if roll < 0.7:
        return tuple(members)
    return {"".join(rng.choices(FRAGMENTS, k=rng.randrange(3))): m for m in members}


REDACTOR = Redactor()  # one for every example (its patterns are built once); hits forgotten
REDACTOR.add_secret(CREDENTIAL, "authorization", force=True)
REDACTOR.add_secret(MARKED, "secret", marked=True)


def _redacted(document: Any) -> tuple[Any, Any, list[Any], list[str], list[str]]:
    REDACTOR.forget_hits()
    marked = REDACTOR.value(document, "body")
    credentials_only = REDACTOR.value(document, "digested", marked=False)
    hits = REDACTOR.hits
    leaks = REDACTOR.leaks_in(document) + REDACTOR.leaks_in(document, marked=False)
    return marked, credentials_only, hits, leaks, REDACTOR.leaks_in(marked)


SHARED = [{"a": MARKED}, [1, "b"]]


EXAMPLES = [
    {"x": [SHARED, SHARED, {"n": [SHARED]}]},
    [[f"{i} {MARKED if i == 7 else 'x'}"] for i in range(12)],
    [{"u": "https://user:pw"}, {"v": "@host/"}, ["http://a:b@c"]],
    {"k": [{"q": "a?tok"}, {"r": "en=1 \\"}, ("u", "0061")]},
]


@settings(max_examples=150)
@given(seed=st.integers(0, 2**32))
def test_writing_once_redacts_what_each_container_on_its_own_redacts(seed: int) -> None:
    rng = random.Random(seed)
    for document in [_document(rng) for _ in range(3)] + (EXAMPLES if seed == 0 else []):
        _assert_redacted_alike(document)


def _assert_redacted_alike(document: Any) -> None:
    _assert_spans_are_texts_alone(document)
    with pytest.MonkeyPatch.context() as patch:  # the reference: each container written alone
        patch.setattr(redact, "WRITE_ONCE_FROM", 10**12)
        patch.setattr(redact, "CHUNK", 10**12)
        expected = _redacted(document)
    with pytest.MonkeyPatch.context() as patch:  # every value written once, arrays in chunks of 2
        patch.setattr(redact, "WRITE_ONCE_FROM", 0)
        patch.setattr(redact, "CHUNK", 2)
        patch.setattr("sia_tui.core.redaction.container_text.MAX_MEMBERS_APART", 3)
        assert _redacted(document) == expected


def _assert_spans_are_texts_alone(document: Any) -> None:
    texts = ContainerTexts(document)
    assert texts.text == json.dumps(document, ensure_ascii=False)
    stack = [document]
    while stack:
        item = stack.pop()
        if isinstance(item, dict | list | tuple):
            span = texts.span(item)
            if span is not None:
                assert texts.text[span[0] : span[1]] == json.dumps(item, ensure_ascii=False)
            stack += item.values() if isinstance(item, dict) else item
