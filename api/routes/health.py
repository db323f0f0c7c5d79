"""``/healthz`` (process up) and ``/readyz`` (Neo4j reachable, schema migrated, embedder loaded)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from api.errors import error_body
from graphmem.errors import GraphMemError

router = APIRouter(tags=["health"])


@router.get("/healthz", operation_id="healthz", summary="Liveness: the process is up")
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


@router.get(
    "/readyz",
    operation_id="readyz",
    summary="Readiness: Neo4j, schema and embedder ready",
    responses={503: {"description": "Not ready"}},
)
async def readyz(request: Request) -> Any:
    memory = getattr(request.app.state, "memory", None)
    if memory is None:
        return JSONResponse(
            error_body("store_unavailable", "starting"), status_code=503, headers={"Retry-After": "2"}
        )
    try:
        await memory.ping()
    except GraphMemError as exc:
        return JSONResponse(exc.to_dict(), status_code=503, headers={"Retry-After": "5"})
    return {
        "status": "ready",
        "embedder": memory.ctx.embedder.model_name,
        "dimension": memory.ctx.embedder.dimension,
    }
