"""Repository functions for browsing: groups, and a session's episodes in order."""

from __future__ import annotations

from typing import Any

from graphmem.store.cypher import browse as q
from graphmem.store.driver import Store


async def groups(store: Store, *, group_ids: list[str] | None, limit: int) -> list[dict[str, Any]]:
    return await store.read(q.GROUP_IDS, group_ids=group_ids, limit=limit)


async def session_episodes(
    store: Store, *, group_id: str, session_id: str, limit: int
) -> list[dict[str, Any]]:
    return await store.read(q.SESSION_EPISODES, group_id=group_id, session_id=session_id, limit=limit)
