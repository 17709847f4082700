"""The verifying TLS context every client shares, built once per process.

Loading the CA bundle takes tens of milliseconds. Every client (the procedure, the console,
compose) needs the same context, and an SSLContext is meant to be shared; ``warm_up`` builds
it in a background thread while a caller does other work (the TUI starts it before it
imports Textual: OpenSSL reads the bundle without holding the GIL).
"""

from __future__ import annotations

import os
import ssl
import threading

_contexts: dict[bool, ssl.SSLContext] = {}
_lock = threading.Lock()


def default_tls(trust_env: bool) -> ssl.SSLContext:
    """What ``httpx.create_ssl_context()`` builds for ``verify=True``: the CA file or dir of
    ``SSL_CERT_FILE``/``SSL_CERT_DIR`` when ``trust_env``, else certifi's bundle."""
    with _lock:
        context = _contexts.get(trust_env)
        if context is None:
            context = _contexts[trust_env] = _build(trust_env)
        return context


def _build(trust_env: bool) -> ssl.SSLContext:
    if trust_env and os.environ.get("SSL_CERT_FILE"):
        return ssl.create_default_context(cafile=os.environ["SSL_CERT_FILE"])
    if trust_env and os.environ.get("SSL_CERT_DIR"):
        return ssl.create_default_context(capath=os.environ["SSL_CERT_DIR"])
    import certifi

    return ssl.create_default_context(cafile=certifi.where())


def warm_up(trust_env: bool = True) -> None:
    """Start building the default context in a daemon thread (the first client waits for it
    on the lock, or builds it itself if no warm-up ran)."""
    threading.Thread(target=default_tls, args=(trust_env,), daemon=True, name="tls").start()
