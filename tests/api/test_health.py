"""/healthz and /readyz over the ASGI app with its lifespan, against the real Neo4j."""

from __future__ import annotations

import httpx

from api.main import create_app
from graphmem.config import Settings
from graphmem.memory import GraphMemory


async def test_health_and_ready(memory: GraphMemory, settings: Settings) -> None:
    app = create_app(settings.model_copy(update={"no_auth": True}), memory=memory)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            assert (await client.get("/healthz")).json() == {"status": "ok"}
            ready = await client.get("/readyz")
            assert ready.status_code == 200
            assert ready.json()["dimension"] == 384
            missing = await client.get("/nope")
            assert missing.status_code == 404 and missing.json()["code"] == "not_found"


def test_no_auth_is_refused_on_a_public_bind(settings: Settings) -> None:
    import pytest

    from graphmem.errors import ConfigError

    with pytest.raises(ConfigError):
        create_app(settings.model_copy(update={"no_auth": True, "host": "0.0.0.0"}))
