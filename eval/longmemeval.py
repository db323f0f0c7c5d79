"""LongMemEval retrieval (EVAL.md §5) for graphmem's recipes and the baselines, in one run.

Every question becomes its own group (``lme-<run>-<question_id>``): its haystack, one episode per
turn, ingested once through ``GraphMemory.add_episodes`` and shared by the graphmem-backed
retrievers (``eval.retrievers``: rank-bm25, vector, hybrid, graphmem, graphiti). The query is the
question, searched as of the question date; one search per question asks for ``max(ks)`` items.

Metrics, per question type and overall (means over questions):
- turn evidence recall@k: |has_answer turns in the top k| / |has_answer turns|;
- session recall_any@k / recall_all@k: sessions ranked by their best returned turn; does the top k
  hold any / all of the answer sessions;
- MRR: 1 / the rank of the first evidence turn (0 when none is in the top ``max(ks)``);
- ``newest_first`` (knowledge-update questions whose answer sessions have two or more dates): the
  newest answer session ranks above every older one (absent counts as below).
``search_ms`` is the wall time of each search (query embedding included; the group's index is
loaded before, untimed: with one question per group, every search would otherwise be a first one).
"""

from __future__ import annotations

import time
import uuid
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from eval.ingest_setup import eval_ingest
from eval.longmemeval_data import Dataset, Haystack, load, session_of
from eval.metrics import evidence_recall, latency_summary, mean
from eval.retrievers import RETRIEVERS, Corpus, Log, Retriever, check_names, ingest, run_all, timed_search
from graphmem.config import Settings
from graphmem.memory import GraphMemory

__all__ = [
    "RETRIEVERS",
    "LongMemEvalOptions",
    "corpora",
    "question_scores",
    "run_longmemeval",
    "score_retriever",
]
UPDATE_TYPE = "knowledge-update"


@dataclass
class LongMemEvalOptions:
    data: Path
    retrievers: tuple[str, ...] = ("graphmem",)
    ks: tuple[int, ...] = (1, 5, 10, 25)
    limit: int | None = None
    batch: int = 200
    keep: bool = False  # leave the groups in Neo4j (debugging)
    group_prefix: str | None = None  # reuse these groups (ingestion is idempotent); default: a fresh run id
    run_id: str = field(default_factory=lambda: time.strftime("%Y%m%d%H%M%S") + uuid.uuid4().hex[:6])
    embed_cache: Path | None = None  # eval.embed_cache: embed each distinct text once across runs
    # epoch seconds: start ingesting no question after this; score the questions ingested by then
    # (round-robin order, so they cover the types evenly); None: ingest every question
    ingest_until: float | None = None
    facts: bool = True  # False: ingest without fact extraction (eval.ingest_setup.NoFacts)


def ranked_sessions(ranked: Sequence[str]) -> list[str]:
    """Sessions in the order of their best returned turn."""
    return list(dict.fromkeys(session_of(x) for x in ranked))


def newest_first(h: Haystack, ranked: Sequence[str]) -> float | None:
    """1.0 when the newest answer session ranks above every older one, 0.0 otherwise; None when
    the answer sessions do not span two dates (nothing to order)."""
    dated = [(h.session_dates[s], s) for s in h.answer_sessions if s in h.session_dates]
    if len({d for d, _ in dated}) < 2:
        return None
    newest_date = max(d for d, _ in dated)
    newest = {s for d, s in dated if d == newest_date}
    older = {s for _, s in dated} - newest
    for session in ranked_sessions(ranked):
        if session in newest:
            return 1.0
        if session in older:
            return 0.0
    return 0.0


def question_scores(h: Haystack, ranked: Sequence[str], ks: Sequence[int]) -> dict[str, Any]:
    """Every metric of one question, from its ranked external ids (de-duplicated, best first)."""
    sessions = ranked_sessions(ranked)
    answer = set(h.answer_sessions)
    wanted = set(h.evidence)
    first = next((i for i, x in enumerate(ranked, start=1) if x in wanted), None)
    return {
        "turn": {k: evidence_recall(h.evidence, ranked, k) for k in ks},
        "any": {k: float(bool(answer & set(sessions[:k]))) for k in ks},
        "all": {k: float(answer <= set(sessions[:k])) for k in ks},
        "rr": 0.0 if first is None else 1.0 / first,
        "newest_first": newest_first(h, ranked) if h.question_type == UPDATE_TYPE else None,
    }


