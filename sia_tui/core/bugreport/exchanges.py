"""Recorded exchanges in a bug report: request and response as recorded, and a curl command
(a grpcurl command for a gRPC call)."""

from __future__ import annotations

import contextlib
import json
import re
import shlex

from sia_tui.core.bugreport.blocks import Block, Code, Paragraph, clean
from sia_tui.core.exchange import Exchange
from sia_tui.core.redaction.redact import mask_headers

#: Longest body a report quotes; the session file holds the rest.
MAX_QUOTED_BODY = 16 * 1024
#: Headers the HTTP library adds by itself: noise in a minimal reproduction.
_TRANSPORT_HEADERS = frozenset(
    {"host", "accept", "accept-encoding", "connection", "user-agent", "content-length"}
)
#: A placeholder's name never holds another placeholder's «: two starts without an end
#: cannot make one scan run over the other (a ``[^»]+`` tried each start to the text's end).
_PLACEHOLDER = re.compile(r"«redacted:([^«»]+)»")


def exchange_blocks(shown: list[Exchange]) -> list[Block]:
    """Each exchange's request and response as recorded (redacted), with a curl command."""
    blocks: list[Block] = []
    for ex in shown:
        blocks += [
            Paragraph(f"Exchange {ex.seq} ({clean(ex.purpose)}): {_status_line(ex)}"),
            Code(_request_head(ex), "http"),
        ]
        if ex.request_body:
            blocks.append(Code(_body_text(ex.request_body), "json"))
        blocks += [
            Code(_response_head(ex), "http"),
            Code(_response_text(ex), "json"),
            Paragraph(f"The same request with {'grpcurl' if ex.grpc else 'curl'}:"),
            Code(curl_command(ex), "sh"),
        ]
    return blocks


def _status_line(ex: Exchange) -> str:
    answer = f"answered {ex.status_text}" if ex.status is not None else f"failed: {ex.error}"
    return clean(f"{ex.method} {ex.url} {answer}")


def _headers(headers: tuple[tuple[str, str], ...]) -> list[str]:
    return [
        f"{clean(k)}: {clean(v)}"
        for k, v in mask_headers(headers)
        if k.lower() not in _TRANSPORT_HEADERS
    ]


def _request_head(ex: Exchange) -> str:
    return "\n".join([clean(f"{ex.method} {ex.url}"), *_headers(ex.request_headers)])


def _response_head(ex: Exchange) -> str:
    status = ex.status_text if ex.status is not None else f"(no response: {ex.error})"
    return "\n".join([clean(status), *_headers(ex.response_headers)])


def _response_text(ex: Exchange) -> str:
    if ex.events:
        texts = [_body_text(e) for e in ex.events]
        if ex.events_not_kept:  # kept: the first events and the last (limits.py)
            texts.insert(-1, f"… {ex.events_not_kept} more events (counted, not kept)")
        return "\n".join(texts)
    return _body_text(ex.response_body) or "(empty body)"


def _body_text(data: bytes) -> str:
    text = data[:MAX_QUOTED_BODY].decode("utf-8", errors="replace")
    with contextlib.suppress(ValueError, RecursionError):  # not JSON (or cut): quote as is
        text = json.dumps(json.loads(text), indent=2, ensure_ascii=False)
    suffix = "\n… (cut; the session file has the full body)" if len(data) > MAX_QUOTED_BODY else ""
    return clean(text) + suffix


def _variable(name: str) -> str:
    """A shell variable for a redacted value: «redacted:x-api-key» -> $X_API_KEY."""
    return "$" + re.sub(r"[^A-Za-z0-9]", "_", name).upper()


def _header_option(line: str) -> str:
    """``-H`` and its value; a redacted value becomes a shell variable the user exports."""
    if _PLACEHOLDER.search(line):
        # Double quotes so the shell expands the variable the user exports.
        safe = _PLACEHOLDER.sub(lambda m: _variable(m.group(1)), line.replace('"', ""))
        return f'"{safe}"'
    return shlex.quote(line)


def grpcurl_command(ex: Exchange) -> str:
    """A recorded gRPC call as a grpcurl command (the body is the ProtoJSON it carried)."""
    scheme, _, rest = ex.url.partition("://")
    address, _, method = rest.partition("/")
    lines = ["grpcurl" + (" -plaintext" if scheme == "grpc" else "")]
    lines += [f"-H {_header_option(line)}" for line in _headers(ex.request_headers)]
    if ex.request_body:
        lines.append("-d " + shlex.quote(ex.request_body.decode("utf-8", errors="replace")))
    lines.append(f"{shlex.quote(address)} {shlex.quote(method)}")
    # grpcurl needs the service's descriptors: A2A's a2a.proto, or server reflection.
    note = "# add -import-path and -proto a2a.proto unless the server offers reflection"
    return clean(" \\\n  ".join(lines) + "\n" + note)


def curl_command(ex: Exchange) -> str:
    """The recorded request as a curl command (grpcurl for gRPC); redacted values become
    shell variables."""
    if ex.grpc:
        return grpcurl_command(ex)
    if not ex.url.lower().startswith(("http://", "https://")):
        return clean(f"cat {shlex.quote(ex.url)}  # read from a local file, not over HTTP")
    parts = ["curl", "-sS"]
    if ex.method != "GET":
        parts += ["-X", shlex.quote(ex.method)]
    parts.append(shlex.quote(ex.url))
    for line in _headers(ex.request_headers):
        parts += ["-H", _header_option(line)]
    if ex.request_body:
        parts += ["--data-raw", shlex.quote(ex.request_body.decode("utf-8", errors="replace"))]
    return clean(" \\\n  ".join(_pairs(parts)))


def _pairs(parts: list[str]) -> list[str]:
    """One option (with its value) per line, after the URL."""
    lines, index = [" ".join(parts[:2])], 2
    while index < len(parts):
        token = parts[index]
        if token.startswith("-") and index + 1 < len(parts):
            lines.append(f"{token} {parts[index + 1]}")
            index += 2
        else:
            lines.append(token)
            index += 1
    return lines
