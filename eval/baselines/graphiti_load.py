"""Copy one graphmem tenant into graphiti-core's model through its LLM-free bulk save.

Read side: plain read queries over graphmem's graph (the documented schema, docs/schema.md), paged,
through graphmem's ``Store`` (eval never imports neo4j itself). Vectors are graphmem's stored MiniLM
vectors; only literal fact values (graphiti needs an entity at both ends of an edge) are embedded here.

Mapping:
- ``Episode`` -> ``EpisodicNode`` (message; content ``"<speaker>: <content>"``, graphiti's message
  convention; ``valid_at`` = reference time);
- ``Entity`` -> ``EntityNode`` (name, name_embedding);
- ``Fact`` -> ``EntityEdge`` subject -> object (or -> a literal node for a value), ``fact`` = the
  statement, ``episodes`` = its evidence episodes, valid/invalid/expired times kept (history included);
- ``MENTIONS`` -> ``EpisodicEdge``.
uuids are uuid5 of (target group, graphmem id), so a reload is idempotent.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from graphmem.ports import Embedder
from graphmem.store.cypher import baseline_export as q
from graphmem.store.driver import Store

PAGE = 2000

EPISODES, ENTITIES, FACTS, MENTIONS = q.EPISODES, q.ENTITIES, q.FACTS, q.MENTIONS


def _uid(group: str, key: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"graphmem-eval:{group}:{key}"))


async def _pages(store: Store, query: str, key: str, **params: Any) -> Any:
    after = ""
    while True:
        rows = await store.read(query, after=after, limit=PAGE, **params)
        if not rows:
            return
        yield rows
        after = rows[-1][key]


async def _save(
    graphiti: Any,
    *,
    episodes: Sequence[Any] = (),
    episodic_edges: Sequence[Any] = (),
    nodes: Sequence[Any] = (),
    edges: Sequence[Any] = (),
) -> None:
    from graphiti_core.utils.bulk_utils import add_nodes_and_edges_bulk

    await add_nodes_and_edges_bulk(
        graphiti.driver, list(episodes), list(episodic_edges), list(nodes), list(edges), graphiti.embedder
    )


async def copy_group(
    graphiti: Any,
    store: Store,
    embedder: Embedder,
    source_group: str,
    group: str,
    external_ids: dict[str, str],
) -> dict[str, Any]:
    """Load ``source_group`` into graphiti ``group``; fills ``external_ids`` (episode uuid -> ext id)."""
    from graphiti_core.edges import EntityEdge, EpisodicEdge
    from graphiti_core.nodes import EntityNode, EpisodeType, EpisodicNode

    now = datetime.now(UTC)
    counts = {"episodes": 0, "entities": 0, "facts": 0, "mentions": 0, "literal_nodes": 0}

    async for rows in _pages(store, ENTITIES, "id", group_id=source_group):
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
        ]
        await _save(graphiti, nodes=nodes)
        counts["entities"] += len(nodes)

    async for rows in _pages(store, EPISODES, "id", group_id=source_group):
        episodes = []
        for r in rows:
            uid = _uid(group, r["id"])
            if r.get("external_id"):
                external_ids[uid] = r["external_id"]
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

    async for rows in _pages(store, MENTIONS, "episode_id", group_id=source_group):
        mentions = [
            EpisodicEdge(
                uuid=_uid(group, f"mention:{r['episode_id']}:{x}"),
                group_id=group,
                source_node_uuid=_uid(group, r["episode_id"]),
                target_node_uuid=_uid(group, x),
                created_at=now,
            )
            for r in rows
            for x in r["entity_ids"]
        ]
        await _save(graphiti, episodic_edges=mentions)
        counts["mentions"] += len(mentions)

    literals: dict[str, str] = {}  # literal value -> node uuid
    async for rows in _pages(store, FACTS, "id", group_id=source_group):
        new_values = sorted(
            {r["value"] for r in rows if not r.get("object_id") and r.get("value")} - set(literals)
        )
        if new_values:
            vectors = embedder.embed(new_values)
            lit_nodes = []
            for value, vec in zip(new_values, vectors, strict=True):
                literals[value] = _uid(group, f"literal:{value}")
                lit_nodes.append(
                    EntityNode(
                        uuid=literals[value],
                        name=value[:500],
                        group_id=group,
                        labels=["Entity"],
                        created_at=now,
                        name_embedding=[float(x) for x in vec],
                    )
                )
            await _save(graphiti, nodes=lit_nodes)
            counts["literal_nodes"] += len(lit_nodes)
        edges = []
        for r in rows:
            target = _uid(group, r["object_id"]) if r.get("object_id") else literals.get(r.get("value") or "")
            if not r.get("subject_id") or target is None:
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
