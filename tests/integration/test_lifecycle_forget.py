"""Forget (issue 7): episodes, entities, a time range, a whole group; then probe every channel.

After each forget: search (BM25, vector, graph) by the exact text, the raw full-text and vector
indexes (nearest neighbours of the removed node's own embedding), the by-id reads and an export
find nothing of it, and the group's counts moved by exactly what the report says.
"""

from __future__ import annotations

import pytest

from graphmem.errors import NotFound
from graphmem.memory import GraphMemory
from graphmem.models.fact import FactRecord
from graphmem.store.driver import Store
from tests.integration.test_lifecycle_support import (
    STORY,
    Gone,
    assert_gone,
    assert_report_matches,
    counts,
    episode,
    ingest,
    node_embedding,
    utc,
)


async def _facts(memory: GraphMemory, group: str) -> dict[str, FactRecord]:
    return {f.statement: f for f in await memory.list_facts(group, include_history=True)}


async def _entity(memory: GraphMemory, group: str, name: str) -> str:
    found = [e for e in await memory.find_entities(group, name) if e.name == name]
    assert found, name
    return found[0].id


async def test_forget_the_only_evidence_removes_the_fact_and_relinks_the_chain(
    memory: GraphMemory, store: Store, group: str
) -> None:
    ids = await ingest(memory, group)
    facts = await _facts(memory, group)
    paris, berlin = facts["Alice lives in Paris"], facts["Alice lives in Berlin"]
    paris_entity = await _entity(memory, group, "Paris")
    gone = Gone(
        texts=["I moved to Paris."],
        episode_ids=[ids["e4"]],
        fact_ids=[paris.id],
        entity_ids=[paris_entity],
        vectors={
            "episode_embedding": await node_embedding(store, "Episode", ids["e4"]),
            "fact_embedding": await node_embedding(store, "Fact", paris.id),
            "entity_embedding": await node_embedding(store, "Entity", paris_entity),
        },
    )
    before = await counts(store, group)

    report = await memory.forget_episode(group, ids["e4"])

    after = await counts(store, group)
    assert_report_matches(report, before, after)
    assert (report.episodes, report.facts_deleted, report.entities_deleted, report.tombstones) == (1, 1, 1, 1)
    await assert_gone(memory, store, group, gone)
    current = {f.statement: f for f in await memory.list_facts(group)}
    assert "Alice lives in Berlin" in current  # the chain reopened: Berlin holds again
    assert current["Alice lives in Berlin"].id == berlin.id
    assert current["Alice lives in Berlin"].superseded_by == []
    episode_three, _ = await memory.get_episode(group, ids["e3"])
    rows = await store.read(
        "MATCH (a:Episode {id: $a})-[:NEXT]->(b:Episode) RETURN b.id AS id", a=episode_three.id
    )
    assert [r["id"] for r in rows] == [ids["e5"]]  # NEXT skips the forgotten episode


async def test_facts_with_other_evidence_stay_with_what_remains(
    memory: GraphMemory, store: Store, group: str
) -> None:
    ids = await ingest(memory, group)
    before_facts = await _facts(memory, group)
    berlin = before_facts["Alice lives in Berlin"]
    before = await counts(store, group)

    report = await memory.forget_episode(group, ids["e2"])

    assert_report_matches(report, before, await counts(store, group))
    assert report.facts_deleted == 0 and report.facts_updated >= 1
    facts = await _facts(memory, group)
    kept = facts["Alice lives in Berlin"]
    assert kept.id == berlin.id
    assert [e.external_id for e in kept.evidence] == ["e3"]
    assert kept.valid_from == utc(2021, 6, 1)
    assert facts["Alice lives in Munich"].valid_to == utc(2021, 6, 1)
    assert kept.supersedes == [facts["Alice lives in Munich"].id]
    await assert_gone(
        memory,
        store,
        group,
        Gone(texts=["I moved to Berlin."], episode_ids=[ids["e2"]], fact_ids=[], entity_ids=[], vectors={}),
    )


async def test_reingest_of_a_forgotten_episode_needs_allow_forgotten(
    memory: GraphMemory, store: Store, group: str
) -> None:
    ids = await ingest(memory, group)
    await memory.forget_episode(group, ids["e4"])
    before = await counts(store, group)

    again = await memory.add_episodes(group, [STORY[3]])

    assert [e.status for e in again.episodes] == ["forgotten"]
    assert again.facts == [] and await counts(store, group) == before
    tombstone = await store.read("MATCH (t:Tombstone {group_id: $g}) RETURN properties(t) AS p", g=group)
    assert len(tombstone) == 1 and "content" not in tombstone[0]["p"]
    assert tombstone[0]["p"]["content_hash"] == STORY[3].content_hash()

    back = await memory.add_episodes(group, [STORY[3]], allow_forgotten=True)

    assert [e.status for e in back.episodes] == ["created"]
    assert "Alice lives in Paris" in {f.statement for f in await memory.list_facts(group)}


