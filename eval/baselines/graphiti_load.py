"""Copy one graphmem tenant into graphiti-core's model through its LLM-free bulk save.

Read side: plain read queries over graphmem's graph (the documented schema, docs/schema.md), paged,
through graphmem's ``Store`` (eval never imports neo4j itself); the next page is read while the current
one is saved. Vectors are graphmem's stored MiniLM vectors; only literal fact values (graphiti needs an
entity at both ends of an edge) are embedded here.

Write side: graphiti's own ``add_nodes_and_edges_bulk`` (its models, its UNWIND ... MERGE queries, its
vector properties), one transaction per chunk of ``SAVE`` items.

Mapping:
- ``Episode`` -> ``EpisodicNode`` (message; content ``"<speaker>: <content>"``, graphiti's message
  convention; ``valid_at`` = reference time);
- ``Entity`` -> ``EntityNode`` (name, name_embedding);
- ``Fact`` -> ``EntityEdge`` subject -> object (or -> a literal node for a value), ``fact`` = the
  statement, ``episodes`` = its evidence episodes, valid/invalid/expired times kept (history included);
- ``MENTIONS`` -> ``EpisodicEdge``.
uuids are uuid5 of (target group, graphmem id), so a reload is idempotent, and a copy that stopped
part-way resumes: items whose uuid graphiti already holds are skipped (``resume=True``).
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime
from typing import Any

from graphmem.ports import Embedder
from graphmem.store.cypher import baseline_export as q
from graphmem.store.driver import Store

PAGE = 2000  # rows a read returns
# items a save transaction writes: graphiti's MENTIONS merge scans its (still empty) uuid index once
# per row while the index has no statistics, which is quadratic in the rows of one transaction
# (35 s for the first 2,500 mentions); 500 keeps that first chunk near a second.
SAVE = 500

EPISODES, ENTITIES, FACTS, MENTIONS = q.EPISODES, q.ENTITIES, q.FACTS, q.MENTIONS

# counts keys of ``source_counts`` / ``graphiti_counts`` that must agree for a complete copy
COUNT_KEYS = ("episodes", "entity_nodes", "facts", "mentions")


def _uid(group: str, key: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"graphmem-eval:{group}:{key}"))


async def _pages(store: Store, query: str, key: str, **params: Any) -> AsyncIterator[list[dict[str, Any]]]:
    """Keyset pages of ``query``; the next page is already being read while the caller works on one."""

    def read(after: str) -> asyncio.Task[list[dict[str, Any]]]:
        return asyncio.ensure_future(store.read(query, after=after, limit=PAGE, **params))

    pending: asyncio.Task[list[dict[str, Any]]] | None = read("")
    try:
        while pending is not None:
            rows = await pending
            pending = read(rows[-1][key]) if len(rows) == PAGE else None
            if rows:
                yield rows
    finally:
        if pending is not None and not pending.done():
            pending.cancel()


async def _save(
    graphiti: Any,
    *,
    episodes: Sequence[Any] = (),
    episodic_edges: Sequence[Any] = (),
    nodes: Sequence[Any] = (),
    edges: Sequence[Any] = (),
) -> None:
    """graphiti's bulk save, ``SAVE`` items per transaction."""
    from graphiti_core.utils.bulk_utils import add_nodes_and_edges_bulk

    for items, kind in ((episodes, 0), (nodes, 1), (episodic_edges, 2), (edges, 3)):
        for i in range(0, len(items), SAVE):
            chunk = list(items[i : i + SAVE])
            batch: list[list[Any]] = [[], [], [], []]
            batch[kind] = chunk
            await add_nodes_and_edges_bulk(
                graphiti.driver, batch[0], batch[2], batch[1], batch[3], graphiti.embedder
            )


async def _missing(store: Store, query: str, uuids: list[str], resume: bool) -> set[str]:
    """The uuids graphiti does not hold yet (all of them on a fresh copy)."""
    if not resume or not uuids:
        return set(uuids)
    held = {r["uuid"] for r in await store.read(query, uuids=uuids)}
    return set(uuids) - held


async def source_counts(store: Store, source_group: str) -> dict[str, int]:
    """What a complete copy of ``source_group`` holds, in ``graphiti_counts``' terms."""
    rows = await store.read(q.SOURCE_COUNTS, group_id=source_group)
    r = rows[0]
    return {
        "episodes": r["episodes"],
        "entity_nodes": r["entities"] + r["literal_nodes"],
        "facts": r["facts"],
        "mentions": r["mentions"],
    }


async def graphiti_counts(store: Store, group: str) -> dict[str, int]:
    """What graphiti holds for ``group`` (episodes, entity nodes, RELATES_TO and MENTIONS edges)."""
    rows = await store.read(q.GRAPHITI_COUNTS, group_id=group)
    return {k: int(rows[0][k]) for k in COUNT_KEYS}


async def external_id_map(store: Store, source_group: str, group: str, external_ids: dict[str, str]) -> None:
    """Fill ``external_ids`` (graphiti episode uuid -> external id) without copying anything."""
    rows = await store.read(q.EPISODE_KEYS, group_id=source_group)
    for episode_id, external_id in rows[0]["keys"] if rows else ():
        external_ids[_uid(group, episode_id)] = external_id


