"""Recipe selection: every candidate ``SearchConfig`` scored on LoCoMo and LongMemEval side by side,
and the one with the best *worst-case* gain over the best single channel chosen.

Both datasets are ingested once into groups under a fixed prefix (``--prefix``; ingestion is
idempotent, so a second run reuses them) and every candidate searches the same groups. For each
dataset and k in ``GAIN_KS``, a candidate's gain is its recall@k (LoCoMo: ids 1-4; LongMemEval:
turn evidence recall) minus the best of the single channels (``bm25``, ``vector``) at that k; its
score is the smallest of those gains. Ties go to the higher mean gain. Every candidate tried is
reported (``graphmem eval recipes --out DIR`` writes the table), so the choice is reproducible.
Candidates differ only in settings learnt from the data's properties (field weights for a turn's
own text against its neighbours' and its facts', fusion, recency): nothing names a dataset.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from eval import locomo, locomo_data, longmemeval, longmemeval_data
from eval.ingest_setup import eval_ingest
from eval.retrievers import BM25Retriever, Log, config_retriever, forget, ingest
from graphmem.config import Settings
from graphmem.memory import GraphMemory
from graphmem.retrieval.config import RECIPES, SearchConfig

GAIN_KS = (5, 10)
SINGLE = ("bm25", "vector")  # plus BM25 with each candidate's episode fields (``_single_bm25``)


@dataclass
class SelectOptions:
    locomo: Path
    longmemeval: Path
    lme_limit: int | None = 12
    conversations: list[str] | None = None
    max_questions: int | None = None  # LoCoMo QA per conversation (file order), to bound a run
    prefix: str = "recipes"
    keep: bool = True
    batch: int = 200
    ks: tuple[int, ...] = (1, 5, 10)
    only: list[str] | None = None  # candidate names to try (default: all)
    embed_cache: Path | None = None  # eval.embed_cache: embed each distinct text once across runs
    facts: bool = True  # False: ingest without fact extraction (eval.ingest_setup.NoFacts)


@dataclass
class Scores:
    """One retriever's headline numbers on both datasets."""

    name: str
    locomo: dict[str, Any]
    lme: dict[str, Any]
    gains: dict[str, float] = field(default_factory=dict)
    first_gains: dict[str, float] = field(default_factory=dict)  # the same at R@1 (the tie-break)

    def recall(self, dataset: str, k: int) -> float:
        if dataset == "locomo":
            return float(self.locomo["recall"]["1-4"][str(k)] or 0.0)
        return float(self.lme["turn_recall"]["overall"][str(k)] or 0.0)

    def row(self, ks: Sequence[int]) -> dict[str, Any]:
        return {
            "name": self.name,
            "locomo": {f"R@{k}": self.recall("locomo", k) for k in ks}
            | {"p50_ms": self.locomo["search_ms"]["p50"]},
            "longmemeval": {f"R@{k}": self.recall("lme", k) for k in ks}
            | {
                "mrr": self.lme["mrr"]["overall"],
                "newest_first": self.lme["newest_first"]["rate"],
                "p50_ms": self.lme["search_ms"]["p50"],
            },
            "gains": self.gains,
            "worst_gain": min(self.gains.values()) if self.gains else None,
            "worst_first_gain": min(self.first_gains.values()) if self.first_gains else None,
        }


def _fields(own: float, context: float, facts: float) -> dict[str, float]:
    return {"own": own, "context": context, "facts": facts}


