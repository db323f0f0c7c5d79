"""Where a cold tenant index load spends its time (``graphmem eval tenants --profile``, docs/evals.md §9).

For each requested size it seeds (or, with a kept prefix, reuses) one synthetic tenant, then loads
its index ``repeats`` times the way ``TenantIndexes`` does on a first search, timing:

- ``registry_ms``: ``TenantIndexes.ready`` on a fresh registry (what a first search waits for);
- per label, ``server_ms`` (the load query in Neo4j: planning and streaming, as the server reports
  it), ``client_ms`` (the rest of the call: transfer and Bolt decoding) and ``client_cpu_ms`` (this
  process's CPU time in it: decoding; the rest is waiting), and ``apply_ms``
  (``TenantIndex.apply``: slots, columns, BM25 postings, vectors);
- ``apply_split``: one extra load under cProfile, ``TenantIndex.apply`` split into the vector
  conversion (``Vectors.set_many``) and the text analysis (BM25 postings, episode fields,
  adjacency and columns), as shares of the unprofiled ``apply_ms``;
- ``columns_read``: the same nodes read by ``snapshot.load_columns`` instead (wall and CPU ms);
- ``finish_ms``: ``TenantIndex.finish`` (the HNSW builds the configured ANN threshold asks for),
  and ``hnsw_build_ms``: an HNSW graph over all of the tenant's vectors, the cost a threshold of 0
  would add;
- ``neo4j_first``: the Neo4j source answering the tenant's first search (no index, no cached
  statistics: what a cold worker serves while the index loads), per stage (``sizes``, the BM25
  statistics, each channel's query, ``hydrate``, ``total``), medians over a few of its queries;
- ``snapshot``: the loaded index saved as a snapshot (``tenant_index.persist``): ``bytes``,
  ``save_ms``, ``restore_ms`` (read, check, unpickle; and ``restore_cpu_ms``) and ``registry_ms``
  (``TenantIndexes.ready`` on a fresh registry that restores it: what a first search waits for).

Medians over the repeats. The groups are forgotten afterwards unless kept.
"""

from __future__ import annotations

import cProfile
import pstats
import statistics
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from eval.tenants import Log, Spec, TenantsConfig, forget, node_count, seed_memory, seed_one
from graphmem.memory import GraphMemory
from graphmem.models.search import SearchRequest
from graphmem.retrieval.pipeline import Searcher
from graphmem.retrieval.tenant_index.index import TARGETS, TenantIndex
from graphmem.retrieval.tenant_index.persist import Expected, Snapshots
from graphmem.retrieval.tenant_index.registry import PAGE, TenantIndexes
from graphmem.retrieval.tenant_index.vectors import Vectors
from graphmem.store import snapshot
from graphmem.store.cypher import snapshot as q
from graphmem.store.profiling import read_profiled

FIRST_QUERIES = 5  # first searches timed through the Neo4j source per profiled tenant


async def _load(memory: GraphMemory, group: str) -> tuple[TenantIndex, dict[str, Any], list[list[float]]]:
    """One load of the group's index, timed per label; also returns the vectors seen."""
    ctx = memory.ctx
    state = await snapshot.group_state(ctx.store, group_id=group)
    assert state is not None
    index = TenantIndex(group, ctx.embedder.dimension, ctx.index_ann_threshold, state.seq, state.created_at)
    out: dict[str, Any] = {}
    vectors: list[list[float]] = []
    for label in TARGETS:
        row = {"rows": 0, "server_ms": 0.0, "client_ms": 0.0, "client_cpu_ms": 0.0, "apply_ms": 0.0}
        after = ""
        while True:
            rows, t = await read_profiled(
                ctx.store, q.LOAD_PAGE[label], group_id=group, after=after, limit=PAGE
            )
            row["server_ms"] += t["server_ms"]
            row["client_ms"] += t["client_ms"]
            row["client_cpu_ms"] += t["cpu_ms"]
            if not rows:
                break
            began = time.perf_counter()
            index.apply(label, rows)
            row["apply_ms"] += (time.perf_counter() - began) * 1000
            row["rows"] += len(rows)
            vectors += [r["embedding"] for r in rows if r.get("embedding")]
            after = rows[-1]["id"]
            if len(rows) < PAGE:
                break
        out[label] = row
    began = time.perf_counter()
    index.finish()
    out["finish_ms"] = (time.perf_counter() - began) * 1000
    return index, out, vectors


