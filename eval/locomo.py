"""LoCoMo evidence recall@k (EVAL.md §2) for graphmem's recipes and the baselines, in one run.

Every conversation becomes its own group (``locomo-<run>-<sample_id>``), one episode per turn,
ingested once through ``GraphMemory.add_episodes`` and shared by the graphmem-backed retrievers:

- ``rank-bm25``: the rank_bm25 package over the raw turns (``eval.baselines.bm25``), no Neo4j;
- ``vector``, ``hybrid``, ``graphmem``: ``GraphMemory.search`` with recipes ``vector``, ``hybrid``
  (bm25 + vector) and ``default`` (bm25 + vector + graph), mapped to dia_ids by
  ``SearchResult.source_external_ids()``;
- ``graphiti``: graphiti-core's hybrid search over a copy of the same episodes and facts
  (``eval.baselines.graphiti``).

The query is the question; one search per QA asks for ``max(ks)`` items and recall@k is read off its
top k dia_ids. ``search_ms`` is the wall time of that call (query embedding included).
``ingest_seconds``: graphmem's ingestion (embedding, extraction, writes) for the graphmem-backed
retrievers, index building for rank-bm25, graphiti's bulk load (on top of graphmem's ingestion, whose
facts it copies) for graphiti.
"""

from __future__ import annotations

import time
import uuid
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from eval.locomo_data import Conversation, Dataset, load
from eval.metrics import evidence_recall, latency_summary, mean
from graphmem.config import Settings
from graphmem.memory import GraphMemory
from graphmem.models.search import SearchRequest

RETRIEVERS = ("rank-bm25", "vector", "hybrid", "graphmem", "graphiti")
RECIPES = {"vector": "vector", "hybrid": "hybrid", "graphmem": "default"}
MAIN_CATEGORIES = (1, 2, 3, 4)

Log = Callable[[str], None]


@dataclass
class LocomoOptions:
    data: Path
    retrievers: tuple[str, ...] = ("graphmem",)
    ks: tuple[int, ...] = (1, 5, 10, 25)
    conversations: list[str] | None = None
    sessions: int | None = None
    max_questions: int | None = None
    batch: int = 200
    keep: bool = False  # leave the groups in Neo4j (debugging)
    run_id: str = field(default_factory=lambda: time.strftime("%Y%m%d%H%M%S") + uuid.uuid4().hex[:6])


@dataclass
class _Tally:
    """Recall values per category and k, and search latencies, of one retriever."""

    ks: tuple[int, ...]
    recall: dict[int, dict[int, list[float]]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(list))
    )
    ms: list[float] = field(default_factory=list)
    n: int = 0

    def add(self, category: int, evidence: tuple[str, ...], ranked: list[str], ms: float) -> None:
        self.n += 1
        self.ms.append(ms)
        for k in self.ks:
            self.recall[category][k].append(evidence_recall(evidence, ranked, k))

    def result(self, name: str, skipped: int, ingest_seconds: float | None) -> dict[str, Any]:
        main = {
            str(k): mean([v for c in MAIN_CATEGORIES for v in self.recall.get(c, {}).get(k, [])])
            for k in self.ks
        }
        by_category = {
            str(c): {str(k): mean(self.recall[c][k]) for k in self.ks} for c in sorted(self.recall)
        }
        return {
            "retriever": name,
            "n": self.n,
            "skipped": skipped,
            "recall": {"1-4": main, "by_category": by_category},
            "search_ms": latency_summary(self.ms),
            "ingest_seconds": None if ingest_seconds is None else round(ingest_seconds, 2),
        }


def category_counts(dataset: Dataset) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for conv in dataset.conversations:
        for q in conv.questions:
            counts[str(q.category)] += 1
    return dict(sorted(counts.items()))


async def _ingest_graphmem(memory: GraphMemory, dataset: Dataset, batch: int, log: Log) -> float:
    began = time.perf_counter()
    for conv in dataset.conversations:
        t0 = time.perf_counter()
        for start in range(0, len(conv.episodes), batch):
            await memory.add_episodes(conv.group_id, conv.episodes[start : start + batch])
        log(f"ingested {conv.sample_id}: {len(conv.episodes)} turns in {time.perf_counter() - t0:.1f}s")
    return time.perf_counter() - began


async def _forget(memory: GraphMemory, groups: list[str], log: Log) -> None:
    forget = getattr(memory, "forget_group", None)
    if forget is None:
        log(f"GraphMemory.forget_group is not available: groups left in Neo4j: {', '.join(groups)}")
        return
    for group in groups:
        try:
            await forget(group, purge_tombstones=True)  # an eval group leaves nothing behind
        except TypeError:
            await forget(group)


async def _score(
    tally: _Tally,
    conv: Conversation,
    search: Callable[[Conversation, str, int], Any],
) -> None:
    k = max(tally.ks)
    for q in conv.questions:
        began = time.perf_counter()
        ranked = await search(conv, q.question, k)
        ms = (time.perf_counter() - began) * 1000
        tally.add(q.category, q.evidence, list(ranked)[:k], ms)