def candidates() -> dict[str, SearchConfig]:
    """Every candidate tried, by name (the current default first). Names: fusion, vector weight,
    episode fields (own / context / facts; "merged": one bag), recency when asked for the present,
    the boost near a time the query names."""
    base = RECIPES["default"]
    grid: list[tuple[str, float, dict[str, float] | None, float | None, float]] = [
        ("rrf", 0.25, None, None, 0.0),
        ("rrf", 0.5, None, None, 0.0),
        ("rrf", 1.0, None, None, 0.0),
        ("rrf", 0.25, _fields(1.0, 0.5, 0.5), None, 0.0),
        ("rrf", 0.5, _fields(1.0, 0.5, 0.5), None, 0.0),
        ("rrf", 0.5, _fields(1.0, 0.3, 0.5), None, 0.0),
        ("rrf", 0.5, _fields(1.0, 0.5, 0.0), None, 0.0),
        ("rrf", 0.25, _fields(1.0, 1.0, 0.5), None, 0.0),
        ("zscore", 0.5, None, None, 0.0),
        ("zscore", 1.0, None, None, 0.0),
        ("zscore", 0.5, _fields(1.0, 0.5, 0.5), None, 0.0),
        ("zscore", 0.5, _fields(1.0, 1.0, 0.5), None, 0.0),
        ("zscore", 0.7, _fields(1.0, 0.5, 0.5), None, 0.0),
        ("zscore", 0.5, _fields(1.0, 0.7, 0.5), None, 0.0),
        ("zscore", 0.7, _fields(1.0, 0.7, 0.5), None, 0.0),
        ("zscore", 0.7, _fields(1.0, 1.0, 0.5), None, 0.0),
        ("zscore", 0.5, _fields(1.0, 0.5, 0.0), None, 0.0),
        ("zscore", 1.0, _fields(1.0, 0.5, 0.5), None, 0.0),
        ("zscore", 1.0, _fields(1.0, 0.3, 0.5), None, 0.0),
        ("zscore", 1.0, _fields(1.0, 0.5, 1.0), None, 0.0),
        ("zscore", 1.0, _fields(1.0, 0.5, 0.5), 0.3, 0.0),
        ("rrf", 0.5, _fields(1.0, 0.5, 0.5), 0.3, 0.0),
        ("zscore", 1.0, _fields(1.0, 0.5, 0.5), 0.3, 0.3),
    ]
    out: dict[str, SearchConfig] = {"default": base}
    for fusion, vector, fields, current, when in grid:
        shape = "merged" if fields is None else "f" + "/".join(f"{v:g}" for v in fields.values())
        name = f"{fusion} v{vector:g} {shape}" + (f" now{current:g}" if current else "")
        name += f" time{when:g}" if when else ""
        update: dict[str, object] = {
            "fusion": fusion,
            "weights": {"bm25": 1.0, "vector": vector, "graph": 0.1},
            "field_weights": fields,
        }
        if current:
            update |= {"current_recency_weight": current, "recency_half_life_days": 30.0}
        if when:
            update["time_weight"] = when
        out[name] = base.model_copy(update=update)
    out.update(evidence_candidates(base))
    out.update(calibration_candidates(base))
    out.update(hybrid_steps(base, RECIPES["hybrid"]))
    for name, cfg in lme60_candidates(base).items():
        out.setdefault(name, cfg)
    for name, cfg in eighth_candidates().items():
        out.setdefault(name, cfg)
    return out


