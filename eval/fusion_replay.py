"""Fusion replay: capture every channel's ranking once per question, then score many recipes offline.

A recipe's fusion, rerank and fact-to-turn mapping are pure functions of the channels' rankings
(``graphmem.retrieval.fusion``), so the expensive part of a search (BM25, vectors, the graph, the
query embedding) can be done once and every fusion variant replayed in milliseconds. ``capture``
runs the tenant index's channels over groups already ingested (``graphmem eval locomo|longmemeval
--group-prefix P --keep`` or ``graphmem eval recipes``), with ``CAPTURE_N`` candidates per channel,
and stores for each question: the rankings with their scores (episode BM25 with the default fields
and as one merged bag), the rerank's features, each fact's evidence turns and every candidate's
external ids. ``replay`` runs ``fusion.fuse`` and ``fusion.rerank`` exactly as the executor does
(``retrieval.pipeline._Run``) and maps hits to external ids as ``SearchResult.source_external_ids``
does; ``score`` tallies them with the evals' own metrics. A replay of the default recipe gives
the same rankings as ``graphmem eval locomo|longmemeval`` over the same groups.

    python -m eval.fusion_replay capture --locomo ../shared/data/locomo/locomo_dev.json \\
        --locomo-prefix recipes-locomo --longmemeval ../shared/data/longmemeval/longmemeval_s_dev60.json.gz \\
        --lme-prefix recipes-lme --limit 12 --out out/ret/capture.pkl
    python -m eval.fusion_replay score out/ret/capture.pkl
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import pickle
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from eval import locomo, longmemeval
from eval.locomo_data import load as load_locomo
from eval.longmemeval_data import load as load_lme
from graphmem.retrieval import fusion
from graphmem.retrieval.config import RECIPES, SearchConfig
from graphmem.retrieval.focus import boost, focus_terms, held_in_rows, role_terms
from graphmem.retrieval.fusion import Features, Key, evidence_ranking, fuse, rerank
from graphmem.retrieval.intent import adapt, named_speakers, time_focus
from graphmem.text import analyze

CAPTURE_N = 100  # candidates per channel captured (a recipe replayed takes its own ``candidates``)
FIELD_N = 200  # candidates per episode BM25 field captured alone (``Captured.fields``)
FIELDS = ("own", "context", "facts")
K = 25
Hits = list[tuple[Key, float]]


@dataclass
class Captured:
    """One question's channels, as the tenant index returned them."""

    dataset: str  # "locomo" | "lme"
    index: int  # position of the question in its dataset (file order)
    rankings: dict[str, Hits]  # channel name ("bm25:episode", ...) -> (key, score), best first
    merged: Hits  # episode BM25 over one merged bag (field_weights None)
    features: dict[Key, Features]
    evidence: dict[str, tuple[str, ...]]  # fact id -> evidence episode ids in the view
    external: dict[Key, tuple[str, ...]]  # key -> external ids (an episode's own, a fact's evidence)
    as_of: float | None = None
    query: str = ""  # the question (intent.adapt and intent.time_focus read it on replay)
    # episode BM25 of each field alone (FIELD_N candidates), so a recipe with other field weights
    # can be replayed: Σ weight × field score, a field's score 0 below its FIELD_N best
    fields: dict[str, Hits] = field(default_factory=dict)
    field_weights: dict[str, float] | None = None  # the fields of ``rankings["bm25:episode"]``
    speakers: dict[Key, str] = field(default_factory=dict)  # an episode's speaker (role or name)


@dataclass
class Capture:
    questions: list[Captured] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)


# --- replay -------------------------------------------------------------------------------------
def channel_rankings(q: Captured, cfg: SearchConfig) -> dict[str, Hits]:
    """The rankings a search under ``cfg`` would fuse: the recipe's channels and targets, its
    candidates per channel, episode BM25 merged when ``cfg.field_weights`` is None."""
    out: dict[str, Hits] = {}
    for name, hits in q.rankings.items():
        channel, target = name.split(":")
        if not cfg.channel_on(channel) or target not in cfg.targets:
            continue
        if name == "bm25:episode" and cfg.field_weights is None:
            hits = q.merged
        elif name == "bm25:episode" and cfg.field_weights != getattr(q, "field_weights", cfg.field_weights):
            hits = composed(getattr(q, "fields", {}), cfg.field_weights or {}) or hits
        out[name] = hits[: cfg.candidates]
    if cfg.channel_on("evidence") and "episode" in cfg.targets:
        out["evidence:episode"] = _evidence(q, out, cfg)
    return out


