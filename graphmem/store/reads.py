"""Repository functions for reads (facts, timelines, entities, episodes)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from graphmem.models.fact import Evidence, FactRecord
from graphmem.store.cypher import reads as q
from graphmem.store.driver import Store


async def facts_of_subject(
    store: Store,
    *,
    group_id: str,
    subject_key: str,
    predicate: str | None,
    mode: str,
    as_of: datetime | None,
    known_at: datetime | None,
) -> list[dict[str, Any]]:
    return await store.read(
        q.FACTS_OF_SUBJECT,
        group_id=group_id,
        subject_key=subject_key,
        predicate=predicate,
        mode=mode,
        as_of=as_of,
        known_at=known_at,
    )


async def subject_slots(
    store: Store, *, group_id: str, subject_key: str, predicate: str | None, known_at: datetime
) -> list[dict[str, Any]]:
    return await store.read(
        q.SUBJECT_SLOTS, group_id=group_id, subject_key=subject_key, predicate=predicate, known_at=known_at
    )


async def facts_of_group(
    store: Store,
    *,
    group_id: str,
    predicate: str | None,
    mode: str,
    as_of: datetime | None,
    known_at: datetime | None,
    limit: int,
) -> list[dict[str, Any]]:
    return await store.read(
        q.FACTS_OF_GROUP,
        group_id=group_id,
        predicate=predicate,
        mode=mode,
        as_of=as_of,
        known_at=known_at,
        limit=limit,
    )


async def facts_by_ids(store: Store, *, group_id: str, ids: list[str]) -> list[dict[str, Any]]:
    return await store.read(q.FACTS_BY_IDS, group_id=group_id, ids=ids) if ids else []


async def timeline(store: Store, *, group_id: str, entity_id: str) -> list[dict[str, Any]]:
    return await store.read(q.TIMELINE, group_id=group_id, entity_id=entity_id)


async def entity_by_id(store: Store, *, group_id: str, entity_id: str) -> dict[str, Any] | None:
    rows = await store.read(q.ENTITY_BY_ID, group_id=group_id, entity_id=entity_id)
    return rows[0]["entity"] if rows else None


async def entities_by_name(
    store: Store, *, group_id: str, key: str | None, limit: int
) -> list[dict[str, Any]]:
    rows = await store.read(q.ENTITIES_BY_NAME, group_id=group_id, key=key, limit=limit)
    return [r["entity"] for r in rows]


async def episode_by_id(store: Store, *, group_id: str, episode_id: str) -> dict[str, Any] | None:
    rows = await store.read(q.EPISODE_BY_ID, group_id=group_id, episode_id=episode_id)
    return rows[0] if rows else None


async def group_stats(store: Store, *, group_id: str) -> dict[str, int]:
    rows = await store.read(q.GROUP_STATS, group_id=group_id)
    return rows[0]


def to_fact(row: dict[str, Any]) -> FactRecord:
    """A FACT_PROJECTION row as a ``FactRecord``."""
    fact = {k: v for k, v in dict(row["fact"]).items() if v is not None}
    fact["object"] = row.get("object")
    fact["evidence"] = [Evidence(**e) for e in row.get("evidence") or []]
    fact["supersedes"] = row.get("supersedes") or []
    fact["superseded_by"] = row.get("superseded_by") or []
    return FactRecord(**fact)
