"""Every regular expression that reads agent or file text runs in time linear in it.

``LINEAR`` lists each such pattern with adversarial text (the shapes that make a
backtracking pattern quadratic: runs that almost match, a start repeated without its end).
Each is timed on 2 KB and 20 KB of that text, in one run: ten times the text may cost
about ten times the time, never the hundred times a quadratic pattern takes (the test fails
above 30x, a ratio, not a wall-clock limit; ``QUADRATIC`` holds the measure to that).
``NOT_UNTRUSTED`` lists the patterns that read only sia-tui's own text.
``test_every_regex_is_listed`` finds every ``re.compile`` and ``re.<function>(...)`` in
sia_tui, so a new one fails until it is added to one list (docs/SECURITY.md names the rule).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from sia_tui.core.a2a.auth.oauth2 import scrub_token_members
from sia_tui.core.redaction import redact
from sia_tui.core.redaction.redact import Redactor
from tests.support.regex_sites import RegexSite, regex_sites
from tests.support.thread_cpu import thread_cpu

#: Ten times the text: a linear pattern costs about 10x, a quadratic one about 100x. The
#: loop count is set so that the small text takes ``TIMING`` of CPU, so the sizes do not set
#: the test's cost; they only need the quadratic term to outweigh a call's fixed cost on the
#: small text, which it does from a few hundred characters (``QUADRATIC``: 80-100x here as
#: at 10 KB/100 KB, while the listed patterns stay under 17x).
SMALL, LARGE = 2_000, 20_000
MAX_RATIO = 30.0
#: CPU time of one timed batch of calls on the small text. The thread's CPU clock counts
#: nanoseconds, and a timing is only ever stretched (a cold cache, an interrupt), never
#: shrunk: the least of three on the small text, and the large text timed again only
#: while it is over the bound.
TIMING = 0.001


def repeat(*units: str) -> Callable[[int], str]:
    """``n`` characters: the first units once (a prefix), then the last repeated."""

    def make(n: int) -> str:
        head = "".join(units[:-1])
        return head + units[-1] * ((n - len(head)) // len(units[-1]))

    return make


@dataclass(frozen=True)
class Case:
    """Adversarial text for one pattern, and how the code uses the pattern on it."""

    texts: tuple[Callable[[int], str], ...]
    #: The pattern's method the code calls (``search``, ``sub``...).
    method: str = "search"
    #: Bytes patterns get the text UTF-8 encoded.
    as_bytes: bool = False


def case(method: str, *texts: Callable[[int], str], as_bytes: bool = False) -> Case:
    return Case(texts, method, as_bytes)


#: Every pattern that reads agent or file text, with its adversarial texts.
LINEAR: dict[str, Case] = {
    "sia_tui/core/a2a/card.py:_MAJOR_MINOR": case("match", repeat("1" * 5, "1"), repeat("1.")),
    "sia_tui/core/a2a/grpc/binding.py:_KEY": case("match", repeat("a"), repeat("a", "a-")),
    "sia_tui/core/a2a/objects.py:_STATE_NAME": case("fullmatch", repeat("TASK_STATE_", "A")),
    "sia_tui/core/bounded.py:_MORE_WARNINGS": case("fullmatch", repeat("1")),
    "sia_tui/core/bugreport/exchanges.py:_PLACEHOLDER": case(
        "sub", repeat("«redacted:"), repeat("«redacted:a")
    ),
    "sia_tui/core/bugreport/exchanges.py:_variable:re.sub": case("sub", repeat("-a")),
    "sia_tui/core/bugreport/build.py:rerun_command:re.sub": case("sub", repeat("a_")),
    "sia_tui/core/bugreport/report_markdown.py:_MD_SPECIAL": case("sub", repeat("`a")),
    "sia_tui/core/bugreport/report_markdown.py:md_code:re.findall": case(
        "findall", repeat("`a"), repeat("`")
    ),
    "sia_tui/core/bugreport/report_markdown.py:md_span:re.findall": case(
        "findall", repeat("`a"), repeat("`")
    ),
    "sia_tui/core/input_kind.py:_TOML_TABLE": case("match", repeat("[[a"), as_bytes=True),
    "sia_tui/core/interface/document_diff.py:_VERSION": case(
        "fullmatch", repeat("1"), repeat("1.", "1")
    ),
    "sia_tui/core/interface/document.py:_VERSION": case("match", repeat("1"), repeat("1.", "1")),
    "sia_tui/core/jsonkit/canonical.py:_HEX64": case("fullmatch", repeat("a")),
    "sia_tui/core/jsonkit/canonical.py:_reference_bytes:re.match": case("match", repeat("1")),
    "sia_tui/core/jsonkit/canonical.py:parse_digest:re.fullmatch": case(
        "fullmatch", repeat("a"), repeat("a", "g")
    ),
    "sia_tui/core/jsonkit/json_locate.py:_SURROGATE": case("search", repeat("a")),
    "sia_tui/core/jsonkit/json_locate.py:_BRACKETS": case(
        "findall", repeat('"', '\\"'), repeat('"a\\'), repeat("[{")
    ),
    "sia_tui/core/jsonkit/json_locate.py:_UP_TO_LONG_NUMBER": case(
        "match", repeat('"', "1\\"), repeat("1" * 20 + "a"), repeat('"\\"')
    ),
    "sia_tui/core/jsonkit/jsonshape.py:_ASTRAL": case("search", repeat("a")),
    "sia_tui/core/jsonkit/pointer.py:_WHITESPACE": case("match", repeat(" ")),
    "sia_tui/core/jsonkit/pointer.py:_TOKEN": case(
        "match", repeat('"', '\\"'), repeat('"a\\'), repeat(" "), repeat("a")
    ),
    "sia_tui/core/jsonkit/pointer.py:_PLAIN": case("match", repeat("0,"), repeat(" ")),
    "sia_tui/core/jsonkit/pointer.py:_STRING": case("match", repeat('"', '\\"'), repeat('"a\\')),
    "sia_tui/core/jsonkit/pointer.py:resolve:re.fullmatch": case("fullmatch", repeat("1")),
    "sia_tui/core/jsonkit/pointer.py:PositionIndex.__init__:re.finditer": case(
        "findall", repeat("a\n")
    ),
    "sia_tui/core/jsonkit/strictjson.py:_SURROGATE_ESCAPE": case(
        "search", repeat("\\u"), as_bytes=False
    ),
    "sia_tui/core/jsonkit/strictjson.py:_STRING": case(
        "match", repeat('"', "\\a"), repeat('"', "a\\"), as_bytes=True
    ),
    "sia_tui/core/matrix/plugfest.py:_syntax_problem:re.search": case(
        "search", repeat("(at line 1, column 1) "), repeat("(at line ", "1")
    ),
    "sia_tui/core/matrix/plugfest_agents.py:_HEADER_NAME": case("fullmatch", repeat("a", "a")),
    "sia_tui/core/matrix/matrix_runner.py:_UNSAFE": case("sub", repeat("a/")),
    "sia_tui/core/matrix/toml_lines.py:_ARRAY_HEADER": case(
        "match", repeat("[[a", " "), repeat("[[", " a"), repeat("[[", "a")
    ),
    "sia_tui/core/matrix/toml_lines.py:_TABLE_HEADER": case(
        "match", repeat("[a", " "), repeat("[", " a"), repeat("[", "a")
    ),
    "sia_tui/core/matrix/toml_lines.py:_ASSIGNMENT": case(
        "match", repeat("a", " "), repeat("a."), repeat("a", " . a"), repeat('"a".')
    ),
    "sia_tui/core/matrix/toml_lines.py:_KEY_PART": case("findall", repeat('"'), repeat("'")),
    "sia_tui/core/matrix/toml_lines.py:_INLINE_MEMBER": case(
        "findall", repeat("{", " "), repeat("{a", " "), repeat(',"'), repeat(",'")
    ),
    "sia_tui/core/matrix/toml_shape.py:_TOKEN": case(
        "findall", repeat('"""', "\\a"), repeat("'''", "a"), repeat('"\\"'), repeat("'a")
    ),
    # The mock reads the session's recorded SSE bodies and the paths clients send it.
    "sia_tui/agent/mock/app.py:_EVENT_END": case(
        "findall", repeat("\r\n\r"), repeat("\r\n"), as_bytes=True
    ),
    "sia_tui/agent/mock/keys.py:_REST_SEND": case(
        "search", repeat("/message:"), repeat("/message:sen")
    ),
    "sia_tui/agent/mock/keys.py:_REST_TASK": case(
        "search", repeat("/tasks/"), repeat("/tasks/", "a"), repeat("/tasks/a:cancel")
    ),
    "sia_tui/core/trace_context.py:_TRACEPARENT": case("match", repeat("0"), repeat("00-")),
    "sia_tui/core/trace_context.py:_KEY": case(
        "fullmatch", repeat("a"), repeat("a", "a@"), repeat("a@", "a"), repeat("0")
    ),
    "sia_tui/core/trace_context.py:_VALUE": case("fullmatch", repeat(" "), repeat("a ")),
    "sia_tui/core/output/policy.py:_whole_class:re.compile": case("sub", repeat("a\x1b\u200b")),
    "sia_tui/core/output/policy.py:_ASCII_UNSAFE": case("sub", repeat("a\x01")),
    "sia_tui/core/output/policy.py:_ASCII_UNSAFE_IN_LINES": case("sub", repeat("a\x01")),
    "sia_tui/core/output/policy.py:_ASCII_STREAM": case("sub", repeat("\x1b[", "\x1b[3")),
    "sia_tui/core/output/policy.py:_whole_stream:re.compile": case(
        "sub", repeat("\x1b[", "\x1b[3")
    ),
    "sia_tui/core/redaction/redact.py:CREDENTIAL_NAME": case(
        "search", repeat("aut"), repeat("api-"), repeat("-ke")
    ),
    "sia_tui/core/redaction/redact.py:QUERY_TOKEN": case(
        "sub", repeat("?token="), repeat("?tok"), repeat("?token=a?")
    ),
    "sia_tui/core/redaction/redact.py:_LOGGED_HEADER": case(
        "findall", repeat("(b'cookie', b'"), repeat("(b'cookie',", " ")
    ),
    "sia_tui/core/redaction/secret_forms.py:ESCAPE": case(
        "findall", repeat("%4"), repeat("\\u00"), repeat("%41"), repeat("\\u0041"), repeat("&#1")
    ),
    "sia_tui/core/redaction/secret_forms.py:ANY_ESCAPE": case("search", repeat("\\"), repeat("&")),
    "sia_tui/core/redaction/url_scan.py:_USERINFO": case("match", repeat("a:")),
    "sia_tui/core/schemas/meaning.py:_WORDS": case(
        "findall", repeat("A"), repeat("Aa"), repeat("AAAAAAAAAa")
    ),
    "sia_tui/core/trust/lock_compare.py:_VERSION": case(
        "fullmatch", repeat("1"), repeat("1.", "1")
    ),
    "sia_tui/core/session/format.py:_RULE_ID": case("fullmatch", repeat("A", "a")),
    "sia_tui/core/session/history.py:_ENTRY_ID": case("fullmatch", repeat("1")),
    "sia_tui/core/session/history.py:_ENTRY_FILE": case("fullmatch", repeat("a")),
    "sia_tui/web/guard.py:_HOST_SYNTAX": case("match", repeat("a")),
    # Built at run time: one alternation of the escaped forms of the known secrets.
    "sia_tui/core/redaction/redact.py:Redactor._forms:re.compile": case(
        "search", repeat("secret-valu"), repeat("s")
    ),
}

