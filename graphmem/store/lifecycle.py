"""Repository functions for the memory lifecycle. Keyword-only; each takes the caller's ``tx``
(or the ``store`` for schema statements and streamed reads)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any

from graphmem.errors import InvalidInput
from graphmem.store.cypher import lifecycle as q
from graphmem.store.cypher import schema
from graphmem.store.driver import Store, Tx, map_neo4j_errors, native, run

NODE_LABELS = ("Episode", "Entity", "Fact", "Tombstone")
REL_TYPES = tuple(q.IMPORT_RELS)


def _pick(table: dict[str, str], name: str, what: str) -> str:
    if name not in table:
        raise InvalidInput(f"unknown {what} {name!r}", details={what: name, "allowed": sorted(table)})
    return table[name]


# --- shared ---------------------------------------------------------------------------------------


async def lock_existing_group(tx: Tx, *, group_id: str) -> bool:
    """Take the group's write lock when the group exists (never creates it)."""
    return bool(await run(tx, q.LOCK_EXISTING_GROUP, group_id=group_id))


async def reset_group(tx: Tx, *, group_id: str) -> None:
    """Mark the group reset at this transaction's revision (call after taking its lock): change-feed
    readers reload it (graphmem.store.snapshot). For deletions and rewrites that stamp no ``rev``."""
    await run(tx, q.RESET_GROUP, group_id=group_id)


async def write_entity_tombstone(tx: Tx, *, group_id: str, key: str, now: datetime) -> None:
    await run(tx, q.WRITE_ENTITY_TOMBSTONE, group_id=group_id, key=key, now=now)


async def lock_reset_groups(tx: Tx, *, group_ids: list[str]) -> None:
    """Lock several groups, in sorted order, and mark each reset at its new revision."""
    if group_ids:
        await run(tx, q.LOCK_RESET_GROUPS, group_ids=sorted(set(group_ids)))


async def group_counts(tx: Tx, *, group_id: str) -> dict[str, int]:
    row = (await run(tx, q.GROUP_COUNTS, group_id=group_id))[0]
    return {k: int(v or 0) for k, v in row.items()}


async def recount_group(tx: Tx, *, group_id: str, now: datetime) -> None:
    await run(tx, q.RECOUNT_GROUP, group_id=group_id, now=now)


async def list_groups(store: Store) -> list[str]:
    return [r["group_id"] for r in await store.read(q.LIST_GROUPS)]


# --- forget ---------------------------------------------------------------------------------------


async def episodes_by_ids(tx: Tx, *, group_id: str, ids: list[str]) -> list[dict[str, Any]]:
    return await run(tx, q.EPISODES_BY_IDS, group_id=group_id, ids=ids) if ids else []


async def episodes_before(tx: Tx, *, group_id: str, before: datetime) -> list[dict[str, Any]]:
    return await run(tx, q.EPISODES_BEFORE, group_id=group_id, before=before)


async def slots_of_episodes(tx: Tx, *, group_id: str, ids: list[str]) -> list[str]:
    rows = await run(tx, q.SLOTS_OF_EPISODES, group_id=group_id, ids=ids) if ids else []
    return sorted({r["slot"] for r in rows})


async def entities_mentioned(tx: Tx, *, group_id: str, ids: list[str]) -> set[str]:
    rows = await run(tx, q.ENTITIES_MENTIONED, group_id=group_id, ids=ids) if ids else []
    return {r["id"] for r in rows}


async def entity_exists(tx: Tx, *, group_id: str, entity_id: str) -> bool:
    return bool(await run(tx, q.ENTITY_IN_GROUP, group_id=group_id, entity_id=entity_id))


async def slots_of_entity(tx: Tx, *, group_id: str, entity_id: str) -> list[dict[str, Any]]:
    """(slot, fact_id, role) for every fact whose SUBJECT or OBJECT is the entity."""
    return await run(tx, q.SLOTS_OF_ENTITY, group_id=group_id, entity_id=entity_id)


async def entities_of_slots(tx: Tx, *, group_id: str, slots: list[str]) -> set[str]:
    rows = await run(tx, q.ENTITIES_OF_SLOTS, group_id=group_id, slots=slots) if slots else []
    return {r["id"] for r in rows}


async def load_slot_facts(tx: Tx, *, group_id: str, slots: list[str]) -> list[dict[str, Any]]:
    return await run(tx, q.LOAD_SLOT_FACTS, group_id=group_id, slots=slots) if slots else []


