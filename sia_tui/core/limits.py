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

#: Most findings one check keeps (a schema validation, the advertisement check...). The
#: rest are counted in one closing finding ("N more"), so a flood costs linear time and
#: every surface shows a bounded list.
MAX_FINDINGS: Final = 1000

#: Largest part of an instance whose validation errors are listed in one engine call, in
#: values x schema members (a bound on the errors that call can build). The engine builds
#: every error before the first can be read, each ~1.5 KB with a copy of the value it is
#: about, so a bigger instance is listed part by part (``schemas/error_listing.py``): at
#: most ~30 MB of errors at a time, whatever the instance's size.
MAX_LISTING_WORK: Final = 20_000

#: Most validation errors counted (the first ``MAX_FINDINGS`` of them listed); past it the
#: closing finding says "at least". Counting costs ~10 microseconds an error, so a flood of
#: 800,000 errors is answered in a fraction of a second, not in eight.
MAX_COUNTED_ERRORS: Final = 10_000

#: Most wire issues one exchange keeps (errors first); the rest are counted. A hostile
#: body with a thousand unknown members costs one line of the report, not a thousand.
MAX_WIRE_ISSUES: Final = 50

#: Most warnings a card or a run keeps; the rest are counted in one closing warning.
MAX_WARNINGS: Final = 1000

#: Most artifacts or records a step's evidence and the ``--json`` report list one by one;
#: the rest are counted. An answer of 4 MB can carry 50,000 tiny artifacts: listing each
#: in every evidence object made ``check --json`` print 128 MB.
MAX_LISTED: Final = 1000
#: Most events one stream's exchange keeps (SSE events, gRPC messages): the first ones and
#: the last (the one that ended the stream), the rest counted. One bound for every binding:
#: 83,000 tiny gRPC messages, each kept, made a 20 MB session and an 18 MB HTML report.
MAX_STREAM_EVENTS_KEPT: Final = MAX_LISTED
#: Most invocations one run holds (each keeps its arguments, task and exchanges, up to
#: megabytes): past it new arguments are refused until the run restarts.
MAX_INVOCATIONS: Final = 100

#: Most pairs of rows a plugfest matrix's composition table judges and keeps (pairs grow
#: with the square of the rows: 1,000 rows are a million pairs); the rest are counted.
MAX_COMPOSITION_PAIRS: Final = 10_000

#: Most failures a bug report explains one by one with their exchanges (a probe session of
#: 24,500 failed probes made a 293 MB page); the table still grades every listed one.
MAX_EXPLAINED: Final = 20

#: Most names (artifact ids, probe ids) one message or sentence quotes before "and N
#: more": a step message is one line, and quoting 50,000 ids made it 489 KB.
MAX_NAMED: Final = 5

#: Most content encodings a response may stack (``Content-Encoding: gzip, gzip``). Real
#: servers use one; each extra layer multiplies what a few bytes can inflate to.
MAX_CONTENT_ENCODINGS: Final = 2

#: Backtracking steps one regex match may take (fancy-regex patterns with backreferences
#: or lookaround; plain patterns run in linear time). The engine's default, 1,000,000,
#: lets one string cost ~25 ms; this keeps a hostile pattern near 30 µs per string.
MAX_REGEX_BACKTRACKS: Final = 1000

#: Deepest nesting of arrays and inline tables in a TOML file (the plugfest file): ``tomllib``
#: recurses per level (a few thousand raise RecursionError). A plugfest file nests 2-3.
MAX_TOML_DEPTH: Final = 32

#: Most dotted parts in one TOML key or table name (``[a.b.c]``): ``tomllib`` costs time
#: quadratic in them (200 KB of ``a.a.a...`` took 36 s). A plugfest file uses 1-2.
MAX_TOML_KEY_PARTS: Final = 32

#: After the deadline, a CancelTask for the running task gets this long to be answered.
CANCEL_GRACE_SECONDS: Final = 2.0

#: Characters of an agent's question (an interrupted task's status message) kept in a run:
#: it is shown and saved, never executed, and a flood is cut.
MAX_QUESTION_CHARS: Final = 4000
#: Replies one run sends to a task that keeps asking (``check --reply`` and the TUI): a
#: task that asks again past this is left waiting, incomplete.
MAX_TURNS: Final = 50
#: Most push deliveries one run keeps (a loopback receiver records each); the rest are
#: counted. An agent may push every status update: a run's few dozen are far below this.
MAX_PUSH_DELIVERIES: Final = 1000
#: Most refused push deliveries (no token, or the wrong one) a run keeps to show; the rest
#: are counted. Any local process can post to the loopback receiver: what it sends is kept
#: apart from the agent's deliveries, so it can neither push them out of the list nor settle
#: the run, and a few are enough to see who was knocking.
MAX_PUSH_REFUSED_KEPT: Final = 20

#: Most of a push delivery's body a run keeps as text (the whole body, up to the event size
#: limit, is still parsed): 1,000 deliveries of 2 MiB would otherwise hold 2 GB.
MAX_PUSH_BODY_KEPT: Final = 16 * 1024

#: Largest request line and headers a push delivery may send before its body, in bytes.
MAX_PUSH_HEADER_BYTES: Final = 16 * 1024

#: Seconds one push delivery may take to arrive whole (headers and body): a slow drip is
#: cut off, so a hostile agent cannot hold the receiver's connections open.
PUSH_READ_SECONDS: Final = 10.0

#: Most push connections served at once; more wait (the agent retries or gives up).
MAX_PUSH_CONNECTIONS: Final = 8

#: Seconds the receiver stays open after the task ended, for a delivery still on its way
#: (an agent pushes after the state changed; a sync answer may come first).
PUSH_GRACE_SECONDS: Final = 2.0