def composed(fields: Mapping[str, Hits], weights: Mapping[str, float]) -> Hits:
    """Episode BM25 under ``weights`` from each field's own ranking (the tenant index's
    ``EpisodeFields.scores`` is the same weighted sum); best first, ties by key."""
    total: dict[Key, float] = {}
    for name, weight in weights.items():
        if weight > 0:
            for key, s in fields.get(name, []):
                total[key] = total.get(key, 0.0) + weight * s
    return sorted(((k, s) for k, s in total.items() if s > 0), key=lambda h: (-h[1], h[0]))


def _evidence(q: Captured, rankings: Mapping[str, Hits], cfg: SearchConfig) -> Hits:
    facts = {
        n: h for n, h in rankings.items() if n.endswith(":fact") and n.split(":")[0] in cfg.evidence_from
    }
    if not any(facts.values()):
        return []
    keyed = {n: [k for k, _ in h] for n, h in facts.items()}
    scores: dict[Key, dict[str, float]] = {}
    for n, h in facts.items():
        for k, s in h:
            scores.setdefault(k, {})[n] = s
    weights = {n: cfg.weights.get(n.split(":")[0], 0.0) for n in facts}
    fused = fuse(keyed, scores, weights, cfg)
    top = sorted(fused, key=lambda key: (-fused[key], key))[: cfg.candidates]
    best = {i: fused[("fact", i)] for _, i in top}
    cited = {i: q.evidence[i] for i in best if i in q.evidence}
    return [(("episode", e), s) for e, s in evidence_ranking(best, cited, limit=cfg.candidates)]


def _focused(q: Captured, query: str, fused: dict[Key, float], cfg: SearchConfig) -> dict[Key, float]:
    """The executor's entity-centred boost (``pipeline._Run._focus``, ``weights["focus"]`` and
    ``weights["role"]``): the candidate episodes told by a speaker the query names, or by the chat
    role it points at, raised in the fused logit. The speaker terms are the captured speakers
    analysed as the store analyses them."""
    weight, role_weight = cfg.weights.get("focus", 0.0), cfg.weights.get("role", 0.0)
    terms = focus_terms(query) if weight > 0 else ()
    roles = role_terms(query) if role_weight > 0 else ()
    spoken = getattr(q, "speakers", {})
    if not (terms or roles) or not spoken:
        return fused
    rows = [
        {"id": key[1], "speaker_terms": " ".join(analyze(name))}
        for key, name in spoken.items()
        if key[0] == "episode" and key in fused
    ]
    held = [held_in_rows(rows, t) if t else set() for t in (terms, roles)]
    return boost(boost(fused, held[0], weight), held[1], role_weight)


def fusion_inputs(
    rankings: Mapping[str, Hits], cfg: SearchConfig
) -> tuple[dict[str, list[Key]], dict[Key, dict[str, float]], dict[str, float]]:
    """What ``fusion.fuse`` takes, from the channels' rankings: each channel's keys in order,
    each key's score by channel (rounded as captured), and each channel's weight under ``cfg``."""
    keyed = {n: [key for key, _ in h] for n, h in rankings.items()}
    scores: dict[Key, dict[str, float]] = {}
    for n, h in rankings.items():
        for key, s in h:
            scores.setdefault(key, {})[n] = round(s, 6)
    weights = {
        n: cfg.weights.get(n.split(":")[0], 0.0) * cfg.type_weights.get(n.split(":")[1], 1.0) for n in keyed
    }
    return keyed, scores, weights


def replay(q: Captured, cfg: SearchConfig, k: int = K) -> list[str]:
    """The external ids a search under ``cfg`` returns for this question, best first. The query's
    intent adapts the recipe and its time phrase sets the rerank's focus, as in the executor."""
    query = getattr(q, "query", "")
    cfg = adapt(cfg, query)
    focus = None
    if cfg.time_weight > 0 and query:
        ref = datetime.fromtimestamp(q.as_of, UTC) if q.as_of is not None else datetime.now(UTC)
        focus = time_focus(query, ref)
    rankings = channel_rankings(q, cfg)
    keyed, scores, weights = fusion_inputs(rankings, cfg)
    fused = _focused(q, query, fuse(keyed, scores, weights, cfg), cfg)
    top = sorted(fused, key=lambda key: (-fused[key], key))[: max(k * 3, 30)]
    features, named = q.features, frozenset[str]()
    spoken = getattr(q, "speakers", {})
    if cfg.speaker_weight > 0 and spoken:
        named = named_speakers(query, frozenset(s.casefold() for s in spoken.values()))
        features = {key: replace(f, speaker=spoken.get(key)) for key, f in features.items()}
    order, _ = rerank(top, fused, features, cfg, newest=q.as_of, limit=k, focus=focus, speakers=named)
    out: dict[str, None] = {}
    for key in order:
        for ext in q.external.get(key, ()):
            out.setdefault(ext, None)
    return list(out)[:k]


