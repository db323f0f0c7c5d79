"""Change feed (graphmem.store.snapshot): every write stamps what it changes with the group's new
revision (``rev`` = ``Group.lock_seq``), deletions mark the group reset, and the reads see one group
only, in id order (full loads) or revision order (changes)."""

from __future__ import annotations

from typing import Any

from graphmem.memory import GraphMemory
from graphmem.models import EpisodeIn
from graphmem.models.fact import FactIn
from graphmem.store import snapshot
from graphmem.store.driver import Store
from graphmem.store.migrations import reanalyze_text
from graphmem.store.snapshot import GroupState
from tests.conftest import utc


def turn(i: int, content: str, minute: int, speaker: str = "Alice") -> EpisodeIn:
    return EpisodeIn(
        content=content,
        speaker=speaker,
        session_id="s1",
        external_id=f"t{i}",
        reference_time=utc(2024, 3, 1, 10, minute),
    )


async def state(store: Store, group: str) -> GroupState:
    found = await snapshot.group_state(store, group_id=group)
    assert found is not None
    return found


async def changed(store: Store, group: str, label: str, since: int) -> dict[str, dict[str, Any]]:
    rows = await snapshot.changed(store, group_id=group, label=label, since=since, limit=1000)
    assert [(r["rev"], r["id"]) for r in rows] == sorted((r["rev"], r["id"]) for r in rows)
    return {r["id"]: r for r in rows}


async def episode_ids(memory: GraphMemory, group: str, episodes: list[EpisodeIn]) -> list[str]:
    return [o.id for o in (await memory.add_episodes(group, episodes)).episodes]


async def test_new_episodes_and_their_refreshed_neighbours_are_stamped(
    memory: GraphMemory, store: Store, group: str
) -> None:
    first, last = await episode_ids(
        memory, group, [turn(0, "I live in Paris.", 0), turn(2, "I like tea.", 20)]
    )
    before = await state(store, group)
    assert before.seq >= 1 and before.reset_seq == 0 and before.created_at is not None
    assert (before.episodes, before.entities) == (2, 3)  # Alice, Paris, tea

    (middle,) = await episode_ids(memory, group, [turn(1, "I work at Globex Corporation.", 10)])

    after = await state(store, group)
    assert after.seq > before.seq and after.reset_seq == 0
    rows = await changed(store, group, "episode", before.seq)
    assert set(rows) == {first, middle, last}  # the new turn and both neighbours it joined
    assert all(before.seq < r["rev"] <= after.seq for r in rows.values())
    new = rows[middle]
    assert new["reference_time"] == utc(2024, 3, 1, 10, 10)
    assert {"globex", "pari", "tea"} <= set(new["search_text"].split())  # own and neighbours' words
    assert isinstance(new["embedding"], list) and len(new["embedding"]) == memory.ctx.embedder.dimension
    entities = await changed(store, group, "entity", before.seq)
    assert len(entities) == 1 and set(entities) < set(new["mentions"])  # Globex is new, Alice is not
    assert await snapshot.changed(store, group_id=group, label="episode", since=after.seq, limit=10) == []


async def test_supersession_returns_the_new_and_the_closed_fact(
    memory: GraphMemory, store: Store, group: str
) -> None:
    await memory.add_episodes(group, [turn(0, "I live in Paris.", 0)])
    before = await state(store, group)
    (paris,) = await snapshot.load_page(store, group_id=group, label="fact", after_id="", limit=10)
    assert paris["valid_to"] is None and paris["rev"] <= before.seq

    await memory.add_episodes(group, [turn(1, "I moved to Rome.", 30)])

    rows = await changed(store, group, "fact", before.seq)
    assert set(rows) - {paris["id"]} and paris["id"] in rows and len(rows) == 2
    old = rows.pop(paris["id"])
    (rome,) = rows.values()
    assert old["valid_to"] == utc(2024, 3, 1, 10, 30) == rome["valid_from"]
    assert old["status"] == rome["status"] == "active" and old["expired_at"] is None
    assert old["rev"] == rome["rev"] == (await state(store, group)).seq
    assert rome["evidence"] == 1 and rome["subject_id"] == old["subject_id"]
    assert rome["object_id"] and rome["object_id"] != old["object_id"]
    assert rome["recorded_at"] is not None and "rome" in rome["search_text"].split()


