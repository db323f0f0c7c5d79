"""Several scopes in one search: an agent's private group and a shared one, fused in one ranking.

Each group is searched on its own (every channel filters by that group inside its query, exactly
as a one-group search), then the rankings are fused by reciprocal rank. Scores of different groups
are not comparable (each tenant has its own BM25 statistics and size), ranks are: with disjoint
lists, reciprocal-rank fusion interleaves the groups rank by rank, the better score first within a
rank. Every hit is labelled with its group; the context block is assembled from the fused ranking.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from graphmem.errors import InvalidInput
from graphmem.models.search import EntityHit, EpisodeHit, FactHit, Hit, SearchRequest, SearchResult
from graphmem.retrieval.context import build_context
from graphmem.retrieval.pipeline import Searcher

MAX_GROUPS = 20


def fuse_by_rank(results: Sequence[tuple[str, SearchResult]], k: int) -> list[tuple[str, Hit]]:
    """The top ``k`` of several groups' ranked hits: by rank within its group, then by score, then
    by the order the groups were given (a stable, deterministic tie-break)."""
    keyed = [
        ((rank, -hit.score, position), group, hit)
        for position, (group, result) in enumerate(results)
        for rank, hit in enumerate(_hydrated(result))
    ]
    keyed.sort(key=lambda item: item[0])
    return [(group, hit) for _, group, hit in keyed[:k]]


def _hydrated(result: SearchResult) -> list[Hit]:
    """The result's hits with their records, in its ranked order."""
    by_key: dict[tuple[str, str], Hit] = {}
    for hit in [*result.facts, *result.episodes, *result.entities]:
        by_key[(hit.type, hit.id)] = hit
    return [by_key[(h.type, h.id)] for h in result.ranked if (h.type, h.id) in by_key]


async def search_groups(
    searcher: Searcher,
    group_ids: Sequence[str],
    req: SearchRequest,
    *,
    prepare: Callable[[str, SearchRequest], SearchRequest] | None = None,
) -> SearchResult:
    """Search every group of ``group_ids`` (distinct, at most ``MAX_GROUPS``) and fuse the rankings;
    ``prepare`` adapts the request to each group (its PII tokens, graphmem.memory.pii)."""
    groups = list(dict.fromkeys(group_ids))
    if not groups or len(groups) > MAX_GROUPS:
        raise InvalidInput(f"give 1 to {MAX_GROUPS} groups", details={"field": "groups", "got": len(groups)})
    found = await asyncio.gather(*(searcher.search(g, prepare(g, req) if prepare else req) for g in groups))
    fused = fuse_by_rank(list(zip(groups, found, strict=True)), req.k)
    ranked = [_labelled(hit, group) for group, hit in fused]
    timings = {
        f"{g}:{name}": ms for g, r in zip(groups, found, strict=True) for name, ms in r.timings_ms.items()
    }
    return SearchResult(
        query=req.query,
        recipe=req.recipe,
        as_of=req.as_of,
        facts=[h for h in ranked if isinstance(h, FactHit)],
        episodes=[h for h in ranked if isinstance(h, EpisodeHit)],
        entities=[h for h in ranked if isinstance(h, EntityHit)],
        ranked=[
            Hit(type=h.type, id=h.id, score=h.score, channels=h.channels, ranks=h.ranks, group_id=h.group_id)
            for h in ranked
        ],
        context=build_context(ranked, req.token_budget),
        timings_ms=timings,
    )


def _labelled(hit: Hit, group: str) -> Hit:
    return hit.model_copy(update={"group_id": group})