def score(
    cap: Capture, cfg: SearchConfig, loco: Any, lme: Any, ks: Sequence[int] = (1, 5, 10, 25)
) -> dict[str, Any]:
    """LoCoMo recall (ids 1-4) and LongMemEval turn recall, MRR and newest-first under ``cfg``."""
    lt = locomo._Tally(tuple(ks))
    mt = longmemeval._Tally(tuple(ks))
    questions = [q for conv in loco.conversations for q in conv.questions] if loco else []
    for c in cap.questions:
        ranked = replay(c, cfg, max(ks))
        if c.dataset == "locomo":
            qa = questions[c.index]
            lt.add(qa.category, qa.evidence, ranked, 0.0)
        else:
            mt.add(lme.haystacks[c.index], ranked, 0.0)
    out: dict[str, Any] = {}
    if lt.n:
        res = lt.result("replay", 0, None)
        out["locomo"] = res["recall"]["1-4"] | {"mrr": res["mrr"]["1-4"]}
    if mt.n:
        res = mt.result("replay", 0, None)
        out["lme"] = res["turn_recall"]["overall"] | {
            "mrr": res["mrr"]["overall"],
            "newest": res["newest_first"],
        }
    return out


# --- capture ------------------------------------------------------------------------------------
async def capture(memory: Any, loco: Any, lme: Any, log: Callable[[str], None]) -> Capture:
    from graphmem.models.search import SearchRequest
    from graphmem.retrieval.pipeline import _Run
    from graphmem.retrieval.sources import IndexSource, channel_name, ordered
    from graphmem.store import reads, search

    base = RECIPES["default"].model_copy(update={"candidates": CAPTURE_N})
    merged_cfg = base.model_copy(
        update={"field_weights": None, "weights": {"bm25": 1.0}, "targets": ("episode",)}
    )
    field_cfg = merged_cfg.model_copy(update={"candidates": FIELD_N})
    cap = Capture(meta={"capture_n": CAPTURE_N, "field_n": FIELD_N})
    speakers: dict[str, dict[Key, str]] = {}
    externals: dict[str, dict[Key, tuple[str, ...]]] = {}
    jobs: list[tuple[str, int, str, str, Any]] = []
    if loco is not None:
        i = 0
        for conv in loco.conversations:
            for qa in conv.questions:
                jobs.append(("locomo", i, conv.group_id, qa.question, None))
                i += 1
    if lme is not None:
        jobs += [("lme", i, h.group_id, h.question, h.question_date) for i, h in enumerate(lme.haystacks)]
    searcher = memory.searcher
    for n, (dataset, index, group, question, as_of) in enumerate(jobs):
        await memory.warm_index(group)
        req = SearchRequest(query=question[:2000], k=K, as_of=as_of)
        run = _Run(searcher, group, req, base, False)
        run._embed()
        source, rankings = await run._collect()
        if not isinstance(source, IndexSource):
            raise RuntimeError(f"{group}: no tenant index (the capture reads the index's channels)")
        mrun = _Run(searcher, group, req, merged_cfg, False)
        _, mr = await mrun._collect()
        fields: dict[str, Hits] = {}
        for name in FIELDS:
            frun = _Run(
                searcher, group, req, field_cfg.model_copy(update={"field_weights": {name: 1.0}}), False
            )
            _, fr = await frun._collect()
            fields[name] = [(("episode", i), s) for i, s in fr.get(("bm25", "episode"), [])]
        ranked = {channel_name(c): [((c[1], i), s) for i, s in hits] for c, hits in ordered(rankings).items()}
        merged = [(("episode", i), s) for i, s in mr[("bm25", "episode")]]
        keys = list(dict.fromkeys([k for h in ranked.values() for k, _ in h] + [k for k, _ in merged]))
        features = await source.features(run.probe, keys) or {}
        fact_ids = [i for t, i in keys if t == "fact"]
        evidence = await source.evidence(run.probe, fact_ids) if fact_ids else {}
        known = externals.setdefault(group, {})
        spoken = speakers.setdefault(group, {})
        missing = [k for k in keys if k not in known]
        if missing:
            ids = {t: [i for tt, i in missing if tt == t] for t in ("fact", "episode", "entity")}
            facts, episodes, _ = await search.hydrate(
                memory.ctx.store, group_id=group, ids=ids, as_of=as_of, history=False
            )
            for row in facts:
                fact = reads.to_fact(row)
                known[("fact", fact.id)] = tuple(e.external_id for e in fact.evidence if e.external_id)
            for eid, row in episodes.items():
                known[("episode", eid)] = (row["external_id"],) if row.get("external_id") else ()
                if row.get("speaker"):
                    spoken[("episode", eid)] = str(row["speaker"])
        cap.questions.append(
            Captured(
                dataset,
                index,
                ranked,
                merged,
                features,
                evidence,
                {k: known.get(k, ()) for k in keys},
                None if as_of is None else as_of.timestamp(),
                question,
                fields,
                base.field_weights,
                {k: spoken[k] for k in keys if k in spoken},
            )
        )
        if n % 100 == 0:
            log(f"captured {n}/{len(jobs)}")
    return cap


