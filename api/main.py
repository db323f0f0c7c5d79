"""``create_app(settings)``: the FastAPI application, its lifespan owning one ``GraphMemory``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI

from api.errors import install_error_handlers
from api.routes import health
from api.security import check_bind
from graphmem.config import Settings
from graphmem.errors import ConfigError
from graphmem.memory import GraphMemory


def create_app(settings: Settings, *, memory: GraphMemory | None = None) -> FastAPI:
    """Build the app. With ``memory`` given (tests), the lifespan uses it and does not close it."""
    problem = check_bind(settings)
    if problem:
        raise ConfigError(problem)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[dict[str, Any]]:
        owned = memory is None
        mem = memory or await GraphMemory.from_settings(settings)
        app.state.memory = mem
        if owned:
            mem.ctx.embedder.embed(["warm-up"])  # load the model before the first request
        app.state.ready = True
        try:
            yield {}
        finally:
            if owned:
                await mem.close()

    app = FastAPI(
        title="graphmem",
        version="0.1.0",
        description="Temporal knowledge-graph memory for AI agents.",
        lifespan=lifespan,
    )
    app.state.settings = settings
    install_error_handlers(app)
    app.include_router(health.router)
    return app


def app_from_env() -> FastAPI:
    """uvicorn factory: settings read here, at the edge."""
    return create_app(Settings())
