"""Repository functions for the change log (``graphmem.store.cypher.changes``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from graphmem.store.cypher import changes as q
from graphmem.store.driver import Store, Tx, run


async def append(tx: Tx, *, group_id: str, rows: list[dict[str, Any]], now: datetime) -> int:
    """Append records in the caller's transaction (which holds the group lock)."""
    if not rows:
        return 0
    return int((await run(tx, q.APPEND, group_id=group_id, rows=rows, now=now))[0]["written"])


async def redact(tx: Tx, *, group_id: str, ids: list[str] | None, now: datetime) -> int:
    """Null the payload of the group's records naming any of ``ids`` (every record when None)."""
    if ids is not None and not ids:
        return 0
    return int((await run(tx, q.REDACT, group_id=group_id, ids=ids, now=now))[0]["redacted"])


async def archived_at(tx: Tx, *, group_id: str, ids: list[str], now: datetime) -> list[dict[str, Any]]:
    return await run(tx, q.ARCHIVED_AT, group_id=group_id, ids=ids, now=now) if ids else []


async def page(
    store: Store,
    *,
    group_id: str,
    after: tuple[int, int],
    since: datetime | None,
    until: datetime | None,
    target: str | None,
    limit: int,
) -> list[dict[str, Any]]:
    rows = await store.read(
        q.PAGE,
        group_id=group_id,
        seq=after[0],
        n=after[1],
        since=since,
        until=until,
        target=target,
        limit=limit,
    )
    return [r["change"] for r in rows]


async def episodes_for_replay(store: Store, *, group_id: str, ids: list[str]) -> list[dict[str, Any]]:
    return await store.read(q.EPISODES_FOR_REPLAY, group_id=group_id, ids=ids) if ids else []


async def rename_facts(store: Store, *, group_id: str, rows: list[dict[str, str]]) -> int:
    if not rows:
        return 0
    return int((await store.write(q.RENAME_FACTS, group_id=group_id, rows=rows))[0]["renamed"])
