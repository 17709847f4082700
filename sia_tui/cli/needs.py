"""The core's needs worded as the command line's flags."""

from __future__ import annotations

from collections.abc import Mapping

from sia_tui.core.needs import Need

#: The flag every command that invokes takes for consent (check, matrix, probe, rerun).
CONSENT_FLAG = "--allow-execute"
#: probe's name for it before every command had one; scripts keep working.
OLD_CONSENT_FLAG = "--allow-valid-invocations"

#: Each need as the flag that gives it.
FLAGS: Mapping[Need, str] = {
    Need.OAUTH2_CLIENT: "--oauth2-client-id",
    Need.OAUTH2_TOKEN_URL: "--oauth2-token-url",
    Need.BEARER: "--bearer",
    Need.OAUTH2_OR_BEARER: "--oauth2-client-id (or --bearer with a token)",
    Need.HEADER: "--header",
    Need.API_KEY: "--api-key",
    Need.CLIENT_CERT: "--cert",
    Need.CLIENT_KEY: "--key",
    Need.CA_CERT: "--cacert",
    Need.INSECURE: "--insecure",
    Need.GRPC_TLS: "--grpc-tls",
    Need.GRPC_PLAINTEXT: "--grpc-plaintext",
    Need.TIMEOUT: "--timeout",
    Need.CONNECT_TIMEOUT: "--connect-timeout",
    Need.DEADLINE: "--deadline",
    Need.MAX_RESPONSE_BYTES: "--max-response-bytes",
    Need.ARGUMENTS_FILE: "--args FILE",
    Need.ARGUMENTS: "--args",
    Need.ARGUMENTS_EXAMPLE: "--args example",
    Need.SEND_ANYWAY: "--send-anyway",
    Need.SKILL: "--skill",
    Need.JSON_REPORT: "--json",
    Need.SAVE: "--save FILE",
    Need.CACHE: "--cache",
    Need.LOCK: "--lock",
    Need.TRUSTED_KEYS: "--trusted-keys",
    Need.REQUIRE_SIGNATURE: "--require-signature",
    Need.TARGET: "--target",
    Need.INVOCATION: "--invocation",
    Need.SIGNING_KEY: "--key",
    Need.KEY_ID: "--kid",
    Need.PUSH_URL: "--push-url URL",
    Need.EXPECTED_DIGEST: "--digest",
    Need.CONSENT: CONSENT_FLAG,
    Need.NO_TRACE: "--no-trace",
    Need.IGNORE_CAPABILITIES: "--ignore-capabilities",
}
