"""PII vault and proof-of-forgetting DTOs."""

from __future__ import annotations

from graphmem.models.privacy import ForgetProof, PiiReveal


class PiiRevealResponse(PiiReveal):
    """The original value a token stands for, decrypted from the group's vault."""


class ForgetProofResponse(ForgetProof):
    """Each store a forget must reach, and what it still holds (all zero: nothing is left)."""
