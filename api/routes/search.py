"""Hybrid search."""

from __future__ import annotations

from time import perf_counter

from fastapi import APIRouter, Response

from api.deps import MemoryDep, MetricsDep, PrincipalDep, ReadGroup
from api.schemas.common import errors
from api.schemas.search import MultiSearchBody, SearchBody, SearchResponse
from graphmem.errors import InvalidInput
from graphmem.models.search import SearchRequest

router = APIRouter(prefix="/v1/groups/{group}", tags=["search"])
scopes_router = APIRouter(prefix="/v1", tags=["search"])


@router.post(
    "/search",
    operation_id="search",
    summary="Search memory",
    description=(
        "BM25, vector and graph channels, fused (reciprocal rank) and reranked. Returns facts, "
        "episodes and entities with provenance and per-channel scores, and a `context` block "
        "within `token_budget`. Default view: current facts; `as_of` and `include_history` change it, "
        "and `since`/`until` keep the hits whose time meets [since, until) (an episode's reference "
        "time, a fact's valid interval; `until` must be after `since`, else 422 `invalid_time_range`). "
        "`recipe` picks a preset (unknown names get 422)."
    ),
    response_model=SearchResponse,
    responses=errors(),
)
async def search(group: ReadGroup, body: SearchBody, memory: MemoryDep, metrics: MetricsDep) -> Response:
    request = SearchRequest.model_validate(body.model_dump())
    began = perf_counter()
    result = await memory.search(group, request)
    metrics.search.labels(recipe=request.recipe).observe(perf_counter() - began)
    # SearchResponse adds no fields to SearchResult: serialise the result once, in pydantic's Rust
    # core, instead of dumping it, validating it back and letting FastAPI validate and encode it again
    return Response(content=result.model_dump_json(), media_type="application/json")


@scopes_router.post(
    "/search",
    operation_id="search_groups",
    summary="Search several groups at once",
    description=(
        "The same search over every group of `groups` (each one the key can read, else 403; default: "
        "all groups of an agent key), fused in one ranking by rank, each hit labelled with its "
        "`group_id`, and one `context` block. Every channel filters by group inside its query."
    ),
    response_model=SearchResponse,
    responses=errors(),
)
async def search_groups(
    body: MultiSearchBody, principal: PrincipalDep, memory: MemoryDep, metrics: MetricsDep
) -> Response:
    groups = body.groups or (sorted(principal.groups) if principal.groups is not None else None)
    if not groups:
        raise InvalidInput("groups is required: this key covers every group", details={"field": "groups"})
    for group in groups:
        principal.require_read(group)
    request = SearchRequest.model_validate(body.model_dump(exclude={"groups"}))
    began = perf_counter()
    result = await memory.search_groups(groups, request)
    metrics.search.labels(recipe=request.recipe).observe(perf_counter() - began)
    return Response(content=result.model_dump_json(), media_type="application/json")