#: Patterns that read only sia-tui's own text (source files, widget ids, class names).
NOT_UNTRUSTED: dict[str, str] = {
    "sia_tui/agent/fault_tables.py:with_table:re.compile": "the project's own README markers",
    "sia_tui/tui/exports.py:_UNSAFE": "a file name made from a mode name and a time",
    "sia_tui/core/wire/generate.py:_snake:re.sub": "the project's own message field names",
    "sia_tui/tui/screens/help.py:pane_name:re.sub": "widget ids of sia-tui's screens",
    "sia_tui/tui/screens/help.py:help_title:re.findall": "sia-tui's screen class names",
    "sia_tui/tui/session_actions.py:_UNSAFE_NAME": "a file name of a skill id cut to 40 chars",
}


def _batch(call: Callable[[], object], loops: int) -> float:
    """``loops`` calls, in this thread's CPU time without the collector (``thread_cpu``)."""

    def batch() -> None:
        for _ in range(loops):
            call()

    return thread_cpu(batch)[0]


def _calibrated(call: Callable[[], object]) -> tuple[int, float]:
    """Calls enough for a batch of at least ``TIMING`` (a few microseconds are all noise),
    and that batch's time."""
    loops = 1
    while True:
        elapsed = _batch(call, loops)
        if elapsed >= TIMING or loops >= 1_000_000:
            return loops, elapsed
        loops *= 2