@dataclass
class _Tally:
    ks: tuple[int, ...]
    by_type: dict[str, list[dict[str, Any]]] = field(default_factory=lambda: defaultdict(list))
    ms: list[float] = field(default_factory=list)

    def add(self, h: Haystack, ranked: list[str], ms: float) -> None:
        self.ms.append(ms)
        self.by_type[h.question_type].append(question_scores(h, ranked, self.ks))

    @property
    def n(self) -> int:
        return sum(len(v) for v in self.by_type.values())

    def _grid(self, metric: str) -> dict[str, Any]:
        every = [s for v in self.by_type.values() for s in v]

        def at(scores: list[dict[str, Any]]) -> dict[str, float | None]:
            return {str(k): mean([s[metric][k] for s in scores]) for k in self.ks}

        return {"overall": at(every), "by_type": {t: at(v) for t, v in sorted(self.by_type.items())}}

    def result(self, name: str, skipped: int, seconds: float | None) -> dict[str, Any]:
        every = [s for v in self.by_type.values() for s in v]
        ordered = [s["newest_first"] for s in every if s["newest_first"] is not None]
        return {
            "retriever": name,
            "n": self.n,
            "skipped": skipped,
            "turn_recall": self._grid("turn"),
            "session_recall_any": self._grid("any"),
            "session_recall_all": self._grid("all"),
            "mrr": {
                "overall": mean([s["rr"] for s in every]),
                "by_type": {t: mean([s["rr"] for s in v]) for t, v in sorted(self.by_type.items())},
            },
            "newest_first": {"n": len(ordered), "rate": mean(ordered)},
            "search_ms": latency_summary(self.ms),
            "ingest_seconds": None if seconds is None else round(seconds, 2),
        }


def corpora(dataset: Dataset) -> list[Corpus]:
    return [Corpus(h.question_id, h.group_id, h.episodes) for h in dataset.haystacks]


async def score_retriever(
    retriever: Retriever, dataset: Dataset, ks: tuple[int, ...], log: Log = lambda _m: None
) -> dict[str, Any]:
    """Search every question (as of its date, top ``max(ks)``) and tally the metrics."""
    tally = _Tally(ks)
    for h in dataset.haystacks:
        ranked, ms = await timed_search(retriever, h.group_id, h.question, max(ks), h.question_date)
        tally.add(h, ranked, ms)
    log(f"  {retriever.name}: {tally.n} questions, p50 {latency_summary(tally.ms)['p50']} ms")
    return tally.result(retriever.name, dataset.skipped, retriever.seconds)


async def ingest_until(
    memory: GraphMemory, dataset: Dataset, opts: LongMemEvalOptions, log: Log
) -> tuple[Dataset, float]:
    """Ingest question after question (the dataset's order) while the clock is before
    ``opts.ingest_until``; the dataset narrowed to the questions ingested, and the seconds taken."""
    began = time.perf_counter()
    done: list[Haystack] = []
    for h in dataset.haystacks:
        if time.time() >= (opts.ingest_until or 0.0):
            log(f"ingest deadline: {len(done)} of {dataset.n_questions} questions ingested")
            break
        await ingest(memory, corpora(Dataset([h])), opts.batch, log)
        done.append(h)
    return Dataset(done, dataset.skipped, dataset.rejected_turns), time.perf_counter() - began


async def run_longmemeval(
    memory: GraphMemory, settings: Settings, opts: LongMemEvalOptions, log: Log = lambda _m: None
) -> tuple[Dataset, list[dict[str, Any]]]:
    """Ingest, search every question with every retriever, clean up; one result per retriever."""
    check_names(opts.retrievers)
    dataset = load(opts.data, group_prefix=opts.group_prefix or f"lme-{opts.run_id}", limit=opts.limit)
    log(
        f"{dataset.n_questions} questions, {sum(len(h.episodes) for h in dataset.haystacks)} turns "
        f"({dataset.skipped} skipped: no has_answer turn)"
    )
    with eval_ingest(memory, embed_cache=opts.embed_cache, facts=opts.facts) as cached:
        seconds = None
        if opts.ingest_until is not None:
            dataset, seconds = await ingest_until(memory, dataset, opts, log)
        results = await run_all(
            memory,
            settings,
            opts.retrievers,
            corpora(dataset),
            lambda retriever: score_retriever(retriever, dataset, opts.ks, log),
            batch=opts.batch,
            keep=opts.keep,
            log=log,
            ingested_seconds=seconds,
        )
        if cached is not None:
            log(f"embedding cache: {cached.hits} texts found, {cached.misses} embedded")
    for result in results:
        result["facts"] = opts.facts
    return dataset, results
