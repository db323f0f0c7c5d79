"""The API with the ``openai`` embedder whose endpoint is not up yet (Ollama started after graphmem).

Regression: the warm-up embedded once, and when that failed ``/readyz`` answered 503 "warm-up
failed" for the life of the process, although the endpoint came up a second later. A retryable
failure (``EmbedderUnavailable``) is now tried again with backoff until the endpoint answers, and
a shutdown does not wait for an endpoint that never does.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator

import httpx
import pytest

import api.main
from api.main import create_app
from graphmem.config import Settings
from graphmem.memory import GraphMemory
from graphmem.providers.embedders.openai_compat import OpenAIEmbedder
from graphmem.providers.extractors.rules import RulesExtractor
from graphmem.store.driver import Store
from tests.stubs.embeddings_stub import EmbeddingsStub, error, hashed
from tests.stubs.openai_stub import Recorded, Reply

DIM = 384


class Endpoint:
    """The stub, answering 503 until ``up`` is set."""

    def __init__(self) -> None:
        self.up = threading.Event()
        self.stub = EmbeddingsStub(dimension=DIM)
        vectors = hashed(DIM)

        def respond(rec: Recorded) -> Reply:
            return vectors(rec) if self.up.is_set() else error(503, "loading")

        self.stub.otherwise(respond)


@pytest.fixture
async def endpoint(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[tuple[Endpoint, GraphMemory]]:
    monkeypatch.setattr(api.main, "WARM_UP_RETRY_S", 0.02)
    ep = Endpoint()
    with ep.stub:
        embedder = OpenAIEmbedder(base_url=ep.stub.base_url, model="stub", dimension=DIM, max_retries=0)
        memory = await GraphMemory.open(
            store=store, embedder=embedder, extractor=RulesExtractor(), migrate=False
        )
        yield ep, memory
        await memory.searcher.settle()


async def _readyz_until(client: httpx.AsyncClient, done: str) -> httpx.Response:
    for _ in range(2000):
        ready = await client.get("/readyz")
        if done in ready.text:
            return ready
        await asyncio.sleep(0.02)
    raise AssertionError(f"/readyz never said {done!r}")


async def test_ready_once_the_endpoint_comes_up(
    endpoint: tuple[Endpoint, GraphMemory], settings: Settings
) -> None:
    ep, memory = endpoint
    app = create_app(settings.model_copy(update={"no_auth": True}), memory=memory)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            down = await _readyz_until(client, "warm-up failed (EmbedderUnavailable)")
            assert down.status_code == 503
            tried = len(ep.stub.requests)
            await _readyz_until(client, "warm-up failed")  # still failing, still trying
            ep.up.set()
            ready = await _readyz_until(client, '"status":"ready"')
            assert ready.status_code == 200 and ready.json()["embedder"] == "openai:stub"
            assert len(ep.stub.requests) > tried


async def test_shutdown_does_not_wait_for_an_endpoint_that_never_answers(
    endpoint: tuple[Endpoint, GraphMemory], settings: Settings
) -> None:
    ep, memory = endpoint
    app = create_app(settings.model_copy(update={"no_auth": True}), memory=memory)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            await _readyz_until(client, "warm-up failed (EmbedderUnavailable)")
    assert not ep.up.is_set()  # the lifespan ended while the warm-up was still retrying


async def test_closing_the_memory_closes_the_endpoints_connections(settings: Settings) -> None:
    with EmbeddingsStub(dimension=DIM) as stub:
        embedder = OpenAIEmbedder(base_url=stub.base_url, model="stub", dimension=DIM)
        own = Store.connect(
            settings.neo4j_uri or "", auth=settings.neo4j_auth_tuple, database=settings.neo4j_database
        )
        memory = await GraphMemory.open(
            store=own, embedder=embedder, extractor=RulesExtractor(), migrate=False
        )
        embedder.embed(["opens the client"])
        assert embedder._client is not None
        await memory.close()
        assert embedder._client is None
