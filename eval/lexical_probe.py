"""Lexical probe (diagnostic, no Neo4j): graphmem's own BM25 over a turn's own words and its
session neighbours' words, scored as one merged bag or as separate fields, on every question of
LoCoMo dev (ids 1-4) or LongMemEval dev. It answers in minutes what a full ingestion answers in
hours on a loaded CPU: which episode fields and BM25 parameters put the evidence turn first.

The scorer is ``tenant_index.lexical.Lexical`` (the tenant index's BM25: ``retrieval.bm25``'s k1 and
b from each field's average length, ``length_b``, unless ``--k1``/``--b``/``--pivot`` are given) over ``graphmem.text.episode_fields``; the context field
re-enacts ``graphmem.store.cypher.context``'s rule in Python: the previous and the next turn of the
same session, their content terms only. Variants: ``merged`` (own + context in one bag, the
tenant index's ``search_text``), ``own``, and ``own+<w>ctx`` (field scores summed, context weighed
by w: ``SearchConfig.field_weights``). Metrics: turn evidence recall@1/5/10 and MRR, and the role
of the first hit (LongMemEval).

    python -m eval.lexical_probe lme ../shared/data/longmemeval/longmemeval_s_dev60.json.gz
    python -m eval.lexical_probe locomo ../shared/data/locomo/locomo_dev.json --k1 1.2 --b 0.75
    python -m eval.lexical_probe lme ../shared/data/longmemeval/longmemeval_s_dev60.json.gz --pivot 40
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

import numpy as np

import graphmem.retrieval.bm25 as bm25
import graphmem.retrieval.tenant_index.lexical as lexical
from eval.metrics import evidence_recall, mean
from graphmem.memory.ingestion import clean_episode
from graphmem.models.episode import EpisodeIn
from graphmem.retrieval.tenant_index.lexical import Lexical
from graphmem.text import analyze, episode_fields

CONTEXT_WEIGHTS = (0.2, 0.3, 0.5, 0.7, 1.0)
B_FIXED: float | None = None  # --b: one b for every field instead of ``bm25.length_b``
KS = (1, 5, 10)


class Turns:
    """One group's turns as three BM25 fields: own, context, merged."""

    def __init__(self, episodes: Sequence[EpisodeIn]) -> None:
        eps = [clean_episode(e) for e in episodes]
        fields = [episode_fields(e.speaker, e.content) for e in eps]
        before: list[int | None] = [None] * len(eps)
        after: list[int | None] = [None] * len(eps)
        last: dict[str | None, int] = {}
        for i, e in enumerate(eps):  # the NEXT chain: a session's turns in their order
            if e.session_id in last:
                before[i], after[last[e.session_id]] = last[e.session_id], i
            last[e.session_id] = i
        self.ids = [str(e.external_id) for e in eps]
        self.roles = {str(e.external_id): e.speaker or "" for e in eps}
        self.fields = {name: Lexical() for name in ("own", "context", "merged")}
        for i, f in enumerate(fields):
            near = [fields[j]["terms"] for j in (before[i], after[i]) if j is not None and fields[j]["terms"]]
            context = " ".join(near)
            self.fields["own"].set(i, f["search_text"])
            self.fields["context"].set(i, context)
            self.fields["merged"].set(i, f"{f['search_text']} {context}".strip())

    def rank(self, terms: list[str], weights: dict[str, float], k: int = 25) -> list[str]:
        total = np.zeros(len(self.ids), dtype=np.float32)
        for name, w in weights.items():
            part = self.fields[name].scores(terms)
            total[: len(part)] += w * part
        order = np.argsort(-total, kind="stable")[:k]
        return [self.ids[i] for i in order if total[i] > 0]


def variants() -> dict[str, dict[str, float]]:
    out = {"merged": {"merged": 1.0}, "own": {"own": 1.0}}
    out |= {f"own+{w:g}ctx": {"own": 1.0, "context": w} for w in CONTEXT_WEIGHTS}
    return out