def _apply_split(profile: cProfile.Profile) -> dict[str, float]:
    """Shares of ``TenantIndex.apply``'s cumulative time: vectors versus the rest (text, columns)."""
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    total = vectors = 0.0
    for (filename, _line, name), (_cc, _nc, _tt, cumulative, _callers) in stats.items():
        if name == "apply" and filename.endswith("tenant_index/index.py"):
            total += cumulative
        elif name == "set_many" and filename.endswith("tenant_index/vectors.py"):
            vectors += cumulative
    if not total:
        return {"vectors": 0.0, "text_and_columns": 0.0}
    return {"vectors": round(vectors / total, 3), "text_and_columns": round(1 - vectors / total, 3)}


def _hnsw_ms(dimension: int, vectors: list[list[float]]) -> float:
    built = Vectors(dimension, ann_threshold=0)
    built.set_many(list(range(len(vectors))), list(vectors))
    began = time.perf_counter()
    built.ensure_ann()
    return (time.perf_counter() - began) * 1000


async def _columns_ms(memory: GraphMemory, group: str) -> dict[str, float]:
    """The same nodes read by ``snapshot.load_columns`` (a page as one record of columns)."""
    began, cpu = time.perf_counter(), time.process_time()
    for label in TARGETS:
        after = ""
        while True:
            rows = await snapshot.load_columns(
                memory.ctx.store, group_id=group, label=label, after_id=after, limit=PAGE
            )
            if len(rows) < PAGE:
                break
            after = rows[-1]["id"]
    return {"wall_ms": (time.perf_counter() - began) * 1000, "cpu_ms": (time.process_time() - cpu) * 1000}


async def _registry_ms(memory: GraphMemory, group: str, snapshots: Snapshots | None = None) -> float:
    ctx = memory.ctx
    registry = TenantIndexes(
        ctx.store,
        dimension=ctx.embedder.dimension,
        sync_limit=10**9,
        ann_threshold=ctx.index_ann_threshold,
        snapshots=snapshots,
    )
    began = time.perf_counter()
    await registry.ready(group)
    ms = (time.perf_counter() - began) * 1000
    await registry.close()
    return ms


async def _snapshot(memory: GraphMemory, group: str, index: TenantIndex, repeats: int) -> dict[str, Any]:
    """A snapshot of the loaded ``index``: its save, its bytes, a bare restore (read, check,
    unpickle) and a fresh registry's load through it (restore plus the change feed's read)."""
    ctx = memory.ctx
    expected = Expected(ctx.embedder.dimension, index.vector_precision, index.ann_threshold)
    with tempfile.TemporaryDirectory(prefix="graphmem-snapshots-") as directory:
        snapshots = Snapshots(Path(directory))
        index.fields.activate()
        began, cpu = time.perf_counter(), time.process_time()
        size = snapshots.save(index)
        save = {"ms": (time.perf_counter() - began) * 1000, "cpu_ms": (time.process_time() - cpu) * 1000}
        restores = []
        for _ in range(repeats):
            began, cpu = time.perf_counter(), time.process_time()
            snapshots.load(group, expected)
            restores.append(
                {"ms": (time.perf_counter() - began) * 1000, "cpu_ms": (time.process_time() - cpu) * 1000}
            )
        registry = [await _registry_ms(memory, group, snapshots) for _ in range(repeats)]
    return {
        "bytes": size,
        "save_ms": round(save["ms"], 1),
        "save_cpu_ms": round(save["cpu_ms"], 1),
        "restore_ms": _median(restores, "ms"),
        "restore_cpu_ms": _median(restores, "cpu_ms"),
        "registry_ms": round(statistics.median(registry), 1),
    }


