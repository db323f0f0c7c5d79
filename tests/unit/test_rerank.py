"""The rerank on candidate features: recency, confidence, tier, MMR (pure)."""

from __future__ import annotations

from graphmem.retrieval.config import SearchConfig
from graphmem.retrieval.fusion import DAY_S, Features, recency_boost, rerank

CFG = SearchConfig(recency_weight=0.1, confidence_weight=0.05, inferred_factor=0.6, mmr_lambda=0.95)


def test_recency_is_relative_to_the_newest_and_halves_in_a_year() -> None:
    assert recency_boost(1000.0, 1000.0) == 1.0
    assert abs(recency_boost(0.0, 365 * DAY_S) - 0.5) < 1e-12
    assert recency_boost(None, 1.0) == recency_boost(1.0, None) == 0.0
    assert recency_boost(2000.0, 1000.0) == 1.0  # after the reference time: no extra boost


def test_an_inferred_fact_ranks_below_a_stated_one() -> None:
    fused = {("fact", "a"): 0.02, ("fact", "b"): 0.02}
    feats = {
        ("fact", "a"): Features(100.0, 0.9, True, "Dana lives in Porto"),
        ("fact", "b"): Features(100.0, 0.9, False, "Dana works at Lumen"),
    }
    order, scores = rerank(list(fused), fused, feats, CFG, newest=None, limit=2)
    assert order == [("fact", "b"), ("fact", "a")]
    assert abs(scores[("fact", "a")] / scores[("fact", "b")] - 0.6) < 1e-12


def test_newer_wins_a_tie_and_as_of_is_the_reference() -> None:
    fused = {("episode", "old"): 0.02, ("episode", "new"): 0.02}
    feats = {
        ("episode", "old"): Features(0.0, 0.0, False, "storm at sea"),
        ("episode", "new"): Features(100 * DAY_S, 0.0, False, "calm harbour"),
    }
    order, _ = rerank(list(fused), fused, feats, CFG, newest=None, limit=2)
    assert order[0] == ("episode", "new")
    _, scores = rerank(list(fused), fused, feats, CFG, newest=0.0, limit=2)  # as_of before both
    assert scores[("episode", "old")] == scores[("episode", "new")]


def test_candidates_without_features_are_left_out_and_mmr_spreads() -> None:
    fused = {("episode", "a"): 0.030, ("episode", "b"): 0.0299, ("episode", "c"): 0.029, ("fact", "x"): 1.0}
    feats = {
        ("episode", "a"): Features(None, 0.0, False, "the cat sat on the mat"),
        ("episode", "b"): Features(None, 0.0, False, "the cat sat on the mat"),
        ("episode", "c"): Features(None, 0.0, False, "a kite over the dunes"),
    }
    order, scores = rerank(list(fused), fused, feats, CFG, newest=None, limit=3)
    assert ("fact", "x") not in scores
    assert order == [("episode", "a"), ("episode", "c"), ("episode", "b")]  # the duplicate goes last
