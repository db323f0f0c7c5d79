"""``/healthz`` (process up) and ``/readyz`` (Neo4j reachable, schema migrated, embedder and extractor
warm)."""

from __future__ import annotations

import asyncio
import os
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from api.errors import error_body
from graphmem.errors import GraphMemError

router = APIRouter(tags=["health"])
READY_TIMEOUT_S = 3.0  # a readiness probe must answer fast, even while the driver retries


@router.get(
    "/healthz",
    operation_id="healthz",
    summary="Liveness: the process is up",
    description="Always 200 while the process serves requests; touches nothing (no auth).",
)
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


@router.get(
    "/readyz",
    operation_id="readyz",
    summary="Readiness: Neo4j, schema and embedder ready",
    description=(
        "200 once the embedder and extractor are warm (their models load in the background at "
        "start-up: 503 `not_ready` until then) and Neo4j answers within 3 s; 503 with "
        "`Retry-After` otherwise (no auth)."
    ),
    responses={503: {"description": "Not ready"}},
)
async def readyz(request: Request) -> Any:
    memory = getattr(request.app.state, "memory", None)
    if memory is None:
        return JSONResponse(
            error_body("store_unavailable", "starting"), status_code=503, headers={"Retry-After": "2"}
        )
    try:
        await asyncio.wait_for(memory.ping(), timeout=READY_TIMEOUT_S)
    except TimeoutError:
        body = error_body("store_unavailable", "Neo4j did not answer in time", {"timeout_s": READY_TIMEOUT_S})
        return JSONResponse(body, status_code=503, headers={"Retry-After": "5"})
    except GraphMemError as exc:
        return JSONResponse(exc.to_dict(), status_code=503, headers={"Retry-After": "5"})
    if not getattr(request.app.state, "warm", False):
        failed = getattr(request.app.state, "warm_error", None)
        message = f"warm-up failed ({failed})" if failed else "loading the embedder and extractor"
        return JSONResponse(error_body("not_ready", message), status_code=503, headers={"Retry-After": "2"})
    return {
        "status": "ready",
        "embedder": memory.ctx.embedder.model_name,
        "dimension": memory.ctx.embedder.dimension,
        "worker": os.getpid(),  # which worker answered: a client can tell when all of them are warm
    }