def eighth_candidates() -> dict[str, SearchConfig]:
    """The eighth session's grid, against the seventh session's shipped default (``s7``: 100
    candidates a channel, focus 1.0, the newer near-duplicate first at 0.25 over 15 words, vectors
    0.85), named by what each changes so the names keep their meaning as the default moves: the
    chat role a question points at (``role``: ``weights["role"]``, ``focus.role_terms``), the
    newer preference off or at other thresholds (``newer``), the vector weight (``v``), recency
    when asked for the present (``now``), a boost near a time the question names (``time``)."""
    s7 = SearchConfig(
        candidates=100,
        newer_similarity=0.25,
        newer_min_words=15,
        weights={"bm25": 1.0, "vector": 0.85, "graph": 0.1, "focus": 1.0},
    )

    def at(name: str, weights: dict[str, float] | None = None, **update: object) -> tuple[str, SearchConfig]:
        return name, s7.model_copy(update={"weights": {**s7.weights, **(weights or {})}, **update})

    rows = [at("s7")]
    for role in (0.25, 0.5, 1.0, 1.5, 2.0):
        rows.append(at(f"s7 role{role:g}", {"role": role}))
    for vector in (0.5, 0.7, 1.0):
        rows.append(at(f"s7 v{vector:g}", {"vector": vector}))
        for role in (0.5, 1.0):
            rows.append(at(f"s7 v{vector:g} role{role:g}", {"vector": vector, "role": role}))
    rows.append(at("s7 newer off", newer_similarity=None))
    for role in (0.5, 1.0):
        rows.append(at(f"s7 newer off role{role:g}", {"role": role}, newer_similarity=None))
    for similarity, words in ((0.2, 15), (0.25, 25), (0.3, 15), (0.25, 40)):
        for role in (0.0, 1.0):
            name = f"s7 newer{similarity:g} long{words}" + (f" role{role:g}" if role else "")
            rows.append(
                at(name, {"role": role} if role else None, newer_similarity=similarity, newer_min_words=words)
            )
    for current in (0.3, 1.0):
        rows.append(at(f"s7 now{current:g}", current_recency_weight=current, recency_half_life_days=30.0))
        rows.append(
            at(
                f"s7 role1 now{current:g}",
                {"role": 1.0},
                current_recency_weight=current,
                recency_half_life_days=30.0,
            )
        )
    for when in (0.3, 1.0):
        rows.append(at(f"s7 time{when:g}", time_weight=when))
        rows.append(at(f"s7 role1 time{when:g}", {"role": 1.0}, time_weight=when))
    # the two levers that paid, together (role on LongMemEval, time on LoCoMo), with the others
    rows.append(at("s7 role1.5 time1", {"role": 1.5}, time_weight=1.0))
    rows.append(at("s7 time2", time_weight=2.0))
    rows.append(at("s7 role1 time2", {"role": 1.0}, time_weight=2.0))
    for vector in (0.5, 0.7):
        rows.append(at(f"s7 v{vector:g} time1", {"vector": vector}, time_weight=1.0))
        rows.append(at(f"s7 v{vector:g} role1 time1", {"vector": vector, "role": 1.0}, time_weight=1.0))
    for role in (0.5, 1.5, 2.0):
        rows.append(at(f"s7 v0.5 role{role:g} time1", {"vector": 0.5, "role": role}, time_weight=1.0))
    rows.append(at("s7 newer off time1", newer_similarity=None, time_weight=1.0))
    # around the eighth session's choice (s8 = s7 v0.5 role2 time1): the fact rows, the name focus,
    # the time weight
    s8 = {"vector": 0.5, "role": 2.0}
    for fact in (0.0, 0.5):
        rows.append(at(f"s8 tf{fact:g}", s8, time_weight=1.0, type_weights={**s7.type_weights, "fact": fact}))
    for focus in (1.5, 2.0):
        rows.append(at(f"s8 focus{focus:g}", {**s8, "focus": focus}, time_weight=1.0))
    rows.append(at("s8 time1.5", s8, time_weight=1.5))
    tf0 = {**s7.type_weights, "fact": 0.0}
    for focus in (1.5, 2.0):
        rows.append(at(f"s8 focus{focus:g} tf0", {**s8, "focus": focus}, time_weight=1.0, type_weights=tf0))
    rows.append(at("s8 focus2 time1.5", {**s8, "focus": 2.0}, time_weight=1.5))
    rows.append(at("s8 focus2 tf0 time1.5", {**s8, "focus": 2.0}, time_weight=1.5, type_weights=tf0))
    rows.append(at("s7 newer off role1 time1", {"role": 1.0}, newer_similarity=None, time_weight=1.0))
    return dict(rows)


VECTORS = (0.5, 0.6, 0.7, 0.85, 1.0)


