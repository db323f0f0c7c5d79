"""LoCoMo evidence recall@k (EVAL.md §2) for graphmem's recipes and the baselines, in one run.

Every conversation becomes its own group (``locomo-<run>-<sample_id>``), one episode per turn,
ingested once through ``GraphMemory.add_episodes`` and shared by the graphmem-backed retrievers
(``eval.retrievers``: rank-bm25, vector, hybrid, graphmem, graphiti).

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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from eval.locomo_data import Dataset, load
from eval.metrics import evidence_recall, latency_summary, mean
from eval.retrievers import RECIPES, RETRIEVERS, Corpus, Log, Retriever, check_names, run_all, timed_search
from graphmem.config import Settings
from graphmem.memory import GraphMemory

__all__ = ["RECIPES", "RETRIEVERS", "LocomoOptions", "category_counts", "run_locomo", "score_retriever"]
MAIN_CATEGORIES = (1, 2, 3, 4)


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
    group_prefix: str | None = None  # reuse these groups (ingestion is idempotent); default: a fresh run id
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
    # 1 / the rank of the first evidence turn (0 when none is in the top max(ks)), per category
    rr: dict[int, list[float]] = field(default_factory=lambda: defaultdict(list))

    def add(self, category: int, evidence: tuple[str, ...], ranked: list[str], ms: float) -> None:
        self.n += 1
        self.ms.append(ms)
        for k in self.ks:
            self.recall[category][k].append(evidence_recall(evidence, ranked, k))
        wanted = set(evidence)
        first = next((i for i, x in enumerate(ranked[: max(self.ks)], start=1) if x in wanted), None)
        self.rr[category].append(0.0 if first is None else 1.0 / first)

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
            "mrr": {"1-4": mean([v for c in MAIN_CATEGORIES for v in self.rr.get(c, [])])},
            "search_ms": latency_summary(self.ms),
            "ingest_seconds": None if ingest_seconds is None else round(ingest_seconds, 2),
        }


def category_counts(dataset: Dataset) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for conv in dataset.conversations:
        for q in conv.questions:
            counts[str(q.category)] += 1
    return dict(sorted(counts.items()))


def corpora(dataset: Dataset) -> list[Corpus]:
    return [Corpus(c.sample_id, c.group_id, c.episodes) for c in dataset.conversations]


async def run_locomo(
    memory: GraphMemory, settings: Settings, opts: LocomoOptions, log: Log = lambda _m: None
) -> tuple[Dataset, list[dict[str, Any]]]:
    """Ingest, search every QA with every retriever, clean up; one result object per retriever."""
    check_names(opts.retrievers)
    dataset = load(
        opts.data,
        group_prefix=opts.group_prefix or f"locomo-{opts.run_id}",
        conversations=opts.conversations,
        sessions=opts.sessions,
        max_questions=opts.max_questions,
    )
    log(
        f"{len(dataset.conversations)} conversations, "
        f"{sum(len(c.episodes) for c in dataset.conversations)} turns, "
        f"{dataset.n_questions} QA ({dataset.skipped} skipped: no resolvable evidence)"
    )
    results = await run_all(
        memory,
        settings,
        opts.retrievers,
        corpora(dataset),
        lambda retriever: score_retriever(retriever, dataset, opts.ks, log),
        batch=opts.batch,
        keep=opts.keep,
        log=log,
    )
    return dataset, results


async def score_retriever(
    retriever: Retriever, dataset: Dataset, ks: tuple[int, ...], log: Log = lambda _m: None
) -> dict[str, Any]:
    """Search every QA of ``dataset`` (top ``max(ks)``) and tally recall@k per category."""
    tally = _Tally(ks)
    for conv in dataset.conversations:
        for q in conv.questions:
            ranked, ms = await timed_search(retriever, conv.group_id, q.question, max(ks), None)
            tally.add(q.category, q.evidence, ranked, ms)
        log(
            f"  {retriever.name}: {conv.sample_id} done ({tally.n} QA, p50 {latency_summary(tally.ms)['p50']} ms)"
        )
    return tally.result(retriever.name, dataset.skipped, retriever.seconds)
