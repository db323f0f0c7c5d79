"""The ``llm`` extractor inside the ingestion pipeline, on the real Neo4j, against the local stub:
facts from the model's JSON are written; when extraction fails for one episode of a batch, nothing of
the batch is written."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from graphmem.errors import ExtractionFailed
from graphmem.memory import GraphMemory
from graphmem.models import EpisodeIn
from graphmem.providers.embedders.minilm_numpy import MiniLMEmbedder
from graphmem.providers.extractors.llm import LLMExtractor
from graphmem.store.driver import Store
from tests.conftest import utc
from tests.stubs.openai_stub import OpenAIStub, Recorded, Reply, extraction, fact, malformed


@pytest.fixture
def stub() -> Iterator[OpenAIStub]:
    with OpenAIStub() as server:
        yield server
    assert server.errors == []


async def llm_memory(store: Store, embedder: MiniLMEmbedder, stub: OpenAIStub) -> GraphMemory:
    extractor = LLMExtractor(base_url=stub.base_url, model="stub", timeout_s=5, max_retries=1, backoff_s=0)
    return await GraphMemory.open(store=store, embedder=embedder, extractor=extractor)


def episode_text(request: Recorded) -> str:
    text: str = json.loads(request.messages[1]["content"])["text"]
    return text


def by_text(request: Recorded) -> Reply:
    """Answer from the episode text: Paris and Acme are understood, anything about Berlin is garbled."""
    text = episode_text(request)
    if "Berlin" in text:
        return malformed()
    if "Acme" in text:
        acme = fact("I", "works_at", obj="Acme", object_kind="organization", quote=text)
        return extraction([{"name": "Acme", "kind": "organization"}], [acme])
    paris = fact(
        "I", "lives_in", obj="Paris", object_kind="place", valid_from="2024-03-01T00:00:00Z", quote=text
    )
    return extraction([{"name": "Paris", "kind": "place"}], [paris])


def ep(text: str, ext: str) -> EpisodeIn:
    return EpisodeIn(content=text, reference_time=utc(2024, 6, 1), speaker="Alice", external_id=ext)


async def test_facts_from_the_model_are_written_with_evidence(
    store: Store, embedder: MiniLMEmbedder, group: str, stub: OpenAIStub
) -> None:
    stub.otherwise(by_text)
    memory = await llm_memory(store, embedder, stub)
    result = await memory.add_episodes(
        group, [ep("I've lived in Paris since March.", "e1"), ep("I work at Acme.", "e2")]
    )
    assert [e.status for e in result.episodes] == ["created", "created"]
    facts = await memory.facts_about(group, "Alice")
    assert sorted((f.predicate, f.value) for f in facts) == [("lives_in", "Paris"), ("works_at", "Acme")]
    paris = next(f for f in facts if f.predicate == "lives_in")
    assert paris.valid_from == utc(2024, 3, 1)
    assert paris.evidence[0].external_id == "e1"
    assert paris.evidence[0].quote == "I've lived in Paris since March."
    assert {e.name for e in await memory.find_entities(group)} >= {"Alice", "Paris", "Acme"}
    assert len(stub.requests) == 2


async def test_failed_extraction_writes_nothing_of_the_batch(
    store: Store, embedder: MiniLMEmbedder, group: str, stub: OpenAIStub
) -> None:
    stub.otherwise(by_text)
    memory = await llm_memory(store, embedder, stub)
    batch = [ep("I live in Paris.", "e1"), ep("I moved to Berlin.", "e2"), ep("I work at Acme.", "e3")]
    with pytest.raises(ExtractionFailed) as info:
        await memory.add_episodes(group, batch)
    assert info.value.details["attempts"] == 2
    assert len(stub.requests) == 3  # e1 once, e2 twice (max_retries=1); e3 never asked
    assert await memory.facts_about(group, "Alice", include_history=True) == []
    assert await memory.list_facts(group, include_history=True) == []
    assert await memory.find_entities(group) == []
    found = await memory.search(group, "Paris")
    assert (found.facts, found.episodes, found.entities) == ([], [], [])

    # the same batch goes through once the endpoint behaves: nothing was half-stored before
    stub.otherwise(extraction())
    result = await memory.add_episodes(group, batch)
    assert [e.status for e in result.episodes] == ["created", "created", "created"]
