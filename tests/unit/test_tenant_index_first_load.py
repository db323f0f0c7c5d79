"""A small tenant's first load from Neo4j (issue 22): the search waiting for it gets the index before
its snapshot file is written, without a second group-state read on its path; the file follows,
and a forget that raced the write leaves no file."""

from __future__ import annotations

import asyncio
import tempfile
import threading
from pathlib import Path
from typing import Any

from graphmem.retrieval.tenant_index import warmup
from graphmem.retrieval.tenant_index.index import TenantIndex
from graphmem.retrieval.tenant_index.persist import Encoded, Snapshots
from graphmem.retrieval.tenant_index.registry import TenantIndexes
from graphmem.store.cypher import snapshot as snapshot_cypher
from graphmem.store.snapshot import GroupState

DIM = 16
GROUP = warmup.GROUP


class _Snapshots(Snapshots):
    """Its writes wait for ``release`` (set from the test) in their thread."""

    def __init__(self, directory: Path) -> None:
        super().__init__(directory)
        self.release = threading.Event()

    def write(self, encoded: Encoded) -> int:
        assert self.release.wait(5), "the test never released the write"
        return super().write(encoded)


class _Store:
    """The group's state (``gone_after`` reads, then none: forgotten); nothing changed since."""

    def __init__(self, nodes: int, gone_after: int | None = None) -> None:
        self.nodes, self.gone_after, self.states = nodes, gone_after, 0

    async def read(self, query: str, **params: Any) -> list[dict[str, Any]]:
        if query != snapshot_cypher.GROUP_STATE:
            return []
        self.states += 1
        if self.gone_after is not None and self.states > self.gone_after:
            return []
        state = {"seq": 1, "reset_seq": 0, "created_at": None, "episodes": self.nodes, "facts": 0}
        return [{**state, "entities": 0}]

    async def read_values(self, query: str, **params: Any) -> list[list[Any]]:
        return []


class _Registry(TenantIndexes):
    """Loads the warm-up's synthetic index instead of reading Neo4j's pages."""

    async def _build(self, group_id: str, state: GroupState) -> TenantIndex:
        return warmup.build(DIM)


def _files(directory: Path) -> list[Path]:
    return list(directory.glob("*.tix"))


def _run(gone_after: int | None) -> tuple[_Store, _Registry, list[Path], list[Path]]:
    async def run(directory: Path) -> tuple[_Store, _Registry, list[Path], list[Path]]:
        store = _Store(warmup.build(DIM).size, gone_after)
        snapshots = _Snapshots(directory)
        registry = _Registry(store, dimension=DIM, ann_threshold=warmup.ANN_THRESHOLD, snapshots=snapshots)  # type: ignore[arg-type]
        state = await registry.state(GROUP)
        async with registry.acquire(GROUP, state) as index:
            assert index is not None and index.group_id == GROUP
        before = _files(directory)  # the write is still waiting
        assert store.states == 1  # the search read the state once: no read after the load
        snapshots.release.set()
        await registry.close()  # lets the write finish
        return store, registry, before, _files(directory)

    with tempfile.TemporaryDirectory() as directory:
        return asyncio.run(run(Path(directory)))


def test_the_search_waiting_for_a_load_does_not_wait_for_its_snapshot() -> None:
    """Regression (issue 22): a small tenant's first search waited for the load's snapshot to be
    pickled and written and for another state read, before the index was installed."""
    store, registry, before, after = _run(gone_after=None)
    assert before == [] and len(after) == 1
    assert registry.snapshot_stats["saved"] == 1 and not registry.writes
    assert store.states == 2  # the write's own check for a forget that raced it


def test_a_forget_racing_the_snapshot_write_leaves_no_file() -> None:
    store, _, before, after = _run(gone_after=1)
    assert before == [] and after == []
    assert store.states == 2
