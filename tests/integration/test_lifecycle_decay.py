"""Use-based decay and archiving (issue 7), with an injected clock."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

import pytest

from graphmem.memory import GraphMemory
from graphmem.memory.context import MemoryContext
from graphmem.models.lifecycle import DecayPolicy
from graphmem.providers.embedders.minilm_numpy import MiniLMEmbedder
from graphmem.providers.extractors.rules import RulesExtractor
from graphmem.store.driver import Store
from graphmem.store.search import touch
from tests.integration.test_lifecycle_support import STORY, ingest, utc

T0 = utc(2030, 1, 1)
POLICY = DecayPolicy(half_life_days=30, archive_threshold=0.1, archive_min_idle_days=60)


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock(T0)


@pytest.fixture
def timed(store: Store, embedder: MiniLMEmbedder, clock: Clock) -> GraphMemory:
    return GraphMemory(MemoryContext(store=store, embedder=embedder, extractor=RulesExtractor(), clock=clock))


async def _search_and_settle(memory: GraphMemory, group: str, query: str, **options: object) -> set[str]:
    result = await memory.search(group, query, k=50, **options)
    await asyncio.gather(*list(memory.searcher.background))  # access bookkeeping runs off the hot path
    return {h.fact.statement for h in result.facts}


def test_effective_importance_halves_per_half_life_and_grows_with_use() -> None:
    policy = DecayPolicy(half_life_days=10, archive_threshold=0.2, archive_min_idle_days=5)
    assert policy.effective_importance(0.8, idle_days=0, access_count=0) == pytest.approx(0.8)
    assert policy.effective_importance(0.8, idle_days=10, access_count=0) == pytest.approx(0.4)
    assert policy.effective_importance(0.8, idle_days=20, access_count=0) == pytest.approx(0.2)
    used = policy.effective_importance(0.8, idle_days=20, access_count=3)
    assert used > 0.2 and policy.should_archive(0.8, idle_days=21, access_count=0)
    assert not policy.should_archive(0.8, idle_days=21, access_count=3)
    assert not policy.should_archive(0.01, idle_days=4, access_count=0)  # not idle long enough


async def test_maintain_archives_unused_facts_and_restores_used_ones(
    timed: GraphMemory, clock: Clock, group: str
) -> None:
    await ingest(timed, group, STORY[:5])  # recorded at T0
    clock.now = T0 + timedelta(days=90)
    globex = [f for f in await timed.list_facts(group) if f.statement == "Alice works at Globex"]
    await touch(
        timed.ctx.store, group_id=group, ids=[globex[0].id], now=clock.now
    )  # a search hit's bookkeeping

    report = await timed.maintain(T0 + timedelta(days=100), group_id=group, policy=POLICY)

    assert report.archived >= 1 and report.scanned >= report.archived
    history = {f.statement: f for f in await timed.list_facts(group, include_history=True)}
    archived = {s for s, f in history.items() if f.status == "archived"}
    assert "Alice lives in Paris" in archived and "Alice works at Globex" not in archived
    current = {f.statement for f in await timed.list_facts(group)}
    assert current.isdisjoint(archived) and "Alice works at Globex" in current
    assert "Alice lives in Paris" not in await _search_and_settle(timed, group, "Alice lives in Paris")
    clock.now = T0 + timedelta(days=101)
    assert "Alice lives in Paris" in await _search_and_settle(
        timed, group, "Alice lives in Paris", include_history=True
    )
    exported = [r async for r in timed.export_group(group)]
    statuses = {
        r["properties"]["statement"]: r["properties"]["status"] for r in exported if r.get("label") == "Fact"
    }
    assert statuses["Alice lives in Paris"] == "archived"

    again = await timed.maintain(T0 + timedelta(days=101), group_id=group, policy=POLICY)

    assert again.restored >= 1  # used (a history hit) after it was archived
    assert "Alice lives in Paris" in {f.statement for f in await timed.list_facts(group)}


async def test_maintain_leaves_recent_facts_alone(timed: GraphMemory, group: str) -> None:
    await ingest(timed, group, STORY[:2])
    report = await timed.maintain(T0 + timedelta(days=10), group_id=group, policy=POLICY)
    assert (report.scanned, report.archived) == (0, 0)
