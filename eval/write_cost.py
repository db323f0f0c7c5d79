"""What one write costs, in process: CPU, round trips and commits (issue 17; docs/evals.md §6).

Writes ``--writes`` one-episode batches (the load test's episodes, ``eval.load._episode``) into a
fresh group (``--groups`` groups, written round-robin) seeded with ``--seed`` episodes each,
``--concurrency`` at a time (1: one after another;
more: the write gate's group commit takes what queues). Reported per write: this process's CPU
(main thread and the rest), Neo4j's CPU (its process, found by ``NEO4J_URI``'s port; gross, so
approximate on a shared Neo4j), queries sent (``run`` calls: round trips inside transactions, plus
auto-commit reads) and transactions committed (write and read). The group is forgotten afterwards.

    NEO4J_URI=bolt://127.0.0.1:7687 python -m eval.write_cost --writes 60 --concurrency 1
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import time
import uuid
from collections import Counter
from datetime import datetime
from typing import Any
from urllib.parse import urlparse

from eval.load import _episode
from eval.proc_cpu import PROC, cpu_s, listening_pid, threads_cpu_s
from eval.write_burst import open_store_and_embedder
from graphmem.memory import GraphMemory
from graphmem.memory.write_gate import WriteGate
from graphmem.models import EpisodeIn
from graphmem.providers.extractors.rules import RulesExtractor
from graphmem.store import driver
from graphmem.store.driver import Store

COUNTS: Counter[str] = Counter()
BOLT_WORKERS = "neo4j.BoltWorke"  # Linux keeps 15 characters of a thread's name


def _count_calls() -> None:
    """Count queries and commits at the driver's surface (the script's own process only)."""
    tx = driver.AsyncTransaction
    tx_run, tx_commit, read, read_values = tx.run, tx.commit, Store.read, Store.read_values

    async def run(self: Any, query: Any, *a: Any, **k: Any) -> Any:
        COUNTS["queries"] += 1
        return await tx_run(self, query, *a, **k)

    async def commit(self: Any) -> Any:
        COUNTS["commits"] += 1
        return await tx_commit(self)

    async def auto_read(self: Store, query: str, **params: Any) -> Any:
        COUNTS["queries"] += 1
        COUNTS["autocommit"] += 1
        return await read(self, query, **params)

    async def auto_values(self: Store, query: str, **params: Any) -> Any:
        COUNTS["queries"] += 1
        COUNTS["autocommit"] += 1
        return await read_values(self, query, **params)

    tx.run = run  # type: ignore[method-assign]
    tx.commit = commit  # type: ignore[method-assign]
    Store.read = auto_read  # type: ignore[method-assign]
    Store.read_values = auto_values  # type: ignore[method-assign]


def _cpu() -> tuple[float, float]:
    pid = os.getpid()
    whole = cpu_s(PROC / str(pid) / "stat")
    main = cpu_s(PROC / str(pid) / "task" / str(pid) / "stat")
    return main, whole - main


def _episodes(rng: random.Random, n: int) -> list[EpisodeIn]:
    out = []
    for _ in range(n):
        raw = _episode(rng)
        out.append(
            EpisodeIn.model_validate({**raw, "reference_time": datetime.fromisoformat(raw["reference_time"])})
        )
    return out


async def measure(
    mem: GraphMemory,
    neo4j_pid: int | None,
    *,
    writes: int,
    seed: int,
    concurrency: int,
    groups: int = 1,
) -> dict[str, Any]:
    rng = random.Random(7)
    names = [f"wcost-{uuid.uuid4().hex[:10]}" for _ in range(groups)]
    for group in names:
        if seed:
            await mem.add_episodes(group, _episodes(rng, seed))
    todo = _episodes(rng, writes)
    for group in names:
        await mem.add_episode(group, todo.pop())  # warm this group's caches
    gate = mem.ctx.write_gate.stats
    tx0 = gate.transactions
    calls0 = getattr(mem.ctx.embedder, "passage_calls", 0)
    COUNTS.clear()
    neo0 = cpu_s(PROC / str(neo4j_pid) / "stat") if neo4j_pid else 0.0
    bolt0 = threads_cpu_s(neo4j_pid, BOLT_WORKERS) if neo4j_pid else 0.0
    main0, rest0 = _cpu()
    began = time.perf_counter()
    sem = asyncio.Semaphore(concurrency)

    async def one(group: str, ep: EpisodeIn) -> None:
        async with sem:
            await mem.add_episode(group, ep)

    try:
        await asyncio.gather(*(one(names[i % groups], ep) for i, ep in enumerate(todo)))
        wall = time.perf_counter() - began
        main1, rest1 = _cpu()
        neo1 = cpu_s(PROC / str(neo4j_pid) / "stat") if neo4j_pid else 0.0
        bolt1 = threads_cpu_s(neo4j_pid, BOLT_WORKERS) if neo4j_pid else 0.0
    finally:
        for group in names:
            await mem.forget_group(group, purge_tombstones=True)
    n = len(todo)
    return {
        "writes": n,
        "concurrency": concurrency,
        "groups": groups,
        "span_groups": mem.ctx.write_gate.span_groups,
        "seed_episodes": seed,
        "wall_s": round(wall, 2),
        "server_ms_per_write": round((main1 - main0 + rest1 - rest0) * 1000 / n, 1),
        "server_loop_ms_per_write": round((main1 - main0) * 1000 / n, 1),
        "neo4j_gross_ms_per_write": round((neo1 - neo0) * 1000 / n, 1) if neo4j_pid else None,
        "neo4j_bolt_ms_per_write": round((bolt1 - bolt0) * 1000 / n, 1) if neo4j_pid else None,
        "queries_per_write": round(COUNTS["queries"] / n, 2),
        "commits_per_write": round(COUNTS["commits"] / n, 2),
        "autocommit_per_write": round(COUNTS["autocommit"] / n, 2),
        "transactions_per_write": round((gate.transactions - tx0) / n, 2),
        "embed_rounds_per_write": round((getattr(mem.ctx.embedder, "passage_calls", 0) - calls0) / n, 2)
        if hasattr(mem.ctx.embedder, "passage_calls")
        else None,
        "load_average": round(os.getloadavg()[0], 2),
    }


async def main_async(args: argparse.Namespace) -> None:
    settings, store, embedder = open_store_and_embedder()
    _count_calls()
    neo4j_pid = listening_pid(urlparse(settings.neo4j_uri).port or 7687)
    mem = await GraphMemory.open(
        store=store,
        embedder=embedder,
        extractor=RulesExtractor(),
        migrate=False,
        write_gate=WriteGate(batch_max=args.batch_max, span_groups=args.span_groups),
        query_batch=args.embed_batch,  # writes' embeddings coalesced across concurrent writes
    )
    try:
        for c in args.concurrency:
            result = await measure(
                mem, neo4j_pid, writes=args.writes, seed=args.seed, concurrency=c, groups=args.groups
            )
            print(json.dumps(result), flush=True)
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--writes", type=int, default=60)
    parser.add_argument("--seed", type=int, default=20)
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1])
    parser.add_argument("--batch-max", type=int, default=32)
    parser.add_argument(
        "--groups", type=int, default=1, help="writes spread round-robin over this many groups (the load's 8)"
    )
    parser.add_argument(
        "--span-groups",
        action="store_true",
        help="one group commit for writes to any group (WriteGate.span_groups)",
    )
    parser.add_argument(
        "--no-embed-batch",
        dest="embed_batch",
        action="store_false",
        help="each write embeds in model calls of its own (GRAPHMEM_QUERY_BATCH=false)",
    )
    args = parser.parse_args()
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
