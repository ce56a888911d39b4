"""Signed states: an HMAC over a state document's canonical JSON, so that a server can tell the
states it issued from states a client edited.

The JSON API is stateless: the client keeps the state and sends it back. The board in a state
proves itself (cubes are conserved, the legal actions follow from the rules), but the VP a
seat has scored, the cubes removed from the game and the round do not: a client could raise
its own VP and the board would still add up. ``StateSigner`` signs each state the server hands
out; a state that comes back with its signature intact is the server's own, and anything else
is either refused (a signature that does not match) or checked as an unknown document
(``states_json.unproven_values``).

The signature is HMAC-SHA256 over a version line and ``canonical_json(document)`` (keys sorted,
no spaces, UTF-8), written as 64 hex digits. The key comes from ``--secret`` or the ``STARGAZER_SECRET``
environment variable; without either, each process draws a random one, so signatures last as
long as the process (give every process of one deployment the same secret).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from typing import Any

__all__ = ["SECRET_ENV", "SIGNATURE_PATTERN", "StateSigner", "canonical_json", "chosen_secret"]

#: The environment variable holding the signing key when ``--secret`` is not given.
SECRET_ENV = "STARGAZER_SECRET"
#: A signature as it appears in request and response bodies.
SIGNATURE_PATTERN = "^[0-9a-f]{64}$"
#: Signed in front of every document: a new form of the states gets a new version here, so
#: that a state signed by an older server under the same secret no longer checks.
_CONTEXT = b"stargazer-rules state 2\n"


def canonical_json(document: Any) -> bytes:
    """The one byte string of a JSON document: sorted keys, no spaces, UTF-8.

    Raises ``ValueError`` for a document nested too deeply to write.
    """
    try:
        text = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    except RecursionError:
        raise ValueError("the document is nested too deeply") from None
    return text.encode("utf-8")


def chosen_secret(secret: str | None = None) -> str:
    """``secret``, else ``$STARGAZER_SECRET``, else a random one (64 hex digits): the key of a
    process, or the one a command hands to all the processes it starts."""
    if secret is not None:
        return secret
    return os.environ.get(SECRET_ENV) or secrets.token_hex(32)


class StateSigner:
    """Signs and checks documents with one secret key (random when none is given)."""

    def __init__(self, secret: str | bytes | None = None) -> None:
        if secret is None:
            secret = secrets.token_bytes(32)
        elif isinstance(secret, str):
            secret = secret.encode("utf-8")
        if not secret:
            raise ValueError("the signing secret is empty")
        self._key = secret

    @classmethod
    def from_environment(cls, secret: str | None = None) -> StateSigner:
        """The signer of ``secret``, else of ``$STARGAZER_SECRET``, else of a random key."""
        return cls(chosen_secret(secret))

    def sign(self, document: Any) -> str:
        """The signature of ``document``: 64 hex digits."""
        return hmac.new(self._key, _CONTEXT + canonical_json(document), hashlib.sha256).hexdigest()

    def verify(self, document: Any, signature: Any) -> bool:
        """Whether ``signature`` is this key's signature of ``document`` (constant-time)."""
        if not isinstance(signature, str) or not signature.isascii():
            return False  # compare_digest refuses non-ASCII text; no such text is a signature
        try:
            expected = self.sign(document)
        except ValueError:
            return False
        return hmac.compare_digest(expected, signature)