async def run_locomo(
    memory: GraphMemory, settings: Settings, opts: LocomoOptions, log: Log = lambda _m: None
) -> tuple[Dataset, list[dict[str, Any]]]:
    """Ingest, search every QA with every retriever, clean up; one result object per retriever."""
    unknown = [r for r in opts.retrievers if r not in RETRIEVERS]
    if unknown:
        raise ValueError(f"unknown retriever(s) {unknown}; choose from {', '.join(RETRIEVERS)} or all")
    dataset = load(
        opts.data,
        group_prefix=f"locomo-{opts.run_id}",
        conversations=opts.conversations,
        sessions=opts.sessions,
        max_questions=opts.max_questions,
    )
    log(
        f"{len(dataset.conversations)} conversations, "
        f"{sum(len(c.episodes) for c in dataset.conversations)} turns, "
        f"{dataset.n_questions} QA ({dataset.skipped} skipped: no resolvable evidence)"
    )
    results: list[dict[str, Any]] = []
    needs_graphmem = any(r in RECIPES or r == "graphiti" for r in opts.retrievers)
    groups = [c.group_id for c in dataset.conversations]
    ingest_s = await _ingest_graphmem(memory, dataset, opts.batch, log) if needs_graphmem else None
    try:
        for name in opts.retrievers:
            log(f"retriever {name} ...")
            if name == "rank-bm25":
                results.append(await _run_bm25(dataset, opts))
            elif name == "graphiti":
                results.append(await _run_graphiti(memory, settings, dataset, opts, log))
            else:
                results.append(await _run_recipe(memory, dataset, opts, name, ingest_s, log))
            log(f"retriever {name}: recall 1-4 {results[-1].get('recall', {}).get('1-4')}")
    finally:
        if needs_graphmem and not opts.keep:
            await _forget(memory, groups, log)
    return dataset, results


async def _run_recipe(
    memory: GraphMemory, dataset: Dataset, opts: LocomoOptions, name: str, ingest_s: float | None, log: Log
) -> dict[str, Any]:
    tally = _Tally(opts.ks)

    async def search(conv: Conversation, question: str, k: int) -> list[str]:
        req = SearchRequest(query=question[:2000], k=k, recipe=RECIPES[name])
        result = await memory.search(conv.group_id, req)
        return result.source_external_ids()

    for conv in dataset.conversations:
        await _score(tally, conv, search)
        log(
            f"  {name}: {conv.sample_id} done ({tally.n} QA, search p50 {latency_summary(tally.ms)['p50']} ms)"
        )
    return tally.result(name, dataset.skipped, ingest_s)


async def _run_bm25(dataset: Dataset, opts: LocomoOptions) -> dict[str, Any]:
    from eval.baselines.bm25 import RankBM25Index

    tally = _Tally(opts.ks)
    indexes = {c.group_id: RankBM25Index(c.episodes) for c in dataset.conversations}

    async def search(conv: Conversation, question: str, k: int) -> list[str]:
        return indexes[conv.group_id].search(question, k)

    for conv in dataset.conversations:
        await _score(tally, conv, search)
    build = sum(i.build_seconds for i in indexes.values())
    return tally.result("rank-bm25", dataset.skipped, build)


async def _run_graphiti(
    memory: GraphMemory, settings: Settings, dataset: Dataset, opts: LocomoOptions, log: Log
) -> dict[str, Any]:
    from eval.baselines.graphiti import GraphitiRun, graphiti_group

    try:
        run = await GraphitiRun.connect(settings, memory.ctx.embedder)
    except Exception as exc:  # report and keep the other retrievers
        log(f"graphiti could not start: {type(exc).__name__}: {exc}")
        return {"retriever": "graphiti", "error": f"{type(exc).__name__}: {exc}"}
    tally = _Tally(opts.ks)
    target = {c.group_id: graphiti_group(f"graphiti_{c.group_id}") for c in dataset.conversations}
    try:
        loaded = 0.0
        for conv in dataset.conversations:
            stats = await run.load(memory.ctx.store, conv.group_id, target[conv.group_id])
            loaded += stats["seconds"]
            log(f"graphiti loaded {conv.sample_id}: {stats}")

        async def search(conv: Conversation, question: str, k: int) -> list[str]:
            result: list[str] = await run.search(target[conv.group_id], question, k)
            return result

        for conv in dataset.conversations:
            await _score(tally, conv, search)
        return tally.result("graphiti", dataset.skipped, loaded)
    except Exception as exc:
        log(f"graphiti failed: {type(exc).__name__}: {exc}")
        return {"retriever": "graphiti", "error": f"{type(exc).__name__}: {exc}"}
    finally:
        if opts.keep:
            run.groups.clear()
        await run.close()
