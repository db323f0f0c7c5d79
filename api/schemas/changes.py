"""DTOs of the change log route (``GET /v1/groups/{group}/changes``)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from graphmem.models.common import UtcDatetime


class ChangePublic(BaseModel):
    id: str
    group_id: str
    seq: int = Field(description="The writing transaction's place in the group's order.")
    n: int = Field(description="The record's place within its transaction.")
    kind: str = Field(examples=["fact_superseded"])
    target_ids: list[str]
    version_before: int | None = None
    version_after: int | None = None
    occurred_at: UtcDatetime | None = Field(default=None, description="World time of the change.")
    recorded_at: UtcDatetime = Field(description="System time: when the write committed.")
    actor: str = Field(examples=["key:agent-1", "extractor:rules@0.1.0", "cli:ingest", "maintain"])
    actor_role: str | None = None
    requested_by: str | None = Field(default=None, description="The caller, when the actor is an extractor.")
    reason: str | None = None
    consent_id: str | None = None
    source_episode_ids: list[str] = []
    valid_from: UtcDatetime | None = None
    valid_to: UtcDatetime | None = None
    content_hash: str | None = None
    payload: dict[str, Any] | None = Field(default=None, description="Content; null once forgotten.")
    payload_hash: str | None = None
    redacted_at: UtcDatetime | None = None


class ChangeList(BaseModel):
    changes: list[ChangePublic]
    next_cursor: str | None = Field(default=None, description="Pass as `cursor` to read on (or to poll).")
    has_more: bool = False
