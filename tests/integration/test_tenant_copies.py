"""``graphmem eval tenants``' bulk seeding (``eval.tenants_seed``): a tenant copied inside Neo4j is a
tenant of its own that answers every search as its template does (the same texts, scores and
order under its own ids), two copies in one group double it, and deleting copies leaves nothing."""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import AsyncIterator

import pytest

from eval import tenants_seed
from graphmem.memory import GraphMemory
from graphmem.models import EpisodeIn
from graphmem.models.fact import FactIn
from graphmem.models.search import SearchResult
from graphmem.store import snapshot
from graphmem.store.cypher import seed as seed_q
from tests.conftest import utc

TURNS = [
    "I moved to Porto last spring and I love the river",
    "My sister Ana works at Globex as a nurse",
    "We adopted a grey cat called Pixel",
    "I started pottery lessons on Tuesdays",
]
QUERIES = ["where does Dana live", "Pixel the cat and Globex"]


def _log(_: str) -> None:
    return None


def _seen(result: SearchResult) -> list[tuple[str, str, float]]:
    """Each hit as (type, its text, score): what a copy must reproduce under other ids."""
    out = []
    for hit in result.ranked:
        text = getattr(hit, "statement", None) or getattr(hit, "content", None) or getattr(hit, "name", "")
        out.append((hit.type, str(text), round(hit.score, 5)))
    return out


@pytest.fixture
async def template(memory: GraphMemory, group: str) -> AsyncIterator[str]:
    await memory.add_episodes(
        group,
        [
            EpisodeIn(
                content=t,
                speaker="Dana",
                session_id="s0",
                external_id=f"c{i}",
                reference_time=utc(2024, 3, 1 + i),
            )
            for i, t in enumerate(TURNS)
        ],
    )
    await memory.add_facts(
        group, [FactIn(subject="Dana", predicate="lives_in", object="Porto", valid_from=utc(2024, 3, 1))]
    )
    yield group
    await memory.forget_group(group, purge_tombstones=True)


async def test_a_copy_answers_as_its_template_and_deleting_copies_leaves_nothing(
    memory: GraphMemory, template: str
) -> None:
    store = memory.ctx.store
    one, two = f"t-{uuid.uuid4().hex[:12]}", f"t-{uuid.uuid4().hex[:12]}"
    plans = [tenants_seed.Plan(one, template, 1), tenants_seed.Plan(two, template, 2)]
    try:
        await tenants_seed.create(store, plans, _log)
        source = await snapshot.group_state(store, group_id=template)
        copy = await snapshot.group_state(store, group_id=one)
        double = await snapshot.group_state(store, group_id=two)
        assert source is not None and copy is not None and double is not None
        assert (copy.episodes, copy.facts, copy.entities) == (source.episodes, source.facts, source.entities)
        assert double.entities == 2 * source.entities and double.episodes == 2 * source.episodes
        for query in QUERIES:
            original, copied = await memory.search(template, query), await memory.search(one, query)
            assert original.ranked, query
            assert _seen(copied) == _seen(original), query
            assert not {h.id for h in copied.ranked} & {h.id for h in original.ranked}
    finally:
        await tenants_seed.delete(store, [one, two], _log)
    assert await snapshot.group_state(store, group_id=one) is None
    assert await snapshot.group_state(store, group_id=two) is None
    assert (await memory.search(template, QUERIES[0])).ranked  # the template is untouched


async def _shape(memory: GraphMemory, group: str) -> dict[str, object]:
    """What a seeded tenant must share with an ingested one: every node's labels and property
    names (and the embedding's stored type), the relationships' types, ends and property names,
    and the Group node's property names, as multisets."""
    store = memory.ctx.store
    nodes = await store.read(seed_q.GROUP_NODE_SHAPES, group_id=group)
    rels = await store.read(seed_q.GROUP_RELATIONSHIP_SHAPES, group_id=group)
    groups = await store.read(seed_q.GROUP_NODE_KEYS, group_id=group)
    return {
        "nodes": Counter(
            (tuple(sorted(r["labels"])), tuple(sorted(r["keys"])), r["embedding"]) for r in nodes
        ),
        "relationships": Counter(
            (r["type"], tuple(sorted(r["start"])), tuple(sorted(r["end"])), tuple(sorted(r["keys"])))
            for r in rels
        ),
        "group": [tuple(sorted(r["keys"])) for r in groups],
    }


async def test_tenants_copied_by_concurrent_transactions_have_the_shape_and_answers_of_an_ingested_one(
    memory: GraphMemory, template: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seeding with several transactions in flight (one tenant each here) gives every tenant the
    node, relationship and Group shape of the ingested template (labels, property names, the
    embedding as stored by ingestion) and its search answers, through the same indexes."""
    monkeypatch.setattr(tenants_seed, "BATCH_NODES", 1)  # a transaction per tenant
    store = memory.ctx.store
    groups = [f"t-{uuid.uuid4().hex[:12]}" for _ in range(4)]
    try:
        await tenants_seed.create(store, [tenants_seed.Plan(g, template, 1) for g in groups], _log, writers=3)
        expected = await _shape(memory, template)
        assert expected["nodes"] and expected["relationships"] and expected["group"]
        for group in groups:
            assert await _shape(memory, group) == expected, group
        for query in QUERIES:
            source = await memory.search(template, query)
            for group in groups:
                copied = await memory.search(group, query)
                assert _seen(copied) == _seen(source), (group, query)
                # served the same way (the in-process index, or Neo4j's channels: eval.tenants.served_by)
                assert ("sizes" in copied.timings_ms) == ("sizes" in source.timings_ms), (group, query)
    finally:
        await tenants_seed.delete(store, groups, _log)
