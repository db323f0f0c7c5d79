"""Browsing: the groups a caller may read, and a session's turns with the facts each produced."""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel

from graphmem.memory.context import MemoryContext
from graphmem.memory.reads import facts_by_ids
from graphmem.models.episode import EpisodeRecord
from graphmem.models.fact import FactRecord
from graphmem.store import browse


class GroupSummary(BaseModel):
    group_id: str
    episodes: int = 0
    facts: int = 0
    entities: int = 0


class SessionTurn(BaseModel):
    episode: EpisodeRecord
    facts: list[FactRecord] = []


async def list_groups(
    ctx: MemoryContext, group_ids: Iterable[str] | None, *, limit: int = 1000
) -> list[GroupSummary]:
    """Groups that hold memory, of ``group_ids`` only when given (``None``: every group)."""
    ids = sorted(group_ids) if group_ids is not None else None
    rows = await browse.groups(ctx.store, group_ids=ids, limit=limit)
    return [GroupSummary(**row) for row in rows]


async def session_turns(
    ctx: MemoryContext, group_id: str, session_id: str, *, last_n: int = 100
) -> list[SessionTurn]:
    """The last ``last_n`` episodes of a session, oldest first, each with the facts it evidences."""
    rows = await browse.session_episodes(ctx.store, group_id=group_id, session_id=session_id, limit=last_n)
    fact_ids = [fid for row in rows for fid in row["fact_ids"]]
    facts = {f.id: f for f in await facts_by_ids(ctx, group_id, fact_ids)} if fact_ids else {}
    turns = []
    for row in rows:
        episode = EpisodeRecord(**{k: v for k, v in row["episode"].items() if v is not None})
        turns.append(SessionTurn(episode=episode, facts=[facts[i] for i in row["fact_ids"] if i in facts]))
    return turns
