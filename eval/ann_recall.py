"""Recall of the over-fetched ANN vector search against exact scoring, for one tenant (EVAL.md §3).

Neo4j 5.26 filters by tenant *after* the ANN step, so a tenant's vector search asks the shared index
for ``fetch`` nodes (``graphmem.store.search.overfetch``: scaled by the tenant's share of the index)
and keeps its own. This measures what that loses: for each query, the top ``k`` of the ANN path (the
pipeline's plan: ``candidates`` asked, ``fetch`` from the index) against the top ``k`` of exact cosine
scoring over every node of the tenant. recall@k = |ANN top k ∩ exact top k| / |exact top k|.

Queries are embedded with the embedder the tenant was loaded with, so that both sides compare like
vectors; the report names it, the tenant's size and the index's size (every tenant counts).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Sequence
from typing import Any

from graphmem.ports import Embedder
from graphmem.store import search as channels
from graphmem.store.driver import Store

PLURAL = {"episode": "episodes", "fact": "facts"}


async def ann_recall(
    store: Store,
    embedder: Embedder,
    group: str,
    queries: Sequence[str],
    *,
    candidates: int = 50,
    k: int = 10,
    embedder_name: str | None = None,
) -> dict[str, Any]:
    sizes = await channels.sizes(store, group_id=group)
    vectors = [[float(x) for x in row] for row in embedder.embed(list(queries))]
    out: dict[str, Any] = {
        "query_embedder": embedder_name or embedder.model_name,
        "k": k,
        "n_queries": len(queries),
    }
    for target, plural in PLURAL.items():
        size, total = sizes["group"][plural], sizes["total"][plural]
        fetch = channels.overfetch(candidates, size, total)
        recalls: list[float] = []
        ms: dict[str, list[float]] = {"exact": [], "ann": []}
        for vector in vectors:
            top: dict[str, list[str]] = {}
            for mode in ("exact", "ann"):
                began = time.perf_counter()
                hits = await channels.vector(
                    store,
                    target=target,
                    group_id=group,
                    embedding=vector,
                    limit=candidates,
                    exact=mode == "exact",
                    fetch=fetch,
                    as_of=None,
                    history=False,
                )
                ms[mode].append((time.perf_counter() - began) * 1000)
                top[mode] = [i for i, _ in hits[:k]]
            if top["exact"]:
                recalls.append(len(set(top["exact"]) & set(top["ann"])) / len(top["exact"]))
        out[target] = {
            "group_size": size,
            "index_size": total,
            "fetch": fetch,
            f"recall_at_{k}": round(statistics.mean(recalls), 4) if recalls else None,
            "queries_with_full_recall": sum(r == 1.0 for r in recalls),
            "exact_ms_p50": round(statistics.median(ms["exact"]), 2),
            "ann_ms_p50": round(statistics.median(ms["ann"]), 2),
        }
    return out
