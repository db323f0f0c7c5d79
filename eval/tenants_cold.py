"""A big cold tenant's first search over HTTP, many times (issue 22: p99 <= 50 ms at 20,000 nodes).

``python -m eval.tenants_cold [--nodes 20000] [--tenants 2] [--restarts 2] [--rounds 6] [--json]``

1. seed ``tenants`` tenants of about ``nodes`` nodes each (``eval.tenants_seed`` copies of the
   largest template, unless a kept ``--prefix`` holds them already);
2. save each one's index snapshot into a temporary directory (a registry in this process loads
   it from Neo4j once: what a first pass of ``eval tenants --snapshots`` leaves);
3. ``restarts`` times, start a fresh ``graphmem serve`` with that directory and a byte budget
   (``GRAPHMEM_INDEX_MAX_BYTES``) that holds one of these indexes but not two, search a small
   other tenant (the smallest template) twice so the worker itself is warm (its first request
   pays the worker's own start-up: reported apart as ``worker_first``), then ``rounds``
   times search every tenant in turn, twice: the first search of each turn is a cold one (the
   first since the restart, or the first since the other tenant's load evicted this one), the
   second a warm one. Every search sends a query not sent before in that server (the server's
   query-vector cache never answers);
4. report the cold and warm latency p50/p99 seen by the client (``http_probe.Client``: plain
   sockets), split by ``fresh`` (first after a restart) and ``evicted``, how each was served, the
   median of each ``timings_ms`` stage over the cold searches, the process CPU of the server
   around them (``/proc``), and the load average.

Loopback only; removes its groups and the directory unless ``--keep``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from eval import http_probe, tenants, tenants_seed
from eval.load import LoadConfig, server_process
from eval.metrics import percentile
from graphmem.memory import GraphMemory
from graphmem.retrieval.tenant_index.persist import Snapshots
from graphmem.retrieval.tenant_index.registry import TenantIndexes, _node_bytes


def _ms(values: list[float]) -> dict[str, Any]:
    if not values:
        return {"n": 0, "p50_ms": None, "p99_ms": None, "max_ms": None}
    return {
        "n": len(values),
        "p50_ms": round(percentile(values, 50), 1),
        "p99_ms": round(percentile(values, 99), 1),
        "max_ms": round(max(values), 1),
    }


def _cpu_s(pid: int | None) -> float | None:
    """User + system CPU seconds of ``pid`` (the server) so far."""
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def prepare(
    memory: GraphMemory, cfg: tenants.TenantsConfig, prefix: str, directory: Path, log: Any
) -> tuple[list[tenants.Spec], dict[str, int], list[str], dict[str, Any]]:
    """Seed (unless seeded) and save each tenant's snapshot; returns the tenants, their node
    counts, the template groups, and what saving cost."""
    plan = tenants.specs(cfg, prefix)
    began = time.perf_counter()
    plan, nodes, templates = await tenants.seed_copies(memory, cfg, plan, log)
    seed_s = time.perf_counter() - began
    snapshots = Snapshots(directory)
    ctx = memory.ctx
    registry = TenantIndexes(
        ctx.store,
        dimension=ctx.embedder.dimension,
        sync_limit=10**9,
        ann_threshold=ctx.index_ann_threshold,
        snapshots=snapshots,
    )
    loads = []
    try:
        for spec in plan:
            began = time.perf_counter()
            await registry.ready(spec.group)
            loads.append(time.perf_counter() - began)
            log(
                f"tenants_cold: {spec.group} ({nodes[spec.group]} nodes) loaded and saved in {loads[-1]:.1f} s"
            )
    finally:
        await registry.close()
    index_bytes = max(registry.bytes.values()) if registry.bytes else 0
    files = _file_sizes(directory)
    return (
        plan,
        nodes,
        templates,
        {
            "seed_seconds": round(seed_s, 1),
            "load_and_save_s": [round(s, 1) for s in loads],
            "index_bytes_max": index_bytes,
            "snapshot_bytes": files,
        },
    )


def budget_for(nodes: int, index_bytes: int, dimension: int) -> int:
    """A byte budget that admits one such tenant's load (the registry reserves a generous
    ``_node_bytes`` per node before it starts) but not that load beside another held index: the
    reservation plus half an index."""
    return nodes * _node_bytes(dimension) + index_bytes // 2


def _file_sizes(directory: Path) -> list[int]:
    return [p.stat().st_size for p in directory.glob("*.tix")]


def drive(
    port: int,
    pid: int | None,
    plan: list[tenants.Spec],
    queries: dict[str, list[str]],
    rounds: int,
    k: int,
    warmup: str | None = None,
) -> list[dict[str, Any]]:
    """Rounds of (cold, warm) searches of every tenant in turn, each search a new query, after
    two searches of ``warmup`` (a small tenant: the worker's own first request)."""
    client, out, used = http_probe.Client(port), [], dict.fromkeys(queries, 0)
    try:
        for n, query in enumerate(("warm up the worker", "and its caches") if warmup else ()):
            began = time.perf_counter()
            status, body = client.post(f"/v1/groups/{warmup}/search", {"query": query, "k": k})
            ms = (time.perf_counter() - began) * 1000
            timings = (json.loads(body).get("timings_ms") or {}) if status == 200 else {}
            out.append({"kind": "worker", "first": n == 0, "ms": ms, "timings": timings})
        for r in range(rounds):
            for spec in plan:
                for kind in ("cold", "warm"):
                    pool = queries[spec.group]
                    query = pool[used[spec.group] % len(pool)]
                    used[spec.group] += 1
                    cpu, began = _cpu_s(pid), time.perf_counter()
                    status, body = client.post(f"/v1/groups/{spec.group}/search", {"query": query, "k": k})
                    ms = (time.perf_counter() - began) * 1000
                    after = _cpu_s(pid)
                    if status != 200:
                        out.append({"kind": kind, "error": f"http_{status}", "group": spec.group})
                        continue
                    timings = json.loads(body).get("timings_ms") or {}
                    out.append(
                        {
                            "kind": kind,
                            "fresh": r == 0 and kind == "cold" and spec is plan[0],
                            "group": spec.group,
                            "ms": ms,
                            "server_cpu_ms": None if cpu is None or after is None else (after - cpu) * 1000,
                            "served_by": tenants.served_by(timings),
                            "timings": timings,
                        }
                    )
    finally:
        client.close()
    return out


def _stages(searches: list[dict[str, Any]]) -> dict[str, float]:
    """The median of each ``timings_ms`` stage over ``searches``."""
    stages: dict[str, list[float]] = {}
    for s in searches:
        for name, value in s["timings"].items():
            if isinstance(value, int | float):
                stages.setdefault(name, []).append(float(value))
    return {k: round(statistics.median(v), 2) for k, v in sorted(stages.items())}


def summarise(samples: list[dict[str, Any]]) -> dict[str, Any]:
    worker = [s["ms"] for s in samples if s["kind"] == "worker" and s["first"]]
    ok = [s for s in samples if "error" not in s and s["kind"] != "worker"]
    cold = [s for s in ok if s["kind"] == "cold"]
    warm = [s for s in ok if s["kind"] == "warm"]
    cpu = [s["server_cpu_ms"] for s in cold if s["server_cpu_ms"] is not None]
    fresh_cpu = [s["server_cpu_ms"] for s in cold if s["fresh"] and s["server_cpu_ms"] is not None]
    return {
        "worker_first": _ms(worker),
        # the small tenant's first search: no worker indexed it before (no snapshot), a load from Neo4j
        "worker_first_stages_median_ms": _stages(
            [s for s in samples if s["kind"] == "worker" and s["first"]]
        ),
        "errors": sum(1 for s in samples if "error" in s),
        "cold": _ms([s["ms"] for s in cold]),
        "cold_fresh_worker": _ms([s["ms"] for s in cold if s["fresh"]]),
        "cold_after_eviction": _ms([s["ms"] for s in cold if not s["fresh"]]),
        "cold_served_by": tenants._counts(s["served_by"] for s in cold),
        "cold_server_cpu_ms_median": round(statistics.median(cpu), 1) if cpu else None,
        "cold_stages_median_ms": _stages(cold),
        "cold_fresh_stages_median_ms": _stages([s for s in cold if s["fresh"]]),
        "cold_fresh_server_cpu_ms_median": round(statistics.median(fresh_cpu), 1) if fresh_cpu else None,
        "warm_stages_median_ms": _stages(warm),
        "warm": _ms([s["ms"] for s in warm]),
        "warm_served_by": tenants._counts(s["served_by"] for s in warm),
    }


async def run(memory: GraphMemory, args: argparse.Namespace, log: Any) -> dict[str, Any]:
    cfg = tenants.TenantsConfig(
        tenants=args.tenants,
        min_nodes=args.nodes,
        max_nodes=args.nodes,
        seed=args.seed,
        seed_writers=args.seed_writers,
    )
    prefix = args.prefix or f"tenants-cold-{uuid.uuid4().hex[:8]}"
    directory = Path(tempfile.mkdtemp(prefix="graphmem-tenants-cold-"))
    plan: list[tenants.Spec] = []
    templates: list[str] = []
    try:
        plan, nodes, templates, prepared = await prepare(memory, cfg, prefix, directory, log)
        budget = budget_for(max(nodes.values()), prepared["index_bytes_max"], memory.ctx.embedder.dimension)
        queries = {s.group: s.tenant().queries(240) for s in plan}
        env = {
            "GRAPHMEM_INDEX_SNAPSHOTS": "true",
            "GRAPHMEM_INDEX_SNAPSHOT_DIR": str(directory),
            "GRAPHMEM_INDEX_MAX_BYTES": str(budget),
        }  # the server inherits this process's environment (NEO4J_URI, GRAPHMEM_HOME) besides
        samples: list[dict[str, Any]] = []
        load = [round(os.getloadavg()[0], 2)]
        for restart in range(args.restarts):
            with server_process(LoadConfig(workers=1), env) as (base, pid):
                port = int(base.rsplit(":", 1)[1])
                rotated = plan[restart % len(plan) :] + plan[: restart % len(plan)]
                warmup = next(
                    (t for t in templates if t.endswith(f"-n{min(tenants_seed.TEMPLATE_SIZES)}")), None
                )
                for s in drive(port, pid, rotated, queries, args.rounds, args.k, warmup):
                    samples.append({**s, "restart": restart})
                load.append(round(os.getloadavg()[0], 2))
                # every query of a server is new to it; the next server starts its own cache
            log(f"tenants_cold: restart {restart + 1}/{args.restarts} done")
        return {
            "prefix": prefix,
            "tenants": len(plan),
            "nodes": sorted(nodes.values()),
            **prepared,
            "index_max_bytes": budget,
            "restarts": args.restarts,
            "rounds": args.rounds,
            "loadavg_1m": load,
            **summarise(samples),
            "samples": [{k: v for k, v in s.items() if k != "timings"} for s in samples]
            if args.samples
            else None,
        }
    finally:
        shutil.rmtree(directory, ignore_errors=True)
        if not args.keep and plan:
            await tenants_seed.delete(memory.ctx.store, [s.group for s in plan], log)
            await tenants.forget(memory, templates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--tenants", type=int, default=2)
    parser.add_argument("--restarts", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--seed-writers", type=int, default=tenants_seed.WRITERS)
    parser.add_argument("--prefix", default=None)
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--samples", action="store_true", help="include every search in the JSON")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.tenants < 2:
        parser.error("--tenants must be at least 2 (each turn's load evicts the other tenant)")

    from graphmem.config import Settings
    from graphmem.memory import GraphMemory

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    async def main() -> dict[str, Any]:
        memory = await GraphMemory.from_settings(Settings())
        try:
            return await run(memory, args, log)
        finally:
            await memory.close()

    result = asyncio.run(main())
    if args.json:
        print(json.dumps(result))
    else:
        for key in ("worker_first", "cold", "cold_fresh_worker", "cold_after_eviction", "warm"):
            print(f"{key}: {result[key]}")
        print(f"cold served by {result['cold_served_by']}; stages {result['cold_stages_median_ms']}")


if __name__ == "__main__":
    main()