def _runner(site: RegexSite, spec: Case) -> Callable[[Any], object]:
    module_path, name = site.key.split(":", 1)
    if "re." not in name:
        module = __import__(module_path.removesuffix(".py").replace("/", "."), fromlist=["_"])
        pattern: re.Pattern[Any] = getattr(module, name)
    elif name == "Redactor._forms:re.compile":
        redactor = Redactor()
        for value in ("secret-value-1", "secret-value-22", "another-secret"):
            redactor.add_secret(value, "x", force=True)
        forms = redactor._forms(True)[1]
        assert forms is not None
        pattern = forms
    elif name in ("_whole_class:re.compile", "_whole_stream:re.compile"):
        # Compiled on first use (start-up); both keep_newlines forms share one class.
        from sia_tui.core.output import policy

        pattern = policy._whole_class(True) if "class" in name else policy._whole_stream()
    else:
        assert site.pattern is not None, f"{site.key}: a literal pattern"
        pattern = re.compile(site.pattern)
    method = getattr(pattern, spec.method)
    if spec.method == "sub":
        return lambda text: method("", text)
    return lambda text: method(text)


@functools.cache  # parsing every module of the package once, not once per pattern
def _sites() -> dict[str, RegexSite]:
    return {site.key: site for site in regex_sites()}


