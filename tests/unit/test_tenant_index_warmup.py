"""The worker's warm-up of the tenant index (``tenant_index.warmup``, ``TenantIndexes.warm_up``)."""

from __future__ import annotations

import asyncio
import itertools
import math
import tempfile
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from graphmem.retrieval.tenant_index import warmup
from graphmem.retrieval.tenant_index.index import View
from graphmem.retrieval.tenant_index.persist import Expected, Snapshots
from graphmem.retrieval.tenant_index.registry import TenantIndexes
from graphmem.store import search, snapshot
from graphmem.store.cypher import search as search_cypher
from graphmem.store.cypher import snapshot as snapshot_cypher


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
    """Records each read (statement, parameters) and counts the reads in flight at once (the
    connections a driver would open)."""

    def __init__(self) -> None:
        self.open = self.most = 0
        self.sent: list[tuple[str, dict[str, Any]]] = []

    async def read(self, query: str, **params: Any) -> list[dict[str, Any]]:
        self.open += 1
        self.sent.append((query, params))
        self.most = max(self.most, self.open)
        await asyncio.sleep(0.01)
        self.open -= 1
        return []

    async def read_values(self, query: str, **params: Any) -> list[list[Any]]:
        self.sent.append((query, params))
        return [[[], [], []]] if query in (search_cypher.HYDRATE, snapshot_cypher.LOAD_SMALL) else []

    async def write(self, query: str, **params: Any) -> list[dict[str, Any]]:
        self.sent.append((query, params))
        return []


def test_the_registry_warms_up_without_keeping_an_index() -> None:
    store = _Store()
    registry = TenantIndexes(store, dimension=16)  # type: ignore[arg-type]
    ms = asyncio.run(registry.warm_up(connections=3))
    assert {"connections", "restore", "reads"} <= set(ms)
    states = [p for q, p in store.sent if q == snapshot_cypher.GROUP_STATE and p["group_id"] == warmup.GROUP]
    assert len(states) == 3 and store.most >= 3  # side by side: three connections opened
    assert not registry.entries and not registry.bytes and registry.nbytes() == 0


def _bucket(n: int) -> int:
    """Neo4j 5.26's size bucket of a string or list parameter (measured: 0, 1, 2-10, 11-100, ...)."""
    return -1 if n == 0 else math.ceil(math.log10(n))


def _shape(value: Any) -> Any:
    """A parameter's type as Neo4j's plan cache tells them apart: a string or a list by its size
    bucket (and a list by its items' types), a null apart from a value, a map as one type."""
    if isinstance(value, str):
        return ("str", _bucket(len(value)))
    if isinstance(value, list):
        return ("list", _bucket(len(value)), frozenset(_shape(v) for v in value))
    if isinstance(value, dict):
        return "map"
    return type(value).__name__


def _shapes(sent: list[tuple[str, dict[str, Any]]]) -> set[tuple[str, frozenset[Any]]]:
    return {(q, frozenset((k, _shape(v)) for k, v in p.items())) for q, p in sent}


def test_the_warm_up_plans_what_every_cold_search_and_load_sends() -> None:
    """Regression (issue 22): a fresh worker's first cold search of a 20k tenant spent 0.5-1.0 s in
    ``hydrate``, Neo4j planning HYDRATE for the first time (it caches a plan per text and
    parameter types, a string's or list's type with a size bucket; the worker's warm-up never sent
    it). Whatever the group id (1-128 characters), hit lists and time view, every statement a cold
    search or a load sends, with its parameters' types, is one the warm-up sent."""
    warm = _Store()
    asyncio.run(TenantIndexes(warm, dimension=16).warm_up(connections=1))  # type: ignore[arg-type]
    cold = _Store()
    views = [
        {"as_of": None, "history": False},
        {
            "as_of": datetime(2024, 1, 1, tzinfo=UTC),
            "history": True,
            "since": datetime(2023, 1, 1, tzinfo=UTC),
        },
    ]
    ids = [
        {"fact": ["f" * 36] * n, "episode": ["e" * 36] * m, "entity": []}
        for n, m in ((1, 0), (7, 3), (30, 12))
    ]

    async def search_and_load(group_id: str) -> None:
        registry = TenantIndexes(cold, dimension=16)  # type: ignore[arg-type]
        await registry.state(group_id)
        for view, hits in itertools.product(views, ids):
            await search.hydrate(cold, group_id=group_id, ids=hits, **view)  # type: ignore[arg-type]
        await snapshot.load_small(cold, group_id=group_id, limit=5_000)  # type: ignore[arg-type]
        now = datetime(2025, 6, 1, tzinfo=UTC)
        for n in (1, 7, 30):  # the access counts a search's hits get (``search.touch``)
            await search.touch(cold, group_id=group_id, ids=["f" * 36] * n, now=now)  # type: ignore[arg-type]
        for label in ("episode", "fact", "entity"):
            await snapshot.changed(cold, group_id=group_id, label=label, since=12, limit=1_000_000)  # type: ignore[arg-type]
            for after in ("", str(uuid.uuid4())):
                await snapshot.load_columns(cold, group_id=group_id, label=label, after_id=after, limit=5_000)  # type: ignore[arg-type]

    async def every_length() -> None:
        for length in range(1, 129):
            await search_and_load("g" * length)

    asyncio.run(every_length())
    missing = _shapes(cold.sent) - _shapes(warm.sent)
    assert not missing, sorted(str(m)[:200] for m in missing)[:3]
