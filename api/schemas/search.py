"""Search DTOs."""

from __future__ import annotations

from pydantic import ConfigDict, Field

from graphmem.models.common import GroupId
from graphmem.models.search import SearchRequest, SearchResult


class SearchBody(SearchRequest):
    """Hybrid search (BM25 + vector + graph, fused and reranked). ``as_of`` asks what was true at a
    time; ``include_history`` adds superseded and ended facts; ``since``/``until`` keep the hits
    whose time meets the range [since, until) (an episode's reference time, a fact's valid
    interval; without ``as_of``, ended facts true in the range count); ``token_budget`` bounds
    ``context``."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"query": "where does alice live?", "k": 5},
                {"query": "alice's employer", "as_of": "2024-06-01T00:00:00Z", "include_history": True},
                {
                    "query": "what did alice do",
                    "since": "2024-03-01T00:00:00Z",
                    "until": "2024-04-01T00:00:00Z",
                },
            ]
        },
    )


class SearchResponse(SearchResult):
    """Ranked facts, episodes and entities with per-channel scores and provenance, plus ``context``:
    an assembled text block within the token budget, ready for a prompt."""


class MultiSearchBody(SearchRequest):
    """One search over several groups (a private and a shared one): ``groups`` must all be groups the
    key can read (default: every group of an agent key). Fused in one ranking; each hit carries its
    ``group_id``."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"query": "where does alice live?", "groups": ["alice", "team-a"]}]},
    )

    groups: list[GroupId] | None = Field(default=None, min_length=1, max_length=20)