def test_every_regex_is_listed() -> None:
    """A new pattern fails here until it is listed as linear (with adversarial text) or
    as reading only sia-tui's own text."""
    found = set(_sites())
    listed = set(LINEAR) | set(NOT_UNTRUSTED)
    assert found - listed == set(), "add these to LINEAR (or NOT_UNTRUSTED)"
    assert listed - found == set(), "these are listed but no longer in sia_tui"


def _ratio(call: Callable[[Any], object], make: Callable[[int], str], as_bytes: bool) -> float:
    """Time on the large text over time on the small one, each call repeated the same
    number of times; each the least of up to three timings."""
    small: Any = make(SMALL)
    large: Any = make(LARGE)
    if as_bytes:
        small, large = small.encode(), large.encode()
    loops, first = _calibrated(lambda: call(small))
    on_small = min(first, _batch(lambda: call(small), loops), _batch(lambda: call(small), loops))
    # A timing under the bound decides (the least of three would be under it too); only a
    # pattern that looks quadratic pays for all three.
    on_large = float("inf")
    for _ in range(3):
        on_large = min(on_large, _batch(lambda: call(large), loops))
        if on_large < MAX_RATIO * on_small:
            break
    return on_large / on_small


@pytest.mark.parametrize("key", sorted(LINEAR))
def test_pattern_is_linear_on_adversarial_text(key: str) -> None:
    """Ten times the adversarial text costs well under a hundred times the time."""
    spec = LINEAR[key]
    call = _runner(_sites()[key], spec)
    ratios = [_ratio(call, make, spec.as_bytes) for make in spec.texts]
    assert max(ratios) < MAX_RATIO, f"{key}: 10x the text took {max(ratios):.0f}x the time"


