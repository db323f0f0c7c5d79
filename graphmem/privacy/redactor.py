"""Tokens for PII values and the vault's encryption (docs/lifecycle.md, "PII redaction").

One configured secret (``GRAPHMEM_PII_KEY``) yields two keys through HKDF-SHA256: a token key and
an AES-256-GCM vault key. A value's token is ``[KIND#<12 hex>]``, the first 48 bits of
HMAC-SHA256(token key, group ␟ kind ␟ canonical value): stable within a group (the same address
written twice, or spelled two ways, is one token; a search for it finds it), unlinkable across
groups, and not reversible without the key. The original is sealed with AES-GCM under a fresh
96-bit nonce, the group and token as associated data (a ciphertext copied to another group or
token does not open).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
from dataclasses import dataclass, field

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from graphmem.errors import ConfigError, InvalidInput
from graphmem.privacy.detectors import Kind, detect

MIN_SECRET_BYTES = 16
TOKEN_HEX = 12
TOKEN_RE = re.compile(rf"\[(EMAIL|PHONE|CARD|CN_ID|IBAN|IP)#([0-9a-f]{{{TOKEN_HEX}}})\]")


def _derive(secret: bytes, info: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=info).derive(secret)


@dataclass(frozen=True)
class Found:
    """One value redacted from a text: its token, kind and the original as written."""

    token: str
    kind: Kind
    value: str


@dataclass
class Redacted:
    text: str
    found: list[Found] = field(default_factory=list)


def tokens_in(text: str | None) -> set[str]:
    """The PII tokens a text holds."""
    return {m.group() for m in TOKEN_RE.finditer(text or "")}


class Redactor:
    """Replaces PII with per-group tokens (when ``enabled``) and seals/opens vault entries."""

    def __init__(self, secret: str, *, enabled: bool = True) -> None:
        raw = secret.encode()
        if len(raw) < MIN_SECRET_BYTES:
            raise ConfigError(
                f"GRAPHMEM_PII_KEY must be at least {MIN_SECRET_BYTES} bytes",
                details={"variable": "GRAPHMEM_PII_KEY"},
            )
        self.enabled = enabled
        self._token_key = _derive(raw, b"graphmem pii token v1")
        self._aead = AESGCM(_derive(raw, b"graphmem pii vault v1"))

    def token(self, group_id: str, kind: Kind, canonical: str) -> str:
        message = "\x1f".join((group_id, kind, canonical)).encode()
        digest = hmac.new(self._token_key, message, hashlib.sha256).hexdigest()
        return f"[{kind}#{digest[:TOKEN_HEX]}]"

    def redact(self, group_id: str, text: str, *, always: bool = False) -> Redacted:
        """``text`` with every detected value replaced by its token (tokens already there stay);
        ``always``: even when redaction is off (a proof of forgetting probes for earlier tokens)."""
        if not (self.enabled or always) or not text:
            return Redacted(text)
        parts: list[str] = []
        found: list[Found] = []
        last = 0
        for gap_start, gap_end in _gaps(text):
            for d in detect(text[gap_start:gap_end]):
                token = self.token(group_id, d.kind, d.canonical)
                parts.append(text[last : gap_start + d.start])
                parts.append(token)
                found.append(Found(token, d.kind, d.value))
                last = gap_start + d.end
        parts.append(text[last:])
        return Redacted("".join(parts), found)

    def seal(self, group_id: str, token: str, value: str) -> dict[str, str]:
        nonce = os.urandom(12)
        sealed = self._aead.encrypt(nonce, value.encode(), _aad(group_id, token))
        return {"nonce": _b64(nonce), "ciphertext": _b64(sealed)}

    def open(self, group_id: str, token: str, nonce: str, ciphertext: str) -> str:
        try:
            plain = self._aead.decrypt(
                base64.b64decode(nonce), base64.b64decode(ciphertext), _aad(group_id, token)
            )
        except (InvalidTag, ValueError):
            raise InvalidInput(
                "the vault entry does not open with the configured GRAPHMEM_PII_KEY",
                details={"token": token},
            ) from None
        return plain.decode()


def _aad(group_id: str, token: str) -> bytes:
    return f"{group_id}\x1f{token}".encode()


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _gaps(text: str) -> list[tuple[int, int]]:
    """The spans of ``text`` outside existing tokens (a token is never redacted again)."""
    spans, last = [], 0
    for m in TOKEN_RE.finditer(text):
        spans.append((last, m.start()))
        last = m.end()
    spans.append((last, len(text)))
    return spans
