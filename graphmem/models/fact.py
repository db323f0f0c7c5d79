"""Facts: derived, versioned statements with valid time, system time and provenance."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from graphmem.errors import InvalidTimeRange
from graphmem.models.common import SourceKind, UtcDatetime


class FactIn(BaseModel):
    """An explicit fact from a caller that already knows it (DESIGN §3, explicit extractor)."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    subject: str = Field(min_length=1, max_length=200)
    predicate: str = Field(min_length=1, max_length=100, pattern=r"^[a-z_][a-z0-9_]*(:[\w\-]+)?$")
    object: str | None = Field(default=None, min_length=1, max_length=500)
    value: str | None = Field(default=None, min_length=1, max_length=2000)
    valid_from: UtcDatetime | None = None
    valid_to: UtcDatetime | None = None
    source_kind: SourceKind = "user_stated"
    confidence: float = Field(default=1.0, ge=0.0, le=1.0)
    evidence_episode_ids: list[str] = Field(default_factory=list, max_length=100)

    @model_validator(mode="after")
    def _check(self) -> FactIn:
        if (self.object is None) == (self.value is None):
            raise ValueError("exactly one of 'object' and 'value' is required")
        if self.valid_from and self.valid_to and self.valid_to <= self.valid_from:
            raise InvalidTimeRange(
                "valid_to must be after valid_from",
                details={"field": "valid_to"},
            )
        return self


class Evidence(BaseModel):
    episode_id: str
    external_id: str | None = None
    session_id: str | None = None
    speaker: str | None = None
    reference_time: UtcDatetime | None = None
    quote: str | None = None
    start: int | None = None
    end: int | None = None
    claim: str = "assert"


class FactRecord(BaseModel):
    id: str
    group_id: str
    subject: str
    subject_id: str
    predicate: str
    object: str | None = None
    object_id: str | None = None
    value: str
    qualifier: str = ""
    statement: str
    valid_from: UtcDatetime | None = None
    valid_to: UtcDatetime | None = None
    recorded_at: UtcDatetime
    expired_at: UtcDatetime | None = None
    confidence: float = 1.0
    source_kind: str = "extracted"
    version: int = 1
    status: str = "active"  # active | archived (decay) | expired (corrected or retracted)
    tier: str = "stated"
    supersedes: list[str] = []
    superseded_by: list[str] = []
    corrected_by: str | None = None  # the fact a correction (PATCH) replaced this one with
    corrects: str | None = None  # the fact this one corrected
    evidence: list[Evidence] = []

    @model_validator(mode="after")
    def _expired_status(self) -> FactRecord:
        if self.expired_at is not None and self.status == "active":
            self.status = "expired"
        return self

    @property
    def is_current(self) -> bool:
        return self.valid_to is None and self.expired_at is None


class FactChange(BaseModel):
    """What one write did to one fact, and the fact's valid interval after it: ``created`` with a
    ``valid_to`` is a fact created already ended (a past state), not a current one."""

    fact_id: str
    change: Literal["created", "evidence_added", "ended", "superseded", "expired", "updated", "merged"]
    statement: str
    valid_from: UtcDatetime | None = None
    valid_to: UtcDatetime | None = None