async def copy_group(
    graphiti: Any,
    store: Store,
    embedder: Embedder,
    source_group: str,
    group: str,
    external_ids: dict[str, str],
    *,
    resume: bool = False,
) -> dict[str, Any]:
    """Load ``source_group`` into graphiti ``group``; fills ``external_ids`` (episode uuid -> ext id).

    With ``resume``, items graphiti already holds (by uuid) are not written again. Counts are of
    items written (skipped ones under ``skipped``)."""
    from graphiti_core.edges import EntityEdge, EpisodicEdge
    from graphiti_core.nodes import EntityNode, EpisodeType, EpisodicNode

    now = datetime.now(UTC)
    counts = {"episodes": 0, "entities": 0, "facts": 0, "mentions": 0, "literal_nodes": 0, "skipped": 0}

    async for rows in _pages(store, ENTITIES, "id", group_id=source_group):
        todo = await _missing(store, q.GRAPHITI_ENTITY, [_uid(group, r["id"]) for r in rows], resume)
        nodes = [
            EntityNode(
                uuid=_uid(group, r["id"]),
                name=r["name"],
                group_id=group,
                labels=["Entity"],
                summary=r.get("summary") or "",
                created_at=r.get("created_at") or now,
                name_embedding=[float(x) for x in r["embedding"]] if r.get("embedding") else None,
            )
            for r in rows
            if _uid(group, r["id"]) in todo
        ]
        await _save(graphiti, nodes=nodes)
        counts["entities"] += len(nodes)
        counts["skipped"] += len(rows) - len(nodes)

    async for rows in _pages(store, EPISODES, "id", group_id=source_group):
        todo = await _missing(store, q.GRAPHITI_EPISODIC, [_uid(group, r["id"]) for r in rows], resume)
        episodes = []
        for r in rows:
            uid = _uid(group, r["id"])
            if r.get("external_id"):
                external_ids[uid] = r["external_id"]
            if uid not in todo:
                continue
            speaker = r.get("speaker")
            episodes.append(
                EpisodicNode(
                    uuid=uid,
                    name=r.get("external_id") or r["id"],
                    group_id=group,
                    source=EpisodeType.message,
                    source_description="graphmem episode",
                    content=f"{speaker}: {r['content']}" if speaker else r["content"],
                    valid_at=r["reference_time"],
                    created_at=r.get("ingested_at") or now,
                )
            )
        await _save(graphiti, episodes=episodes)
        counts["episodes"] += len(episodes)
        counts["skipped"] += len(rows) - len(episodes)

    async for rows in _pages(store, MENTIONS, "episode_id", group_id=source_group):
        pairs = {(r["episode_id"], x) for r in rows for x in r["entity_ids"]}
        keyed = {_uid(group, f"mention:{e}:{x}"): (e, x) for e, x in sorted(pairs)}
        todo = await _missing(store, q.GRAPHITI_MENTIONS, list(keyed), resume)
        mentions = [
            EpisodicEdge(
                uuid=uid,
                group_id=group,
                source_node_uuid=_uid(group, e),
                target_node_uuid=_uid(group, x),
                created_at=now,
            )
            for uid, (e, x) in keyed.items()
            if uid in todo
        ]
        await _save(graphiti, episodic_edges=mentions)
        counts["mentions"] += len(mentions)
        counts["skipped"] += len(keyed) - len(mentions)

    literals: dict[str, str] = {}  # literal value -> node uuid
    async for rows in _pages(store, FACTS, "id", group_id=source_group):
        new_values = sorted(
            {r["value"] for r in rows if not r.get("object_id") and r.get("value")} - set(literals)
        )
        for value in new_values:
            literals[value] = _uid(group, f"literal:{value}")
        todo = await _missing(store, q.GRAPHITI_ENTITY, [literals[v] for v in new_values], resume)
        embed = [v for v in new_values if literals[v] in todo]
        if embed:
            vectors = embedder.embed(embed)
            lit_nodes = [
                EntityNode(
                    uuid=literals[value],
                    name=value[:500],
                    group_id=group,
                    labels=["Entity"],
                    created_at=now,
                    name_embedding=[float(x) for x in vec],
                )
                for value, vec in zip(embed, vectors, strict=True)
            ]
            await _save(graphiti, nodes=lit_nodes)
            counts["literal_nodes"] += len(lit_nodes)
        counts["skipped"] += len(new_values) - len(embed)
        todo = await _missing(store, q.GRAPHITI_RELATES_TO, [_uid(group, r["id"]) for r in rows], resume)
        edges = []
        for r in rows:
            target = _uid(group, r["object_id"]) if r.get("object_id") else literals.get(r.get("value") or "")
            if not r.get("subject_id") or target is None:
                continue
            if _uid(group, r["id"]) not in todo:
                counts["skipped"] += 1
                continue
            edges.append(
                EntityEdge(
                    uuid=_uid(group, r["id"]),
                    group_id=group,
                    source_node_uuid=_uid(group, r["subject_id"]),
                    target_node_uuid=target,
                    created_at=r.get("recorded_at") or now,
                    name=str(r.get("predicate") or "related_to").upper(),
                    fact=r.get("statement") or "",
                    fact_embedding=[float(x) for x in r["embedding"]] if r.get("embedding") else None,
                    episodes=[_uid(group, e) for e in r.get("evidence") or []],
                    valid_at=r.get("valid_from"),
                    invalid_at=r.get("valid_to"),
                    expired_at=r.get("expired_at"),
                )
            )
        await _save(graphiti, edges=edges)
        counts["facts"] += len(edges)
    return counts
