"""The tenant index's byte estimate (``tenant_index.memory``) against what building it allocates."""

from __future__ import annotations

import gc
import random
import tracemalloc
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np

from graphmem.retrieval.tenant_index.index import TenantIndex, View
from graphmem.retrieval.tenant_index.memory import index_bytes, victim
from graphmem.retrieval.tenant_index.registry import TenantIndexes
from graphmem.retrieval.tenant_index.vectors import Vectors

WORDS = [f"w{i}" for i in range(3000)]


def _rows(n: int, dim: int, seed: int) -> dict[str, list[dict[str, Any]]]:
    rng = random.Random(seed)
    vectors = np.random.default_rng(seed).standard_normal((3 * n, dim)).astype(np.float32).tolist()
    when = datetime(2024, 1, 1, tzinfo=UTC)
    ent = [f"{seed}-ent-{i:08d}-0000-0000-000000000000" for i in range(n)]

    def text(k: int) -> str:
        return " ".join(rng.choice(WORDS) for _ in range(k))

    episodes = [
        {
            "id": f"{seed}-epi-{i:08d}-0000-0000-000000000000",
            "search_text": text(20),
            "terms": None,
            "text": text(12),
            "reference_time": when + timedelta(minutes=i),
            "embedding": vectors[i],
            "mentions": rng.sample(ent, 2),
        }
        for i in range(n)
    ]
    facts = [
        {
            "id": f"{seed}-fct-{i:08d}-0000-0000-000000000000",
            "search_text": text(8),
            "text": text(6),
            "valid_from": when,
            "embedding": vectors[n + i],
            "subject_id": rng.choice(ent),
            "object_id": rng.choice(ent),
            "evidence": 1,
            "evidence_ids": [episodes[i]["id"]],
        }
        for i in range(n)
    ]
    entities = [
        {"id": e, "search_text": text(2), "text": text(2), "embedding": vectors[2 * n + i]}
        for i, e in enumerate(ent)
    ]
    return {"episode": episodes, "fact": facts, "entity": entities}


def test_the_estimate_is_within_a_factor_of_two_of_what_a_build_keeps() -> None:
    """Rows are made and dropped inside the trace: what stays allocated is what the index holds
    (its strings included, as in a load where the rows are dropped after applying them)."""
    dim = 64
    for n in (300, 3000):
        gc.collect()
        tracemalloc.start()
        rows = _rows(n, dim, seed=n)
        index = TenantIndex("g", dim)
        for label in ("episode", "fact", "entity"):
            index.apply(label, rows[label])
        index.finish()
        index.bm25("episode", ["w1"], 10, View(), fields={"own": 1.0, "context": 0.5, "facts": 0.5})
        del rows
        gc.collect()
        kept = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        estimate = index_bytes(index)
        assert 0.5 * kept <= estimate <= 2 * kept, (n, estimate, kept)


def test_the_estimate_grows_with_the_index() -> None:
    small, big = TenantIndex("a", 32), TenantIndex("b", 32)
    for index, n in ((small, 100), (big, 1000)):
        rows = _rows(n, 32, seed=n)
        for label in ("episode", "fact", "entity"):
            index.apply(label, rows[label])
    assert index_bytes(big) > 5 * index_bytes(small) > 0


def test_eviction_victim_weighs_bytes_by_idle_time() -> None:
    """Of the least recently used few, the biggest cold index goes first; a small one idle long
    enough still goes before a big one just used; ties go to the least recently used."""
    assert victim([("small", 1_000, 1), ("big", 50_000, 2), ("mid", 5_000, 3)], now=10) == "big"
    assert victim([("small", 1_000, 1), ("big", 50_000, 999)], now=1_000) == "small"
    assert victim([("a", 10, 5), ("b", 10, 5)], now=9) == "a"


def _index(group: str, n: int, precision: str = "i8") -> TenantIndex:
    index = TenantIndex(group, 32, vector_precision=precision)
    rows = _rows(n, 32, seed=n)
    for label in ("episode", "fact", "entity"):
        index.apply(label, rows[label])
    index.finish()
    return index


def test_the_byte_budget_drops_big_cold_tenants_before_small_ones_and_always_holds() -> None:
    """Regression (issue 22, item 2): eviction was least recently used only, so one big cold
    tenant stayed while many small ones were dropped to make room, each reloading on its next
    search. It now weighs size by idle time within the coldest few, and the budget holds."""
    big, small = _index("big", 600), [_index(f"s{i}", 40) for i in range(4)]
    budget = index_bytes(big) + 3 * index_bytes(small[0]) + 1_000
    indexes = TenantIndexes(None, dimension=32, max_bytes=budget)  # type: ignore[arg-type]  # no store needed
    indexes._install(big)
    for s in small[:3]:
        indexes._install(s)
    indexes._install(small[3])  # over budget: big (cold, and 10x the bytes) goes, not s0
    assert "big" not in indexes.entries and list(indexes.entries) == ["s0", "s1", "s2", "s3"]
    assert indexes.nbytes() <= budget and indexes.evictions == 1
    for i in range(20):  # whatever arrives, the budget holds
        indexes._install(_index(f"n{i}", 40 + 10 * (i % 3)))
        assert indexes.nbytes() <= budget


def test_int8_vectors_take_less_memory_and_rank_as_f32() -> None:
    compact, full = _index("c", 1000, "i8"), _index("f", 1000, "f32")
    saved = index_bytes(full) - index_bytes(compact)
    assert saved >= 0.8 * 3 * 1000 * 32 * 2  # about 2 bytes a component, three targets of 1000 rows
    rng = np.random.default_rng(7)
    a = Vectors(64, precision="i8")
    b = Vectors(64, precision="f32")
    data = rng.standard_normal((2000, 64)).astype(np.float32).tolist()
    for v in (a, b):
        v.set_many(list(range(2000)), data)
    for q in rng.standard_normal((20, 64)).astype(np.float32):
        q /= np.linalg.norm(q)
        got, want = a.search(q, 10, None), b.search(q, 10, None)
        assert [s for s, _ in got] == [s for s, _ in want]
        assert np.allclose([x for _, x in got], [x for _, x in want], atol=1e-4)
