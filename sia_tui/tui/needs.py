"""The core's needs worded for the TUI: the key, field or screen that gives each.

What the TUI has no field for (the timeouts, the size limit, trust anchors) is set on the
command line that starts it, so the TUI names that command.
"""

from __future__ import annotations

from collections.abc import Mapping

from sia_tui.core.needs import Need

_CONNECT = "on the connect screen (c)"

#: Each need as the TUI's key or field.
TUI_WORDS: Mapping[Need, str] = {
    Need.OAUTH2_CLIENT: f"the OAuth2 client id {_CONNECT}",
    Need.OAUTH2_TOKEN_URL: f"the OAuth2 token URL {_CONNECT}",
    Need.BEARER: f"the Bearer token {_CONNECT}",
    Need.OAUTH2_OR_BEARER: f"an OAuth2 client id or a Bearer token {_CONNECT}",
    Need.HEADER: f"header in Headers {_CONNECT}",
    Need.API_KEY: f"the API key {_CONNECT}",
    Need.CLIENT_CERT: "`sia-tui open --cert`",
    Need.CLIENT_KEY: "`--key`",
    Need.CA_CERT: "`sia-tui open --cacert`",
    Need.INSECURE: f"insecure TLS {_CONNECT}",
    Need.GRPC_TLS: "`sia-tui open --grpc-tls`",
    Need.GRPC_PLAINTEXT: "`sia-tui open --grpc-plaintext`",
    Need.TIMEOUT: "`sia-tui open --timeout`",
    Need.CONNECT_TIMEOUT: "`sia-tui open --connect-timeout`",
    Need.DEADLINE: f"the deadline {_CONNECT}",
    Need.MAX_RESPONSE_BYTES: "`sia-tui open --max-response-bytes`",
    Need.ARGUMENTS_FILE: "F2 on Invoke loads a file",
    Need.ARGUMENTS: "the arguments on Invoke (5)",
    Need.ARGUMENTS_EXAMPLE: "the example (F4 on Invoke)",
    Need.SEND_ANYWAY: "a negative test (ctrl+t on Invoke)",
    Need.SKILL: "a skill (Enter on the Overview)",
    Need.JSON_REPORT: "the JSON export",
    Need.SAVE: "ctrl+s",
    Need.LOCK: "`sia-tui open --lock`",
    Need.TRUSTED_KEYS: "`sia-tui open --trusted-keys`",
    Need.REQUIRE_SIGNATURE: "`sia-tui open --require-signature`",
    Need.TARGET: f"the target {_CONNECT}",
    Need.PUSH_URL: "`sia-tui check --push-url URL` (the TUI's Push is its own receiver)",
    Need.CONSENT: "the TUI asks before it sends",
    Need.NO_TRACE: "`sia-tui open --no-trace` (the TUI has no field for it)",
    Need.IGNORE_CAPABILITIES: (
        "`sia-tui check` or `sia-tui send` with --ignore-capabilities (the TUI has no override)"
    ),
}
