"""Search requests and results."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, model_validator

from graphmem.errors import InvalidTimeRange
from graphmem.models.browse import SessionDigest, SessionWindow
from graphmem.models.common import UtcDatetime
from graphmem.models.entity import EntityRecord
from graphmem.models.episode import EpisodeRecord
from graphmem.models.fact import FactRecord

ItemType = Literal["fact", "episode", "entity"]


class SearchRequest(BaseModel):
    query: str = Field(min_length=1, max_length=2000)
    k: int = Field(default=10, ge=1, le=100)
    recipe: str = "default"
    as_of: UtcDatetime | None = None
    include_history: bool = False
    # a time range [since, until): hits are episodes said in it and facts whose valid interval
    # meets it (without as_of: facts true at some time in it, ended ones included)
    since: UtcDatetime | None = None
    until: UtcDatetime | None = None
    token_budget: int = Field(default=1000, ge=0, le=32_000)
    # short-term memory in the same call: the session's digest (graphmem/memory/sessions.py)
    session: SessionWindow | None = None

    @model_validator(mode="after")
    def _check_range(self) -> SearchRequest:
        if self.since is not None and self.until is not None and self.until <= self.since:
            raise InvalidTimeRange("until must be after since", details={"field": "until"})
        return self


class Hit(BaseModel):
    type: ItemType
    id: str
    score: float
    channels: dict[str, float] = {}
    ranks: dict[str, int] = {}
    group_id: str | None = None  # set by a search over several groups (memory/scopes.py)


class FactHit(Hit):
    type: ItemType = "fact"
    fact: FactRecord


class EpisodeHit(Hit):
    type: ItemType = "episode"
    episode: EpisodeRecord


class EntityHit(Hit):
    type: ItemType = "entity"
    entity: EntityRecord


class SearchResult(BaseModel):
    query: str
    recipe: str
    as_of: UtcDatetime | None = None
    facts: list[FactHit] = []
    episodes: list[EpisodeHit] = []
    entities: list[EntityHit] = []
    ranked: list[Hit] = []
    context: str = ""
    session: SessionDigest | None = None  # when the request named a session
    timings_ms: dict[str, float] = {}

    def source_external_ids(self) -> list[str]:
        """External ids of the evidence episodes, in rank order, de-duplicated (LoCoMo metric)."""
        by_fact = {h.id: h.fact for h in self.facts}
        by_episode = {h.id: h.episode for h in self.episodes}
        out: dict[str, None] = {}
        for hit in self.ranked:
            if hit.type == "episode" and hit.id in by_episode:
                ext = by_episode[hit.id].external_id
                if ext:
                    out.setdefault(ext, None)
            elif hit.type == "fact" and hit.id in by_fact:
                for ev in by_fact[hit.id].evidence:
                    if ev.external_id:
                        out.setdefault(ev.external_id, None)
        return list(out)