def _datasets(args: argparse.Namespace) -> tuple[Any, Any]:
    loco = (
        load_locomo(args.locomo, group_prefix=args.locomo_prefix, conversations=args.conversations)
        if args.locomo
        else None
    )
    lme = (
        load_lme(args.longmemeval, group_prefix=args.lme_prefix, limit=args.limit)
        if args.longmemeval
        else None
    )
    return loco, lme


async def _capture_main(loco: Any, lme: Any) -> Capture:
    """The capture in its own memory at NEO4J_URI (a diagnostic: Settings read here, as the write
    probes do)."""
    from graphmem.config import Settings
    from graphmem.memory import GraphMemory

    memory = await GraphMemory.from_settings(Settings())
    try:
        return await capture(memory, loco, lme, lambda m: print(m, file=sys.stderr))
    finally:
        await memory.close()


GAIN_KS = ("5", "10")


def gains(
    scores: Mapping[str, Any], singles: Sequence[Mapping[str, Any]], ks: Sequence[str] = GAIN_KS
) -> dict[str, float]:
    """Recall minus the best single channel's, per dataset and k in ``ks`` (eval recipes' rule)."""
    return {
        f"{d}@{k}": round(scores[d][k] - max(s[d][k] for s in singles), 4)
        for d in ("locomo", "lme")
        if d in scores
        for k in ks
    }


