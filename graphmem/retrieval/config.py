"""``SearchConfig``: which channels run over which targets and how they are fused; named recipes."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from graphmem.errors import InvalidInput

CHANNELS = ("bm25", "vector", "graph")
TARGETS = ("fact", "episode", "entity")


class SearchConfig(BaseModel):
    # Measured on the LoCoMo dev split (README, R@10 ids 1-4 over GraphMemory.search): tenant-local
    # BM25 over stemmed, session-context search text carries episode recall; MiniLM vectors help at a
    # low weight; graph expansion at 0.1 costs nothing; facts rank below episodes unless asked for.
    # `graphmem eval recipes` (eval/recipe_select.py) chose z-scored fusion with vectors at 0.5 over
    # RRF at 0.25: LoCoMo dev R@1 0.349 / R@5 0.631 / R@10 0.709 against 0.327 / 0.612 / 0.711, and a
    # better first hit on LongMemEval dev subsets (R@1 0.222 against 0.056 on 6 questions). z-scores
    # are shrunk for channels with few candidates (fusion.zscore), which keeps the temporal suite's
    # search check at 1.0 (en-explicit-013: two near-tied facts, the tier decides).
    weights: dict[str, float] = Field(default_factory=lambda: {"bm25": 1.0, "vector": 0.5, "graph": 0.1})
    targets: tuple[str, ...] = ("fact", "episode")
    type_weights: dict[str, float] = Field(
        default_factory=lambda: {"fact": 0.5, "episode": 1.0, "entity": 0.5}
    )
    candidates: int = 50
    # "rrf": reciprocal rank fusion; "zscore": each channel's scores z-scored over its candidates,
    # summed by weight (a candidate missing from a channel gets that channel's lowest z) and squashed
    # into (0, 1) by a logistic, so the rerank's multiplicative boosts keep their meaning
    fusion: Literal["rrf", "zscore"] = "zscore"
    rrf_k: int = 60
    # episode BM25 by field (tenant_index.fields: "own", "context", "facts"); None: one merged bag
    field_weights: dict[str, float] | None = None
    recency_weight: float = 0.01  # RRF scores are nearly flat at the top: boosts must stay small
    recency_half_life_days: float = 365.0
    # the recency weight instead, for a query that asks for the current state ("now", "current",
    # "latest", "现在": graphmem.retrieval.intent); None keeps recency_weight
    current_recency_weight: float | None = None
    # a query's time phrase ("two weeks ago", resolved against as_of): evidence within about
    # time_window_days of it is boosted by up to time_weight (0: off)
    time_weight: float = 0.0
    time_window_days: float = 14.0
    confidence_weight: float = 0.05
    mmr_lambda: float = 0.95
    inferred_factor: float = 0.6
    include_history: bool = False

    def channel_on(self, name: str) -> bool:
        return self.weights.get(name, 0.0) > 0


RECIPES: dict[str, SearchConfig] = {
    "default": SearchConfig(),
    "facts_only": SearchConfig(targets=("fact",)),
    "episodes_only": SearchConfig(targets=("episode",)),
    "history": SearchConfig(include_history=True),
    "hybrid": SearchConfig(weights={"bm25": 1.0, "vector": 0.5, "graph": 0.0}),
    "rrf": SearchConfig(fusion="rrf", weights={"bm25": 1.0, "vector": 0.25, "graph": 0.1}),
    "bm25": SearchConfig(weights={"bm25": 1.0, "vector": 0.0, "graph": 0.0}),
    "vector": SearchConfig(weights={"bm25": 0.0, "vector": 1.0, "graph": 0.0}),
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