async def test_a_new_alias_restamps_the_entity(memory: GraphMemory, store: Store, group: str) -> None:
    await memory.add_facts(
        group, [FactIn(subject="Alice", predicate="works_at", object="Globex Corporation")]
    )
    before = await state(store, group)
    await memory.add_facts(group, [FactIn(subject="Bob", predicate="works_at", object="Globex Corporations")])
    rows = await changed(store, group, "entity", before.seq)
    globex = [r for r in rows.values() if "globex" in r["search_text"].split()]
    assert len(globex) == 1 and len(rows) == 2  # Bob, and Globex with its new alias
    assert globex[0]["rev"] == (await state(store, group)).seq
    found = await memory.find_entities(group, "Globex Corporations")
    assert [e.aliases for e in found] == [["Globex Corporations"]]


async def test_forgetting_an_episode_resets_the_group(memory: GraphMemory, store: Store, group: str) -> None:
    (eid,) = await episode_ids(memory, group, [turn(0, "I live in Paris.", 0)])
    before = await state(store, group)
    await memory.forget_episode(group, eid)
    after = await state(store, group)
    assert after.seq > before.seq and after.reset_seq == after.seq
    assert (after.episodes, after.facts) == (0, 0)


async def test_import_and_reanalysis_stamp_and_reset_the_group(
    memory: GraphMemory, store: Store, group: str
) -> None:
    await memory.add_episodes(group, [turn(0, "I live in Paris.", 0), turn(1, "I like tea.", 1)])
    exported = [r async for r in memory.export_group(group)]
    assert not any("rev" in r.get("properties", {}) for r in exported)  # local to this database
    copy = group + "-copy"
    await memory.import_records(exported, target_group=copy)
    imported = await state(store, copy)
    assert imported.reset_seq == imported.seq > 0
    rows = await changed(store, copy, "episode", 0)
    assert len(rows) == 2 and all(0 < r["rev"] <= imported.seq for r in rows.values())

    await reanalyze_text(store, group_id=copy)
    after = await state(store, copy)
    assert after.reset_seq == after.seq > imported.seq
    await memory.forget_group(copy, purge_tombstones=True)


async def test_unknown_group_has_no_state(store: Store, group: str) -> None:
    assert await snapshot.group_state(store, group_id=group) is None
    assert await snapshot.load_page(store, group_id=group, label="entity", after_id="", limit=5) == []
    assert await snapshot.changed(store, group_id=group, label="fact", since=0, limit=5) == []


async def test_load_page_walks_one_group_in_id_order(memory: GraphMemory, store: Store, group: str) -> None:
    other = group + "-other"
    episodes = [turn(i, f"Note number {i} about the garden.", i) for i in range(7)]
    await memory.add_episodes(group, episodes)
    await memory.add_episodes(other, episodes)
    rows = await store.read("MATCH (e:Episode {group_id: $g}) RETURN e.id AS id ORDER BY id", g=group)
    expected = [r["id"] for r in rows]
    assert len(expected) == 7
    pages: list[list[str]] = []
    after = ""
    while page := await snapshot.load_page(store, group_id=group, label="episode", after_id=after, limit=3):
        pages.append([r["id"] for r in page])
        after = page[-1]["id"]
    assert [len(p) for p in pages] == [3, 3, 1]
    assert [i for p in pages for i in p] == expected
    seq = (await state(store, other)).seq
    assert set(await changed(store, group, "episode", 0)) == set(expected)  # never the other group's
    assert all(r["rev"] <= seq for r in (await changed(store, other, "episode", 0)).values())
    assert set(expected).isdisjoint(await changed(store, other, "episode", 0))
    await memory.forget_group(other, purge_tombstones=True)
