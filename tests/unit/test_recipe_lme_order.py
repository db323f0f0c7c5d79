"""eval.longmemeval_data.round_robin: a --limit run takes the types in turn, in that order (pure)."""

from __future__ import annotations

from eval.longmemeval_data import Haystack, round_robin


def hay(qid: str, qtype: str) -> Haystack:
    return Haystack(qid, "", qtype, "q?", None, (), ())


def test_every_type_in_turn_and_a_larger_run_starts_with_the_smaller_one() -> None:
    parsed = [hay("a1", "a"), hay("a2", "a"), hay("a3", "a"), hay("b1", "b"), hay("c1", "c"), hay("c2", "c")]
    assert [h.question_id for h in round_robin(parsed, 4)] == ["a1", "b1", "c1", "a2"]
    every = [h.question_id for h in round_robin(parsed, 60)]
    assert every == ["a1", "b1", "c1", "a2", "c2", "a3"]  # all of them, b exhausted first
    for k in range(1, 7):  # a stopped --keep run's first k groups are what --limit k selects
        assert [h.question_id for h in round_robin(parsed, k)] == every[:k]