def lme60_candidates(base: SearchConfig) -> dict[str, SearchConfig]:
    """The seventh session's grid, replayed over LoCoMo dev and all 60 LongMemEval dev questions:
    the vector weight at 50 and 100 candidates a channel (``v… c…``), then on the vector weights
    each dataset preferred before (0.7, 0.85) with 100 candidates, one lever at a time: episode
    fields (``f own/context/facts``), fact rows (``tf``), a newer near-duplicate first (``newer``),
    recency when asked for the present (``now``), a boost near a time the question names
    (``time``), the speaker the question points at (``spk``: a name it says, or the chat role
    it asks about), and the three together with the newer preference (``kup``: the levers a
    knowledge update or a dated question reads)."""
    out: dict[str, SearchConfig] = {}
    # the names stay what they were measured as: the sixth session's default (50 candidates, no
    # focus) is the base, whatever the default is now
    base = base.model_copy(update={"weights": {"bm25": 1.0, "vector": 0.85, "graph": 0.1}, "candidates": 50})

    def at(vector: float, candidates: int, **update: object) -> SearchConfig:
        weights = {**base.weights, "vector": vector}
        return base.model_copy(update={"weights": weights, "candidates": candidates, **update})

    for vector in VECTORS:
        for n in (50, 100):
            out[f"v{vector:g} c{n}"] = at(vector, n)
    for vector in (0.7, 0.85):
        stem = f"v{vector:g} c100"
        for fields in ((1.0, 0.5, 0.5), (1.0, 1.0, 0.5), (1.0, 0.7, 0.0), (1.0, 0.7, 1.0), (1.0, 0.5, 1.0)):
            name = f"{stem} f" + "/".join(f"{v:g}" for v in fields)
            out[name] = at(vector, 100, field_weights=_fields(*fields))
        for fact in (0.0, 0.5):
            out[f"{stem} tf{fact:g}"] = at(vector, 100, type_weights={**base.type_weights, "fact": fact})
        for similarity in (0.25, 0.3, 0.35, 0.4):
            out[f"{stem} newer{similarity:g}"] = at(vector, 100, newer_similarity=similarity)
        for current in (0.3, 1.0):
            out[f"{stem} now{current:g}"] = at(
                vector, 100, current_recency_weight=current, recency_half_life_days=30.0
            )
        for when in (0.3, 1.0):
            out[f"{stem} time{when:g}"] = at(vector, 100, time_weight=when)
        for weight in (0.1, 0.2, 0.4):
            out[f"{stem} spk{weight:g}"] = at(vector, 100, speaker_weight=weight)
        out[f"{stem} focus1"] = at(vector, 100, weights={**base.weights, "vector": vector, "focus": 1.0})
        out[f"{stem} focus1 newer0.25"] = at(
            vector, 100, weights={**base.weights, "vector": vector, "focus": 1.0}, newer_similarity=0.25
        )
        for words in (15, 25):
            out[f"{stem} focus1 newer0.25 long{words}"] = at(
                vector,
                100,
                weights={**base.weights, "vector": vector, "focus": 1.0},
                newer_similarity=0.25,
                newer_min_words=words,
            )
        out[f"{stem} kup"] = at(
            vector,
            100,
            newer_similarity=0.3,
            current_recency_weight=0.3,
            recency_half_life_days=30.0,
            time_weight=0.3,
        )
    return out


def hybrid_steps(base: SearchConfig, hybrid: SearchConfig) -> dict[str, SearchConfig]:
    """The steps between the default and the hybrid baseline, one difference at a time (the
    fields or one merged bag, the vector weight, the graph channel) and both with 100 candidates
    a channel: which of the default's differences from hybrid costs LoCoMo's R@10."""
    merged = {"field_weights": None}
    out: dict[str, SearchConfig] = {
        "default merged": base.model_copy(update=merged),
        "default v0.5": base.model_copy(update={"weights": {**base.weights, "vector": 0.5}}),
        "default g0": base.model_copy(update={"weights": {**base.weights, "graph": 0.0}}),
        "default merged v0.5": base.model_copy(update={**merged, "weights": {**base.weights, "vector": 0.5}}),
        "default merged g0": base.model_copy(update={**merged, "weights": {**base.weights, "graph": 0.0}}),
        "hybrid fields": hybrid.model_copy(update={"field_weights": base.field_weights}),
        "hybrid g0.1": hybrid.model_copy(update={"weights": {**hybrid.weights, "graph": 0.1}}),
        "hybrid v0.85": hybrid.model_copy(update={"weights": {**hybrid.weights, "vector": 0.85}}),
        "default c100": base.model_copy(update={"candidates": 100}),
        "hybrid c100": hybrid.model_copy(update={"candidates": 100}),
    }
    for vector in (0.5, 0.6, 0.7):
        out[f"default v{vector:g} c100"] = base.model_copy(
            update={"candidates": 100, "weights": {**base.weights, "vector": vector}}
        )
    return out


