"""The tenant index's lock covers catch-ups and in-process channel work, never a load."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from graphmem.memory import GraphMemory
from graphmem.models import EpisodeIn
from graphmem.retrieval.tenant_index.index import TenantIndex
from graphmem.retrieval.tenant_index.registry import TenantIndexes
from tests.conftest import utc


async def test_no_index_load_runs_under_the_tenants_lock(
    memory: GraphMemory, group: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression (issue 16, one search engine): the search lock's docstring said "never an
    await", yet a small tenant's first search loaded the whole index while holding the tenant's
    lock (and a stale one reloaded under it), so every other search of the tenant queued behind
    the load. Loads are background tasks; a small tenant's search waits for its load before it
    takes the lock."""
    await memory.add_episodes(
        group,
        [
            EpisodeIn(content="The heron nests by the lake", speaker="Dana", reference_time=utc(2024, 5, 1)),
            EpisodeIn(content="We rowed across the lake", speaker="Dana", reference_time=utc(2024, 5, 2)),
        ],
    )
    indexes = TenantIndexes(memory.ctx.store, dimension=memory.ctx.embedder.dimension)
    held_during_load: list[bool] = []
    build = TenantIndexes._build

    async def watched(self: TenantIndexes, group_id: str, state: Any) -> TenantIndex:
        lock = self.locks.get(group_id)
        held_during_load.append(lock is not None and lock.locked())
        await asyncio.sleep(0)
        return await build(self, group_id, state)

    monkeypatch.setattr(TenantIndexes, "_build", watched)
    async with indexes.acquire(group, await indexes.state(group)) as index:
        assert index is not None and len(index.targets["episode"].slots) == 2  # loaded for this search
    stale = indexes.entries[group]
    stale.stale = True
    async with indexes.acquire(group, await indexes.state(group)) as index:
        assert index is not None and index is not stale  # reloaded, then served
    assert held_during_load == [False, False]
