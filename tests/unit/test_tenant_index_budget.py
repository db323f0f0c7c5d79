"""The tenant index registry's byte budget under many tenants (issue 22, item 2), without a
database: a fake store answers the change feed's reads for synthetic tenants and checks, at every
read (the points where other searches and loads run), that the bytes held plus the bytes reserved
for loads in flight never exceed the budget."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta
from typing import Any

from graphmem.retrieval.tenant_index.registry import TenantIndexes
from graphmem.store.cypher import snapshot as q
from tests.unit.test_tenant_index_memory import _rows

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
CREATED = datetime(2024, 1, 1, tzinfo=UTC)


def _micros(value: Any) -> Any:
    return (value - EPOCH) // timedelta(microseconds=1) if isinstance(value, datetime) else value


class FakeFeed:
    """Synthetic tenants behind ``snapshot``'s queries (no writes: every state stays at seq 1)."""

    def __init__(self, sizes: dict[str, int], dimension: int = 32) -> None:
        self.dimension = dimension
        self.tenants = {g: _rows(n, dimension, seed=i + 1) for i, (g, n) in enumerate(sizes.items())}
        for rows in self.tenants.values():
            for fact in rows["fact"]:
                fact.setdefault("status", "active")
        self.registry: TenantIndexes | None = None
        self.budget = 0
        self.reads = 0
        self.peak = 0
        self.gates: dict[str, asyncio.Event] = {}  # a tenant's load waits here while one is set

    def check(self) -> None:
        assert self.registry is not None
        self.reads += 1
        self.peak = max(self.peak, self.registry.nbytes())
        assert self.registry.nbytes() <= self.budget

    async def read(self, query: str, **params: Any) -> list[dict[str, Any]]:
        self.check()
        await asyncio.sleep(0)
        rows = self.tenants.get(params["group_id"])
        if query == q.GROUP_STATE:
            if rows is None:
                return []
            n = {label: len(rows[label]) for label in rows}
            return [
                {
                    "seq": 1,
                    "reset_seq": 0,
                    "created_at": _micros(CREATED),
                    "episodes": n["episode"],
                    "facts": n["fact"],
                    "entities": n["entity"],
                }
            ]
        assert query in q.CHANGED.values()
        return []

    async def read_values(self, query: str, **params: Any) -> list[list[Any]]:
        self.check()
        await asyncio.sleep(0)
        gate = self.gates.get(params["group_id"])
        if gate is not None:
            await gate.wait()
        if query == q.LOAD_SMALL:  # every label's first page in one record
            return [[self._page(label, params["group_id"], "", params["limit"]) for label in q.COLUMNS]]
        label = next(lab for lab, text in q.LOAD_COLUMNS.items() if text == query)
        return [[self._page(label, params["group_id"], params["after"], params["limit"])]]

    def _page(self, label: str, group_id: str, after: str, limit: int) -> list[list[Any]]:
        rows = sorted(self.tenants[group_id][label], key=lambda r: r["id"])
        return [[_micros(r.get(c)) for c in q.COLUMNS[label]] for r in rows if r["id"] > after][:limit]


def _registry(feed: FakeFeed, budget: int) -> TenantIndexes:
    registry = TenantIndexes(feed, dimension=feed.dimension, max_bytes=budget, sync_limit=10**6)  # type: ignore[arg-type]
    feed.registry, feed.budget = registry, budget
    return registry


async def _search(registry: TenantIndexes, group: str) -> bool:
    async with registry.acquire(group, await registry.state(group)) as index:
        return index is not None


async def test_held_and_reserved_bytes_never_exceed_the_budget_under_zipf_traffic() -> None:
    """Regression: the budget counted installed indexes only, so loads in flight (many at once
    when cold tenants arrive together) held memory beyond it, and an index that outgrew the
    budget alone, by its catch-ups or a low estimate, stayed. 30 tenants, most small, searched
    by a Zipf law, eight at a time: the budget holds at every read, and evictions happen."""
    rng = random.Random(5)
    sizes = {f"g{i:02d}": 6 if i % 7 else 40 for i in range(30)}
    feed = FakeFeed(sizes)
    budget = 600_000
    registry = _registry(feed, budget)
    groups = list(sizes)
    picks = rng.choices(groups, weights=[1 / (r + 1) for r in range(len(groups))], k=96)
    for start in range(0, len(picks), 8):
        await asyncio.gather(*(_search(registry, g) for g in picks[start : start + 8]))
        assert registry.nbytes() <= budget
    await registry.close()
    assert registry.evictions > 0 and feed.reads > 100
    assert not registry.reserved and 0 < feed.peak <= budget


async def test_a_load_that_cannot_make_room_waits_and_neo4j_answers() -> None:
    """While one load's reservation holds most of the budget another tenant's load is not started
    (its search is answered by Neo4j); once the first is installed in fewer bytes than it
    reserved, there is room and it loads."""
    feed = FakeFeed({"big": 60, "small": 6}, dimension=768)
    reserve_big, reserve_small = (n * 3 * (8 * 768 + 2_000) for n in (60, 6))
    registry = _registry(feed, reserve_big + reserve_small // 2)
    state = await registry.state("big")
    assert state is not None
    feed.gates["big"] = asyncio.Event()
    registry._build_later("big", state)  # a load in flight, holding its reservation
    assert registry.reserved == {"big": reserve_big}
    assert not await _search(registry, "small")  # no room beside it: not started
    assert "small" not in registry.builds and list(registry.reserved) == ["big"]
    feed.gates["big"].set()
    await asyncio.gather(*registry.builds.values())
    assert "big" in registry.entries and not registry.reserved
    assert registry.nbytes() < reserve_big
    assert await _search(registry, "small")
    assert list(registry.entries) == ["big", "small"] and registry.nbytes() <= registry.max_bytes
