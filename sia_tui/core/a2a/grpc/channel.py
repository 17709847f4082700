"""grpc.aio under the gRPC binding: channels, raw-bytes calls, and what can go wrong.

The only module that imports grpc; nothing loads it until a GRPC interface is called.
Calls carry bytes in and out (no generated stubs): ``grpc_messages`` does protobuf.
A connection that cannot be made or a TLS handshake that fails is a TransportError,
never retried another way (no plaintext fallback); a status the server sent is a
``GrpcAnswer`` for the client to read. ``AioTransport`` is the ``GrpcTransport`` of
``grpc/calls.py``.
"""

from __future__ import annotations

import asyncio
import base64
import socket
import ssl
from typing import Any

from sia_tui.core.a2a.grpc.calls import STATUS_DETAILS_KEY, GrpcAnswer, GrpcStream
from sia_tui.core.a2a.grpc.runtime import grpc
from sia_tui.core.a2a.grpc.target import SERVICE, GrpcTarget
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.errors import RequestTimeout, ResponseTooLarge, TransportError
from sia_tui.core.exchange import Headers


def metadata_of(initial: Any, trailing: Any) -> tuple[Headers, bytes | None]:
    """grpc metadata as text pairs; the status details returned apart."""
    pairs: list[tuple[str, str]] = []
    details: bytes | None = None
    for key, value in [*(initial or ()), *(trailing or ())]:
        if key == STATUS_DETAILS_KEY and isinstance(value, bytes):
            details = value
            pairs.append((key, f"({len(value)} bytes: the google.rpc.Status shown as the body)"))
        elif isinstance(value, bytes):
            pairs.append((key, base64.b64encode(value).decode("ascii")))
        else:
            pairs.append((key, str(value)))
    return tuple(pairs), details


def _failure(exc: grpc.aio.AioRpcError, target: GrpcTarget, options: ClientOptions) -> Exception:
    """A call that got no status from the server (or hit a local limit) as a SiaError;
    anything else is the server's answer, returned as is."""
    code, text = exc.code(), exc.details() or ""
    where = target.address
    _, details = metadata_of(None, exc.trailing_metadata())
    if details is not None:
        return exc  # the server answered with a status and details: an A2A error
    if code == grpc.StatusCode.DEADLINE_EXCEEDED:
        return RequestTimeout(
            f"response timed out: no answer within {options.read_timeout:g} s (--timeout)",
            url=where,
        )
    if code == grpc.StatusCode.RESOURCE_EXHAUSTED and "larger than max" in text:
        return ResponseTooLarge(
            f"response larger than {options.max_response_bytes} bytes (--max-response-bytes); "
            "read aborted",
            url=where,
        )
    if code == grpc.StatusCode.UNAVAILABLE:
        lowered = text.lower()
        if "refused" in lowered:
            return TransportError("connection refused: nothing answers at this address", url=where)
        if target.tls and any(w in lowered for w in ("ssl", "tls", "handshake", "certificate")):
            return TransportError(
                f"TLS handshake failed ({target.reason}): {text[:300]}; not retried in "
                "plaintext (--grpc-plaintext if the agent serves without TLS)",
                url=where,
            )
        return TransportError(f"gRPC UNAVAILABLE: {text[:300]}", url=where)
    return exc


class _AioStream:
    def __init__(self, call: Any, target: GrpcTarget, options: ClientOptions) -> None:
        self._call, self._target, self._options = call, target, options
        self._error: grpc.aio.AioRpcError | None = None

    async def read(self) -> bytes | None:
        try:
            message = await self._call.read()
        except grpc.aio.AioRpcError as exc:
            failure = _failure(exc, self._target, self._options)
            if failure is not exc:
                raise failure from None
            self._error = exc
            return None
        return None if message is grpc.aio.EOF else bytes(message)

    async def finish(self) -> GrpcAnswer:
        if self._error is not None:
            return _answer_of(self._error)
        code = await self._call.code()
        metadata, details = metadata_of(
            await self._call.initial_metadata(), await self._call.trailing_metadata()
        )
        return GrpcAnswer(code.value[0], await self._call.details() or "", metadata, details)

    def cancel(self) -> None:
        self._call.cancel()


def _answer_of(exc: grpc.aio.AioRpcError) -> GrpcAnswer:
    metadata, details = metadata_of(exc.initial_metadata(), exc.trailing_metadata())
    return GrpcAnswer(exc.code().value[0], exc.details() or "", metadata, details)


