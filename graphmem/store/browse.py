"""Repository functions for browsing: groups, and a session's episodes in order."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from graphmem.store.cypher import browse as q
from graphmem.store.driver import Store


async def groups(
    store: Store, *, group_ids: list[str] | None, limit: int, after: str | None = None
) -> list[dict[str, Any]]:
    return await store.read(q.GROUP_IDS, group_ids=group_ids, after=after, limit=limit)


async def session_episodes(
    store: Store, *, group_id: str, session_id: str, limit: int
) -> list[dict[str, Any]]:
    return await store.read(q.SESSION_EPISODES, group_id=group_id, session_id=session_id, limit=limit)


async def sessions_page(store: Store, *, group_id: str, after: str, limit: int) -> list[dict[str, Any]]:
    return await store.read(q.SESSIONS_PAGE, group_id=group_id, after=after, limit=limit)


async def episodes_page(
    store: Store,
    *,
    group_id: str,
    lo: datetime,
    hi: datetime,
    session_id: str | None,
    speaker: str | None,
    after: tuple[datetime, str] | None,
    descending: bool,
    limit: int,
) -> list[dict[str, Any]]:
    return await store.read(
        q.EPISODES_PAGE_DESC if descending else q.EPISODES_PAGE_ASC,
        group_id=group_id,
        lo=lo,
        hi=hi,
        session_id=session_id,
        speaker=speaker,
        after_time=after[0] if after else None,
        after_id=after[1] if after else None,
        limit=limit,
    )


async def session_fact_turns(store: Store, *, group_id: str, session_id: str) -> dict[str, Any]:
    rows = await store.read(q.SESSION_FACT_TURNS, group_id=group_id, session_id=session_id)
    return rows[0]


async def episodes_by_ids(store: Store, *, group_id: str, ids: list[str]) -> list[dict[str, Any]]:
    return await store.read(q.EPISODES_BY_IDS, group_id=group_id, ids=ids)