async def _neo4j_first(memory: GraphMemory, group: str, queries: list[str]) -> dict[str, float]:
    """Stage timings of first searches served by the Neo4j source: a searcher without a tenant
    index and with empty BM25 statistics for each query (a worker that has never seen the tenant)."""
    ctx = memory.ctx
    stages: dict[str, list[float]] = {}
    for query in queries:
        searcher = Searcher(ctx.store, ctx.embedder, ctx.clock, ctx.vector_exact_threshold, None)
        result = await searcher.search(group, SearchRequest(query=query, k=10))
        await searcher.settle()
        for name, ms in (result.timings_ms or {}).items():
            stages.setdefault(name, []).append(ms)
    return {name: round(statistics.median(v), 1) for name, v in sorted(stages.items())}


def _median(runs: list[dict[str, Any]], *path: str) -> float:
    values = []
    for run in runs:
        v: Any = run
        for p in path:
            v = v[p]
        values.append(float(v))
    return round(statistics.median(values), 1)


async def profile_one(
    memory: GraphMemory, group: str, repeats: int, queries: list[str] | None = None
) -> dict[str, Any]:
    neo4j_first = await _neo4j_first(memory, group, queries or [])
    registry = [await _registry_ms(memory, group) for _ in range(repeats)]
    columns = [await _columns_ms(memory, group) for _ in range(repeats)]
    runs = []
    vectors: list[list[float]] = []
    for _ in range(repeats):
        _index, timings, vectors = await _load(memory, group)
        runs.append(timings)
    profile = cProfile.Profile()
    profile.enable()
    index, _, _ = await _load(memory, group)
    profile.disable()
    labels = {
        label: {
            "rows": runs[0][label]["rows"],
            **{k: _median(runs, label, k) for k in ("server_ms", "client_ms", "client_cpu_ms", "apply_ms")},
        }
        for label in TARGETS
    }
    totals = {
        k: round(sum(labels[lab][k] for lab in TARGETS), 1)
        for k in ("server_ms", "client_ms", "client_cpu_ms", "apply_ms")
    }
    return {
        "group": group,
        "nodes": index.size,
        "vectors": len(vectors),
        "registry_ms": round(statistics.median(registry), 1),
        "by_label": labels,
        "total": totals,
        "columns_read": {k: _median(columns, k) for k in ("wall_ms", "cpu_ms")},
        "apply_split": _apply_split(profile),
        "finish_ms": _median(runs, "finish_ms"),
        "hnsw_build_ms": round(_hnsw_ms(memory.ctx.embedder.dimension, vectors), 1),
        "neo4j_first": neo4j_first,
        "snapshot": await _snapshot(memory, group, index, repeats),
        "repeats": repeats,
    }


async def run_profile(
    memory: GraphMemory, cfg: TenantsConfig, targets: list[int], repeats: int, log: Log
) -> dict[str, Any]:
    prefix = cfg.prefix or f"tenants-{uuid.uuid4().hex[:8]}"
    plan = [Spec(f"{prefix}-profile-n{n}", n, cfg.seed * 10_007 + 9_000 + n) for n in targets]
    loader = seed_memory(memory, cfg)
    try:
        for spec in plan:
            if await node_count(memory, spec.group) == 0:
                log(f"tenants profile: seeding {spec.group}")
                await seed_one(loader, spec)
        results = []
        for spec in plan:
            log(f"tenants profile: loading {spec.group} x{repeats}")
            queries = spec.tenant().queries(FIRST_QUERIES)
            results.append(await profile_one(memory, spec.group, repeats, queries))
    finally:
        if not cfg.keep:
            await forget(memory, [s.group for s in plan])
    return {"prefix": prefix, "profiles": results}
