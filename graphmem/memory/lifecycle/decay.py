"""Use-based decay and archiving (``graphmem maintain``).

Search hits bump ``access_count``/``last_access_at`` off the hot path (retrieval/pipeline.py). Here a
fact's effective importance is ``importance × 0.5^(idle days / half-life) × (1 + ln(1 + access_count))``
(``DecayPolicy``); an active, unexpired fact idle for at least ``archive_min_idle_days`` whose effective
importance fell below ``archive_threshold`` gets ``status = 'archived'``: default search and current
reads skip it, ``include_history`` and exports keep it. An archived fact used (a history search hit)
or updated (new evidence) after it was archived is restored to ``active``. Each group's restores
and archive batches run under its lock and mark it reset (graphmem.store.snapshot).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from functools import partial

from graphmem.clock import as_utc
from graphmem.memory import changes
from graphmem.memory.context import MemoryContext
from graphmem.models.lifecycle import DecayPolicy, MaintainReport
from graphmem.store import lifecycle as repo
from graphmem.store.driver import Tx

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
    groups = [group_id] if group_id is not None else await repo.restorable_groups(ctx.store)
    restored = 0
    for group in groups:
        restored += await _locked(ctx, group, partial(repo.restore_used_facts, group_id=group, now=now))
    async with ctx.store.transaction(write=False) as tx:
        rows = await repo.idle_facts(tx, group_id=group_id, idle_before=idle_before)
    doomed: dict[str, list[str]] = defaultdict(list)
    for r in rows:
        idle_days = (now - as_utc(r["last_used"])).total_seconds() / 86400.0
        if policy.should_archive(
            float(r["importance"]), idle_days=idle_days, access_count=int(r["access_count"])
        ):
            doomed[r["group_id"]].append(r["id"])
    archived = 0
    for group, ids in sorted(doomed.items()):
        for start in range(0, len(ids), BATCH):
            batch = ids[start : start + BATCH]
            archived += await _locked(ctx, group, partial(changes.archive_facts, ctx, group, batch, now))
    return MaintainReport(now=now, group_id=group_id, scanned=len(rows), archived=archived, restored=restored)


async def _locked(ctx: MemoryContext, group_id: str, write: Callable[[Tx], Awaitable[int]]) -> int:
    """``write(tx)`` under the group's lock; the group is marked reset for change-feed readers
    (graphmem.store.snapshot) when it changed anything. Returns what ``write`` counted."""
    async with ctx.store.transaction() as tx:
        await repo.lock_existing_group(tx, group_id=group_id)
        count = await write(tx)
        if count:
            await repo.reset_group(tx, group_id=group_id)
    return count
