"""``create_app(settings)``: the FastAPI application, its lifespan owning one ``GraphMemory``."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import Depends, FastAPI

from api.admission import Admission, AdmissionMiddleware
from api.auth import KeyRing
from api.deps import reject_unknown_query
from api.docs import install_docs
from api.errors import install_error_handlers
from api.logs import configure_logging, logger
from api.mcp import McpHttp
from api.metrics import Metrics
from api.middleware import BodyLimitMiddleware, RequestContextMiddleware
from api.routes import (
    browse,
    changes,
    cypher,
    entities,
    episodes,
    explorer,
    facts,
    groups,
    health,
    metrics,
    pii,
    search,
    transfer,
)
from api.security import check_bind
from graphmem.clock import utc_now
from graphmem.config import Settings
from graphmem.errors import ConfigError, GraphMemError
from graphmem.memory import GraphMemory

DESCRIPTION = """Temporal knowledge-graph memory for AI agents.

Authenticate with `Authorization: Bearer <key>` or `X-API-Key: <key>`. A key is an `agent` (its
groups only), an `analyst` (every group, read-only, plus `/v1/cypher`) or an `admin`. Errors are
`{code, message, details}` with stable codes; every response carries `X-Request-ID`.
"""

# Routes are matched in this order, so the hot ones (search, episode writes) come first; no two
# routers serve the same method and path, so the order changes nothing else.
ROUTERS = (
    search.router,
    episodes.router,
    health.router,
    metrics.router,
    facts.router,
    search.scopes_router,
    entities.router,
    groups.router,
    cypher.router,
    browse.router,
    explorer.router,
    changes.router,
    transfer.router,
    pii.router,
)


WARM_UP_TEXT = "I moved to Paris last week."
WARM_UP_RETRY_S = 1.0  # first wait after a retryable warm-up failure; doubles, capped at 30 s


def _warm_up(memory: GraphMemory) -> None:
    memory.ctx.embedder.embed([WARM_UP_TEXT])
    memory.ctx.extractor.extract(content=WARM_UP_TEXT, speaker="warm-up", reference_time=utc_now())


async def warm_up(app: FastAPI, memory: GraphMemory) -> None:
    """Load the embedder's model and the extractor's pipelines (seconds) off the event loop; until
    this is done ``/readyz`` answers 503 ``not_ready``, so a balancer sends no first write to a
    cold worker."""
    wait_s = WARM_UP_RETRY_S
    while True:
        try:
            await asyncio.to_thread(_warm_up, memory)
            break
        except Exception as exc:  # a broken model shows in /readyz and the log, not as a crash
            app.state.warm_error = type(exc).__name__
            logger.error("warm_up_failed", extra={"error_type": type(exc).__name__})
            if not (isinstance(exc, GraphMemError) and exc.retryable):
                return
        # an embedding endpoint not up yet (EmbedderUnavailable): try again until it answers
        await asyncio.sleep(wait_s)
        wait_s = min(wait_s * 2, 30.0)
    await _warm_indexes(memory)
    app.state.warm, app.state.warm_error = True, None


async def _warm_indexes(memory: GraphMemory) -> None:
    """The tenant index's code paths and a few Neo4j connections, before ``/readyz`` says ready: a
    fresh worker's first cold search of a 20k tenant took 382/667 ms against 55/132 ms for later
    cold ones (issue 22). A failure only costs that first search: logged, the worker still warms."""
    indexes = memory.searcher.indexes
    if indexes is None:
        return
    try:
        await indexes.warm_up()
    except Exception as exc:
        logger.warning("index_warm_up_failed", extra={"error_type": type(exc).__name__})


def create_app(settings: Settings, *, memory: GraphMemory | None = None) -> FastAPI:
    """Build the app. With ``memory`` given (tests), the lifespan uses it and does not close it."""
    problem = check_bind(settings)
    if problem:
        raise ConfigError(problem)
    keys = KeyRing.from_json(settings.api_keys)
    mcp = McpHttp(settings, keys, lambda: app.state.memory)  # /mcp (docs/mcp.md)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[dict[str, Any]]:
        owned = memory is None
        mem = memory or await GraphMemory.from_settings(settings)
        app.state.memory = mem
        app.state.warm = False
        warming = asyncio.create_task(warm_up(app, mem))  # /readyz answers 503 until it is done
        if not settings.no_auth and not len(keys):
            logger.warning("no_api_keys_configured")
        app.state.ready = True
        try:
            async with mcp.running():
                yield {}
        finally:
            warming.cancel()  # a warm-up still retrying an endpoint must not hold the shutdown
            await asyncio.gather(warming, return_exceptions=True)
            app.state.memory = None
            if owned:
                await mem.close()

    app = FastAPI(
        title="graphmem",
        version="0.1.0",
        description=DESCRIPTION,
        lifespan=lifespan,
        dependencies=[Depends(reject_unknown_query)],
        docs_url=None,  # served by api.docs from the swagger-ui-bundle package, not a CDN
        redoc_url=None,
    )
    install_docs(app)
    app.state.settings = settings
    app.state.keys = keys
    app.state.metrics = Metrics()
    app.state.memory = None
    install_error_handlers(app)
    for router in ROUTERS:
        app.include_router(router)
    app.router.routes.append(mcp.route())
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.max_body_bytes)
    if settings.max_in_flight:  # inside the request context: a 429 is logged and counted like any
        admission = Admission(settings.max_in_flight, settings.max_queued, settings.queue_wait_s)
        app.state.admission = admission
        app.add_middleware(AdmissionMiddleware, admission=admission)
    app.add_middleware(RequestContextMiddleware, metrics=app.state.metrics)
    return app


def app_from_env() -> FastAPI:
    """uvicorn factory: settings read here, at the edge; a configuration error exits with one line."""
    configure_logging()
    try:
        return create_app(Settings())
    except ConfigError as exc:
        raise SystemExit(f"error: {exc.code}: {exc.message}") from None
