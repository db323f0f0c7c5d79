"""Answers the clients parse that have no domain model of their own (the API's response shapes)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from graphmem.models.browse import GroupSummary, SessionTurn
from graphmem.models.entity import EntityRecord
from graphmem.models.episode import EpisodeRecord
from graphmem.models.fact import FactRecord


class Timeline(BaseModel):
    entity: EntityRecord
    facts: list[FactRecord]


class EpisodeDetail(BaseModel):
    episode: EpisodeRecord
    facts: list[FactRecord]


__all__ = ["CypherResult", "EpisodeDetail", "GroupSummary", "SessionTurn", "Timeline"]


class CypherResult(BaseModel):
    columns: list[str]
    rows: list[dict[str, Any]]
    row_count: int
    truncated: bool
