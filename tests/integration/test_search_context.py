"""Episode search context: a turn is indexed with its session neighbours' words, kept in step with
the NEXT chain through ingestion order, forgetting, import and re-analysis."""

from __future__ import annotations

from graphmem.memory import GraphMemory
from graphmem.models import EpisodeIn
from graphmem.store.driver import Store
from graphmem.store.migrations import reanalyze_text
from tests.conftest import utc

TURNS = [
    ("Caroline", "Did you finish anything at the art class last week?"),
    ("Melanie", "Yes! A watercolour of the lake at sunset."),
    ("Caroline", "That sounds lovely, I would like to see it."),
    ("Melanie", "Next week I will bring it to the picnic."),
]


def turns(order: list[int] | None = None) -> list[EpisodeIn]:
    episodes = [
        EpisodeIn(
            content=text,
            speaker=speaker,
            session_id="s1",
            external_id=f"t{i}",
            reference_time=utc(2024, 3, 1, 10, i),
        )
        for i, (speaker, text) in enumerate(TURNS)
    ]
    return [episodes[i] for i in order] if order else episodes


async def search_texts(store: Store, group: str) -> dict[str, str]:
    rows = await store.read(
        "MATCH (e:Episode {group_id: $g}) RETURN e.external_id AS ext, e.search_text AS text", g=group
    )
    return {r["ext"]: r["text"] for r in rows}


async def test_a_turn_carries_its_neighbours_words(memory: GraphMemory, store: Store, group: str) -> None:
    await memory.add_episodes(group, turns())
    texts = await search_texts(store, group)
    assert texts["t1"].split()[:1] == ["melani"]  # own speaker first, neighbours' speakers left out
    assert {"art", "class", "watercolour", "lake", "love", "see"} <= set(texts["t1"].split())
    assert "carolin" not in texts["t1"].split()
    result = await memory.search(group, "What did Melanie make in the art class?", recipe="bm25")
    assert "t1" in result.source_external_ids()[:2]  # the answer, found by the question's words


async def test_context_does_not_depend_on_ingestion_order(
    memory: GraphMemory, store: Store, group: str
) -> None:
    await memory.add_episodes(group, turns())
    in_order = await search_texts(store, group)
    other = group + "-b"
    for i in (3, 0, 2, 1):
        await memory.add_episodes(other, turns([i]))
    assert await search_texts(store, other) == in_order
    await memory.forget_group(other, purge_tombstones=True)


async def test_forgetting_a_turn_removes_its_words_from_its_neighbours(
    memory: GraphMemory, store: Store, group: str
) -> None:
    await memory.add_episodes(group, turns())
    ids = {
        h.episode.external_id: h.episode.id
        for h in (await memory.search(group, "watercolour", k=10)).episodes
    }
    await memory.forget_episode(group, ids["t1"])
    texts = await search_texts(store, group)
    assert not any("watercolour" in t for t in texts.values())
    assert "art" in texts["t2"].split()  # t0 and t2 are neighbours now
    result = await memory.search(group, "watercolour lake", recipe="bm25")
    assert result.episodes == []


async def test_export_import_keeps_the_context(memory: GraphMemory, store: Store, group: str) -> None:
    await memory.add_episodes(group, turns())
    records = [r async for r in memory.export_group(group)]
    target = group + "-copy"
    await memory.import_records(records, target_group=target)
    assert await search_texts(store, target) == await search_texts(store, group)
    await memory.forget_group(target, purge_tombstones=True)


async def test_reanalysis_rebuilds_old_search_text(memory: GraphMemory, store: Store, group: str) -> None:
    await memory.add_episodes(group, turns())
    expected = await search_texts(store, group)
    await store.write(
        "MATCH (e:Episode {group_id: $g}) SET e.search_text = e.content REMOVE e.terms, e.speaker_terms",
        g=group,
    )
    assert await reanalyze_text(store) == 0  # the recorded version is current: start-up does nothing
    assert await reanalyze_text(store, group_id=group) == len(TURNS)  # what a version change does
    assert await search_texts(store, group) == expected
