"""PII redaction on write (docs/lifecycle.md, "PII redaction"): detectors, per-group tokens and
the vault's encryption. Pure: the vault's storage is graphmem/store/privacy.py, the wiring
graphmem/memory/pii.py."""

from __future__ import annotations

from graphmem.config import Settings
from graphmem.errors import ConfigError
from graphmem.privacy.detectors import Detection, Kind, detect
from graphmem.privacy.redactor import TOKEN_RE, Found, Redacted, Redactor, tokens_in

__all__ = [
    "TOKEN_RE",
    "Detection",
    "Found",
    "Kind",
    "Redacted",
    "Redactor",
    "detect",
    "redactor_from_settings",
    "tokens_in",
]


def redactor_from_settings(settings: Settings) -> Redactor | None:
    """The deployment's redactor: redacting when ``GRAPHMEM_PII_REDACT``; with only a key set it
    redacts nothing and still opens the vault (reveals of what was redacted earlier)."""
    key = settings.pii_key.get_secret_value() if settings.pii_key is not None else None
    if key is None:
        if settings.pii_redact:
            raise ConfigError(
                "GRAPHMEM_PII_REDACT needs GRAPHMEM_PII_KEY (the vault key, at least 16 bytes)",
                details={"variable": "GRAPHMEM_PII_KEY"},
            )
        return None
    return Redactor(key, enabled=settings.pii_redact)
