"""Ingestion links a session's episodes by NEXT incrementally (only around the new episodes);
the chain must equal the one a full relink (``writes.relink_sessions``, used by forget) builds."""

from __future__ import annotations

from datetime import timedelta
from itertools import pairwise

from graphmem.memory import GraphMemory
from graphmem.models.episode import EpisodeIn
from graphmem.store import writes
from graphmem.store.driver import Store, run
from tests.conftest import utc

T = utc(2024, 5, 1, 9)
NEXT_EDGES = "MATCH (a:Episode {group_id: $g})-[:NEXT]->(b:Episode) RETURN a.content AS a, b.content AS b"


def ep(name: str, minute: int, session: str = "s1", external_id: str | None = "") -> EpisodeIn:
    return EpisodeIn(
        content=name,
        reference_time=T + timedelta(minutes=minute),
        session_id=session,
        external_id=name if external_id == "" else external_id,
    )


async def edges(store: Store, group: str) -> set[tuple[str, str]]:
    async with store.transaction(write=False) as tx:
        return {(r["a"], r["b"]) for r in await run(tx, NEXT_EDGES, g=group)}


def chain(*names: str) -> set[tuple[str, str]]:
    return set(pairwise(names))


async def test_incremental_links_equal_a_full_relink(memory: GraphMemory, store: Store, group: str) -> None:
    batches = [
        [ep("a", 0), ep("b", 1), ep("c", 3), ep("x1", 0, "s2")],
        [ep("d", 4), ep("e", 5), ep("x2", 1, "s2")],  # appended
        [ep("late", 2), ep("f", 6)],  # one lands between b and c, one at the end
        [ep("early", -5), ep("x0", -1, "s2")],  # before everything
        [ep("c2", 3), ep("c0", 3, external_id=None)],  # same time as c: external id, nulls last
        [ep("solo", 0, session="s3")],
    ]
    for batch in batches:
        await memory.add_episodes(group, batch)
    linked = await edges(store, group)
    expected = chain("early", "a", "b", "late", "c", "c2", "c0", "d", "e", "f") | chain("x0", "x1", "x2")
    assert linked == expected

    async with store.transaction() as tx:
        await writes.relink_sessions(tx, group_id=group, session_ids=["s1", "s2", "s3"])
    assert await edges(store, group) == linked


async def test_a_batch_already_in_order_adds_only_its_own_links(
    memory: GraphMemory, store: Store, group: str
) -> None:
    await memory.add_episodes(group, [ep("a", 0), ep("b", 1)])
    await memory.add_episodes(group, [ep("b", 1), ep("c", 2)])  # b again: a duplicate, no new link
    assert await edges(store, group) == chain("a", "b", "c")
