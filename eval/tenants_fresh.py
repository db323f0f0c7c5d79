"""A fresh worker's first cold search of a big tenant, with and without the index warm-up (issue 22).

``python -m eval.tenants_fresh --group G --small S [--runs 6] [--json]``

``eval.tenants_cold`` measures over HTTP, where the worker's start-up is the API's; this isolates
``TenantIndexes.warm_up`` in the library. The parent saves ``G``'s snapshot into a temporary
directory once (a load from Neo4j), then starts ``runs`` fresh processes, alternately without and
with the warm-up. Each child warms its embedder (as the API's start-up does), runs the warm-up or
not, searches the small tenant ``S`` twice (what ``eval.tenants_cold`` does before its cold
searches), then searches ``G``: its first cold search (the restore from the snapshot), three more
cold ones (its index dropped before each: a cold search after an eviction) and three warm ones,
each a new query. Reported per child and by mode: wall ms and process CPU ms (all threads) of each
kind, the first cold search's stages, the warm-up's own cost, and the load average.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

QUERIES = ("where did they travel", "what food do they like", "who is their manager", "when did they move")


async def _child(args: argparse.Namespace) -> dict[str, Any]:
    from graphmem.config import Settings
    from graphmem.memory import GraphMemory
    from graphmem.models.search import SearchRequest

    memory = await GraphMemory.from_settings(Settings())
    out: dict[str, Any] = {"warm_up": bool(args.warm)}
    try:
        memory.ctx.embedder.embed(["I moved to Paris last week."])  # what the API's start-up does
        indexes = memory.searcher.indexes
        assert indexes is not None, "the tenant index is off"
        if args.warm:
            cpu, began = time.process_time(), time.perf_counter()
            out["warm_up_steps_ms"] = await indexes.warm_up()
            out["warm_up_ms"] = round((time.perf_counter() - began) * 1000, 1)
            out["warm_up_cpu_ms"] = round((time.process_time() - cpu) * 1000, 1)
        small = []  # the small tenant has no snapshot: its first search waits for a load from Neo4j
        for q in ("warm up the worker", "and its caches"):
            cpu, began = time.process_time(), time.perf_counter()
            found = await memory.search(args.small, SearchRequest(query=q, k=10))
            small.append(
                {
                    "ms": round((time.perf_counter() - began) * 1000, 1),
                    "cpu_ms": round((time.process_time() - cpu) * 1000, 1),
                    "timings": found.timings_ms,
                }
            )
        out["small"] = small
        n = 0

        async def search(kind: str) -> dict[str, Any]:
            nonlocal n
            query = f"{QUERIES[n % len(QUERIES)]} {n}"
            n += 1
            cpu, began = time.process_time(), time.perf_counter()
            found = await memory.search(args.group, SearchRequest(query=query, k=10))
            return {
                "kind": kind,
                "ms": round((time.perf_counter() - began) * 1000, 1),
                "cpu_ms": round((time.process_time() - cpu) * 1000, 1),
                "restored": "index:wait" in found.timings_ms,
                "timings": found.timings_ms,
            }

        searches = [await search("first")]
        for _ in range(3):
            indexes.drop(args.group)
            searches.append(await search("evicted"))
        for _ in range(3):
            searches.append(await search("warm"))
        out["searches"] = searches
    finally:
        await memory.close()
    return out


async def _save(group: str, directory: Path) -> float:
    from graphmem.config import Settings
    from graphmem.memory import GraphMemory
    from graphmem.retrieval.tenant_index.persist import Snapshots
    from graphmem.retrieval.tenant_index.registry import TenantIndexes

    settings = Settings()
    memory = await GraphMemory.from_settings(settings)
    try:
        began = time.perf_counter()
        registry = TenantIndexes(
            memory.ctx.store,
            dimension=memory.ctx.embedder.dimension,
            ann_threshold=settings.index_ann_threshold,
            snapshots=Snapshots(directory),
        )
        if await registry.ready(group) is None:
            raise SystemExit(f"{group}: no index loaded")
        return time.perf_counter() - began
    finally:
        await memory.close()


def _summary(children: list[dict[str, Any]], warm: bool) -> dict[str, Any]:
    mine = [c for c in children if c["warm_up"] == warm]
    out: dict[str, Any] = {"children": len(mine)}
    for kind in ("first", "evicted", "warm"):
        rows = [s for c in mine for s in c["searches"] if s["kind"] == kind]
        out[kind] = {
            "ms_p50": round(statistics.median(s["ms"] for s in rows), 1),
            "ms_max": max(s["ms"] for s in rows),
            "cpu_ms_p50": round(statistics.median(s["cpu_ms"] for s in rows), 1),
        }
    for n, kind in enumerate(("small_first", "small_second")):  # a never-indexed small tenant
        rows = [c["small"][n] for c in mine]
        out[kind] = {
            "ms_p50": round(statistics.median(s["ms"] for s in rows), 1),
            "ms_max": max(s["ms"] for s in rows),
            "cpu_ms_p50": round(statistics.median(s["cpu_ms"] for s in rows), 1),
        }
    smalls = [c["small"][0]["timings"] for c in mine]
    out["small_first_stages_median_ms"] = {
        k: round(statistics.median(t.get(k, 0.0) for t in smalls), 2)
        for k in sorted({k for t in smalls for k in t})
    }
    firsts = [c["searches"][0]["timings"] for c in mine]
    names = sorted({k for t in firsts for k in t})
    out["first_stages_median_ms"] = {
        k: round(statistics.median(t.get(k, 0.0) for t in firsts), 2) for k in names
    }
    if warm:
        out["warm_up_ms_p50"] = statistics.median(c["warm_up_ms"] for c in mine)
        out["warm_up_cpu_ms_p50"] = statistics.median(c["warm_up_cpu_ms"] for c in mine)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--group", required=True)
    parser.add_argument("--small", required=True)
    parser.add_argument("--runs", type=int, default=6)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--warm", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(asyncio.run(_child(args))))
        return
    directory = Path(tempfile.mkdtemp(prefix="graphmem-tenants-fresh-"))
    try:
        save_s = asyncio.run(_save(args.group, directory))
        env = {
            **os.environ,
            "GRAPHMEM_INDEX_SNAPSHOTS": "true",
            "GRAPHMEM_INDEX_SNAPSHOT_DIR": str(directory),
        }
        children, load = [], [round(os.getloadavg()[0], 2)]
        for run in range(args.runs):
            command = [sys.executable, "-m", "eval.tenants_fresh", "--child", "--warm", str(run % 2)]
            command += ["--group", args.group, "--small", args.small]
            done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
            children.append(json.loads(done.stdout.strip().splitlines()[-1]))
            load.append(round(os.getloadavg()[0], 2))
            print(f"tenants_fresh: run {run + 1}/{args.runs} done", file=sys.stderr, flush=True)
        result = {
            "group": args.group,
            "save_s": round(save_s, 1),
            "loadavg_1m": load,
            "without_warm_up": _summary(children, False),
            "with_warm_up": _summary(children, True),
            "children": [
                {
                    **c,
                    "searches": [{k: v for k, v in s.items() if k != "timings"} for s in c["searches"]],
                    "small": [{k: v for k, v in s.items() if k != "timings"} for s in c["small"]],
                }
                for c in children
            ],
        }
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    if args.json:
        print(json.dumps(result))
    else:
        for key in ("without_warm_up", "with_warm_up"):
            print(f"{key}: {json.dumps(result[key])}")


if __name__ == "__main__":
    main()