async def delete_episodes(tx: Tx, *, group_id: str, ids: list[str]) -> None:
    if ids:
        await run(tx, q.DELETE_EPISODES, group_id=group_id, ids=ids)


async def write_tombstones(tx: Tx, *, group_id: str, rows: list[dict[str, Any]], now: datetime) -> None:
    """Key and content hash only: enough to refuse a re-ingest, nothing of the content."""
    if rows:
        await run(tx, q.WRITE_TOMBSTONES, group_id=group_id, rows=rows, now=now)


async def write_group_tombstone(tx: Tx, *, group_id: str, key: str, now: datetime) -> None:
    await run(tx, q.WRITE_GROUP_TOMBSTONE, group_id=group_id, key=key, now=now)


async def group_forgotten_at(tx: Tx, *, keys: list[str]) -> datetime | None:
    """The latest ``forgotten_at`` of the group markers under ``keys`` (None: no such group)."""
    rows = await run(tx, q.GROUP_FORGOTTEN_AT, keys=keys)
    return rows[0]["forgotten_at"] if rows else None


async def tombstoned_keys(tx: Tx, *, keys: list[str]) -> set[str]:
    """Which of ``keys`` (episode idempotency keys, in any group) a tombstone holds."""
    if not keys:
        return set()
    return {r["key"] for r in await run(tx, q.TOMBSTONED_KEYS, keys=keys)}


async def delete_tombstones(tx: Tx, *, keys: list[str]) -> None:
    if keys:
        await run(tx, q.DELETE_TOMBSTONES, keys=keys)


async def delete_orphan_entities(tx: Tx, *, group_id: str, ids: list[str]) -> None:
    if ids:
        await run(tx, q.DELETE_ORPHAN_ENTITIES, group_id=group_id, ids=ids)


async def delete_entity(tx: Tx, *, group_id: str, entity_id: str) -> None:
    await run(tx, q.DELETE_ENTITY, group_id=group_id, entity_id=entity_id)


async def delete_group(tx: Tx, *, group_id: str, now: datetime, purge_tombstones: bool) -> None:
    """Every node of the tenant. Tombstones are written for its episodes and kept, unless purged."""
    if purge_tombstones:
        await run(tx, q.DELETE_GROUP_LABEL["Tombstone"], group_id=group_id)
    else:
        await run(tx, q.TOMBSTONE_GROUP_EPISODES, group_id=group_id, now=now)
    for label in ("Fact", "Episode", "Entity"):
        await run(tx, q.DELETE_GROUP_LABEL[label], group_id=group_id)
    await run(tx, q.DELETE_GROUP_NODE, group_id=group_id)


# --- export ---------------------------------------------------------------------------------------


async def stream(tx: Tx, query: str, **params: Any) -> AsyncIterator[dict[str, Any]]:
    """Rows of one query, fetched lazily inside the caller's transaction."""
    with map_neo4j_errors():
        result = await tx.run(query, params)
        async for record in result:
            yield native(record.data())


def export_nodes(tx: Tx, *, label: str, group_id: str, since: datetime | None) -> AsyncIterator[dict]:
    query = _pick(q.EXPORT_NODES, label, "label")
    return stream(tx, query, group_id=group_id, since=since)


def export_rels(tx: Tx, *, owner: str, group_id: str, since: datetime | None) -> AsyncIterator[dict]:
    query = _pick(q.EXPORT_RELS, owner, "label")
    return stream(tx, query, group_id=group_id, since=since)


# --- import ---------------------------------------------------------------------------------------


