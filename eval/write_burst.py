"""Concurrent one-episode writes into one group, in process: group commit and embedding ahead of
the lock measured by themselves (issue 17, item 2).

For each round and each setting (group commit on/off x embed-ahead on/off, alternating so that a
shared machine's drift spreads over all four), ``n`` writes start at once into a fresh group through
``GraphMemory`` (MiniLM, the rules extractor, the configured Neo4j); reported: wall time for all
of them, writes/s, the transactions the write gate ran, and per-write latency p50/p99. The groups
are forgotten afterwards.

    NEO4J_URI=bolt://127.0.0.1:7687 python -m eval.write_burst --writes 32 --rounds 2
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from eval.metrics import percentile
from graphmem.config import Settings
from graphmem.memory import GraphMemory
from graphmem.memory.write_gate import WriteGate
from graphmem.models import EpisodeIn
from graphmem.ports import Embedder
from graphmem.providers.extractors.rules import RulesExtractor
from graphmem.store.driver import Store

NAMES = ["Alice", "Bob", "Carol", "Dan", "Erin", "Frank", "Grace", "Heidi"]
CITIES = ["Berlin", "Paris", "Rome", "Oslo", "Lima", "Quito", "Kyoto", "Cairo"]
SETTINGS = ((32, True), (1, True), (32, False), (1, False))  # (write batch max, embed ahead)


async def burst(store: Store, embedder: Embedder, *, batch_max: int, ahead: bool, n: int) -> dict[str, Any]:
    mem = await GraphMemory.open(
        store=store,
        embedder=embedder,
        extractor=RulesExtractor(),
        migrate=False,
        write_gate=WriteGate(batch_max=batch_max),
        write_embed_ahead=ahead,
    )
    group = f"burst-{uuid.uuid4().hex[:10]}"
    start = datetime(2024, 1, 1, tzinfo=UTC)
    latencies: list[float] = []

    async def write(i: int) -> None:
        episode = EpisodeIn(
            content=f"I moved to {CITIES[i % 8]} and I work at Org{i}.",
            speaker=NAMES[i % 8],
            session_id=f"s{i % 4}",
            external_id=f"e{i}",
            reference_time=start + timedelta(minutes=i),
        )
        began = time.perf_counter()
        await mem.add_episode(group, episode)
        latencies.append((time.perf_counter() - began) * 1000)

    began = time.perf_counter()
    try:
        await asyncio.gather(*(write(i) for i in range(n)))
        wall = time.perf_counter() - began
    finally:
        await mem.forget_group(group, purge_tombstones=True)
    return {
        "batch_max": batch_max,
        "embed_ahead": ahead,
        "wall_s": round(wall, 2),
        "writes_per_s": round(n / wall, 1),
        "transactions": mem.ctx.write_gate.stats.transactions,
        "p50_ms": round(percentile(latencies, 50)),
        "p99_ms": round(percentile(latencies, 99)),
    }


def open_store_and_embedder() -> tuple[Settings, Store, Embedder]:
    """The store at NEO4J_URI and the loaded MiniLM embedder, for the in-process write probes."""
    from graphmem.providers.embedders.minilm_onnx import MiniLMOnnxEmbedder

    settings = Settings()
    if not settings.neo4j_uri:
        raise SystemExit("set NEO4J_URI")
    store = Store.connect(
        settings.neo4j_uri, auth=settings.neo4j_auth_tuple, database=settings.neo4j_database
    )
    embedder = MiniLMOnnxEmbedder()
    embedder.load()
    return settings, store, embedder


async def run(n: int, rounds: int) -> list[dict[str, Any]]:
    _, store, embedder = open_store_and_embedder()
    out: list[dict[str, Any]] = []
    try:
        await burst(store, embedder, batch_max=32, ahead=True, n=8)  # warm-up: model, parser, pool
        for r in range(rounds):
            for batch_max, ahead in SETTINGS:
                result = {"round": r, **await burst(store, embedder, batch_max=batch_max, ahead=ahead, n=n)}
                print(json.dumps(result), flush=True)
                out.append(result)
    finally:
        await store.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--writes", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    asyncio.run(run(args.writes, args.rounds))


if __name__ == "__main__":
    main()
