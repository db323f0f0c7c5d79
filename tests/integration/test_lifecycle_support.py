"""Shared helpers of the lifecycle tests: a small graph, and probes of every channel for content."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from graphmem.errors import NotFound
from graphmem.memory import GraphMemory
from graphmem.memory.lifecycle import records
from graphmem.models.episode import EpisodeIn, IngestResult
from graphmem.store import lifecycle as repo
from graphmem.store.driver import Store
from graphmem.temporal.normalize import group_token
from graphmem.text import escape_lucene, query_terms


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)  # type: ignore[misc]


def episode(
    content: str, when: datetime, ext: str, *, speaker: str = "Alice", session: str = "s1"
) -> EpisodeIn:
    return EpisodeIn(
        content=content, reference_time=when, speaker=speaker, session_id=session, external_id=ext
    )


STORY = [
    episode("I live in Munich.", utc(2020, 1, 1), "e1"),
    episode("I moved to Berlin.", utc(2021, 1, 1), "e2"),
    episode("I still live in Berlin and I love it.", utc(2021, 6, 1), "e3"),
    episode("I moved to Paris.", utc(2022, 1, 1), "e4"),
    episode("I work at Globex.", utc(2022, 2, 1), "e5"),
    episode("我住在上海。", utc(2023, 1, 1), "z1", speaker="张伟", session="s2"),
    episode("我喜欢猫！", utc(2023, 2, 1), "z2", speaker="张伟", session="s2"),
]


async def ingest(memory: GraphMemory, group: str, episodes: list[EpisodeIn] | None = None) -> dict[str, str]:
    """Ingest and return external id -> episode id."""
    result: IngestResult = await memory.add_episodes(group, episodes or STORY)
    assert all(e.status == "created" for e in result.episodes)
    return {str(e.external_id): e.id for e in result.episodes}


async def counts(store: Store, group: str) -> dict[str, int]:
    async with store.transaction(write=False) as tx:
        return await repo.group_counts(tx, group_id=group)


def assert_report_matches(report: Any, before: dict[str, int], after: dict[str, int]) -> None:
    assert report.episodes == before["episodes"] - after["episodes"]
    assert report.facts_deleted == before["facts"] - after["facts"]
    assert report.entities_deleted == before["entities"] - after["entities"]
    assert report.edges_deleted == before["relationships"] - after["relationships"]
    assert report.tombstones == after["tombstones"] - before["tombstones"] + report.tombstones_deleted


async def export_lines(memory: GraphMemory, group: str) -> list[str]:
    return records.canonical([r async for r in memory.export_group(group)])


async def node_embedding(store: Store, label: str, node_id: str) -> list[float]:
    rows = await store.read(f"MATCH (n:{label} {{id: $id}}) RETURN n.embedding AS v", id=node_id)
    return list(rows[0]["v"])


async def vector_neighbours(store: Store, index: str, vector: list[float], k: int = 50) -> set[str]:
    """Nearest neighbours in the whole database (ANN index), any group."""
    rows = await store.read(
        "CALL db.index.vector.queryNodes($index, $k, $v) YIELD node RETURN node.id AS id",
        index=index,
        k=k,
        v=vector,
    )
    return {r["id"] for r in rows}


async def fulltext(store: Store, index: str, text: str, limit: int = 200) -> list[dict[str, Any]]:
    """Best BM25 matches of the exact text in the whole database (any group)."""
    lucene = f'search_text:"{escape_lucene(text)}" OR search_text:({" ".join(query_terms(text))})'
    return await store.read(
        "CALL db.index.fulltext.queryNodes($index, $q, {limit: $limit}) YIELD node "
        "RETURN node.id AS id, node.group_id AS group_id, node.content AS content",
        index=index,
        q=lucene,
        limit=limit,
    )


@dataclass
class Gone:
    """What must not come back after a forget."""

    texts: list[str]
    episode_ids: list[str]
    fact_ids: list[str]
    entity_ids: list[str]
    vectors: dict[str, list[float]]  # index name -> a removed node's own embedding


async def assert_gone(memory: GraphMemory, store: Store, group: str, gone: Gone) -> None:
    removed = set(gone.episode_ids) | set(gone.fact_ids) | set(gone.entity_ids)
    for text in gone.texts:  # channels through the search pipeline, by the exact text
        result = await memory.search(group, text, k=50, include_history=True)  # the widest view
        assert removed.isdisjoint({h.id for h in result.ranked}), text
        assert text not in result.context
        for index in ("episode_text", "fact_text", "entity_text"):  # raw BM25, every group
            hits = await fulltext(store, index, text)
            assert removed.isdisjoint({h["id"] for h in hits})
            assert all(h["content"] != text for h in hits if h["group_id"] == group)
    for index, vector in gone.vectors.items():  # nearest neighbours of the removed node's embedding
        assert removed.isdisjoint(await vector_neighbours(store, index, vector))
    for episode_id in gone.episode_ids:
        await _not_found(memory.get_episode(group, episode_id))
    for fact_id in gone.fact_ids:
        await _not_found(memory.get_fact(group, fact_id))
    for entity_id in gone.entity_ids:
        await _not_found(memory.get_entity(group, entity_id))
    listed = await memory.list_facts(group, include_history=True)
    assert removed.isdisjoint({f.id for f in listed})
    assert all(e.episode_id not in removed for f in listed for e in f.evidence)
    exported = "\n".join(await export_lines(memory, group))
    for needle in [*removed, *gone.texts]:
        assert needle not in exported, needle
    assert all(json.loads(line)["type"] in {"header", "node", "rel"} for line in exported.splitlines())
    kept = await store.read(  # the change log keeps its records, without their content
        "MATCH (c:Change {group_id: $g}) WHERE c.payload IS NOT NULL AND "
        "(any(t IN c.target_ids WHERE t IN $ids) OR any(e IN c.source_episode_ids WHERE e IN $ids)) "
        "RETURN c.kind AS kind, c.payload AS payload",
        g=group,
        ids=sorted(removed),
    )
    assert all(r["kind"] == "forget" and "content_hashes" in r["payload"] for r in kept), kept
    proof = await memory.forget_proof(group, probes=gone.texts)  # every store, by the same texts
    assert proof.forgotten, [s for s in proof.stores if s.found and s.holds_content]


async def _not_found(awaitable: Any) -> None:
    try:
        await awaitable
    except NotFound:
        return
    raise AssertionError("expected NotFound")


def seed_file(group: str) -> str:
    """A one-episode export, written by hand (no embeddings: the importer embeds them)."""
    lines = [
        records.header(
            group_id=group, model="hand/made", dimension=0, exported_at=utc(2024, 1, 1), since=None
        ),
        records.node_record(
            "Episode",
            {
                "id": str(uuid.uuid4()),
                "group_id": group,
                "key": uuid.uuid4().hex,
                "content": "我住在上海。",
                "reference_time": utc(2023, 1, 1),
                "ingested_at": utc(2023, 1, 1),
                "search_text": "我住在上海。 住在 上海",
                "group_token": group_token(group),
            },
        ),
    ]
    return "".join(records.dumps(r) + "\n" for r in lines)
