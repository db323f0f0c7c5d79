"""Shared fixtures. Integration tests use the real Neo4j that `make test` starts (NEO4J_URI)."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest
from hypothesis import settings as hypothesis_settings

from graphmem.config import Settings
from graphmem.memory import GraphMemory
from graphmem.providers.embedders.minilm_onnx import MiniLMOnnxEmbedder
from graphmem.providers.extractors.rules import RulesExtractor
from graphmem.store.driver import Store

# Hypothesis profiles. `ci` (the default, so `make test` and `.ci/run`) is derandomised: every run
# draws the same examples, so a red CI is reproducible and never random. `dev` draws new examples
# each run; `fuzz` (`make fuzz`) draws ten times as many. Property tests scale their own counts by
# `examples()` below.
hypothesis_settings.register_profile("ci", derandomize=True, database=None, max_examples=100)
hypothesis_settings.register_profile("dev", max_examples=100)
hypothesis_settings.register_profile("fuzz", max_examples=1000)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def examples(n: int) -> int:
    """``n`` examples under the default profiles, ten times as many under `fuzz`."""
    return n * hypothesis_settings.default.max_examples // 100


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
def embedder() -> MiniLMOnnxEmbedder:
    """The production embedder (MiniLM on ONNX Runtime, the default backend), not the numpy one."""
    e = MiniLMOnnxEmbedder()
    e.load()
    return e


@pytest.fixture(scope="session")
async def memory(store: Store, embedder: MiniLMOnnxEmbedder) -> GraphMemory:
    return await GraphMemory.open(store=store, embedder=embedder, extractor=RulesExtractor())


@pytest.fixture
def group() -> str:
    return f"t-{uuid.uuid4().hex[:12]}"
