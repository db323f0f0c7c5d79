"""Episodes: immutable evidence (one chat turn, one document)."""

from __future__ import annotations

import hashlib
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from graphmem.models.common import UtcDatetime
from graphmem.models.fact import FactChange


class EpisodeIn(BaseModel):
    """One episode to ingest. ``reference_time`` is when it was said (world time)."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    content: str = Field(min_length=1, max_length=100_000)
    reference_time: UtcDatetime
    speaker: str | None = Field(default=None, max_length=200)
    session_id: str | None = Field(default=None, max_length=200)
    external_id: str | None = Field(default=None, max_length=200)
    source: Literal["message", "text", "json"] = "message"

    def content_hash(self) -> str:
        return hashlib.sha256(self.content.encode("utf-8")).hexdigest()

    def idempotency_key(self, group_id: str) -> str:
        """group + external id, else content hash + session + time (DESIGN §3)."""
        if self.external_id:
            basis = f"{group_id}\x1fext\x1f{self.external_id}"
        else:
            basis = (
                f"{group_id}\x1fhash\x1f{self.content_hash()}\x1f{self.session_id or ''}"
                f"\x1f{self.reference_time.isoformat()}\x1f{self.speaker or ''}"
            )
        return hashlib.sha256(basis.encode("utf-8")).hexdigest()


class EpisodeRecord(BaseModel):
    id: str
    group_id: str
    content: str
    reference_time: UtcDatetime
    ingested_at: UtcDatetime
    speaker: str | None = None
    session_id: str | None = None
    external_id: str | None = None
    source: str = "message"
    content_hash: str = ""


class EpisodeOutcome(BaseModel):
    id: str
    external_id: str | None
    status: Literal["created", "existing", "forgotten"]


class IngestResult(BaseModel):
    episodes: list[EpisodeOutcome] = []
    facts: list[FactChange] = []

    @property
    def created(self) -> int:
        return sum(1 for e in self.episodes if e.status == "created")

    @property
    def existing(self) -> int:
        return sum(1 for e in self.episodes if e.status != "created")
