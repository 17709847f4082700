"""`sia-tui sign-card` (a correct A2A 1.0 section 8.4 signature) and `sia-tui pin` (a
contract lock of each skill's interface), docs/TRUST.md."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from sia_tui.cli.flags import UsageError, add_connection_flags, client_options, command_redactor
from sia_tui.cli.trust_flags import add_trust_flags, anchors_from


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add `sign-card` and `pin`."""
    sign = sub.add_parser(
        "sign-card",
        help="sign an Agent Card as A2A 1.0 section 8.4 says (to fix a vendor's signature)",
        description="Append a detached JWS signature over the card's a2a-1.0 canonical form "
        "(the card without signatures, defaults removed by field presence, RFC 8785), with "
        "alg, kid and typ JOSE in the protected header. Existing signatures are kept. "
        "Exit 0: signed and verified with the key; 2: usage, unreadable input, or a "
        "--new-key file that exists.",
    )
    sign.add_argument("card", help="the Agent Card JSON file")
    key = sign.add_mutually_exclusive_group(required=True)
    key.add_argument("--key", metavar="JWK", help="private JWK (or JWKS) file")
    key.add_argument(
        "--new-key",
        metavar="FILE",
        help="generate a new private key (--alg, default ES256; kid: its RFC 7638 "
        "thumbprint unless --kid), write it to FILE with mode 0600 (never over an existing "
        "file) and sign with it; later signatures use --key FILE",
    )
    sign.add_argument("--kid", help="key id for the header (default: the key's kid)")
    sign.add_argument(
        "--alg",
        choices=("ES256", "ES384", "RS256", "PS256", "EdDSA"),
        help="algorithm (default: the key's alg, else by its type)",
    )
    sign.add_argument("--jku", metavar="URL", help="a jku hint for the header (never needed)")
    sign.add_argument("--out", metavar="FILE", help="write the signed card here (default: stdout)")
    sign.add_argument(
        "--jwks-out", metavar="FILE", help="also write the public JWKS a verifier trusts"
    )
    sign.set_defaults(func=main_sign)

    pin = sub.add_parser(
        "pin",
        help="record each skill's version, digest and document in a contract lock",
        description="Run steps 1-6 for each skill and record, per agent and skill, the "
        "advertised skill_version and interface_digest and the validated document. An "
        "existing LOCK keeps its other agents and skills. `check --lock LOCK` compares later "
        "runs with it. Exit 0: pinned; 1: a skill could not be validated (nothing written); "
        "2: usage or unreadable input.",
    )
    pin.add_argument("card", help="base URL, Agent Card URL (.json) or local card file")
    pin.add_argument(
        "--skill",
        action="append",
        metavar="ID",
        help="skill to pin (repeatable; default: every skill the extension advertises)",
    )
    pin.add_argument("--out", required=True, metavar="LOCK", help="the lock file to write")
    add_connection_flags(pin)
    add_trust_flags(pin)
    pin.set_defaults(func=main_pin)


def _fail(exc: Exception) -> int:
    print(f"sia-tui: {exc}", file=sys.stderr)
    return 2


def main_sign(args: argparse.Namespace) -> int:
    """Sign the card, check the signature with the key, write it."""
    from pathlib import Path

    from sia_tui.core.errors import JsonInputError
    from sia_tui.core.jsonkit import load_path
    from sia_tui.core.trust import (
        TrustFileError,
        new_signing_key,
        public_key_set,
        read_private_key,
        self_check,
        sign_card,
        write_private_key,
    )

    try:
        card = load_path(args.card)
        if not isinstance(card, dict):
            raise UsageError(f"{args.card}: an Agent Card is a JSON object")
        if args.new_key:
            key = new_signing_key(args.alg or "ES256", args.kid)
            write_private_key(args.new_key, key)  # 0600; refused when the file exists
            print(
                f"sia-tui sign-card: new {key['alg']} key {key['kid']} written to "
                f"{args.new_key} (mode 0600); sign again with --key {args.new_key}",
                file=sys.stderr,
            )
        else:
            key = read_private_key(load_path(args.key), args.key)
        signed = sign_card(card, key, kid=args.kid, alg=args.alg, jku=args.jku)
        check = self_check(signed, key, args.kid)
        text = json.dumps(signed, indent=2, ensure_ascii=False) + "\n"
        if args.jwks_out:
            Path(args.jwks_out).write_text(json.dumps(public_key_set(key), indent=2) + "\n")
        if args.out:
            Path(args.out).write_text(text, encoding="utf-8")
        else:
            sys.stdout.write(text)
    except (JsonInputError, TrustFileError, UsageError, OSError) as exc:
        return _fail(exc)
    print(f"sia-tui sign-card: signature {check.summary}", file=sys.stderr)
    return 0


def main_pin(args: argparse.Namespace) -> int:
    """Pin the skills; write the lock only when every one was validated."""
    import asyncio
    from pathlib import Path

    from sia_tui.core.atomic_file import atomic_write
    from sia_tui.core.engine import pin_agent
    from sia_tui.core.run import Target
    from sia_tui.core.trust import (
        ContractLock,
        TrustFileError,
        lock_document,
        read_lock,
        with_pinned,
    )

    try:
        options = client_options(args)
        anchors = anchors_from(args)
        existing = read_lock(args.out) if Path(args.out).exists() else ContractLock()
    except (UsageError, TrustFileError) as exc:
        return _fail(exc)
    redactor = command_redactor(args, options, [args.card])
    target = Target(args.card, binding=args.binding, anchors=anchors)
    result = asyncio.run(pin_agent(target, options, args.skill))
    if result.pinned is None:
        for failure in result.failures:
            print(f"sia-tui pin: {redactor.text(failure, 'error')}", file=sys.stderr)
        print("sia-tui pin: nothing written", file=sys.stderr)
        return 1
    lock = with_pinned(existing, result.pinned)
    try:
        atomic_write(Path(args.out), json.dumps(lock_document(lock), indent=2) + "\n")
    except OSError as exc:
        return _fail(exc)
    for skill in result.pinned.skills:
        line = f"pinned {result.pinned.agent}: {skill.skill_id} {skill.skill_version} "
        print(redactor.text(line + skill.interface_digest, "report"))
    return 0