def calibration_candidates(base: SearchConfig) -> dict[str, SearchConfig]:
    """The default's fields with the fusion's calibration varied: the vector weight, BM25 and the
    graph z-scored on log(1 + score) (``log_scores``: "log") or raw, and the fact rows' type weight
    (tf; 0: facts reach the ranking only as keys of their evidence turns, the facts field); two
    of them also with ``newer_similarity`` (fusion.prefer_newer)."""
    out: dict[str, SearchConfig] = {}
    for vector in (0.7, 0.85, 1.0):
        for logged in ((), ("bm25", "graph")):
            for fact in (0.5, 0.3, 0.0):
                name = f"zscore v{vector:g}" + (" log" if logged else "") + f" tf{fact:g}"
                out[name] = base.model_copy(
                    update={
                        "weights": {**base.weights, "vector": vector},
                        "log_scores": logged,
                        "type_weights": {**base.type_weights, "fact": fact},
                    }
                )
    for name in ("zscore v0.85 tf0.3", "zscore v0.85 tf0"):  # a newer near-duplicate above the older
        out[f"{name} newer0.3"] = out[name].model_copy(update={"newer_similarity": 0.3})
    return out


def evidence_candidates(base: SearchConfig) -> dict[str, SearchConfig]:
    """The default with the evidence channel on (fact hits lift the turns that evidence them):
    its weight, the fact channels that feed it (b: bm25, v: vector, g: graph, the entities the
    query names) and, with it on, a lower weight for the fact rows themselves (tf)."""
    grid: list[tuple[float, tuple[str, ...], float | None]] = [
        (0.2, ("bm25", "vector"), None),
        (0.3, ("bm25", "vector"), None),
        (0.5, ("bm25", "vector"), None),
        (1.0, ("bm25", "vector"), None),
        (0.3, ("bm25",), None),
        (0.5, ("bm25",), None),
        (0.3, ("bm25", "graph"), None),
        (0.5, ("bm25", "vector", "graph"), None),
        (0.3, ("bm25", "vector"), 0.3),
    ]
    out: dict[str, SearchConfig] = {}
    for weight, feeds, fact_weight in grid:
        name = f"default ev{weight:g} " + "".join(f[0] for f in feeds)
        update: dict[str, object] = {"weights": {**base.weights, "evidence": weight}, "evidence_from": feeds}
        if fact_weight is not None:
            name += f" tf{fact_weight:g}"
            update["type_weights"] = {**base.type_weights, "fact": fact_weight}
        out[name] = base.model_copy(update=update)
    return out


async def select(
    memory: GraphMemory, settings: Settings, opts: SelectOptions, log: Log = lambda _m: None
) -> dict[str, Any]:
    loco = locomo_data.load(
        opts.locomo,
        group_prefix=f"{opts.prefix}-locomo",
        conversations=opts.conversations,
        max_questions=opts.max_questions,
    )
    lme = longmemeval_data.load(opts.longmemeval, group_prefix=f"{opts.prefix}-lme", limit=opts.lme_limit)
    groups = locomo.corpora(loco) + longmemeval.corpora(lme)
    log(f"{loco.n_questions} LoCoMo QA, {lme.n_questions} LongMemEval questions, {len(groups)} groups")
    with eval_ingest(memory, embed_cache=opts.embed_cache, facts=opts.facts):
        await ingest(memory, groups, opts.batch, log)
    try:
        bm25 = BM25Retriever.build(groups)
        baseline = Scores(
            "rank-bm25",
            await locomo.score_retriever(bm25, loco, opts.ks),
            await longmemeval.score_retriever(bm25, lme, opts.ks),
        )
        singles = {name: await _score(memory, name, RECIPES[name], loco, lme, opts.ks) for name in SINGLE}
        tried = []
        for name, cfg in candidates().items():
            if opts.only and name not in opts.only:
                continue
            own = await _single_bm25(memory, cfg, singles, loco, lme, opts.ks)
            scores = await _score(memory, name, cfg, loco, lme, opts.ks)
            scores.gains = _gains(scores, [singles["bm25"], singles["vector"], *own])
            if 1 in opts.ks:
                scores.first_gains = _gains(scores, [singles["bm25"], singles["vector"], *own], (1,))
            tried.append(scores)
            log(f"{name}: {scores.row(opts.ks)}")
    finally:
        if not opts.keep:
            await forget(memory, [g.group_id for g in groups], log)
    chosen = max(tried, key=choice_key)
    return {
        "n": {"locomo": loco.n_questions, "longmemeval": lme.n_questions},
        "baselines": [s.row(opts.ks) for s in (baseline, *singles.values())],
        "candidates": [s.row(opts.ks) for s in tried],
        "chosen": chosen.name,
        "facts": opts.facts,
    }


