"""The recipe levers, pure: field-separated episode BM25 (own text / context / facts), z-scored
linear fusion, and the current-state reading of a query."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem.retrieval.config import RECIPES, SearchConfig
from graphmem.retrieval.fusion import Features, fuse, rerank, zscore
from graphmem.retrieval.intent import adapt, asks_current, time_focus
from graphmem.retrieval.tenant_index.fields import split_fields
from graphmem.retrieval.tenant_index.index import TenantIndex, View
from tests.conftest import examples

T = datetime(2024, 1, 1, tzinfo=UTC)


def turn(i: str, speaker: str, own: str, context: str = "") -> dict:
    text = " ".join(t for t in (speaker, own, context) if t)
    return {
        "id": i,
        "search_text": text,
        "speaker_terms": speaker,
        "terms": own,
        "embedding": None,
        "reference_time": T,
        "mentions": [],
    }


def test_split_fields_takes_the_own_prefix_and_keeps_old_rows_whole() -> None:
    assert split_fields(turn("e", "ana", "paint sunset", "nice color")) == ("ana paint sunset", "nice color")
    assert split_fields({"search_text": "a b c"}) == ("a b c", "")  # no terms: written before fields
    assert split_fields({"search_text": "x y", "terms": "q"}) == ("x y", "")  # not a prefix: whole


def test_own_text_outranks_a_neighbour_that_only_borders_the_answer() -> None:
    """The class of failure fields fix: one merged bag lets a turn that only *borders* the words
    (through its neighbour's terms) tie with, or beat, the turn that says them."""
    idx = TenantIndex("g", 8)
    idx.apply(
        "episode",
        [
            turn("q", "ben", "what paint", "paint sunset lake"),  # the question next to the answer
            turn("a", "ana", "paint sunset lake", "what paint"),  # the answer itself
            turn("x", "ana", "bake bread"),
        ],
    )
    fields = {"own": 1.0, "context": 0.2}
    hits = idx.bm25("episode", ["sunset", "lake"], 3, View(), fields=fields)
    assert [i for i, _ in hits] == ["a", "q"] and hits[0][1] > 2 * hits[1][1]
    assert [i for i, _ in idx.bm25("episode", ["sunset", "lake"], 3, View(), fields={"own": 1.0})] == ["a"]


def test_facts_are_keys_of_the_episodes_they_evidence_whichever_arrives_first() -> None:
    idx = TenantIndex("g", 8)
    fact = {
        "id": "f1",
        "search_text": "ana live lisbon",
        "embedding": None,
        "status": "active",
        "expired_at": None,
        "evidence": 1,
        "evidence_ids": ["e2"],
    }
    idx.apply("fact", [fact])  # before its episode
    idx.apply("episode", [turn("e1", "ana", "hello"), turn("e2", "ana", "moved last week")])
    keys = {"own": 1.0, "facts": 1.0}
    assert not idx.fields.active  # no field postings until a search weighs fields
    assert [i for i, _ in idx.bm25("episode", ["lisbon"], 5, View(), fields=keys)] == ["e2"]
    assert idx.fields.active
    assert idx.bm25("episode", ["lisbon"], 5, View(), fields={"own": 1.0}) == []
    idx.apply("fact", [{**fact, "expired_at": T}])  # retracted: no longer a key
    assert idx.bm25("episode", ["lisbon"], 5, View(), fields=keys) == []
    idx.apply("fact", [{**fact, "evidence_ids": ["e1"]}])  # evidence moved
    assert [i for i, _ in idx.bm25("episode", ["lisbon"], 5, View(), fields=keys)] == ["e1"]


def test_zscore_fusion_calibrates_channels_on_different_scales() -> None:
    bm25 = {("episode", "a"): 30.0, ("episode", "b"): 10.0, ("episode", "c"): 9.0}
    vector = {("episode", "b"): 0.61, ("episode", "c"): 0.60, ("episode", "d"): 0.20}
    fused = zscore({"bm25": bm25, "vector": vector}, {"bm25": 1.0, "vector": 1.0})
    assert set(fused) == {("episode", k) for k in "abcd"}
    assert all(0.0 < v < 1.0 for v in fused.values())
    assert max(fused, key=fused.__getitem__) == ("episode", "b")  # high in both beats top in one
    assert fused[("episode", "d")] == min(fused.values())
    assert zscore({"bm25": bm25}, {"bm25": 0.0}) == {}


@given(st.dictionaries(st.text(min_size=1, max_size=3), st.floats(-1e3, 1e3), min_size=1, max_size=20))
@settings(max_examples=examples(50), deadline=None)
def test_zscore_of_one_channel_keeps_its_order(raw: dict[str, float]) -> None:
    found = {("episode", k): v for k, v in raw.items()}
    fused = zscore({"bm25": found}, {"bm25": 2.0})
    for a in found:
        for b in found:
            if found[a] > found[b] + 1e-9:
                assert fused[a] >= fused[b]


def test_fuse_follows_the_recipe() -> None:
    rankings = {"bm25:episode": [("episode", "a"), ("episode", "b")]}
    scores = {("episode", "a"): {"bm25:episode": 2.0}, ("episode", "b"): {"bm25:episode": 1.0}}
    weights = {"bm25:episode": 1.0}
    rrf = fuse(rankings, scores, weights, SearchConfig(fusion="rrf"))
    assert rrf[("episode", "a")] == 1 / 61 and rrf[("episode", "b")] == 1 / 62
    z = fuse(rankings, scores, weights, SearchConfig(fusion="zscore"))
    assert z[("episode", "a")] > z[("episode", "b")]


def test_current_state_queries_get_the_current_recency_weight() -> None:
    for query in ("Where do I live now?", "What is my current job?", "my most recent trip", "我现在住在哪里"):
        assert asks_current(query), query
    for query in ("When did Ana adopt Pixel?", "What did I buy in March?", "nowhere to be found"):
        assert not asks_current(query), query
    cfg = SearchConfig(recency_weight=0.01, current_recency_weight=0.5)
    assert adapt(cfg, "Where do I work now?").recency_weight == 0.5
    assert adapt(cfg, "Where did I work in 2020?") is cfg
    assert adapt(RECIPES["bm25"], "now?") is RECIPES["bm25"]  # no current weight set: unchanged


def test_time_focus_resolves_the_question_against_its_date() -> None:
    asked = datetime(2023, 6, 30, 12, tzinfo=UTC)
    assert time_focus("What did I buy two weeks ago?", asked) == datetime(2023, 6, 16, tzinfo=UTC).timestamp()
    assert time_focus("我去年五月去了哪里", asked) is not None
    assert time_focus("Where do I keep my bike?", asked) is None


def test_rerank_boosts_evidence_near_the_query_time() -> None:
    near, far = ("episode", "near"), ("episode", "far")
    focus = datetime(2023, 6, 16, tzinfo=UTC).timestamp()
    features = {
        near: Features(focus + 86400.0, 0.0, False, "bought a lamp"),
        far: Features(focus - 200 * 86400.0, 0.0, False, "bought a chair"),
    }
    fused = {near: 0.5, far: 0.52}
    how = SearchConfig(time_weight=0.3, recency_weight=0.0, confidence_weight=0.0)
    order, _ = rerank([far, near], fused, features, how, newest=None, limit=2, focus=focus)
    assert order == [near, far]
    order, _ = rerank([far, near], fused, features, how, newest=None, limit=2)  # no time in the query
    assert order == [far, near]


def test_zscore_keeps_a_near_tie_between_two_facts_a_near_tie() -> None:
    """Regression: over a channel's two candidates z-scores are always ±1, so z-scored fusion
    turned a near tie (an inferred older employer vs the stated current one) into a gap the tier
    damping could not close, and search answered the inferred fact (temporal suite
    en-explicit-013). The small-set shrinkage leaves the tier to decide."""
    old, new = ("fact", "amazon"), ("fact", "goldman")
    bm25, vector = {old: 2.1, new: 2.0}, {old: 0.60, new: 0.58}
    fused = zscore({"bm25:fact": bm25, "vector:fact": vector}, {"bm25:fact": 0.5, "vector:fact": 0.25})
    features = {
        old: Features(datetime(2019, 1, 1, tzinfo=UTC).timestamp(), 1.0, True, "Umar works at Amazon"),
        new: Features(
            datetime(2022, 1, 1, tzinfo=UTC).timestamp(), 1.0, False, "Umar works at Goldman Sachs"
        ),
    }
    order, _ = rerank([old, new], fused, features, RECIPES["default"], newest=None, limit=2)
    assert order == [new, old]
