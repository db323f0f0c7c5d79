"""The worker's warm-up of the tenant index (``tenant_index.warmup``, ``TenantIndexes.warm_up``)."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from graphmem.retrieval.tenant_index import warmup
from graphmem.retrieval.tenant_index.index import View
from graphmem.retrieval.tenant_index.persist import Expected, Snapshots
from graphmem.retrieval.tenant_index.registry import TenantIndexes


def test_the_synthetic_index_takes_every_path_a_cold_search_takes() -> None:
    """Facts past the warm-up's ANN threshold (an HNSW graph, both fact parts), episodes and
    entities scored exactly, episode fields active: what a restored big tenant holds."""
    index = warmup.build(16)
    facts = index.targets["fact"].vectors
    assert 0 in facts.hnsw and len(index.targets["fact"].slots) > warmup.ANN_THRESHOLD
    assert set(np.unique(facts.part.view(facts.size)).tolist()) == {0, 1}
    assert not index.targets["episode"].vectors.hnsw and index.fields.active
    query = np.ones(16, dtype=np.float32) / 4.0
    assert warmup.exercise(index, query) > 0


def test_a_mapped_and_a_read_restore_search_alike(tmp_path: Path) -> None:
    index = warmup.build(16)
    query = np.random.default_rng(3).standard_normal(16).astype(np.float32)
    query /= float(np.linalg.norm(query))
    found = []
    for mapped in (False, True):
        snapshots = Snapshots(tmp_path)
        snapshots.map_bytes = 0 if mapped else 1 << 62
        snapshots.save(index)
        restored = snapshots.load(warmup.GROUP, Expected(16, index.vector_precision, warmup.ANN_THRESHOLD))
        assert restored is not None
        found.append([restored.vector(t, query, 20, View()) for t in ("episode", "fact", "entity")])
    assert found[0] == found[1]
    assert found[0] == [index.vector(t, query, 20, View()) for t in ("episode", "fact", "entity")]


def test_warm_up_reports_its_steps_and_leaves_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a temporary directory of the test's own: a server in another process (the database tests
    # beside these) warms up in the shared one at the same time
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    for precision in ("i8", "f32"):
        ms = warmup.warm_up(16, precision)
        assert set(ms) == {"build", "restore", "catch_up", "exact_scan"}
        assert all(v >= 0 for v in ms.values())
    assert set(Path(tempfile.gettempdir()).glob("graphmem-warm-up-*")) == set()
    assert list(tmp_path.iterdir()) == []


class _Store:
    """Counts the group-state reads in flight at once (the connections a driver would open)."""

    def __init__(self) -> None:
        self.open = self.most = self.reads = 0

    async def read(self, query: str, **params: Any) -> list[dict[str, Any]]:
        self.open += 1
        self.reads += 1
        self.most = max(self.most, self.open)
        await asyncio.sleep(0.01)
        self.open -= 1
        return []


def test_the_registry_warms_up_without_keeping_an_index() -> None:
    store = _Store()
    registry = TenantIndexes(store, dimension=16)  # type: ignore[arg-type]
    ms = asyncio.run(registry.warm_up(connections=3))
    assert "connections" in ms and "restore" in ms
    assert store.reads == 3 and store.most == 3  # side by side: three connections opened
    assert not registry.entries and not registry.bytes and registry.nbytes() == 0
