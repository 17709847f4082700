"""One recorded HTTP exchange: request/response headers (secrets masked) and the body."""

from __future__ import annotations

from textual.content import Content

from sia_tui.core.engine import Exchange, Headers
from sia_tui.tui.display import DisplayPolicy
from sia_tui.tui.highlight import json_content
from sia_tui.tui.jsontext import PRETTY_LIMIT, body_text, pretty_body


def exchange_content(
    exchange: Exchange,
    policy: DisplayPolicy,
    *,
    pretty: bool,
    limit: int | None,
    reply_first: bool = False,
) -> Content:
    """Everything about one exchange as a single block of content (``policy.reveal``: the
    credential headers in clear); ``reply_first`` puts the response before the request."""
    literal = policy.literal
    status = "no response" if exchange.status is None else f"HTTP {exchange.status}"
    # A recorded session's purpose and method are whatever its file says.
    head = Content.assemble(
        literal(f"#{exchange.seq} {exchange.purpose}  ", style="bold"),
        literal(f"{exchange.method} ", style="bold $accent"),
        literal(exchange.url),
        (f"  → {status}", "bold"),
    )
    blocks = [head]
    if exchange.error:
        blocks.append(Content.styled("transport error: ", "bold $error") + literal(exchange.error))
    request = [
        _headers("request headers", exchange.request_headers, policy),
        _body("request body", exchange.request_body, policy, pretty, limit),
    ]
    response = [_headers("response headers", exchange.response_headers, policy)]
    if exchange.events:
        for index, event in enumerate(exchange.events, start=1):
            response.append(_body(f"stream event {index}", event, policy, pretty, limit))
    else:
        response.append(_body("response body", exchange.response_body, policy, pretty, limit))
    if exchange.truncated:
        response.append(Content.styled("(body cut at the size limit)", "italic $warning"))
    blocks += [*response, *request] if reply_first else [*request, *response]
    return Content("\n").join(blocks)


def _headers(title: str, headers: Headers, policy: DisplayPolicy) -> Content:
    lines = [Content.styled(title, "bold $text-muted")]
    for name, value in headers:
        shown = policy.header_value(name, value)
        lines.append(
            Content.assemble(
                "  ",
                policy.literal(name, style="$secondary"),
                ": ",
                policy.literal(shown),
            )
        )
    if not headers:
        lines.append(Content.styled("  (none)", "$text-muted"))
    return Content("\n").join(lines)


def _body(
    title: str, body: bytes, policy: DisplayPolicy, pretty: bool, limit: int | None
) -> Content:
    pretty = pretty and len(body) <= PRETTY_LIMIT
    label = Content.styled(
        f"{title} ({len(body):,} bytes, {'pretty' if pretty else 'raw'})", "bold $text-muted"
    )
    if not body:
        return label + Content.styled("  (empty)", "$text-muted")
    text = pretty_body(body) if pretty else body_text(body)
    return label + Content("\n") + json_content(text, policy, limit=limit)
