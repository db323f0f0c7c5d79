"""Hybrid search."""

from __future__ import annotations

from time import perf_counter

from fastapi import APIRouter, Response

from api.deps import MemoryDep, MetricsDep, ReadGroup
from api.schemas.common import errors
from api.schemas.search import SearchBody, SearchResponse
from graphmem.models.search import SearchRequest

router = APIRouter(prefix="/v1/groups/{group}", tags=["search"])


@router.post(
    "/search",
    operation_id="search",
    summary="Search memory",
    description=(
        "BM25, vector and graph channels, fused (reciprocal rank) and reranked. Returns facts, "
        "episodes and entities with provenance and per-channel scores, and a `context` block "
        "within `token_budget`. Default view: current facts; `as_of` and `include_history` change it. "
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
