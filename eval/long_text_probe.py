"""Vector-channel turn recall with long texts cut at the model's window, averaged, or max-matched.

MiniLM reads 256 tokens of a text; a third of LongMemEval dev's turns are longer (assistant
answers). This probe ranks every haystack turn of each question by cosine to the question under
three document-side treatments and scores turn recall@k as ``eval longmemeval`` does
(``question_scores``), with no Neo4j:

- ``truncate``: the model's own vector of the whole text (cut at the window; what ingestion stores);
- ``mean``: `LongTextEmbedder`'s vector, the token-weighted mean of the windows' vectors;
- ``max``: the best cosine of any one window (several vectors per turn; not one stored vector).

Vectors go through ``--embed-cache`` (``eval.embed_cache``; windows are texts of their own), so a
later ``eval longmemeval --embed-cache`` over the same directory finds the turns embedded. Results
are written after every question (``--out``), so a run stopped early still reports what it scored;
questions are taken round-robin over the types. ``--locomo FILE`` also counts LoCoMo turns longer
than the window (a turn that fits gets the same vector under every treatment).

    python -m eval.long_text_probe --data ../shared/data/longmemeval/longmemeval_s_dev60.json.gz \
        --embed-cache out/embed-cache --limit 12 --out out/ret/long-text-probe.json
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter as Counter_
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from eval.embed_cache import CachedEmbedder
from eval.longmemeval import question_scores
from eval.longmemeval_data import Haystack, load
from graphmem.providers.embedders.factory import build_embedder
from graphmem.providers.embedders.long_text import for_bert, pool_mean
from graphmem.text import episode_text

MODES = ("truncate", "mean", "max")
KS = (1, 5, 10, 25)


def round_robin(haystacks: Sequence[Haystack]) -> list[Haystack]:
    queues: dict[str, list[Haystack]] = defaultdict(list)
    for h in haystacks:
        queues[h.question_type].append(h)
    out: list[Haystack] = []
    while any(queues.values()):
        for queue in queues.values():
            if queue:
                out.append(queue.pop(0))
    return out


def rank(ids: Sequence[str], scores: np.ndarray) -> list[str]:
    order = np.argsort(-scores, kind="stable")
    return list(dict.fromkeys(ids[i] for i in order))


def mode_scores(
    query: np.ndarray, cut: np.ndarray, pieces: Sequence[np.ndarray], sizes: Sequence[Sequence[int]]
) -> dict[str, np.ndarray]:
    """Each treatment's cosine of every turn to the query (unit vectors); ``sizes``: each turn's
    windows' token counts (the mean's weights, as `LongTextEmbedder` weighs them)."""
    q = query.reshape(-1)
    means = np.stack([p[0] if len(p) == 1 else pool_mean(p, w) for p, w in zip(pieces, sizes, strict=True)])
    return {
        "truncate": cut @ q,
        "mean": means @ q,
        "max": np.array([float((p @ q).max()) for p in pieces]),
    }


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    def block(sel: list[dict[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {"n": len(sel)}
        for mode in MODES:
            scored = [r["scores"][mode] for r in sel]
            out[mode] = {f"R@{k}": round(100 * float(np.mean([s["turn"][k] for s in scored])), 1) for k in KS}
            out[mode]["MRR"] = round(100 * float(np.mean([s["rr"] for s in scored])), 1)
        return out

    by_type: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by_type[r["type"]].append(r)
    return {"overall": block(rows), "by_type": {t: block(v) for t, v in sorted(by_type.items())}}


def long_turns(path: str, window: int, offsets: Any) -> dict[str, int]:
    from eval.locomo_data import load as load_locomo

    ds = load_locomo(path, group_prefix="probe")
    lengths = [len(offsets(episode_text(e.speaker, e.content))) for c in ds.conversations for e in c.episodes]
    return {
        "turns": len(lengths),
        "over_window": sum(n > window for n in lengths),
        "max_tokens": max(lengths),
    }


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m eval.long_text_probe")
    ap.add_argument("mode", nargs="?", choices=("probe", "rescore"), default="probe")
    ap.add_argument("--data", required=True)
    ap.add_argument("--embed-cache", type=Path, required=True)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--out", type=Path, default=Path("out/ret/long-text-probe.json"))
    ap.add_argument("--types", type=lambda v: v.split(","), default=None, help="only these question types")
    ap.add_argument("--locomo", default=None, help="LoCoMo file: count its turns over the window")
    args = ap.parse_args(argv)
    if args.mode == "rescore":
        return rescore(args)

    base = build_embedder("minilm", threads=args.threads)
    cached = CachedEmbedder.open(base, args.embed_cache)
    long_text = for_bert(base).with_inner(cached)
    report: dict[str, Any] = {"window": long_text.window, "model": base.model_name}
    if args.locomo:
        report["locomo"] = long_turns(args.locomo, long_text.window, long_text.offsets)
    dataset = load(args.data, group_prefix="probe", limit=args.limit)
    rows: list[dict[str, Any]] = []
    wall, cpu = time.perf_counter(), time.process_time()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    chosen = [h for h in dataset.haystacks if args.types is None or h.question_type in args.types]
    for h in round_robin(chosen):
        texts = [episode_text(e.speaker, e.content) for e in h.episodes]
        ids = [e.external_id or "" for e in h.episodes]
        cut = cached.embed(texts)
        pieces = long_text.embed_pieces(texts)
        sizes = [[n for _, n in p] for p in long_text.pieces(texts)]
        query = base.embed_query(h.question)
        scores = {
            mode: question_scores(h, rank(ids, s), KS)
            for mode, s in mode_scores(query, cut, pieces, sizes).items()
        }
        evidence = set(h.evidence)
        rows.append(
            {
                "id": h.question_id,
                "type": h.question_type,
                "long_evidence": sum(len(p) > 1 for i, p in zip(ids, pieces, strict=True) if i in evidence),
                "long_turns": sum(len(p) > 1 for p in pieces),
                "turns": len(texts),
                "scores": scores,
            }
        )
        report.update(
            summary=summarise(rows),
            questions=rows,
            wall_s=round(time.perf_counter() - wall, 1),
            cpu_s=round(time.process_time() - cpu, 1),
            cache={"hits": cached.hits, "misses": cached.misses},
        )
        args.out.write_text(json.dumps(report, indent=1, default=str))
        o = report["summary"]["overall"]
        print(
            f"{len(rows)}/{len(chosen)} {h.question_type}: R@10 "
            + " ".join(f"{m} {o[m]['R@10']}" for m in MODES)
            + f" (cpu {report['cpu_s']} s)",
            flush=True,
        )
    return 0


# --- rescore: the fused recipes over what the cache holds (no model runs but the query's) ---------
FUSED = {
    # name: (episode BM25 field weights, or None for one merged bag; vector weight)
    "default": ({"own": 1.0, "context": 0.7}, 0.85),
    "hybrid": (None, 0.5),
    "bm25 fields": ({"own": 1.0, "context": 0.7}, 0.0),
    "vector": ({}, 1.0),
}


def fused_ranking(
    ids: Sequence[str], bm25: np.ndarray, vec: np.ndarray, vector_weight: float, features: dict[Any, Any]
) -> list[str]:
    """Episode BM25 and vectors, the best 50 of each, fused and reranked as the executor does
    (``fusion.fuse`` z-scores, ``fusion.rerank``: recency, MMR) under the default recipe's other
    settings. No facts, no graph: the LongMemEval runs are ``--no-facts``."""
    from graphmem.retrieval.config import RECIPES
    from graphmem.retrieval.fusion import fuse, rerank

    cfg = RECIPES["default"]
    rankings: dict[str, list[Any]] = {}
    scores: dict[Any, dict[str, float]] = {}
    for name, values, w in (("bm25:episode", bm25, 1.0), ("vector:episode", vec, vector_weight)):
        if w <= 0:
            continue
        order = [
            i for i in np.argsort(-values, kind="stable")[: cfg.candidates] if values[i] > 0 or name[0] == "v"
        ]
        rankings[name] = [("episode", ids[i]) for i in order]
        for i in order:
            scores.setdefault(("episode", ids[i]), {})[name] = round(float(values[i]), 6)
    weights = {"bm25:episode": 1.0, "vector:episode": vector_weight}
    fused = fuse(rankings, scores, weights, cfg)
    top = sorted(fused, key=lambda key: (-fused[key], key))[:75]
    order_keys, _ = rerank(top, fused, features, cfg, newest=None, limit=25)
    return [k[1] for k in order_keys]


def rescore(args: argparse.Namespace) -> int:
    from eval.lexical_probe import Turns
    from graphmem.retrieval.fusion import Features
    from graphmem.text import analyze

    base = build_embedder("minilm", threads=args.threads)
    cached = CachedEmbedder.open(base, args.embed_cache)
    long_text = for_bert(base).with_inner(cached)
    dataset = load(args.data, group_prefix="probe")
    rows: list[dict[str, Any]] = []
    for h in round_robin(dataset.haystacks):
        texts = [episode_text(e.speaker, e.content) for e in h.episodes]
        split = long_text.pieces(texts)
        needed = set(texts) | {p for pieces in split for p, _ in pieces}
        from eval.embed_cache import text_key

        if any(text_key(t) not in cached.cache.rows for t in needed):
            continue
        ids = [e.external_id or "" for e in h.episodes]
        cut = cached.embed_cached(texts)
        means = long_text.embed(texts)
        query = base.embed_query(h.question).reshape(-1)
        turns = Turns(h.episodes)
        terms = list(dict.fromkeys(analyze(h.question)))
        field = {n: turns.fields[n].scores(terms) for n in ("own", "context", "merged")}
        features = {
            ("episode", i): Features(e.reference_time.timestamp(), 0.0, False, e.content)
            for i, e in zip(ids, h.episodes, strict=True)
        }
        scores: dict[str, Any] = {}
        for vec_name, vectors in (("truncate", cut), ("mean", means)):
            sims = vectors @ query
            for name, (fields, vw) in FUSED.items():
                if fields is None:
                    lex = field["merged"]
                else:
                    lex = np.zeros(len(ids), dtype=np.float32)
                    for f, w in fields.items():
                        lex[: len(field[f])] += w * field[f]
                if name == "vector":
                    lex = np.zeros(len(ids), dtype=np.float32)
                ranked = fused_ranking(ids, lex, sims, vw, features)
                scores[f"{name} / {vec_name}"] = question_scores(h, ranked, KS)
        rows.append({"id": h.question_id, "type": h.question_type, "scores": scores})
    modes = list(rows[0]["scores"]) if rows else []
    summary: dict[str, Any] = {"n": len(rows), "types": dict(Counter_(r["type"] for r in rows))}
    for m in modes:
        sel = [r["scores"][m] for r in rows]
        summary[m] = {f"R@{k}": round(100 * float(np.mean([s["turn"][k] for s in sel])), 1) for k in KS}
        summary[m]["MRR"] = round(100 * float(np.mean([s["rr"] for s in sel])), 1)
        nf = [s["newest_first"] for s in sel if s["newest_first"] is not None]
        summary[m]["newest_first"] = f"{sum(nf):g}/{len(nf)}"
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"summary": summary, "questions": rows}, indent=1, default=str))
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
