"""The output policy: what may reach a terminal, a clipboard or a report."""

from __future__ import annotations

import functools
import io
import json
import sys
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sia_tui.core.output import policy
from sia_tui.core.output.policy import (
    COLOURS,
    PrintableStream,
    clipboard_text,
    paint,
    printable,
    printable_in_place,
    printable_output,
    terminal_json,
    terminal_text,
)

_REFUSED = {"Cc", "Cf", "Cs", "Co", "Zl", "Zp"}


@functools.cache  # on first use, not as every xdist worker collects (about 0.5 s each)
def all_refused() -> str:
    """Every code point the running Python calls control, format, separator, surrogate or
    private use (the policy's character class is written out; this keeps it complete)."""
    return "".join(chr(c) for c in range(0x110000) if unicodedata.category(chr(c)) in _REFUSED)


def test_every_control_format_and_private_character_is_replaced() -> None:
    text = all_refused()
    shown = printable(text)
    assert not [c for c in shown if unicodedata.category(c) in _REFUSED]
    assert shown.startswith("␀␁␂") and "␛" in shown and "\\u009b" in shown
    assert "\\u202e" in shown and "\\U000f0000" in shown


def test_ascii_text_takes_the_short_scan_with_the_same_answers() -> None:
    """ASCII text is scanned for C0 and DEL only (the whole class is slower): every one of
    them is still replaced, alone or in a line."""
    ascii_controls = [chr(c) for c in (*range(0x20), 0x7F)]
    for char in ascii_controls:
        for shown in (printable(char), printable_in_place(char, keep_newlines=False)):
            assert shown != char and shown.isprintable(), repr(char)
        kept = printable(char, keep_newlines=True)
        assert (kept == char) == (char in "\t\n"), repr(char)
    assert printable("a\tb\x1bc", keep_newlines=True) == "a\tb␛c"


def test_text_outside_ascii_without_unsafe_characters_skips_the_whole_class() -> None:
    """A card's bullets, accents and ellipses are shown without compiling the whole class
    (some 2 ms of the first screen); one unsafe character still gets it."""
    policy._whole_class.cache_clear()
    assert printable("● café…\n\tnext line", keep_newlines=True) == "● café…\n\tnext line"
    assert printable("sha256:2fbd…") == "sha256:2fbd…"
    assert printable_in_place("● é\n") == "● é\n"
    assert policy._whole_class.cache_info().currsize == 0
    assert printable("● \u202e", keep_newlines=True) == "● \\u202e"
    assert policy._whole_class.cache_info().currsize == 1


def test_isprintable_refuses_every_character_of_the_whole_class() -> None:
    """The short path trusts ``str.isprintable``: no character the policy replaces may be
    printable to the running Python, tab and newline aside (the lines variant keeps them)."""
    every = "".join(chr(c) for c in range(0x110000))
    for keep_newlines in (False, True):
        refused = policy._whole_class(keep_newlines).findall(every)
        assert refused and not [c for c in refused if c.isprintable()]


#: Text that mixes every kind the policy tells apart: ASCII, printable non-ASCII, tab and
#: newline, C0/C1 controls, format characters, separators, surrogates, private use.
_MIXED = st.text(
    st.sampled_from("a \t\n\r\x1b\x7f\x9b\xadé●…漢🙂\u200b\u2028\u202e\ufeff\ud800\ue000\U000f0000")
    | st.characters(codec=None, exclude_categories=()),
    max_size=40,
)


@settings(max_examples=300, deadline=None, database=None)
@given(_MIXED, st.booleans())
def test_the_short_path_answers_as_the_whole_class_does(text: str, keep_newlines: bool) -> None:
    """Differential: whichever scan ``printable`` picks, it answers what the whole class
    alone answers."""
    whole = policy._whole_class(keep_newlines)
    expected = whole.sub(lambda m: policy._stand_in(m.group()), text)
    assert printable(text, keep_newlines=keep_newlines) == expected
    in_place = whole.sub(lambda m: policy._PICTURES.get(ord(m.group()), policy.REPLACEMENT), text)
    assert printable_in_place(text, keep_newlines=keep_newlines) == in_place


def test_in_place_every_unsafe_character_is_one_visible_character() -> None:
    """A styled span or an editor column points into the text: no offset may move."""
    text = all_refused()
    shown = printable_in_place(text, keep_newlines=False)
    assert len(shown) == len(text)
    assert not any(unicodedata.category(c) in _REFUSED for c in shown)
    assert printable_in_place("a\x1b[2J\u009b\u202e\nb") == "a␛[2J\ufffd\ufffd\nb"


def test_printable_keeps_newlines_and_tabs_only_when_asked() -> None:
    assert printable("a\nb\tc") == "a␊b␉c"
    assert printable("a\nb\tc\r", keep_newlines=True) == "a\nb\tc␍"
    assert printable("plain, accented é, CJK 漢, emoji 🙂") == "plain, accented é, CJK 漢, emoji 🙂"


def test_terminal_text_keeps_only_sia_tuis_own_colours() -> None:
    """An SGR code sia-tui paints passes; an agent's ESC never does, not even a colour."""
    ours = paint("ok", "32")
    assert terminal_text(ours) == ours
    attack = "\x1b[8mhidden\x1b[0m\x1b]52;c;cHduZWQ=\x07\x9b2J\n\t"
    assert terminal_text(attack) == "␛[8mhidden\x1b[0m␛]52;c;cHduZWQ=␇\\u009b2J\n\t"
    with pytest.raises(ValueError, match="colours"):
        paint("x", "8")
    assert "8" not in COLOURS


def test_clipboard_text_is_printable_with_its_lines() -> None:
    """OSC 52 carries what the user copies into whatever they paste it in."""
    assert clipboard_text("sha256:ab\x1b]0;x\x07\u202e\nline") == "sha256:ab␛]0;x␇\\u202e\nline"


def test_terminal_json_is_the_same_json_and_printable() -> None:
    value = {"k\u202e": ["\x1b]52;c;x\x07", "\x9b", "\ud800", "\U000f0001", "é"]}
    text = terminal_json(value)
    assert json.loads(text) == value
    assert not [c for c in text if c not in "\n" and unicodedata.category(c) in _REFUSED]


def test_the_stream_gate_applies_to_every_write() -> None:
    captured = io.StringIO()
    stream = PrintableStream(captured)
    print("task state TASK_STATE_\x1b]0;title\x07", file=stream)
    assert captured.getvalue() == "task state TASK_STATE_␛]0;title␇\n"
    saved = sys.stdout
    sys.stdout = captured
    try:
        with printable_output():
            print("\x9b31m")
        assert sys.stdout is captured
    finally:
        sys.stdout = saved
    assert captured.getvalue().endswith("\\u009b31m\n")
