"""fusion.prefer_newer: a later telling of the same thing ranks above the earlier one (pure).

The class it fixes: a knowledge-update question ("Where did I get my guitar serviced?") whose older
turn (the plan) matches the words as well as the newer one (what happened), so the older ranked
first. Unrelated items, items told the same day, and lifts through a chain are left alone."""

from __future__ import annotations

from graphmem.retrieval.config import SearchConfig
from graphmem.retrieval.fusion import DAY_S, Features, prefer_newer, rerank, tokens

T0 = 1.7e9
OLD, NEW, SAME_DAY, OTHER = ("episode", "old"), ("episode", "new"), ("episode", "same"), ("episode", "other")
TEXTS = {
    OLD: (T0, "I will get my guitar serviced at the music shop on Main St"),
    NEW: (T0 + 9 * DAY_S, "I got my guitar serviced at the music shop on Main St last week"),
    SAME_DAY: (T0 + 3600.0, "my guitar serviced at the music shop on Main St is what I will get"),
    OTHER: (T0 + 20 * DAY_S, "we baked bread and walked the dog"),
}
FEATURES = {k: Features(when, 0.0, False, text) for k, (when, text) in TEXTS.items()}
TOKS = {k: tokens(f.text) for k, f in FEATURES.items()}


def test_the_newer_near_duplicate_is_lifted_just_above_the_older() -> None:
    scores = {OLD: 0.9, NEW: 0.6, OTHER: 0.8}
    out = prefer_newer(scores, FEATURES, TOKS, 0.3)
    assert out[NEW] > out[OLD] == 0.9 and out[NEW] < 0.92
    assert out[OTHER] == 0.8  # nothing like it before


def test_same_day_and_dissimilar_items_keep_their_scores() -> None:
    scores = {OLD: 0.9, SAME_DAY: 0.5}
    assert prefer_newer(scores, FEATURES, TOKS, 0.3) == scores  # one telling, not an update
    assert prefer_newer({OLD: 0.9, NEW: 0.6}, FEATURES, TOKS, 0.95) == {OLD: 0.9, NEW: 0.6}


def test_lifts_do_not_chain() -> None:
    """A newer item lifted by an older one does not pass that score on to a third."""
    mid = ("episode", "mid")
    features = {**FEATURES, mid: Features(T0 + 4 * DAY_S, 0.0, False, "guitar serviced music shop")}
    toks = {**TOKS, mid: tokens(features[mid].text)}
    # OLD ~ mid, mid ~ NEW only loosely: NEW's lift comes from its own overlap with OLD
    out = prefer_newer({OLD: 0.9, mid: 0.3, NEW: 0.2}, features, toks, 0.3)
    assert out[NEW] <= 0.9 * 1.01 + 1e-12


def test_rerank_applies_it_only_when_the_recipe_asks() -> None:
    fused = {OLD: 0.9, NEW: 0.85}
    off = SearchConfig(recency_weight=0.0, confidence_weight=0.0)
    order, _ = rerank([OLD, NEW], fused, FEATURES, off, newest=None, limit=2)
    assert order == [OLD, NEW]
    on = off.model_copy(update={"newer_similarity": 0.3})
    order, _ = rerank([OLD, NEW], fused, FEATURES, on, newest=None, limit=2)
    assert order == [NEW, OLD]