async def import_conflicts(
    tx: Tx, *, label: str, group_id: str, rows: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    query = _pick(q.IMPORT_CONFLICTS, label, "label")
    return await run(tx, query, group_id=group_id, rows=rows) if rows else []


async def import_nodes(tx: Tx, *, label: str, group_id: str, rows: list[dict[str, Any]]) -> int:
    """MERGE by id (tombstones by key) and replace the properties: importing twice changes nothing
    but ``rev``, stamped with the group's current revision."""
    if not rows:
        return 0
    query = _pick(q.IMPORT_NODES, label, "label")
    return int((await run(tx, query, group_id=group_id, rows=rows))[0]["written"])


def check_extra_labels(label: str, extra: list[str]) -> None:
    for name in extra:
        if (label, name) not in q.ADD_LABEL:
            raise InvalidInput(
                f"unknown label {name!r} on a {label} node",
                details={"label": label, "extra": name, "allowed": sorted(n for _, n in q.ADD_LABEL)},
            )


async def add_labels(tx: Tx, *, label: str, extra: str, ids: list[str]) -> None:
    if ids:
        await run(tx, q.ADD_LABEL[(label, extra)], ids=ids)


async def import_rels(tx: Tx, *, rel_type: str, group_id: str, rows: list[dict[str, Any]]) -> int:
    """MERGE between two nodes of the group; returns how many found both endpoints."""
    if not rows:
        return 0
    query = _pick(q.IMPORT_RELS, rel_type, "rel_type")
    return int((await run(tx, query, group_id=group_id, rows=rows))[0]["written"])


# --- re-embed -------------------------------------------------------------------------------------


async def reembed_page(
    tx: Tx, *, label: str, group_id: str | None, after: str, limit: int
) -> list[dict[str, Any]]:
    query = _pick(q.REEMBED_PAGE, label, "label")
    return await run(tx, query, group_id=group_id, after=after, limit=limit)


async def set_embeddings(tx: Tx, *, label: str, rows: list[dict[str, Any]]) -> None:
    if rows:
        await run(tx, _pick(q.SET_EMBEDDINGS, label, "label"), rows=rows)


def _cursor_key(group_id: str | None) -> str:
    return "reembed" if group_id is None else f"reembed:{group_id}"


async def reembed_cursor(tx: Tx, *, group_id: str | None) -> dict[str, Any] | None:
    rows = await run(tx, q.GET_REEMBED_CURSOR, key=_cursor_key(group_id))
    return rows[0] if rows else None


async def save_reembed_cursor(tx: Tx, *, group_id: str | None, **cursor: Any) -> None:
    await run(tx, q.SET_REEMBED_CURSOR, key=_cursor_key(group_id), group_id=group_id, **cursor)


async def clear_reembed_cursor(tx: Tx, *, group_id: str | None) -> None:
    await run(tx, q.DELETE_REEMBED_CURSOR, key=_cursor_key(group_id))


async def embedding_meta(store: Store) -> dict[str, Any] | None:
    rows = await store.read(schema.GET_EMBEDDING_META)
    return rows[0] if rows else None


async def set_embedding_meta(tx: Tx, *, model: str, dimension: int) -> None:
    await run(tx, schema.SET_EMBEDDING_META, model=model, dimension=dimension)


async def vector_index_dimensions(store: Store) -> dict[str, int]:
    rows = await store.read(q.VECTOR_INDEX_DIMENSIONS)
    return {r["name"]: int(r["dimension"]) for r in rows if r["dimension"] is not None}


async def drop_vector_indexes(store: Store) -> None:
    for statement in schema.DROP_VECTOR_INDEXES:
        await store.write(statement)  # schema statements need their own transactions


async def create_vector_indexes(store: Store, *, dimension: int) -> None:
    for name, label in (
        ("episode_embedding", "Episode"),
        ("fact_embedding", "Fact"),
        ("entity_embedding", "Entity"),
    ):
        await store.write(schema.vector_index(name, label, dimension))
    await store.write(
        schema.RECORD_MIGRATION,
        id=f"0004_vector_{int(dimension)}",
        description="vector indexes sized from the embedder (recreated by reembed)",
    )


# --- decay / archive ------------------------------------------------------------------------------


async def idle_facts(tx: Tx, *, group_id: str | None, idle_before: datetime) -> list[dict[str, Any]]:
    if group_id is None:
        return await run(tx, q.IDLE_FACTS, idle_before=idle_before)
    return await run(tx, q.IDLE_FACTS_OF_GROUP, group_id=group_id, idle_before=idle_before)


async def archive_facts(tx: Tx, *, ids: list[str], now: datetime) -> int:
    if not ids:
        return 0
    return int((await run(tx, q.ARCHIVE_FACTS, ids=ids, now=now))[0]["archived"])


async def restorable_groups(store: Store) -> list[str]:
    return [r["group_id"] for r in await store.read(q.RESTORABLE_GROUPS)]


async def restore_used_facts(tx: Tx, *, group_id: str, now: datetime) -> int:
    rows = await run(tx, q.RESTORE_USED_OF_GROUP, group_id=group_id, now=now)
    return int(rows[0]["restored"])
