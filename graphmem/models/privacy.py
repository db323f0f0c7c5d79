"""PII redaction's read models: a revealed vault entry, and the proof of forgetting."""

from __future__ import annotations

from pydantic import BaseModel, Field

from graphmem.models.common import UtcDatetime


class PiiReveal(BaseModel):
    """The original a token stands for (admin only; every reveal is a ``pii_revealed`` change)."""

    token: str
    kind: str
    value: str
    created_at: UtcDatetime | None = None


class StoreCheck(BaseModel):
    """One store a proof of forgetting looked in: what it found (0 everywhere = forgotten)."""

    store: str
    checked: bool = True
    holds_content: bool = True  # tombstones hold keys and hashes only
    found: int = 0
    detail: str = ""
    ids: list[str] = Field(default_factory=list)


class ForgetProof(BaseModel):
    """Where a group's (or an external id's) data could still live, and what each store holds."""

    group_id: str
    external_id: str | None = None
    probes: int = 0  # probe texts looked for (as given, and tokenised)
    checked_at: UtcDatetime
    forgotten: bool
    stores: list[StoreCheck]
