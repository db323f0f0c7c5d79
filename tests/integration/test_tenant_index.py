"""The in-process tenant index against real Neo4j: searches see every acknowledged write, from any
process; forgotten items never come back from a stale index; big tenants load in the background
while the Neo4j channels answer."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from graphmem.config import Settings
from graphmem.memory import GraphMemory
from graphmem.models import EpisodeIn
from graphmem.providers.embedders.minilm_numpy import MiniLMEmbedder
from graphmem.providers.extractors.rules import RulesExtractor
from graphmem.store.driver import Store
from tests.conftest import utc


def turn(i: int, text: str, session: str = "s1") -> EpisodeIn:
    return EpisodeIn(
        content=text,
        speaker="Dana",
        session_id=session,
        external_id=f"x{i}",
        reference_time=utc(2024, 4, 1, 9, i),
    )


@pytest.fixture
async def other(settings: Settings, embedder: MiniLMEmbedder) -> AsyncIterator[GraphMemory]:
    """A second memory with its own driver and tenant indexes: another process, as far as the
    index is concerned."""
    store = Store.connect(
        settings.neo4j_uri or "", auth=settings.neo4j_auth_tuple, database=settings.neo4j_database
    )
    memory = await GraphMemory.open(store=store, embedder=embedder, extractor=RulesExtractor(), migrate=False)
    yield memory
    await memory.close()


def indexed(result_timings: dict[str, float]) -> bool:
    """The Neo4j channels read the tenant's sizes; the tenant index does not."""
    return "sizes" not in result_timings


async def test_a_search_sees_another_processes_writes(
    memory: GraphMemory, other: GraphMemory, group: str
) -> None:
    await memory.add_episodes(group, [turn(0, "We adopted a grey cat called Pixel")])
    first = await other.search(group, "cat Pixel")
    assert indexed(first.timings_ms) and first.source_external_ids()[:1] == ["x0"]
    await memory.add_episodes(group, [turn(1, "My brother plays the cello in an orchestra", session="s2")])
    again = await other.search(group, "cello orchestra")
    assert indexed(again.timings_ms) and again.source_external_ids()[:1] == ["x1"]
    index = other.searcher.indexes.entries[group] if other.searcher.indexes else None
    assert index is not None and len(index.targets["episode"].slots) == 2  # caught up, not reloaded


async def test_a_forgotten_episode_never_comes_back(
    memory: GraphMemory, other: GraphMemory, group: str
) -> None:
    added = await memory.add_episodes(
        group,
        [turn(0, "The safe code is written on the blue notebook"), turn(1, "Lunch was pasta", session="s2")],
    )
    assert (await other.search(group, "safe code notebook")).source_external_ids()[:1] == ["x0"]
    await memory.forget_episode(group, added.episodes[0].id)
    after = await other.search(group, "safe code notebook")
    assert "x0" not in after.source_external_ids()
    assert all(h.id != added.episodes[0].id for h in after.ranked)
    index = other.searcher.indexes.entries[group] if other.searcher.indexes else None
    assert index is not None and added.episodes[0].id not in index.targets["episode"].slots.index  # rebuilt


async def test_a_superseded_fact_drops_out_of_a_loaded_index(memory: GraphMemory, group: str) -> None:
    await memory.add_episodes(group, [turn(0, "I live in Porto")])
    before = await memory.search(group, "where does Dana live", recipe="facts_only")
    assert any("Porto" in h.fact.statement for h in before.facts)
    await memory.add_episodes(group, [turn(1, "I moved to Lisbon")])
    now = await memory.search(group, "where does Dana live", recipe="facts_only")
    assert indexed(now.timings_ms)
    statements = [h.fact.statement for h in now.facts]
    assert any("Lisbon" in s for s in statements) and not any("Porto" in s for s in statements)
    then = await memory.search(
        group, "where does Dana live", recipe="facts_only", as_of=utc(2024, 4, 1, 9, 0, 30)
    )
    assert any("Porto" in h.fact.statement for h in then.facts)


async def test_big_tenants_load_in_the_background(
    settings: Settings, embedder: MiniLMEmbedder, group: str
) -> None:
    store = Store.connect(
        settings.neo4j_uri or "", auth=settings.neo4j_auth_tuple, database=settings.neo4j_database
    )
    memory = await GraphMemory.open(
        store=store, embedder=embedder, extractor=RulesExtractor(), migrate=False, index_sync_limit=0
    )
    try:
        await memory.add_episodes(group, [turn(i, f"note {i} about the garden shed") for i in range(5)])
        await memory.add_episodes(group, [turn(9, "The tortoise hibernates in a box of straw")])
        cold = await memory.search(group, "tortoise hibernates")
        assert not indexed(cold.timings_ms)  # answered by the Neo4j channels while the index loads
        assert await memory.warm_index(group)
        warm = await memory.search(group, "tortoise hibernates")
        assert indexed(warm.timings_ms)
        assert cold.source_external_ids()[:1] == warm.source_external_ids()[:1] == ["x9"]
    finally:
        await memory.forget_group(group, purge_tombstones=True)
        await memory.close()


async def test_the_index_can_be_switched_off(store: Store, embedder: MiniLMEmbedder, group: str) -> None:
    memory = GraphMemory(
        (
            await GraphMemory.open(store=store, embedder=embedder, extractor=RulesExtractor(), migrate=False)
        ).ctx
    )
    off = await GraphMemory.open(
        store=store, embedder=embedder, extractor=RulesExtractor(), migrate=False, search_index=False
    )
    await memory.add_episodes(group, [turn(0, "The boiler was serviced in March")])
    assert off.searcher.indexes is None and not await off.warm_index(group)
    result = await off.search(group, "boiler serviced")
    assert not indexed(result.timings_ms) and result.source_external_ids()[:1] == ["x0"]


async def test_a_catch_up_too_big_for_one_read_reloads(
    memory: GraphMemory, other: GraphMemory, group: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from graphmem.retrieval.tenant_index import registry

    await memory.add_episodes(group, [turn(0, "A first note", session="a")])
    await other.search(group, "first note")
    monkeypatch.setattr(registry, "DELTA_LIMIT", 1)
    await memory.add_episodes(
        group, [turn(1, "We went kayaking", session="b"), turn(2, "The kites flew high", session="c")]
    )
    assert other.searcher.indexes is not None
    await other.search(group, "kites")  # the catch-up read was cut short: a reload is due
    truncated = other.searcher.indexes.entries[group]
    assert truncated.stale
    found = await other.search(group, "kites")
    reloaded = other.searcher.indexes.entries[group]
    assert reloaded is not truncated and not reloaded.stale
    assert len(reloaded.targets["episode"].slots) == 3 and found.source_external_ids()[:1] == ["x2"]
