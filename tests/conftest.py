"""Shared fixtures. Integration tests use the real Neo4j that `make test` starts (NEO4J_URI)."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest

from graphmem.config import Settings
from graphmem.memory import GraphMemory
from graphmem.providers.embedders.minilm_numpy import MiniLMEmbedder
from graphmem.providers.extractors.rules import RulesExtractor
from graphmem.store.driver import Store


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)  # type: ignore[misc]


@pytest.fixture(scope="session")
def settings() -> Settings:
    return Settings()


@pytest.fixture(scope="session")
async def store(settings: Settings) -> AsyncIterator[Store]:
    if not settings.neo4j_uri:
        pytest.fail("NEO4J_URI is not set: run the suite with `make test`, which starts Neo4j")
    s = Store.connect(settings.neo4j_uri, auth=settings.neo4j_auth_tuple, database=settings.neo4j_database)
    yield s
    await s.close()


@pytest.fixture(scope="session")
def embedder() -> MiniLMEmbedder:
    e = MiniLMEmbedder()
    e.load()
    return e


@pytest.fixture(scope="session")
async def memory(store: Store, embedder: MiniLMEmbedder) -> GraphMemory:
    return await GraphMemory.open(store=store, embedder=embedder, extractor=RulesExtractor())


@pytest.fixture
def group() -> str:
    return f"t-{uuid.uuid4().hex[:12]}"
