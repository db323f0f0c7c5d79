"""Entities: people, places, organisations and things facts are about."""

from __future__ import annotations

from pydantic import BaseModel

from graphmem.models.common import UtcDatetime


class EntityRecord(BaseModel):
    id: str
    group_id: str
    name: str
    normalized_name: str
    kind: str
    aliases: list[str] = []
    summary: str = ""
    created_at: UtcDatetime | None = None
