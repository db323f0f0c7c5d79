"""A cold search's restore begins beside its group-state read (``TenantIndexes._prefetch``, issue 22):
the restore no longer waits for that round trip, its bytes are reserved before it begins, and one
no load claims is let go with its bytes."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from graphmem.retrieval.tenant_index import warmup
from graphmem.retrieval.tenant_index.index import TenantIndex, View
from graphmem.retrieval.tenant_index.persist import Expected, Snapshots
from graphmem.retrieval.tenant_index.registry import PREFETCH_RESERVE, TenantIndexes
from graphmem.store.cypher import snapshot as snapshot_cypher

DIM = 16
GROUP = warmup.GROUP


class _Snapshots(Snapshots):
    """Says when a restore begins (from its thread)."""

    def __init__(self, directory: Path, began: asyncio.Event) -> None:
        super().__init__(directory)
        self.began, self.loop = began, asyncio.get_running_loop()
        self.loads = 0

    def load(self, group_id: str, expected: Expected) -> TenantIndex | None:
        self.loads += 1
        self.loop.call_soon_threadsafe(self.began.set)
        return super().load(group_id, expected)


class _Store:
    """A group state of ``nodes`` nodes at the snapshot's revision; with ``gate``, the state read
    answers only once the restore has begun (it fails after 5 s: no restore ran beside it)."""

    def __init__(self, nodes: int, gate: asyncio.Event | None) -> None:
        self.nodes, self.gate = nodes, gate
        self.registry: TenantIndexes | None = None
        self.seen: list[int] = []  # the registry's held + reserved bytes while each state read ran

    async def read(self, query: str, **params: Any) -> list[dict[str, Any]]:
        if query != snapshot_cypher.GROUP_STATE:
            return []  # the change feed since the snapshot: nothing
        if self.registry is not None:
            self.seen.append(self.registry.nbytes())
        if self.gate is not None:
            await asyncio.wait_for(self.gate.wait(), 5)
        state = {"seq": 1, "reset_seq": 0, "created_at": None, "episodes": self.nodes, "facts": 0}
        return [{**state, "entities": 0}]

    async def read_values(self, query: str, **params: Any) -> list[list[Any]]:
        return []


def _saved(directory: Path) -> tuple[TenantIndex, int]:
    index = warmup.build(DIM)
    size = Snapshots(directory).save(index)
    return index, size


def _registry(store: _Store, snapshots: Snapshots, max_bytes: int | None = None) -> TenantIndexes:
    registry = TenantIndexes(
        store,  # type: ignore[arg-type]
        dimension=DIM,
        ann_threshold=warmup.ANN_THRESHOLD,
        max_bytes=max_bytes,
        snapshots=snapshots,
    )
    registry.prefetch_min_bytes = 0  # the synthetic index's file is small
    store.registry = registry
    return registry


def _answers(index: TenantIndex) -> list[object]:
    query = np.random.default_rng(5).standard_normal(DIM).astype(np.float32)
    query /= float(np.linalg.norm(query))
    return [
        index.vector(t, query, 10, View()) + index.bm25(t, ["w1", "w2"], 10, View())
        for t in ("episode", "fact", "entity")
    ]


def test_a_cold_search_restores_its_snapshot_beside_the_state_read() -> None:
    """Regression (issue 22): a cold search read the group state (a Neo4j round trip) and only
    then began its restore. The state read here answers only once a restore has begun."""

    async def run(directory: Path) -> None:
        index, size = _saved(directory)
        began = asyncio.Event()
        snapshots = _Snapshots(directory, began)
        store = _Store(index.size, gate=began)
        registry = _registry(store, snapshots)
        state = await registry.state(GROUP)
        async with registry.acquire(GROUP, state) as found:
            assert found is not None and _answers(found) == _answers(index)
        assert snapshots.loads == 1  # the load claimed the restore begun beside the read
        assert store.seen == [size * PREFETCH_RESERVE]  # reserved before it began
        assert (
            not registry.prefetches and not registry.reserved and registry.nbytes() == registry.bytes[GROUP]
        )
        await registry.close()

    with tempfile.TemporaryDirectory() as directory:
        asyncio.run(run(Path(directory)))


def test_a_speculative_restore_no_load_claims_is_let_go_with_its_bytes() -> None:
    """The state says the tenant is too big for the budget: no load starts, the restore begun
    beside the read is dropped and its reservation freed."""

    async def run(directory: Path) -> None:
        _, size = _saved(directory)
        began = asyncio.Event()
        store = _Store(10**9, gate=began)
        registry = _registry(store, _Snapshots(directory, began), max_bytes=size * PREFETCH_RESERVE)
        state = await registry.state(GROUP)
        async with registry.acquire(GROUP, state) as found:
            assert found is None
        assert store.seen == [size * PREFETCH_RESERVE]
        assert not registry.prefetches and not registry.reserved and registry.nbytes() == 0
        await registry.close()

    with tempfile.TemporaryDirectory() as directory:
        asyncio.run(run(Path(directory)))


def test_no_speculative_restore_without_room_for_its_bytes() -> None:
    async def run(directory: Path) -> None:
        index, size = _saved(directory)
        began = asyncio.Event()
        snapshots = _Snapshots(directory, began)
        store = _Store(index.size, gate=None)
        registry = _registry(store, snapshots, max_bytes=size * PREFETCH_RESERVE - 1)
        await registry.state(GROUP)
        assert snapshots.loads == 0 and not registry.prefetches and registry.nbytes() == 0
        assert store.seen == [0]
        await registry.close()

    with tempfile.TemporaryDirectory() as directory:
        asyncio.run(run(Path(directory)))


def test_a_small_file_is_restored_after_the_state_read_as_before() -> None:
    """Below ``prefetch_min_bytes`` a restore takes about a millisecond: no thread beside the read."""

    async def run(directory: Path) -> None:
        index, size = _saved(directory)
        began = asyncio.Event()
        snapshots = _Snapshots(directory, began)
        store = _Store(index.size, gate=None)
        registry = _registry(store, snapshots)
        registry.prefetch_min_bytes = size + 1
        state = await registry.state(GROUP)
        assert snapshots.loads == 0 and store.seen == [0]
        async with registry.acquire(GROUP, state) as found:
            assert found is not None and _answers(found) == _answers(index)
        assert snapshots.loads == 1 and not registry.reserved
        await registry.close()

    with tempfile.TemporaryDirectory() as directory:
        asyncio.run(run(Path(directory)))