#: The functions that replaced a pattern that backtracked, on the text that made it do so.
FUNCTIONS: dict[str, tuple[Callable[[str], object], Callable[[int], str]]] = {
    # RULES SR7's secrets: one URL with userinfo, then a run of dotted words (98 s on 78 KB).
    "Redactor.text (URL userinfo)": (
        lambda text: Redactor().text(text, "test"),
        repeat("see http://user:pass@host/ ", "a."),
    ),
    "Redactor.text (many schemes)": (
        lambda text: Redactor().text(text, "test"),
        repeat("x://", "a:b://a@"),
    ),
    "scrub_token_members": (
        lambda text: scrub_token_members(text.encode()),
        repeat('"access_token": "', '\\"id_token\\":\\"'),
    ),
    "log filter (credential headers)": (
        redact._scrub_logged_headers,
        repeat("(b'cookie', b'"),
    ),
}


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_redaction_is_linear_on_adversarial_text(name: str) -> None:
    """The scans that replaced backtracking patterns stay linear on their worst text."""
    call, make = FUNCTIONS[name]
    ratio = _ratio(call, make, False)
    assert ratio < MAX_RATIO, f"{name}: 10x the text took {ratio:.0f}x the time"


def test_a_parse_error_is_located_in_linear_time_however_deep_the_nesting() -> None:
    """An agent's body of ten times the open brackets (then a cut, or a byte that is not
    UTF-8) is located in well under a hundred times the time: a path kept per open
    container made it quadratic (40,000 brackets: 42 s)."""
    from sia_tui.core.jsonkit.pointer import container_pointer_at

    ratio = _ratio(lambda text: container_pointer_at(text, len(text)), repeat("["), False)
    assert ratio < MAX_RATIO, f"10x the nesting took {ratio:.0f}x the time"


def test_saving_a_session_finds_the_document_in_linear_time_however_deep_the_nesting() -> None:
    """Saving a session marks where the Skill Interface Document sits in each
    describe_skill answer, by walking the agent's body token by token. Ten times the open
    brackets after ``"skill_interface":`` costs well under a hundred times the time: each
    token carried its whole path, so an agent's 16,000 brackets took 4 s (a megabyte of
    them: hours)."""
    from sia_tui.core.session.format import document_ranges

    ratio = _ratio(document_ranges, repeat('{"skill_interface": ', "["), False)
    assert ratio < MAX_RATIO, f"10x the nesting took {ratio:.0f}x the time"


#: Quadratic patterns the measure must fail: one the package once had (a placeholder's
#: ``[^»]+`` ran from each start to the text's end) and a run of 22-character units, the
#: weakest separation at these sizes (about 90x). The old plugfest table header, quadratic
#: within one match, measures 100x too but costs two seconds to fail.
QUADRATIC: dict[str, tuple[re.Pattern[str], Callable[[int], str]]] = {
    "old bug report placeholder": (re.compile(r"«redacted:([^»]+)»"), repeat("«redacted:")),
    "units without their end": (
        re.compile(r"(?:\(at line 1, column 1\) )+end"),
        repeat("(at line 1, column 1) "),
    ),
}


@pytest.mark.parametrize("name", sorted(QUADRATIC))
def test_the_measure_fails_a_quadratic_pattern(name: str) -> None:
    """The sizes and timings above still tell a quadratic pattern from a linear one."""
    pattern, make = QUADRATIC[name]
    ratio = _ratio(pattern.search, make, False)
    assert ratio >= MAX_RATIO, f"{name}: 10x the text took only {ratio:.0f}x the time"
