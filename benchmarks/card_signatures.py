"""Card signature verification on the reference agent's card, measured on this machine.

Run on demand: ``uv run python benchmarks/card_signatures.py``. Prints figures, asserts
nothing: the cost of step 1's verification per key type (first use includes importing
joserfc), of a worst case a hostile card can force (16 invalid signatures under a trusted
kid, two of them explained by the forensics), and its ratio to an unsigned card's step 1.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial

from sia_tui.agent.a2a_wire import agent_card
from sia_tui.agent.config import AgentConfig
from sia_tui.agent.documents import build_documents
from sia_tui.core.trust import jws
from sia_tui.core.trust.records import TrustAnchors, TrustedKey
from sia_tui.core.trust.sign import sign_card
from sia_tui.core.trust.verify import check_signatures

ROUNDS = 30


def best_ms(work: Callable[[], object], rounds: int = ROUNDS) -> float:
    """Median milliseconds of ``work``."""
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        work()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def _import_ms() -> float:
    """What the first verification pays once: importing joserfc and cryptography's keys."""
    probe = (
        "import time; t = time.perf_counter(); import sia_tui.core.trust.jws; "
        "print((time.perf_counter() - t) * 1000)"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    return float(done.stdout)


def main() -> None:
    card = agent_card(AgentConfig(), build_documents(AgentConfig()), "http://127.0.0.1:1")
    print(f"import joserfc (fresh process): {_import_ms():7.1f} ms")
    unsigned = best_ms(lambda: check_signatures(card, None))
    print(f"unsigned card:                  {unsigned:7.3f} ms")
    for alg in ("ES256", "RS256", "EdDSA"):
        key = jws.generate(alg, "k")
        anchors = TrustAnchors(keys=(TrustedKey(kid="k", jwk=jws.public_jwk(key)),))
        signed = sign_card(card, key)
        ms = best_ms(partial(check_signatures, signed, anchors))
        print(f"{alg} verified (a2a-1.0):      {ms:7.3f} ms")
    key = jws.generate("ES256", "k")
    anchors = TrustAnchors(keys=(TrustedKey(kid="k", jwk=jws.public_jwk(key)),))
    bad = sign_card({**card, "name": "other"}, key)["signatures"][0]
    hostile = {**card, "signatures": [bad] * 16}
    worst = best_ms(lambda: check_signatures(hostile, anchors), rounds=5)
    print(f"16 invalid, 2 explained:        {worst:7.1f} ms")
    print(f"card bytes (a2a-1.0 payload):   {len(str(card))} chars of JSON")


if __name__ == "__main__":
    main()
