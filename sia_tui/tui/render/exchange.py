"""One recorded exchange: its A2A wire verdict, request/response headers (gRPC: metadata;
secrets masked), the body (gRPC: each message as ProtoJSON) and, for gRPC, the messages'
sizes on the wire."""

from __future__ import annotations

from textual.content import Content

from sia_tui.core.exchange import Exchange, Headers
from sia_tui.core.wire import WireSeverity, verdict_of
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
    # A recorded session's purpose and method are whatever its file says.
    head = Content.assemble(
        literal(f"#{exchange.seq} {exchange.purpose}  ", style="bold"),
        literal(f"{exchange.method} ", style="bold $accent"),
        literal(exchange.url),
        (f"  → {exchange.status_text}", "bold"),
    )
    blocks = [head]
    if exchange.error:
        blocks.append(Content.styled("transport error: ", "bold $error") + literal(exchange.error))
    blocks += _wire(exchange, policy)
    if exchange.grpc and exchange.message_sizes:
        blocks.append(
            Content.styled(
                _wire_sizes(exchange.message_sizes, exchange.events_not_kept), "$text-muted"
            )
        )
    heads, body, event = (
        ("metadata", "message (ProtoJSON)", "stream message")
        if exchange.grpc
        else ("headers", "body", "stream event")
    )
    request = [
        _headers(f"request {heads}", exchange.request_headers, policy),
        _body(f"request {body}", exchange.request_body, policy, pretty, limit),
    ]
    response = [_headers(f"response {heads}", exchange.response_headers, policy)]
    last = len(exchange.events)
    for index, data in enumerate(exchange.events, start=1):
        if index == last and exchange.events_not_kept:  # kept: the first ones and the last
            more = f"… {exchange.events_not_kept:,} more, counted, not kept"
            response.append(Content.styled(more, "italic $text-muted"))
            index += exchange.events_not_kept
        response.append(_body(f"{event} {index}", data, policy, pretty, limit))
    if not exchange.events or (exchange.grpc and exchange.response_body):
        # A gRPC call that failed answers a google.rpc.Status (its ErrorInfo), recorded as
        # the body; a stream may end in one after its messages.
        failed = exchange.grpc and exchange.status not in (0, None)
        title = "status (google.rpc.Status)" if failed else f"response {body}"
        response.append(_body(title, exchange.response_body, policy, pretty, limit))
    if exchange.truncated:
        response.append(Content.styled("(body cut at the size limit)", "italic $warning"))
    blocks += [*response, *request] if reply_first else [*request, *response]
    return Content("\n").join(blocks)


def _wire(exchange: Exchange, policy: DisplayPolicy) -> list[Content]:
    """The exchange's wire verdict (``Run.answers.wire`` reads the same): a badge, then each issue
    at its pointer; member names and values in it are the agent's text, shown literally."""
    verdict = verdict_of(exchange)
    if verdict is None:
        return []
    style = "bold $error" if verdict.errors else "bold $warning" if verdict.warnings else "$success"
    lines = [Content.styled(f"wire (A2A {verdict.revision}): {verdict.word}", style)]
    for issue in verdict.issues:
        mark = "$error" if issue.severity is WireSeverity.ERROR else "$warning"
        lines.append(
            Content.styled(f"  {issue.severity.value} ", mark)
            + policy.literal(
                f"{issue.where} {issue.pointer or '/'} {issue.kind}"
                + (f" ({issue.field})" if issue.field else "")
                + f": {issue.message}"
            )
        )
    if verdict.more:
        lines.append(Content.styled(f"  … {verdict.more} more", "italic $text-muted"))
    return lines


def _wire_sizes(sizes: tuple[int, ...], not_kept: int) -> str:
    """What protobuf put on the wire: the request, then the response message(s) kept."""
    request, *responses = sizes
    text = f"protobuf on the wire: request {request:,} bytes"
    if len(responses) == 1:
        text += f", response {responses[0]:,} bytes"
    elif responses:
        text += f", {len(responses)} response messages, {sum(responses):,} bytes"
    if not_kept:
        text += f" (and {not_kept:,} messages counted, not kept)"
    return text


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