def table(cap: Capture, loco: Any, lme: Any, only: Sequence[str] | None, out: Callable[[str], None]) -> None:
    """The baselines and every candidate of ``eval.recipe_select`` (or ``only`` those), one line each:
    R@1/5/10/25 on both datasets, LongMemEval MRR and newest-first, and the worst gain."""
    from eval.recipe_select import candidates

    def pct(d: Mapping[str, Any] | None) -> str:
        return "/".join(f"{100 * d[k]:.1f}" for k in ("1", "5", "10", "25")) if d else "-"

    singles: dict[str, dict[str, Any]] = {n: score(cap, RECIPES[n], loco, lme) for n in ("bm25", "vector")}
    out(
        "| recipe | LoCoMo R@1/5/10/25 | LoCoMo MRR | LME R@1/5/10/25 | LME MRR | newest first | worst gain "
        "| at R@1 | fuse+rerank ms/q |"
    )
    out("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    rows = {"hybrid": RECIPES["hybrid"], **candidates()}
    for name, cfg in rows.items():
        if only and name not in only:
            continue
        began = time.process_time()
        got = score(cap, cfg, loco, lme)
        per_q = 1000 * (time.process_time() - began) / max(len(cap.questions), 1)
        own: list[dict[str, Any]] = [singles["bm25"], singles["vector"]]
        if cfg.field_weights:
            key = "bm25 f" + "/".join(f"{v:g}" for v in cfg.field_weights.values())
            if key not in singles:
                singles[key] = score(
                    cap, RECIPES["bm25"].model_copy(update={"field_weights": cfg.field_weights}), loco, lme
                )
            own.append(singles[key])
        worst = min(gains(got, own).values())
        first = min(gains(got, own, ("1",)).values())
        lm = got.get("lme", {})
        newest = lm.get("newest", {}).get("rate")
        out(
            f"| {name} | {pct(got.get('locomo'))} | {100 * got.get('locomo', {}).get('mrr', 0.0):.1f} | "
            f"{pct(lm)} | {100 * lm.get('mrr', 0.0):.1f} | "
            f"{'-' if newest is None else newest} | {100 * worst:+.1f} | {100 * first:+.1f} | {per_q:.2f} |"
        )
    for name, single in singles.items():
        loc_rr = single.get("locomo", {}).get("mrr")
        out(
            f"| {name} (single) | {pct(single.get('locomo'))} | "
            f"{'' if loc_rr is None else f'{100 * loc_rr:.1f}'} | {pct(single.get('lme'))} | "
            f"{100 * single.get('lme', {}).get('mrr', 0.0):.1f} | | | | |"
        )
    rank = rank_bm25(cap, loco, lme)
    out(
        f"| rank-bm25 (eval baseline) | {pct(rank.get('locomo'))} | {_rr(rank.get('locomo'))} | "
        f"{pct(rank.get('lme'))} | {_rr(rank.get('lme'))} | | | | |"
    )


def _rr(d: Mapping[str, Any] | None) -> str:
    return "" if not d or d.get("mrr") is None else f"{100 * d['mrr']:.1f}"


def rank_bm25(cap: Capture, loco: Any, lme: Any) -> dict[str, Any]:
    """The evals' rank-bm25 baseline over the questions of ``cap`` (its own index of the raw
    turns, no Neo4j), so the replay table shows it beside the channels."""
    from eval.retrievers import BM25Retriever

    wanted = {c.dataset for c in cap.questions}
    out: dict[str, Any] = {}
    if loco is not None and "locomo" in wanted:
        got = asyncio.run(
            locomo.score_retriever(BM25Retriever.build(locomo.corpora(loco)), loco, (1, 5, 10, 25))
        )
        out["locomo"] = got["recall"]["1-4"] | {"mrr": got["mrr"]["1-4"]}
    if lme is not None and "lme" in wanted:
        asked = {c.index for c in cap.questions if c.dataset == "lme"}
        sub = type(lme)([h for i, h in enumerate(lme.haystacks) if i in asked])
        got = asyncio.run(
            longmemeval.score_retriever(BM25Retriever.build(longmemeval.corpora(sub)), sub, (1, 5, 10, 25))
        )
        out["lme"] = got["turn_recall"]["overall"] | {"mrr": got["mrr"]["overall"]}
    return out


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m eval.fusion_replay")
    p.add_argument("mode", choices=("capture", "score"))
    p.add_argument("files", nargs="*", type=Path, default=[Path("out/ret/capture.pkl")])
    p.add_argument("--locomo", default="../shared/data/locomo/locomo_dev.json")
    p.add_argument("--locomo-prefix", default="recipes-locomo")
    p.add_argument("--conversations", type=lambda s: s.split(","), default=None)
    p.add_argument("--longmemeval", default="../shared/data/longmemeval/longmemeval_s_dev60.json.gz")
    p.add_argument("--lme-prefix", default="recipes-lme")
    p.add_argument("--limit", type=int, default=12)
    p.add_argument(
        "--only", type=lambda s: s.split(","), default=None, help="candidate names (eval recipes')"
    )
    args = p.parse_args(argv)
    loco, lme = _datasets(args)
    if args.mode == "capture":
        cap = asyncio.run(_capture_main(loco, lme))
        args.files[0].parent.mkdir(parents=True, exist_ok=True)
        args.files[0].write_bytes(pickle.dumps(cap))
        print(f"{len(cap.questions)} questions captured to {args.files[0]}", file=sys.stderr)
        return
    # the rerank's word sets of the same texts, computed once (a replay speed-up, same results)
    fusion.tokens = functools.lru_cache(maxsize=None)(fusion.tokens)
    caps = [pickle.loads(f.read_bytes()) for f in args.files]
    joined = Capture(questions=[q for c in caps for q in c.questions])
    table(joined, loco, lme, args.only, print)


if __name__ == "__main__":  # the module's own classes, so a capture unpickles anywhere
    from eval.fusion_replay import main as entry

    entry()