async def test_forgetting_a_correction_brings_the_corrected_fact_back(
    memory: GraphMemory, group: str
) -> None:
    ids = await ingest(
        memory,
        group,
        [
            episode("I live in Munich.", utc(2020, 1, 1), "c1"),
            episode("Actually I live in Berlin, not Munich.", utc(2020, 2, 1), "c2"),
        ],
    )
    assert {f.statement for f in await memory.list_facts(group)} == {"Alice lives in Berlin"}

    await memory.forget_episode(group, ids["c2"])

    current = await memory.list_facts(group)
    assert [(f.statement, f.expired_at) for f in current] == [("Alice lives in Munich", None)]


async def test_forget_entity_removes_it_and_every_fact_about_it(
    memory: GraphMemory, store: Store, group: str
) -> None:
    ids = await ingest(memory, group)
    facts = await _facts(memory, group)
    berlin_entity = await _entity(memory, group, "Berlin")
    berlin_fact = facts["Alice lives in Berlin"]
    vectors = {
        "entity_embedding": await node_embedding(store, "Entity", berlin_entity),
        "fact_embedding": await node_embedding(store, "Fact", berlin_fact.id),
    }
    before = await counts(store, group)

    report = await memory.forget_entity(group, berlin_entity)

    assert_report_matches(report, before, await counts(store, group))
    assert (report.episodes, report.facts_deleted, report.entities_deleted) == (0, 1, 1)
    gone = Gone(
        texts=["Alice lives in Berlin"],
        episode_ids=[],
        fact_ids=[berlin_fact.id],
        entity_ids=[berlin_entity],
        vectors=vectors,
    )
    await assert_gone(memory, store, group, gone)
    assert await memory.find_entities(group, "Berlin") == []
    after = await _facts(memory, group)
    assert after["Alice lives in Paris"].supersedes == [after["Alice lives in Munich"].id]
    assert after["Alice lives in Munich"].valid_to == utc(2022, 1, 1)
    await memory.get_episode(group, ids["e2"])  # episodes that mention it are evidence of more: kept


async def test_forget_a_subject_entity_with_chinese_name(
    memory: GraphMemory, store: Store, group: str
) -> None:
    await ingest(memory, group)
    person = await _entity(memory, group, "张伟")
    before = await counts(store, group)

    report = await memory.forget_entity(group, person)

    assert_report_matches(report, before, await counts(store, group))
    assert report.facts_deleted == 2
    assert await memory.facts_about(group, "张伟", include_history=True) == []
    with pytest.raises(NotFound):
        await memory.timeline(group, person)


async def test_forget_before_a_time(memory: GraphMemory, store: Store, group: str) -> None:
    ids = await ingest(memory, group)
    before = await counts(store, group)
    facts = await _facts(memory, group)
    vector = await node_embedding(store, "Episode", ids["e1"])

    report = await memory.forget_before(group, utc(2021, 12, 31))

    assert_report_matches(report, before, await counts(store, group))
    assert (report.episodes, report.tombstones) == (3, 3)
    gone = Gone(
        texts=["I live in Munich.", "I moved to Berlin."],
        episode_ids=[ids["e1"], ids["e2"], ids["e3"]],
        fact_ids=[facts["Alice lives in Munich"].id, facts["Alice lives in Berlin"].id],
        entity_ids=[],
        vectors={"episode_embedding": vector},
    )
    await assert_gone(memory, store, group, gone)
    paris = (await _facts(memory, group))["Alice lives in Paris"]
    assert paris.supersedes == [] and paris.valid_to is None
    assert await memory.forget_before(group, utc(2000, 1, 1)) == type(report)()


async def test_forget_group_purges_the_tenant_and_nothing_else(
    memory: GraphMemory, store: Store, group: str
) -> None:
    other = group + "-other"
    ids = await ingest(memory, group)
    await ingest(memory, other)
    other_before = await counts(store, other)
    before = await counts(store, group)
    vector = await node_embedding(store, "Episode", ids["z1"])

    report = await memory.forget_group(group)

    after = await counts(store, group)
    assert_report_matches(report, before, after)
    assert after == {**{k: 0 for k in after}, "tombstones": len(STORY)}
    assert await store.read("MATCH (g:Group {id: $g}) RETURN g", g=group) == []
    await assert_gone(
        memory,
        store,
        group,
        Gone(
            texts=[e.content for e in STORY],
            episode_ids=list(ids.values()),
            fact_ids=[],
            entity_ids=[],
            vectors={"episode_embedding": vector},
        ),
    )
    assert await counts(store, other) == other_before
    assert [e.status for e in (await memory.add_episodes(group, STORY)).episodes] == ["forgotten"] * len(
        STORY
    )

    purge = await memory.forget_group(group, purge_tombstones=True)

    assert purge.tombstones_deleted == len(STORY) and purge.tombstones == 0
    assert await counts(store, group) == {k: 0 for k in after}
    await memory.forget_group(other, purge_tombstones=True)


async def test_unknown_or_foreign_ids_are_not_found(memory: GraphMemory, group: str) -> None:
    ids = await ingest(memory, group, STORY[:1])
    with pytest.raises(NotFound):
        await memory.forget_episode(group, "no-such-episode")
    with pytest.raises(NotFound):
        await memory.forget_episode(group + "-elsewhere", ids["e1"])  # another tenant's id
    with pytest.raises(NotFound):
        await memory.forget_entity(group, "no-such-entity")
    await memory.get_episode(group, ids["e1"])  # untouched
