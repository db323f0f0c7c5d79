"""``SearchConfig``: which channels run over which targets and how they are fused; named recipes."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from graphmem.errors import InvalidInput

# "evidence": episodes ranked by the fact hits that cite them (EVIDENCED_BY), computed by the
# executor from the fact channels' rankings (``evidence_from``) and fused like the others
CHANNELS = ("bm25", "vector", "graph", "evidence")
TARGETS = ("fact", "episode", "entity")


class SearchConfig(BaseModel):
    # Chosen by `graphmem eval recipes`' rule (eval/recipe_select.py): the best worst-case gain at
    # R@5/R@10 over the best single channel across LoCoMo dev and LongMemEval dev. Episode BM25 scores
    # a turn's own words apart from its neighbours' (field_weights): one merged bag let a turn that
    # only borders the answer (a short question beside a long reply) rank first. Dev numbers, R@1 /
    # R@5 / R@10, against the merged-bag recipe (z-scores, vectors 0.5): LoCoMo ids 1-4 0.367 / 0.623
    # / 0.694 against 0.353 / 0.632 / 0.710; LongMemEval dev 12 questions (no facts) 0.319 / 0.597 /
    # 0.792 against 0.278 / 0.597 / 0.764, rank-bm25 0.306 / 0.653 / 0.681. The BM25 channel alone
    # with fields: LongMemEval R@1 0.403 against 0.069 merged (every 60 dev questions, lexical
    # probe: 0.326 against 0.194). z-scores are shrunk for channels with few candidates
    # (fusion.zscore), which keeps the temporal suite's search check at 1.0 (en-explicit-013).
    # The evidence channel (weights["evidence"]: fact hits lift the turns that evidence them) is
    # off: at 0.3 it added 1.2 points of R@10 on average over three 120-QA LoCoMo dev samples but
    # -0.7 / -0.3 / +0.1 R@1 / R@5 / R@10 over all of LoCoMo dev (fresh ingest), and LongMemEval
    # without facts cannot move (docs/design-notes.md, "Recipe selection"). BM25's b is no setting
    # here: bm25.length_b reads it from each tenant's average field length (short chat lines barely
    # normalised, long answers nearly fully), so one recipe serves both kinds of tenant.
    # Vectors at 0.85 and fact rows at 0.3 (eval recipes' calibration candidates, replayed over one
    # capture of every dev question: eval.fusion_replay): LoCoMo ids 1-4 R@1/5/10/25 36.6 / 61.8 /
    # 70.5 / 78.8 against 37.0 / 62.2 / 70.8 / 78.4 at 0.7 / 0.5; LongMemEval-12 (no facts) 36.1 /
    # 59.7 / 79.2 / 81.9 against 31.9 / 59.7 / 76.4 / 79.2: the worst gain over the best single
    # channel goes from -2.8 to 0.0, and among the candidates at 0.0 this one loses least at R@1
    # (the rule's tie-break; docs/design-notes.md, "Fusion calibration over one capture").
    # Seventh session (replayed over LoCoMo dev and the 9 LongMemEval dev questions a loaded host
    # could ingest, eval.fusion_replay; docs/design-notes.md, "Seventh session: retrieval —
    # LongMemEval-60 ..."): 100 candidates a channel and the entity-centred focus at 1.0
    # (weights["focus"], retrieval.focus: a turn told by the speaker the question names). LoCoMo
    # ids 1-4 R@1/5/10/25 36.5 / 62.7 / 70.5 / 79.3 -> 37.8 / 63.7 / 72.4 / 80.3 (the worst gain
    # over the best single channel +1.5 -> +3.4); LongMemEval-9 37.0 / 57.4 / 72.2 / 75.9 -> 37.0 /
    # 57.4 / 72.2 / 72.2 (gain 0.0 either way: R@10 equals the vectors'). Vectors stay at 0.85:
    # 0.5-0.7 gain on LoCoMo but lose one evidence turn in three of LongMemEval's top ten (-3.7).
    # With the newer telling first (newer_similarity 0.25, newer_min_words 15) the worst gain is
    # +3.4 (LoCoMo 33.9 / 63.5 / 72.4 / 80.5, LongMemEval-9 48.1 / 72.2 / 75.9 / 75.9, newest
    # evidence first in 2 of 2 knowledge updates) at 4.0 points of LoCoMo's R@1: the rule's choice.
    # Eighth session (replayed over LoCoMo dev and 39 LongMemEval dev questions, every type;
    # docs/design-notes.md, "Eighth session: retrieval — ..."): the chat role the question points
    # at (weights["role"] 2.0, focus.role_terms: the user's turns for a first-person question, the
    # assistant's for what "you" said) and a boost near a time the question names (time_weight 1.5
    # in RECIPES["default"]) let the vectors drop to 0.5; the name focus goes to 2.0: LoCoMo 33.5 /
    # 63.3 / 72.5 / 80.7 -> 34.6 / 65.4 / 74.9 / 83.3, LongMemEval-39 42.5 / 67.9 / 81.5 / 87.4 ->
    # 48.1 / 76.1 / 84.1 / 88.8 (worst gain over the best single channel +3.1 -> +5.6; newest
    # evidence first 7 of 7 either way).
    weights: dict[str, float] = Field(
        default_factory=lambda: {"bm25": 1.0, "vector": 0.5, "graph": 0.1, "focus": 2.0, "role": 2.0}
    )
    targets: tuple[str, ...] = ("fact", "episode")
    type_weights: dict[str, float] = Field(
        default_factory=lambda: {"fact": 0.3, "episode": 1.0, "entity": 0.5}
    )
    candidates: int = 50  # 100 in RECIPES["default"] (the baselines keep 50)
    # the fact channels whose fused ranking the evidence channel reads ("graph": facts about the
    # entities the query names, 1-2 hops); its weight is weights["evidence"] (absent: off)
    evidence_from: tuple[str, ...] = ("bm25", "vector")
    # "rrf": reciprocal rank fusion; "zscore": each channel's scores z-scored over its candidates,
    # summed by weight (a candidate missing from a channel gets that channel's lowest z) and squashed
    # into (0, 1) by a logistic, so the rerank's multiplicative boosts keep their meaning
    fusion: Literal["rrf", "zscore"] = "zscore"
    # channel kinds z-scored on log(1 + score) (fusion.compressed): sums of term weights have a
    # long right tail that lets their first hit outvote every other channel; () keeps raw scores
    log_scores: tuple[str, ...] = ()
    rrf_k: int = 60
    # episode BM25 by field (tenant_index.fields: "own", "context", "facts"); None: one merged bag
    field_weights: dict[str, float] | None = Field(
        default_factory=lambda: {"own": 1.0, "context": 0.7, "facts": 0.5}
    )
    recency_weight: float = 0.01  # RRF scores are nearly flat at the top: boosts must stay small
    recency_half_life_days: float = 365.0
    # the recency weight instead, for a query that asks for the current state ("now", "current",
    # "latest", "现在": graphmem.retrieval.intent); None keeps recency_weight
    current_recency_weight: float | None = None
    # a query's time phrase ("two weeks ago", resolved against as_of): evidence within about
    # time_window_days of it is boosted by up to time_weight (0: off)
    time_weight: float = 0.0
    time_window_days: float = 14.0
    # a newer candidate whose words overlap an older, better one's by at least this (Jaccard) ranks
    # just above it (fusion.prefer_newer: updates of the same thing); None: off
    # on (seventh session): of the best 30, a newer telling of what an older one told (Jaccard >=
    # 0.25 over texts of >= 15 distinct words, a day or more apart) ranks just above it
    # (set in RECIPES["default"]: the baselines keep it off)
    newer_similarity: float | None = None
    newer_min_words: int = 0  # texts with fewer distinct words take no part in prefer_newer
    # an episode told by a speaker the query points at (a name it says; the assistant when it asks
    # what "you" said, else the user when it speaks of "I"/"my": intent.named_speakers) is boosted
    # by this (0: off)
    speaker_weight: float = 0.0
    confidence_weight: float = 0.05
    mmr_lambda: float = 0.95
    inferred_factor: float = 0.6
    include_history: bool = False

    def channel_on(self, name: str) -> bool:
        return self.weights.get(name, 0.0) > 0


# the default: the class's values with 100 candidates a channel, the newer telling first
# (seventh session) and the boost near a time the question names (eighth session; the comments on
# SearchConfig's fields say what was measured)
_DEFAULT = SearchConfig(candidates=100, newer_similarity=0.25, newer_min_words=15, time_weight=1.5)

RECIPES: dict[str, SearchConfig] = {
    "default": _DEFAULT,
    "facts_only": _DEFAULT.model_copy(update={"targets": ("fact",)}),
    "episodes_only": _DEFAULT.model_copy(update={"targets": ("episode",)}),
    "history": _DEFAULT.model_copy(update={"include_history": True}),
    # the baselines the evals compare against keep one merged bag (eval.retrievers, eval recipes)
    "hybrid": SearchConfig(weights={"bm25": 1.0, "vector": 0.5, "graph": 0.0}, field_weights=None),
    "rrf": SearchConfig(
        fusion="rrf", weights={"bm25": 1.0, "vector": 0.25, "graph": 0.1}, field_weights=None
    ),
    "bm25": SearchConfig(weights={"bm25": 1.0, "vector": 0.0, "graph": 0.0}, field_weights=None),
    "vector": SearchConfig(weights={"bm25": 0.0, "vector": 1.0, "graph": 0.0}, field_weights=None),
    "entities": SearchConfig(targets=("entity", "fact")),
}


def recipe(name: str) -> SearchConfig:
    try:
        return RECIPES[name]
    except KeyError:
        raise InvalidInput(
            f"unknown recipe {name!r}; choose one of {', '.join(sorted(RECIPES))}",
            details={"field": "recipe"},
        ) from None
