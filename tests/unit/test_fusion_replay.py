"""eval.fusion_replay: a captured question replayed under a recipe (pure, no database)."""

from __future__ import annotations

from eval.fusion_replay import Captured, channel_rankings, replay
from graphmem.retrieval.config import RECIPES
from graphmem.retrieval.fusion import Features

E1, E2, E3, F1 = ("episode", "e1"), ("episode", "e2"), ("episode", "e3"), ("fact", "f1")


def question() -> Captured:
    when = 1.7e9
    return Captured(
        dataset="locomo",
        index=0,
        rankings={
            "bm25:fact": [(F1, 9.0)],
            "bm25:episode": [(E1, 8.0), (E2, 3.0), (E3, 2.5)],
            "vector:episode": [(E2, 0.7), (E1, 0.4), (E3, 0.3)],
        },
        merged=[(E2, 5.0), (E1, 4.0)],
        features={
            E1: Features(when, 0.0, False, "ana paints sunsets"),
            E2: Features(when, 0.0, False, "ben bakes bread"),
            E3: Features(when, 0.0, False, "a walk by the lake"),
            F1: Features(when, 0.9, False, "ana likes lakes"),
        },
        evidence={"f1": ("e3",)},
        external={E1: ("D1:1",), E2: ("D1:2",), E3: ("D1:3",), F1: ("D1:3",)},
    )


def test_a_recipe_takes_its_own_channels_and_bm25_shape() -> None:
    q = question()
    assert set(channel_rankings(q, RECIPES["vector"])) == {"vector:episode"}
    assert channel_rankings(q, RECIPES["hybrid"])["bm25:episode"] == q.merged  # one merged bag
    assert channel_rankings(q, RECIPES["default"])["bm25:episode"] == q.rankings["bm25:episode"]
    ev = RECIPES["default"].model_copy(update={"weights": {"bm25": 1.0, "evidence": 1.0}})
    assert channel_rankings(q, ev)["evidence:episode"][0][0] == E3  # the fact's evidence turn


def test_replay_maps_hits_to_external_ids_once() -> None:
    q = question()
    ranked = replay(q, RECIPES["default"], k=5)
    assert sorted(ranked) == ["D1:1", "D1:2", "D1:3"]  # the fact's turn counted once
    assert replay(q, RECIPES["vector"], k=5)[0] == "D1:2"
    assert replay(q, RECIPES["bm25"].model_copy(update={"field_weights": None}), k=5)[0] in {"D1:2", "D1:3"}


def test_the_rule_breaks_a_tied_worst_gain_by_the_first_hit() -> None:
    """Two recipes tie on the worst gain at R@5/R@10: the one whose first hit holds up on both
    datasets is chosen, not the one whose larger mean gain comes from one dataset's top five."""
    from eval.recipe_select import Scores, choice_key

    lopsided = Scores("a", {}, {}, gains={"locomo@5": 0.02, "lme@5": 0.08, "lme@10": 0.0})
    lopsided.first_gains = {"locomo@1": -0.044, "lme@1": 0.042}
    even = Scores("b", {}, {}, gains={"locomo@5": 0.025, "lme@5": 0.0, "lme@10": 0.0})
    even.first_gains = {"locomo@1": -0.002, "lme@1": 0.042}
    assert max([lopsided, even], key=choice_key).name == "b"
    worse = Scores("c", {}, {}, gains={"locomo@5": 0.05, "lme@10": -0.028}, first_gains={"lme@1": 0.1})
    assert max([worse, even], key=choice_key).name == "b"  # the worst gain comes first


def test_other_field_weights_are_replayed_from_each_fields_ranking() -> None:
    """A recipe whose episode fields differ from the captured ranking's is composed from the
    fields' own rankings (Σ weight × score, as the tenant index sums them)."""
    from eval.fusion_replay import composed

    q = question()
    q.field_weights = {"own": 1.0, "context": 0.7, "facts": 0.5}
    q.fields = {"own": [(E1, 2.0), (E2, 1.0)], "context": [(E3, 4.0), (E1, 1.0)], "facts": []}
    assert composed(q.fields, {"own": 1.0, "context": 0.5}) == [(E1, 2.5), (E3, 2.0), (E2, 1.0)]
    same = RECIPES["default"].model_copy(update={"field_weights": q.field_weights})
    assert channel_rankings(q, same)["bm25:episode"] == q.rankings["bm25:episode"]
    other = same.model_copy(update={"field_weights": {"own": 0.0, "context": 1.0, "facts": 0.0}})
    assert channel_rankings(q, other)["bm25:episode"][0] == (E3, 4.0)
