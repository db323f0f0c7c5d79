"""Recall@k of the tenant index's compact vector column against exact f32 scoring (issue 22, item 2).

The tenant index keeps every vector of a target in one matrix (``tenant_index.vectors``); in int8
(one scale a row) it takes a quarter of the bytes of f32. This measures what that costs in ranking, on real text: LoCoMo turns
(``speaker: text``, as ingestion embeds them) and its questions as queries, embedded with the
configured embedder. For each query, the top ``k`` of ``Vectors.search`` over the int8 matrix
against the top ``k`` of the same search over f32: recall@k = |i8 top k ∩ f32 top k| / k, averaged.
Both run the exact path (``ann_threshold`` above the corpus); ``hnsw`` adds the HNSW path (its graph
stores f16, built from the int8 rows) against exact f32, for scale. Each conversation is searched alone (a
tenant), and all of them as one corpus (a larger, harder tenant).

    python -m eval.vector_recall --data /work/shared/data/locomo/locomo_dev.json [--embed-cache DIR]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

import numpy as np

from eval import locomo_data
from graphmem.memory.ingestion import indexed_text
from graphmem.ports import Embedder
from graphmem.retrieval.tenant_index import vectors
from graphmem.retrieval.tenant_index.vectors import Vectors


def _search_all(vectors: Vectors, queries: np.ndarray, k: int) -> tuple[list[list[int]], float]:
    began = time.perf_counter()
    tops = [[slot for slot, _ in vectors.search(q, k, None)] for q in queries]
    return tops, (time.perf_counter() - began) * 1000 / max(len(queries), 1)


def _index(corpus: np.ndarray, precision: str, ann_threshold: int) -> Vectors:
    vectors = Vectors(corpus.shape[1], ann_threshold=ann_threshold, precision=precision)
    vectors.set_many(list(range(len(corpus))), corpus.tolist())
    vectors.ensure_ann()
    return vectors


def recall(corpus: np.ndarray, queries: np.ndarray, *, k: int = 10, hnsw: bool = False) -> dict[str, Any]:
    """recall@k of int8 (exact, and HNSW when ``hnsw``) against exact f32 over ``corpus``."""
    exact = len(corpus) + 1
    truth, f32_ms = _search_all(_index(corpus, "f32", exact), queries, k)
    out: dict[str, Any] = {"n": len(corpus), "queries": len(queries), "k": k, "f32_ms": round(f32_ms, 3)}
    # i8: the int8 rows' coarse scan as served (``vectors.I8_SCAN``: usearch's cosine); i8_dot: the
    # f32 blocks through BLAS it replaced; both rescore with the residual rows
    modes = [("i8", exact, vectors.I8_SCAN), ("i8_dot", exact, "dot")]
    modes += [("hnsw_i8", 0, vectors.I8_SCAN)] if hnsw else []
    for name, threshold, scan in modes:
        served, vectors.I8_SCAN = vectors.I8_SCAN, scan
        try:
            got, ms = _search_all(_index(corpus, "i8", threshold), queries, k)
        finally:
            vectors.I8_SCAN = served
        scores = [len(set(g) & set(t)) / max(len(t), 1) for g, t in zip(got, truth, strict=True)]
        out[name] = {"recall": round(statistics.fmean(scores), 4), "min": min(scores), "ms": round(ms, 3)}
    return out


def locomo_sets(
    path: str | Path,
    embedder: Embedder,
    *,
    conversations: list[str] | None = None,
    max_questions: int | None = None,
) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """(sample id, turn vectors, question vectors) per conversation of a LoCoMo file."""
    data = locomo_data.load(
        path, group_prefix="recall", conversations=conversations, max_questions=max_questions
    )
    out = []
    for conv in data.conversations:
        turns = embedder.embed([indexed_text(ep) for ep in conv.episodes])
        asked = embedder.embed([q.question for q in conv.questions])
        out.append((conv.sample_id, np.asarray(turns, np.float32), np.asarray(asked, np.float32)))
    return out


def run(path: str | Path, embedder: Embedder, *, k: int = 10) -> dict[str, Any]:
    sets = locomo_sets(path, embedder)
    per = {sid: recall(turns, asked, k=k) for sid, turns, asked in sets}
    corpus = np.vstack([t for _, t, _ in sets])
    queries = np.vstack([q for _, _, q in sets])
    every = recall(corpus, queries, k=k, hnsw=True)
    worst = min(r["i8"]["recall"] for r in per.values())
    return {
        "embedder": embedder.model_name,
        "k": k,
        "conversations": per,
        "all": every,
        "worst_conversation": worst,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", required=True)
    parser.add_argument("--embed-cache", type=Path, default=None)
    parser.add_argument("--k", type=int, default=10)
    args = parser.parse_args()
    from graphmem.providers.embedders.minilm_onnx import MiniLMOnnxEmbedder

    inner = MiniLMOnnxEmbedder()
    inner.load()
    embedder: Embedder = inner
    if args.embed_cache is not None:
        from eval.embed_cache import CachedEmbedder

        embedder = CachedEmbedder.open(inner, args.embed_cache)
    print(json.dumps(run(args.data, embedder, k=args.k), indent=1))


if __name__ == "__main__":
    main()
