"""Repository functions for the write path. Keyword-only, each takes the caller's ``tx``."""

from __future__ import annotations

from datetime import datetime
from itertools import pairwise
from typing import Any

from graphmem.store.cypher import ingest as q
from graphmem.store.driver import Tx, run


async def lock_group(tx: Tx, *, group_id: str, now: datetime) -> None:
    """Serialise writers of one group (entity and fact resolution read-then-write)."""
    await run(tx, q.LOCK_GROUP, group_id=group_id, now=now)


async def existing_episode_keys(tx: Tx, *, keys: list[str]) -> dict[str, dict[str, Any]]:
    rows = await run(tx, q.EXISTING_EPISODE_KEYS, keys=keys)
    return {r["key"]: r for r in rows if r["id"] is not None or r["tombstoned"]}


async def create_episodes(
    tx: Tx, *, group_id: str, group_token: str, rows: list[dict[str, Any]], now: datetime
) -> None:
    if rows:
        await run(tx, q.CREATE_EPISODES, group_id=group_id, group_token=group_token, rows=rows, now=now)


async def relink_sessions(tx: Tx, *, group_id: str, session_ids: list[str]) -> None:
    if session_ids:
        await run(tx, q.RELINK_SESSIONS, group_id=group_id, sessions=session_ids)


async def link_sessions(tx: Tx, *, group_id: str, since: dict[str, datetime]) -> None:
    """Fit new episodes into their sessions' NEXT chains (``since``: session -> earliest new
    episode), changing only the edges that differ from the ordered chain: the same chain as
    ``relink_sessions`` gives, without rewriting the sessions' older part."""
    if not since:
        return
    sessions = [{"id": sid, "since": at} for sid, at in sorted(since.items())]
    drop: list[dict[str, str]] = []
    add: list[dict[str, str]] = []
    for row in await run(tx, q.SESSION_TAILS, group_id=group_id, sessions=sessions):
        ids: list[str] = row["ids"]
        wanted = set(pairwise(ids))
        current = {(a, b) for a, targets in zip(ids, row["nexts"], strict=True) for b in targets}
        drop.extend({"a": a, "b": b} for a, b in sorted(current - wanted))
        add.extend({"a": a, "b": b} for a, b in sorted(wanted - current))
    if drop:
        await run(tx, q.UNLINK_NEXT, rows=drop)
    if add:
        await run(tx, q.LINK_NEXT, rows=add)


async def find_entities(tx: Tx, *, group_id: str, keys: list[str]) -> dict[str, dict[str, Any]]:
    rows = await run(tx, q.FIND_ENTITIES, group_id=group_id, names=keys)
    found: dict[str, dict[str, Any]] = {}
    for row in sorted(rows, key=lambda r: r["id"]):
        found.setdefault(row["key"], row)
    return found


async def entity_candidates(
    tx: Tx, *, queries: list[dict[str, str]], limit: int = 10
) -> list[dict[str, Any]]:
    """Full-text candidates for several names at once (``queries``: [{key, lucene}])."""
    return await run(tx, q.ENTITY_CANDIDATES, queries=queries, limit=limit) if queries else []


async def merge_entities(
    tx: Tx, *, group_id: str, group_token: str, rows: list[dict[str, Any]], now: datetime
) -> list[dict[str, Any]]:
    if not rows:
        return []
    return await run(tx, q.MERGE_ENTITIES, group_id=group_id, group_token=group_token, rows=rows, now=now)


async def add_aliases(tx: Tx, *, group_id: str, rows: list[dict[str, Any]]) -> None:
    if rows:
        await run(tx, q.ADD_ALIASES, group_id=group_id, rows=rows)


async def link_mentions(tx: Tx, *, group_id: str, rows: list[dict[str, str]]) -> None:
    if rows:
        await run(tx, q.LINK_MENTIONS, group_id=group_id, rows=rows)


async def load_slots(tx: Tx, *, group_id: str, slots: list[str]) -> list[dict[str, Any]]:
    return await run(tx, q.LOAD_SLOTS, group_id=group_id, slots=slots) if slots else []


async def write_facts(
    tx: Tx,
    *,
    group_id: str,
    group_token: str,
    facts: list[dict[str, Any]],
    evidence: list[dict[str, Any]],
    delete_ids: list[str],
    slots: list[str],
    supersedes: list[dict[str, Any]],
    now: datetime,
) -> None:
    """Apply resolved slot plans: upsert facts, rebuild their evidence and the slots' chains."""
    if delete_ids:
        await run(tx, q.DELETE_FACTS, ids=delete_ids)
    if facts:
        await run(tx, q.UPSERT_FACTS, group_id=group_id, group_token=group_token, rows=facts, now=now)
        await run(tx, q.RESET_EVIDENCE, fact_ids=[f["id"] for f in facts])
    if evidence:
        await run(tx, q.CREATE_EVIDENCE, rows=evidence)
    if slots:
        await run(tx, q.RESET_SUPERSEDES, group_id=group_id, slots=slots)
    if supersedes:
        await run(tx, q.CREATE_SUPERSEDES, rows=supersedes)


async def link_correction(tx: Tx, *, group_id: str, old_id: str, new_id: str) -> None:
    await run(tx, q.LINK_CORRECTION, group_id=group_id, old_id=old_id, new_id=new_id)


async def update_group_counts(
    tx: Tx, *, group_id: str, episodes: int, facts: int, entities: int, now: datetime
) -> None:
    await run(
        tx,
        q.UPDATE_GROUP_COUNTS,
        group_id=group_id,
        episodes=episodes,
        facts=facts,
        entities=entities,
        now=now,
    )


async def episodes_in_group(tx: Tx, *, group_id: str, ids: list[str]) -> set[str]:
    rows = await run(tx, q.EPISODES_IN_GROUP, group_id=group_id, ids=ids) if ids else []
    return {r["id"] for r in rows}


async def fact_for_update(tx: Tx, *, group_id: str, fact_id: str) -> dict[str, Any] | None:
    rows = await run(tx, q.FACT_FOR_UPDATE, group_id=group_id, fact_id=fact_id)
    return rows[0] if rows else None
