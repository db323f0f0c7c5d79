"""Use-based decay and archiving (``graphmem maintain``).

Search hits bump ``access_count``/``last_access_at`` off the hot path (retrieval/pipeline.py). Here a
fact's effective importance is ``importance × 0.5^(idle days / half-life) × (1 + ln(1 + access_count))``
(``DecayPolicy``); an active, unexpired fact idle for at least ``archive_min_idle_days`` whose effective
importance fell below ``archive_threshold`` gets ``status = 'archived'``: default search and current
reads skip it, ``include_history`` and exports keep it. An archived fact used (a history search hit)
or updated (new evidence) after it was archived is restored to ``active``.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from graphmem.clock import as_utc
from graphmem.memory.context import MemoryContext
from graphmem.models.lifecycle import DecayPolicy, MaintainReport
from graphmem.store import lifecycle as repo

BATCH = 1000


async def maintain(
    ctx: MemoryContext,
    now: datetime | None = None,
    *,
    group_id: str | None = None,
    policy: DecayPolicy | None = None,
) -> MaintainReport:
    policy = policy or DecayPolicy()
    now = as_utc(now) if now is not None else ctx.clock()
    idle_before = now - timedelta(days=policy.archive_min_idle_days)
    async with ctx.store.transaction() as tx:
        restored = await repo.restore_used_facts(tx, group_id=group_id, now=now)
        rows = await repo.idle_facts(tx, group_id=group_id, idle_before=idle_before)
    doomed = [
        r["id"]
        for r in rows
        if policy.should_archive(
            float(r["importance"]),
            idle_days=(now - as_utc(r["last_used"])).total_seconds() / 86400.0,
            access_count=int(r["access_count"]),
        )
    ]
    archived = 0
    for start in range(0, len(doomed), BATCH):
        async with ctx.store.transaction() as tx:
            archived += await repo.archive_facts(tx, ids=doomed[start : start + BATCH], now=now)
    return MaintainReport(now=now, group_id=group_id, scanned=len(rows), archived=archived, restored=restored)
