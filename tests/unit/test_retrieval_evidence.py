"""The evidence channel (a fact hit lifts the turns that evidence it) and the question's own time,
pure: ``fusion.evidence_ranking``, the tenant index's evidence lookup under a view, the executor's
fusion of the new channel, and ``intent.time_focus`` on past, present and future phrases."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.retrieval.config import RECIPES, SearchConfig
from graphmem.retrieval.fusion import evidence_ranking, fuse
from graphmem.retrieval.intent import time_focus
from graphmem.retrieval.sources import ORDER, _index_evidence
from graphmem.retrieval.tenant_index.index import TenantIndex, View

T = datetime(2024, 1, 1, tzinfo=UTC)


def test_an_episode_scores_its_best_fact_plus_a_tenth_of_the_others() -> None:
    facts = {"f1": 0.9, "f2": 0.5, "f3": 0.4}
    evidence = {"f1": ("e1",), "f2": ("e2", "e1"), "f3": ("e3", "e3")}
    ranked = evidence_ranking(facts, evidence, limit=10)
    assert [e for e, _ in ranked] == ["e1", "e2", "e3"]
    assert dict(ranked)["e1"] == pytest.approx(0.9 + 0.1 * 0.5)
    assert dict(ranked)["e3"] == 0.4  # an episode cited twice by one fact counts once
    assert [e for e, _ in evidence_ranking(facts, evidence, limit=1)] == ["e1"]
    assert evidence_ranking({"f9": 1.0}, evidence, limit=5) == []  # a fact without evidence


def test_ties_go_by_episode_id() -> None:
    ranked = evidence_ranking({"f1": 0.5, "f2": 0.5}, {"f1": ("b",), "f2": ("a",)}, limit=5)
    assert [e for e, _ in ranked] == ["a", "b"]


def _episode(i: str, when: datetime) -> dict:
    return {"id": i, "search_text": "x", "embedding": None, "reference_time": when, "mentions": []}


def test_the_index_returns_the_evidence_the_view_shows() -> None:
    idx = TenantIndex("g", 8)
    idx.apply("episode", [_episode("old", T), _episode("new", datetime(2024, 6, 1, tzinfo=UTC))])
    fact = {
        "id": "f",
        "search_text": "ana live lisbon",
        "embedding": None,
        "evidence_ids": ["old", "new", "gone"],
    }
    idx.apply("fact", [fact])
    assert _index_evidence(idx, View(), ["f", "unknown"]) == {"f": ("old", "new")}
    assert _index_evidence(idx, View(as_of=datetime(2024, 3, 1, tzinfo=UTC)), ["f"]) == {"f": ("old",)}
    assert _index_evidence(idx, View(as_of=datetime(2023, 3, 1, tzinfo=UTC)), ["f"]) == {}


def test_the_evidence_channel_is_fused_like_the_others() -> None:
    """A turn that only the facts find still ranks; one both BM25 and the facts find ranks first."""
    assert ("evidence", "episode") in ORDER
    bm25 = {"a": 5.0, "b": 4.9, "d": 2.0, "e": 1.9, "f": 1.8, "g": 1.7}
    cited = {"b": 0.9, "c": 0.8, "h": 0.2, "i": 0.2, "j": 0.1}
    rankings = {
        "bm25:episode": [("episode", i) for i in bm25],
        "evidence:episode": [("episode", i) for i in cited],
    }
    scores: dict = {}
    for name, found in (("bm25:episode", bm25), ("evidence:episode", cited)):
        for i, v in found.items():
            scores.setdefault(("episode", i), {})[name] = v
    fused = fuse(rankings, scores, {"bm25:episode": 1.0, "evidence:episode": 0.5}, SearchConfig())
    assert max(fused, key=fused.__getitem__) == ("episode", "b")
    assert ("episode", "c") in fused
    off = fuse(rankings, scores, {"bm25:episode": 1.0, "evidence:episode": 0.0}, SearchConfig())
    assert ("episode", "c") not in off


def test_baseline_recipes_leave_the_evidence_channel_off() -> None:
    for name in ("hybrid", "bm25", "vector"):
        assert not RECIPES[name].channel_on("evidence"), name


ASKED = datetime(2023, 6, 30, 15, tzinfo=UTC)


def test_a_past_time_phrase_is_the_focus() -> None:
    for query, day in [
        ("What did I buy two weeks ago?", datetime(2023, 6, 16, tzinfo=UTC)),
        ("What concert did I go to in March?", datetime(2023, 3, 1, tzinfo=UTC)),
        ("我去年五月去了哪里", datetime(2022, 5, 1, tzinfo=UTC)),
    ]:
        assert time_focus(query, ASKED) == day.timestamp(), query


def test_the_asking_moment_and_the_future_are_no_focus() -> None:
    """Regression: "tonight" / "this weekend" / "next week" focused the rerank on the asking day
    (or later), which only favoured the newest turns whatever they said."""
    for query in (
        "Any documentary recommendations for tonight?",
        "I'm visiting the music store this weekend, any tips?",
        "What should I pack for next week?",
        "Where do I keep my bike?",
    ):
        assert time_focus(query, ASKED) is None, query
