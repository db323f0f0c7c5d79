"""A deed told as the time of another clause ("After finishing my thesis I ...", "Since joining
the choir I ..."), read by ``rules_en_readers_since``. Phrasings written for these tests; none
taken from a dataset. Refused: a clause ahead (a modal, "going to", an imperative), "before", a
negated gerund, a pointer or pronoun as the object, a question, a subject other than the
speaker."""

from __future__ import annotations

import pytest

from tests.unit.en_chat_kit import facts, rows


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("After finishing my thesis I took a long nap.", ("finishes", "Dana's thesis")),
        ("Since joining the choir I feel much more confident.", ("joins", "choir")),
        ("After visiting Lisbon, we flew on to Porto.", ("visited", "Lisbon")),
        ("I was so relieved after passing my driving test!", ("passes", "Dana's driving test")),
        ("Ever since adopting Biscuit, I have been walking a lot more.", ("adopts", "Biscuit")),
        ("After losing my job, I wanted a fresh start.", ("loses", "Dana's job")),
    ],
)
def test_the_gerund_is_a_deed_done(text: str, fact: tuple[str, str]) -> None:
    assert fact in rows(text)


@pytest.mark.parametrize(
    "text",
    [
        "After finishing my thesis I'll take a long nap.",  # ahead
        "After finishing my thesis I'm going to take a break.",  # ahead
        "After finishing the report, send it to me.",  # an imperative
        "Before moving to Oslo I sold my car.",  # "before": may never happen
        "After not sleeping for days, I crashed.",  # negated gerund
        "After reading it I felt so hopeful.",  # a pronoun as the object
        "After baking that I took a break.",  # a pointer
        "Did you rest after finishing your thesis?",  # a question
        "After finishing my thesis I didn't feel any better.",  # a negated clause
        "If after finishing the course I get a job, I'll celebrate.",  # hypothetical
    ],
)
def test_no_deed_from_a_clause_that_does_not_state_it(text: str) -> None:
    assert not any(p in ("finishes", "moves_to", "sleeps", "reads", "bakes") for p, _ in rows(text))


def test_the_subject_is_the_clause_s_own() -> None:
    said = facts("Sam got a new job after finishing the course.")
    assert not any(f.subject == "Dana" and f.predicate == "finishes" for f in said)