class AioTransport:
    """grpc.aio channels, one per target, with the client's limits and TLS files."""

    def __init__(self, options: ClientOptions) -> None:
        self.options = options
        self._channels: dict[GrpcTarget, grpc.aio.Channel] = {}

    async def _channel(self, target: GrpcTarget) -> grpc.aio.Channel:
        channel = self._channels.get(target)
        if channel is not None:
            return channel
        options: list[tuple[str, Any]] = [
            ("grpc.max_receive_message_length", self.options.max_response_bytes),
            ("grpc.enable_http_proxy", 1 if self.options.trust_env else 0),
        ]
        if target.tls:
            credentials, name = await self._credentials(target)
            if name is not None:
                options.append(("grpc.ssl_target_name_override", name))
            channel = grpc.aio.secure_channel(target.address, credentials, options=options)
        else:
            channel = grpc.aio.insecure_channel(target.address, options=options)
        self._channels[target] = channel
        await self._connect(channel, target)
        return channel

    async def _connect(self, channel: grpc.aio.Channel, target: GrpcTarget) -> None:
        """Wait for the connection within --connect-timeout; a failed attempt is left for
        the call itself to report (its status names why: refused, TLS...)."""
        try:
            async with asyncio.timeout(self.options.connect_timeout):
                state = channel.get_state(try_to_connect=True)
                while state not in (
                    grpc.ChannelConnectivity.READY,
                    grpc.ChannelConnectivity.TRANSIENT_FAILURE,
                ):
                    await channel.wait_for_state_change(state)
                    state = channel.get_state()
        except TimeoutError:
            raise RequestTimeout(
                f"connect timed out after {self.options.connect_timeout:g} s (--connect-timeout)",
                url=target.address,
            ) from None

    async def _credentials(self, target: GrpcTarget) -> tuple[grpc.ChannelCredentials, str | None]:
        """The TLS credentials of ``--cacert``/``--cert``/``--key``/``--insecure``."""
        verify, cert = self.options.verify, self.options.cert
        try:
            roots = _read(verify) if isinstance(verify, str) else None
            key = chain = None
            if cert is not None:
                cert_file, key_file = (cert, cert) if isinstance(cert, str) else cert
                chain, key = _read(cert_file), _read(key_file)
        except OSError as exc:
            raise TransportError(f"cannot load TLS files: {exc}", url=target.address) from exc
        name = None
        if verify is False:
            roots, name = await asyncio.to_thread(_trust_presented, target, self.options)
        return grpc.ssl_channel_credentials(roots, key, chain), name

    async def unary(
        self, target: GrpcTarget, method: str, request: bytes, metadata: Headers, timeout: float
    ) -> tuple[bytes | None, GrpcAnswer]:
        channel = await self._channel(target)
        # No serializers: bytes go out and come back as they are (grpc_messages parses).
        caller: grpc.aio.UnaryUnaryMultiCallable[bytes, bytes] = channel.unary_unary(
            f"/{SERVICE}/{method}"
        )
        call = caller(request, metadata=metadata, timeout=timeout)
        try:
            response = await call
        except grpc.aio.AioRpcError as exc:
            failure = _failure(exc, target, self.options)
            if failure is not exc:
                raise failure from None
            return None, _answer_of(exc)
        metadata_out, details = metadata_of(
            await call.initial_metadata(), await call.trailing_metadata()
        )
        code = await call.code()
        answer = GrpcAnswer(code.value[0], await call.details() or "", metadata_out, details)
        return bytes(response), answer

    async def stream(
        self, target: GrpcTarget, method: str, request: bytes, metadata: Headers
    ) -> GrpcStream:
        channel = await self._channel(target)
        caller: grpc.aio.UnaryStreamMultiCallable[bytes, bytes] = channel.unary_stream(
            f"/{SERVICE}/{method}"
        )
        call = caller(request, metadata=metadata)
        return _AioStream(call, target, self.options)

    async def aclose(self) -> None:
        channels, self._channels = list(self._channels.values()), {}
        for channel in channels:
            await channel.close(grace=None)


def _read(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


def _trust_presented(target: GrpcTarget, options: ClientOptions) -> tuple[bytes, str | None]:
    """``--insecure``: trust the certificate the server presents, under the name it gives.

    gRPC cannot switch verification off; pinning the presented certificate does the same
    for a self-signed one. A certificate from a private CA needs that CA (``--cacert``).
    """
    address = (target.host, target.port)
    try:
        pem = ssl.get_server_certificate(address, timeout=options.connect_timeout)
        context = ssl.create_default_context(cadata=pem)
        context.check_hostname = False
        with (
            socket.create_connection(address, timeout=options.connect_timeout) as raw,
            context.wrap_socket(raw) as tls,
        ):
            presented = tls.getpeercert() or {}
    except ssl.SSLCertVerificationError:
        raise TransportError(
            "--insecure over gRPC trusts only a self-signed certificate; give the issuing CA "
            "with --cacert",
            url=target.address,
        ) from None
    except OSError as exc:
        raise TransportError(f"TLS handshake failed: {exc}", url=target.address) from None
    alt_names: Any = presented.get("subjectAltName", ())
    names = [str(value) for kind, value in alt_names if kind == "DNS"]
    names += [str(value) for kind, value in alt_names if kind != "DNS"]
    return pem.encode("ascii"), (names[0] if names else None)