def _questions(
    kind: str, path: str
) -> list[tuple[Sequence[EpisodeIn], list[tuple[str, tuple[str, ...], str]]]]:
    if kind == "lme":
        from eval.longmemeval_data import load as load_lme

        lme = load_lme(path, group_prefix="probe")
        return [(h.episodes, [(h.question, h.evidence, h.question_type)]) for h in lme.haystacks]
    from eval.locomo_data import load as load_locomo

    loco = load_locomo(path, group_prefix="probe")
    return [
        (
            c.episodes,
            [(q.question, q.evidence, str(q.category)) for q in c.questions if q.category in (1, 2, 3, 4)],
        )
        for c in loco.conversations
    ]


def _metrics(rows: list[tuple[tuple[str, ...], list[str]]]) -> dict[str, float]:
    out = {f"R@{k}": round(100 * (mean([evidence_recall(ev, r, k) for ev, r in rows]) or 0.0), 1) for k in KS}
    rr = []
    for ev, ranked in rows:
        first = next((i for i, x in enumerate(ranked, start=1) if x in set(ev)), None)
        rr.append(0.0 if first is None else 1.0 / first)
    out["MRR"] = round(100 * (mean(rr) or 0.0), 1)
    return out


def probe(kind: str, path: str) -> dict[str, Any]:
    rows: dict[str, list[tuple[tuple[str, ...], list[str]]]] = defaultdict(list)
    by_type: dict[str, dict[str, list[tuple[tuple[str, ...], list[str]]]]] = defaultdict(
        lambda: defaultdict(list)
    )
    first_role: dict[str, Counter[str]] = defaultdict(Counter)
    for episodes, questions in _questions(kind, path):
        turns = Turns(episodes)
        for question, evidence, qtype in questions:
            terms = list(dict.fromkeys(analyze(question)))
            for name, weights in variants().items():
                ranked = turns.rank(terms, weights)
                rows[name].append((evidence, ranked))
                by_type[name][qtype].append((evidence, ranked))
                if ranked:
                    first_role[name][turns.roles[ranked[0]]] += 1
    return {
        "k1": lexical.K1,
        "b": B_FIXED
        if B_FIXED is not None
        else f"length_b (pivot {bm25.LENGTH_PIVOT:g}, power {bm25.LENGTH_POWER:g})",
        "n": len(rows["own"]),
        "variants": {
            name: {
                **_metrics(rows[name]),
                "first_hit_role": dict(first_role[name]),
                "R@1_by_type": {t: _metrics(v)["R@1"] for t, v in sorted(by_type[name].items())},
            }
            for name in variants()
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kind", choices=("lme", "locomo"))
    parser.add_argument("path")
    parser.add_argument("--k1", type=float, default=None)
    parser.add_argument("--b", type=float, default=None, help="one fixed b for every field")
    parser.add_argument("--pivot", type=float, default=None, help="length_b's pivot (terms)")
    parser.add_argument("--power", type=float, default=None, help="length_b's power")
    args = parser.parse_args()
    global B_FIXED
    if args.k1 is not None:  # this process only: probes of the parameters, not settings
        lexical.K1 = args.k1
    if args.pivot is not None:
        bm25.LENGTH_PIVOT = args.pivot
    if args.power is not None:
        bm25.LENGTH_POWER = args.power
    if args.b is not None:
        B_FIXED = args.b
        lexical.length_b = lambda _avgdl: args.b  # type: ignore[assignment]
    report = probe(args.kind, args.path)
    for name, m in report["variants"].items():
        print(
            f"{name:12s} R@1 {m['R@1']:5.1f}  R@5 {m['R@5']:5.1f}  R@10 {m['R@10']:5.1f}  MRR {m['MRR']:5.1f}"
        )
    print(json.dumps(report))


if __name__ == "__main__":
    main()
