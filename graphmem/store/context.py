"""Recompute episodes' search context (``graphmem.store.cypher.context``) inside a transaction."""

from __future__ import annotations

from graphmem.store.cypher import context as q
from graphmem.store.driver import Tx, run


async def refresh_around(tx: Tx, *, group_id: str, ids: list[str]) -> None:
    if ids:
        await run(tx, q.REFRESH_AROUND, group_id=group_id, ids=ids)


async def refresh_ids(tx: Tx, *, group_id: str, ids: list[str]) -> None:
    if ids:
        await run(tx, q.REFRESH_IDS, group_id=group_id, ids=ids)


async def refresh_sessions(tx: Tx, *, group_id: str, session_ids: list[str]) -> None:
    if session_ids:
        await run(tx, q.REFRESH_SESSIONS, group_id=group_id, sessions=session_ids)
