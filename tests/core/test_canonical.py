"""RFC 8785 canonical bytes and sha256 digests (RULES SR4, SR5, SR6, SID6)."""

from __future__ import annotations

import hashlib
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sia_tui.cli import main
from sia_tui.core.errors import CanonicalizationError, DigestFormatError
from sia_tui.core.jsonkit.canonical import canonical_bytes, digest_of, parse_digest, sha256_digest
from sia_tui.core.jsonkit.strictjson import load_path, loads

JCS = Path(__file__).parent.parent / "vectors" / "jcs"
VECTORS = sorted(p.stem for p in (JCS / "input").glob("*.json"))

# RFC 8785 Appendix B: IEEE-754 bit patterns and their canonical text. Checked against the
# RFC (the hex for 1.0000000000000001e+23, 999999999999999900000 and 1e+21 follow it).
APPENDIX_B = [
    ("0000000000000000", "0"),
    ("8000000000000000", "0"),
    ("0000000000000001", "5e-324"),
    ("8000000000000001", "-5e-324"),
    ("7fefffffffffffff", "1.7976931348623157e+308"),
    ("ffefffffffffffff", "-1.7976931348623157e+308"),
    ("4340000000000000", "9007199254740992"),
    ("c340000000000000", "-9007199254740992"),
    ("4430000000000000", "295147905179352830000"),
    ("44b52d02c7e14af5", "9.999999999999997e+22"),
    ("44b52d02c7e14af6", "1e+23"),
    ("44b52d02c7e14af7", "1.0000000000000001e+23"),
    ("444b1ae4d6e2ef4e", "999999999999999700000"),
    ("444b1ae4d6e2ef4f", "999999999999999900000"),
    ("444b1ae4d6e2ef50", "1e+21"),
    ("3eb0c6f7a0b5ed8c", "9.999999999999997e-7"),
    ("3eb0c6f7a0b5ed8d", "0.000001"),
    ("41b3de4355555553", "333333333.3333332"),
    ("41b3de4355555554", "333333333.33333325"),
    ("41b3de4355555555", "333333333.3333333"),
    ("41b3de4355555556", "333333333.3333334"),
    ("41b3de4355555557", "333333333.33333343"),
    ("becbf647612f3696", "-0.0000033333333333333333"),
    ("43143ff3c1cb0959", "1424953923781206.2"),
]


@pytest.mark.parametrize("name", VECTORS)
def test_rfc8785_reference_vectors_library(name: str) -> None:
    expected = (JCS / "output" / f"{name}.json").read_bytes()
    assert expected.hex() == "".join((JCS / "outhex" / f"{name}.txt").read_text().split())
    assert canonical_bytes(load_path(JCS / "input" / f"{name}.json")) == expected


@pytest.mark.parametrize("name", VECTORS)
def test_rfc8785_reference_vectors_cli(
    name: str, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    assert main(["canon", str(JCS / "input" / f"{name}.json")]) == 0
    out = capsysbinary.readouterr().out
    assert out == (JCS / "output" / f"{name}.json").read_bytes()


def test_canon_subprocess_writes_exact_bytes_from_stdin() -> None:
    source = (JCS / "input" / "weird.json").read_bytes()
    done = subprocess.run(
        [sys.executable, "-m", "sia_tui", "canon", "-"],
        input=source,
        capture_output=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == (JCS / "output" / "weird.json").read_bytes()


@pytest.mark.parametrize("bits, text", APPENDIX_B)
def test_rfc8785_appendix_b_numbers(bits: str, text: str) -> None:
    value = struct.unpack(">d", bytes.fromhex(bits))[0]
    assert canonical_bytes(value) == text.encode()


def test_sr5_whitespace_order_and_escapes_do_not_change_the_digest() -> None:
    # RULES SR5: same JSON value, different text -> same digest.
    a = loads('{"b": [1, 2.0, "\\u00e9"], "a": {"y": true, "x": null}}')
    b = loads('{"a":{"x":null,"y":true},\n "b":[1,2,"é"]}')
    assert digest_of(a) == digest_of(b)
    assert digest_of(a) != digest_of({**a, "c": 0})  # any change of the value changes it


def test_sr4_digest_is_sha256_of_jcs_lowercase_hex() -> None:
    value = {"z": 1, "a": "é"}
    expected = "sha256:" + hashlib.sha256('{"a":"é","z":1}'.encode()).hexdigest()
    assert digest_of(value) == expected == sha256_digest(canonical_bytes(value))
    assert parse_digest(expected).hex == expected[7:]


def test_sr6_digest_covers_only_the_schema_not_the_reference() -> None:
    schema = {"type": "string"}
    reference: dict[str, Any] = {
        "schema_uri": "urn:x",
        "version": "1.0",
        "resolution": {"schema": schema},
    }
    assert digest_of(schema) != digest_of(reference)
    moved = {**reference, "schema_uri": "urn:other", "version": "2.0"}
    assert digest_of(moved["resolution"]["schema"]) == digest_of(schema)


@pytest.mark.parametrize(
    "text, reason",
    [
        ("", "empty"),
        ("abc", "missing the 'sha256:' prefix"),
        ("a" * 64, "looks like bare hex"),
        ("sha512:" + "a" * 128, "sha256 only"),
        ("SHA256:" + "a" * 64, "lowercase 'sha256:'"),
        ("sha256:" + "a" * 63, "has 63 characters"),
        ("sha256:" + "A" * 64, "uppercase"),
        ("sha256:" + "g" * 64, "'g'"),
    ],
)
def test_sr4_malformed_digests_are_explained(text: str, reason: str) -> None:
    with pytest.raises(DigestFormatError, match=reason):
        parse_digest(text)


def test_parse_digest_rejects_non_strings() -> None:
    with pytest.raises(DigestFormatError, match="must be a string"):
        parse_digest(None)


@pytest.mark.parametrize(
    "value, reason",
    [
        ([2**53], "outside the IEEE-754 safe range"),
        ({1: 2}, "keys must be strings"),
        ([float("nan")], "NaN"),
        (b"raw", "unsupported type"),
        ("\ud800", "UTF-8"),
    ],
)
def test_values_jcs_cannot_carry_are_refused(value: object, reason: str) -> None:
    with pytest.raises(CanonicalizationError, match=reason):
        canonical_bytes(value)


def test_deep_value_built_in_code_is_refused_cleanly() -> None:
    value: list[object] = []
    for _ in range(5000):
        value = [value]
    with pytest.raises(CanonicalizationError, match="nested too deeply"):
        canonical_bytes(value)


def test_largest_safe_integer_is_kept_exactly() -> None:
    expected = b"[9007199254740991,-9007199254740991,3]"
    assert canonical_bytes([2**53 - 1, -(2**53 - 1), 3.0]) == expected
