"""RFC 8785 canonical JSON and the "sha256:" digests built on it (RULES SR4-SR6, SID6)."""

from __future__ import annotations

import hashlib
import re
from typing import Any, NamedTuple

from sia_tui.core import limits
from sia_tui.core.constants import DIGEST_PREFIX
from sia_tui.core.errors import CanonicalizationError, DigestFormatError
from sia_tui.core.jsonkit.jcs_fast import encoder_bytes
from sia_tui.core.jsonkit.jsonshape import Shape, measure

#: Largest integer JCS can carry exactly: IEEE-754 doubles are exact up to 2**53 - 1.
MAX_SAFE_INTEGER = 2**53 - 1

_HEX64 = re.compile(r"[0-9a-f]{64}")


def canonical_bytes(value: Any, *, shape: Shape | None = None) -> bytes:
    """Serialize ``value`` with RFC 8785 (JCS) as UTF-8 bytes (RULES SR4, SR5).

    Integers outside +/-(2**53 - 1) are rejected: JCS represents every number as an
    IEEE-754 double, so a larger integer would silently change value.

    ``shape`` is the walk of this very value when the caller has it already (strict
    loading makes one); it decides whether the C encoder may write the bytes (the fast
    path, byte-identical by test) or rfc8785, the reference, must.
    """
    if type(value) is dict or type(value) is list:
        fast = encoder_bytes(value, shape or measure(value, limits.MAX_JSON_DEPTH))
        if fast is not None:
            return fast
    return _reference_bytes(value)


def _reference_bytes(value: Any) -> bytes:
    """rfc8785's bytes, its refusals worded as CanonicalizationErrors."""
    import rfc8785  # only on the slow path: it is the reference, not the common case

    try:
        return rfc8785.dumps(value)
    except rfc8785.IntegerDomainError as exc:
        number = re.match(r"-?[0-9]+", str(exc.args[0]) if exc.args else "")
        raise CanonicalizationError(
            f"integer {number.group() if number else ''} is outside the IEEE-754 safe range "
            f"(+/-{MAX_SAFE_INTEGER}); RFC 8785 cannot canonicalize it exactly",
            pointer=_first_unsafe_integer(value),
        ) from exc
    except rfc8785.FloatDomainError as exc:
        raise CanonicalizationError("NaN and Infinity have no JSON representation") from exc
    except rfc8785.CanonicalizationError as exc:
        raise CanonicalizationError(f"cannot canonicalize: {exc}") from exc
    except RecursionError as exc:
        # rfc8785 recurses per level; strictjson caps depth at 256, so only a value built
        # in code can get here. Report it instead of crashing the caller.
        raise CanonicalizationError("value is nested too deeply to canonicalize") from exc
    except (TypeError, ValueError) as exc:
        # Not a JSON value at all (bytes, sets, objects): a programming error upstream,
        # still reported as a canonicalization failure rather than a crash.
        raise CanonicalizationError(f"not a JSON value: {exc}") from exc


def _first_unsafe_integer(value: Any) -> str | None:
    """Where the integer rfc8785 refused is (a JSON Pointer), for a located error."""
    from sia_tui.core.jsonkit.numbers import unsafe_numbers

    found = unsafe_numbers(value)
    return next((pointer for pointer, number in found if type(number) is int), None)


def sha256_digest(data: bytes) -> str:
    """``"sha256:" + lowercase hex`` of ``data``."""
    return DIGEST_PREFIX + hashlib.sha256(data).hexdigest()


def digest_of(value: Any, *, shape: Shape | None = None) -> str:
    """The draft digest of a JSON value: SHA-256 over its JCS bytes (RULES SR4, SID6)."""
    return sha256_digest(canonical_bytes(value, shape=shape))


class Digest(NamedTuple):
    """A well-formed digest string, split into algorithm and hex."""

    algorithm: str
    hex: str

    def __str__(self) -> str:
        return f"{self.algorithm}:{self.hex}"


def parse_digest(text: object) -> Digest:
    """Parse a ``"sha256:<64 lowercase hex>"`` string, explaining exactly what is wrong.

    RULES SR4: SHA-256 only, no negotiation; lowercase hex; exactly 64 characters.
    """
    if not isinstance(text, str):
        raise DigestFormatError(
            f"a digest must be a string, not {type(text).__name__}", value=repr(text)
        )
    if not text:
        raise DigestFormatError("the digest is empty", value=text)
    if ":" not in text:
        hint = " (it looks like bare hex)" if re.fullmatch(r"[0-9a-fA-F]+", text) else ""
        raise DigestFormatError(f"missing the 'sha256:' prefix{hint}", value=text)
    algorithm, _, hexpart = text.partition(":")
    if algorithm.lower() != "sha256":
        raise DigestFormatError(
            f"algorithm '{algorithm}' is not allowed: interface version 1.0 uses sha256 only",
            value=text,
        )
    if algorithm != "sha256":
        raise DigestFormatError(
            f"the prefix must be lowercase 'sha256:', not '{algorithm}:'", value=text
        )
    if len(hexpart) != 64:
        raise DigestFormatError(
            f"the hex part has {len(hexpart)} characters; SHA-256 needs exactly 64", value=text
        )
    if not _HEX64.fullmatch(hexpart):
        if _HEX64.fullmatch(hexpart.lower()):
            raise DigestFormatError(
                "the hex part uses uppercase letters; it must be lowercase", value=text
            )
        bad = next(ch for ch in hexpart if ch not in "0123456789abcdef")
        raise DigestFormatError(
            f"the hex part contains {bad!r}, which is not a hex digit", value=text
        )
    return Digest(algorithm, hexpart)
