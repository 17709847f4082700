"""One recorded HTTP exchange: request/response headers (secrets masked) and the body."""

from __future__ import annotations

from textual.content import Content

from sia_tui.core.engine import Exchange, Headers
from sia_tui.tui.display import literal, masked_header, visible
from sia_tui.tui.highlight import PRETTY_LIMIT, body_text, json_content, pretty_body


def exchange_content(
    exchange: Exchange, *, pretty: bool, reveal: bool, limit: int | None
) -> Content:
    """Everything about one exchange as a single block of content."""
    status = "no response" if exchange.status is None else f"HTTP {exchange.status}"
    head = Content.assemble(
        (f"#{exchange.seq} {exchange.purpose}  ", "bold"),
        (f"{exchange.method} ", "bold $accent"),
        literal(exchange.url),
        (f"  → {status}", "bold"),
    )
    blocks = [head]
    if exchange.error:
        blocks.append(Content.styled("transport error: ", "bold $error") + literal(exchange.error))
    blocks.append(_headers("request headers", exchange.request_headers, reveal))
    blocks.append(_body("request body", exchange.request_body, pretty, limit))
    blocks.append(_headers("response headers", exchange.response_headers, reveal))
    if exchange.events:
        for index, event in enumerate(exchange.events, start=1):
            blocks.append(_body(f"stream event {index}", event, pretty, limit))
    else:
        blocks.append(_body("response body", exchange.response_body, pretty, limit))
    if exchange.truncated:
        blocks.append(Content.styled("(body cut at the size limit)", "italic $warning"))
    return Content("\n").join(blocks)


def _headers(title: str, headers: Headers, reveal: bool) -> Content:
    lines = [Content.styled(title, "bold $text-muted")]
    for name, value in headers:
        shown = masked_header(name, value, reveal=reveal)
        lines.append(
            Content.assemble(
                "  ", (visible(name, multiline=False), "$secondary"), ": ", literal(shown)
            )
        )
    if not headers:
        lines.append(Content.styled("  (none)", "$text-muted"))
    return Content("\n").join(lines)


def _body(title: str, body: bytes, pretty: bool, limit: int | None) -> Content:
    pretty = pretty and len(body) <= PRETTY_LIMIT
    label = Content.styled(
        f"{title} ({len(body):,} bytes, {'pretty' if pretty else 'raw'})", "bold $text-muted"
    )
    if not body:
        return label + Content.styled("  (empty)", "$text-muted")
    text = pretty_body(body) if pretty else body_text(body)
    return label + Content("\n") + json_content(text, limit=limit)