async def _score(
    memory: GraphMemory,
    name: str,
    cfg: SearchConfig,
    loco: locomo_data.Dataset,
    lme: longmemeval_data.Dataset,
    ks: tuple[int, ...],
) -> Scores:
    retriever = config_retriever(name, memory, cfg)
    return Scores(
        name,
        await locomo.score_retriever(retriever, loco, ks),
        await longmemeval.score_retriever(retriever, lme, ks),
    )


async def _single_bm25(
    memory: GraphMemory,
    cfg: SearchConfig,
    singles: dict[str, Scores],
    loco: locomo_data.Dataset,
    lme: longmemeval_data.Dataset,
    ks: tuple[int, ...],
) -> list[Scores]:
    """The BM25 channel alone with the candidate's episode fields (scored once per field setting):
    a candidate's gain is over the best single channel *it* contains."""
    if not cfg.field_weights:
        return []
    name = "bm25 f" + "/".join(f"{v:g}" for v in cfg.field_weights.values())
    if name not in singles:
        single = RECIPES["bm25"].model_copy(update={"field_weights": cfg.field_weights})
        singles[name] = await _score(memory, name, single, loco, lme, ks)
    return [singles[name]]


def _gains(scores: Scores, singles: Sequence[Scores], ks: Sequence[int] = GAIN_KS) -> dict[str, float]:
    return {
        f"{dataset}@{k}": round(scores.recall(dataset, k) - max(s.recall(dataset, k) for s in singles), 4)
        for dataset in ("locomo", "lme")
        for k in ks
    }


def choice_key(s: Scores) -> tuple[float, float, float]:
    """The selection rule: the best worst gain at R@5/R@10 (``gains``); among equals, the best
    worst gain at R@1 (``first_gains``: the first hit opens the context an agent reads), then the
    higher mean gain."""
    first = min(s.first_gains.values()) if s.first_gains else 0.0
    return (min(s.gains.values()), first, sum(s.gains.values()))


def markdown(report: dict[str, Any], ks: Sequence[int], command: str | None = None) -> str:
    """Every retriever and candidate in one table (recall in percent)."""
    lines = ["# Recipe selection (worst-case gain over the best single channel)", ""]
    if command:
        lines += ["```", command, "```", ""]
    n = report["n"]
    lines += [f"LoCoMo QA: {n['locomo']}, LongMemEval questions: {n['longmemeval']}.", ""]
    head = ["candidate", *[f"LoCoMo R@{k}" for k in ks], *[f"LME R@{k}" for k in ks]]
    head += ["LME MRR", "newest first", "worst gain", "p50 ms (LoCoMo / LME)"]
    lines += ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for row in report["baselines"] + report["candidates"]:
        loc, lme = row["locomo"], row["longmemeval"]
        cells = [row["name"] + (" **(chosen)**" if row["name"] == report["chosen"] else "")]
        cells += [f"{100 * loc[f'R@{k}']:.1f}" for k in ks] + [f"{100 * lme[f'R@{k}']:.1f}" for k in ks]
        cells += [_pct(lme["mrr"]), _pct(lme["newest_first"])]
        cells.append("–" if row["worst_gain"] is None else f"{100 * row['worst_gain']:+.1f}")
        cells.append(f"{loc['p50_ms']} / {lme['p50_ms']}")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}"
