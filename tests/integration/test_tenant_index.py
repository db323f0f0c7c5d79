"""The in-process tenant index against real Neo4j: searches see every acknowledged write, from any
process; forgotten items never come back from a stale index; big tenants load in the background
while the Neo4j channels answer."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from graphmem.config import Settings
from graphmem.memory import GraphMemory
from graphmem.models import EpisodeIn
from graphmem.models.search import SearchRequest
from graphmem.providers.embedders.minilm_numpy import MiniLMEmbedder
from graphmem.providers.extractors.rules import RulesExtractor
from graphmem.retrieval.config import recipe
from graphmem.retrieval.pipeline import _features, _Run
from graphmem.retrieval.sources import IndexSource, merge
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
    before = other.searcher.indexes.entries[group]
    found = await other.search(group, "kites")  # the catch-up read was cut short: reloaded
    reloaded = other.searcher.indexes.entries[group]
    assert before.stale  # marked by the short read ...
    assert reloaded is not before and not reloaded.stale  # ... and replaced within the search
    assert len(reloaded.targets["episode"].slots) == 3 and found.source_external_ids()[:1] == ["x2"]


async def test_ranking_before_hydration_matches_ranking_after(memory: GraphMemory, group: str) -> None:
    """The index path reranks on what the index holds and hydrates only the hits it returns; the
    Neo4j path hydrates every candidate and reranks on that. The index's rerank inputs equal those
    read off the hydrated hits, so both give the same hits, order and scores."""
    texts = [
        "I live in Porto",
        "I work at Lumen Labs as a designer",
        "My sister Ana lives in Braga",
        "I moved to Lisbon last spring",
        "We adopted a dog called Miso",
        "Ana works at the hospital in Braga",
        "I started learning the cello",
        "Miso loves the beach near Lisbon",
    ]
    await memory.add_episodes(group, [turn(i, t, session=f"s{i % 3}") for i, t in enumerate(texts)])
    searcher, indexes = memory.searcher, memory.searcher.indexes
    assert indexes is not None
    seen: set[str] = set()
    for query, name in [
        ("where does Dana live", "default"),
        ("Ana Braga", "facts_only"),
        ("Lisbon", "history"),
    ]:
        req, cfg = SearchRequest(query=query, recipe=name, k=5), recipe(name)
        run = _Run(searcher, group, req, cfg, cfg.include_history)
        vector = memory.ctx.embedder.embed([query])
        source = IndexSource(indexes, await indexes.state(group), run.timer)
        rankings = await source.lexical(run.probe)
        merge(rankings, await source.semantic(run.probe, vector))
        run._set_rankings(rankings)
        fused = run._fuse()
        top = run._top(fused)
        features = await source.features(run.probe, top)
        assert features is not None
        hydrated = await run._hydrate(top, fused)
        assert features == {key: _features(hit) for key, hit in hydrated.items()}
        before = await run._rank_then_hydrate(top, fused, features)
        after = await run._hydrate_then_rank(fused)
        assert [(h.type, h.id, h.score) for h in before] == [(h.type, h.id, h.score) for h in after]
        seen.update(h.type for h in before)
    assert seen == {"fact", "episode"}


async def test_a_hit_gone_from_neo4j_is_replaced(memory: GraphMemory, group: str) -> None:
    """A node deleted without a reset (ingestion's merge of duplicate facts does so) stays in the
    index until it reloads: the search drops it at hydration and reranks without it."""
    await memory.add_episodes(group, [turn(i, f"The lighthouse keeper logged storm {i}") for i in range(8)])
    first = await memory.search(group, "lighthouse storm", recipe="episodes_only", k=3)
    assert len(first.episodes) == 3
    gone = first.episodes[0].id
    await memory.ctx.store.write("MATCH (e:Episode {id: $id}) DETACH DELETE e", id=gone)
    again = await memory.search(group, "lighthouse storm", recipe="episodes_only", k=3)
    assert indexed(again.timings_ms) and len(again.episodes) == 3
    assert gone not in [h.id for h in again.ranked]
    index = memory.searcher.indexes.entries[group] if memory.searcher.indexes else None
    assert index is not None and gone in index.targets["episode"].slots.index  # not reloaded
