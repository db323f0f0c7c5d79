"""Read-only Cypher for analysts (and admins)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import PlainTextResponse

from api.deps import AnalystDep, MemoryDep, SettingsDep
from api.schemas.common import ErrorBody, errors
from api.schemas.cypher import CypherBody, CypherResponse

router = APIRouter(prefix="/v1", tags=["cypher"])


@router.post(
    "/cypher",
    operation_id="run_cypher",
    response_model=CypherResponse,
    summary="Run read-only Cypher (analyst, admin)",
    description=(
        "One Cypher statement with `$parameters`, run in a READ transaction after an `EXPLAIN` check "
        "that refuses writes, `LOAD CSV`, schema and admin commands, other databases and procedures "
        "outside the allow-list (403 with `details.reason`). Bounded by `GRAPHMEM_CYPHER_TIMEOUT_S` "
        "(504 `query_timeout`: the server's transaction timeout, then a client-side deadline 1 s "
        "later), the server's transaction memory limit (400 `invalid_query`, `details.reason: "
        "memory_limit`) and `GRAPHMEM_CYPHER_ROW_CAP` (`truncated: true` when cut); values nested "
        "more than 100 levels deep are a 422 `result_too_deep`. `format: csv` returns text/csv. "
        "Spans every group: filter by `group_id` yourself (docs/schema.md)."
    ),
    responses={
        **errors(400),
        504: {"model": ErrorBody, "description": "The query ran past `GRAPHMEM_CYPHER_TIMEOUT_S`"},
        200: {
            "description": "Rows as JSON, or CSV when `format` is `csv`",
            "content": {"text/csv": {"schema": {"type": "string"}}},
        },
    },
)
async def run_cypher(
    body: CypherBody, principal: AnalystDep, memory: MemoryDep, settings: SettingsDep
) -> Any:
    result = await memory.cypher(
        body.query,
        body.params,
        timeout_s=settings.cypher_timeout_s,
        row_cap=settings.cypher_row_cap,
    )
    if body.format == "csv":
        headers = {"X-Truncated": "true" if result.truncated else "false"}
        return PlainTextResponse(result.to_csv(), media_type="text/csv", headers=headers)
    return CypherResponse.model_validate(result.model_dump())
