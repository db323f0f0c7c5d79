"""The tenant index's byte estimate (``tenant_index.memory``) against what building it allocates."""

from __future__ import annotations

import gc
import random
import tracemalloc
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np

from graphmem.retrieval.tenant_index.index import TenantIndex, View
from graphmem.retrieval.tenant_index.memory import index_bytes

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
