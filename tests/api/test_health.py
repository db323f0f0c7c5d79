"""/healthz and /readyz over the ASGI app with its lifespan, against the real Neo4j."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from typing import Any

import httpx

from api.main import create_app
from graphmem.config import Settings
from graphmem.memory import GraphMemory
from graphmem.models.extraction import Extraction


async def ready_when_warm(client: httpx.AsyncClient) -> httpx.Response:
    """``/readyz`` once the background warm-up is done (it answers 503 ``not_ready`` before)."""
    for _ in range(1200):
        ready = await client.get("/readyz")
        if ready.json().get("code") != "not_ready":
            return ready
        await asyncio.sleep(0.05)
    raise AssertionError("the warm-up never finished")


async def test_health_and_ready(memory: GraphMemory, settings: Settings) -> None:
    app = create_app(settings.model_copy(update={"no_auth": True}), memory=memory)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            assert (await client.get("/healthz")).json() == {"status": "ok"}
            ready = await ready_when_warm(client)
            assert ready.status_code == 200
            assert ready.json()["dimension"] == 384
            missing = await client.get("/nope")
            assert missing.status_code == 404 and missing.json()["code"] == "not_found"


def test_no_auth_is_refused_on_a_public_bind(settings: Settings) -> None:
    import pytest

    from graphmem.errors import ConfigError

    with pytest.raises(ConfigError):
        create_app(settings.model_copy(update={"no_auth": True, "host": "0.0.0.0"}))


class GatedExtractor:
    """The real extractor, held at its first call until ``gate`` opens (a model still loading)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.gate = threading.Event()
        self.calls = 0

    def extract(self, **kwargs: Any) -> Extraction:
        self.calls += 1
        self.gate.wait(timeout=60)
        result: Extraction = self.inner.extract(**kwargs)
        return result


async def test_not_ready_until_the_embedder_and_extractor_are_warm(
    memory: GraphMemory, settings: Settings
) -> None:
    """Bug: /readyz answered ready while the model still loaded, so the first write after start
    took about 7 s; it answers 503 ``not_ready`` until the embedder and extractor are warm."""
    gated = GatedExtractor(memory.ctx.extractor)
    cold = GraphMemory(dataclasses.replace(memory.ctx, extractor=gated))
    app = create_app(settings.model_copy(update={"no_auth": True}), memory=cold)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            waiting = await client.get("/readyz")
            assert waiting.status_code == 503
            assert waiting.json()["code"] == "not_ready"
            assert waiting.headers["Retry-After"] == "2"
            assert (await client.get("/healthz")).status_code == 200  # alive all the while
            gated.gate.set()
            ready = await ready_when_warm(client)
            assert ready.status_code == 200 and ready.json()["status"] == "ready"
            assert gated.calls == 1


async def test_docs_work_offline(memory: GraphMemory, settings: Settings) -> None:
    """Bug: /docs loaded Swagger UI from a CDN, so it was blank offline; the page and its assets
    are served from the swagger-ui-bundle package."""
    app = create_app(settings.model_copy(update={"no_auth": True}), memory=memory)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            page = await client.get("/docs")
            assert page.status_code == 200
            assert "cdn" not in page.text and "http" not in page.text.split("<body>")[1]
            for asset in ("swagger-ui-bundle.js", "swagger-ui.css", "favicon-32x32.png"):
                assert f"/docs/assets/{asset}" in page.text
                served = await client.get(f"/docs/assets/{asset}")
                assert served.status_code == 200 and len(served.content) > 500
            assert "SwaggerUIBundle" in (await client.get("/docs/assets/swagger-ui-bundle.js")).text
            assert (await client.get("/openapi.json")).status_code == 200
