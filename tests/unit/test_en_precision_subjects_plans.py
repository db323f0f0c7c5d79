"""Classes of wrong English facts about who did something and what is planned, each with the near
neighbours that must keep their fact (regressions: such facts were written before).

- a name said to the listener ("Hey Sam, I went ...", "Sam, I joined ...") became the subject;
- a wish said in the past ("I wanted to X", "I'd been wanting to X", "I was going to X") became a
  current plan;
- "planning a trip" gave the statement "plans to trip ...";
- "we have regular meetings" (a habit, no time ahead) became a plan;
- a past form the model tags as present ("We roasted marshmallows": VBP) named the predicate
  "roasteds".
"""

from __future__ import annotations

import pytest

from tests.unit.en_chat_kit import facts, rows


def _subjects(text: str) -> set[str]:
    return {f.subject for f in facts(text)}


@pytest.mark.parametrize(
    "sentence",
    [
        "Hey Sam, since we last talked I went to a pottery fair.",
        "Hi Sam, lately I'm volunteering at the animal shelter.",
        "Yeah Sam, networking is key for getting your bakery noticed.",
        "Sam, I joined a chess club last week.",
        "Thanks Sam, I finally finished my first quilt!",
    ],
)
def test_a_name_said_to_the_listener_is_never_the_subject(sentence: str) -> None:
    assert "Sam" not in _subjects(sentence)


@pytest.mark.parametrize(
    ("sentence", "fact"),
    [
        ("Hey Sam, since we last talked I went to a pottery fair.", "pottery fair"),
        ("Sam, I joined a chess club last week.", "chess club"),
    ],
)
def test_the_speaker_after_a_vocative_keeps_the_fact(sentence: str, fact: str) -> None:
    assert fact in {v for _, v in rows(sentence)}


@pytest.mark.parametrize(
    ("sentence", "subject"),
    [
        ("Wow, Priya got a job at Google.", "Priya"),
        ("Priya moved to Lisbon last year.", "Priya"),
    ],
)
def test_a_named_subject_that_is_not_addressed_stays(sentence: str, subject: str) -> None:
    assert subject in _subjects(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "I wanted to make the garage feel like a proper workshop.",
        "I'd been wanting to try climbing for ages and finally did it.",
        "I was going to repaint the fence in May.",
        "I was planning to learn the cello.",
        "I was hoping to adopt a rescue greyhound.",
        "I was so excited to meet the new volunteers.",
    ],
)
def test_a_wish_said_in_the_past_is_no_plan(sentence: str) -> None:
    assert not [v for p, v in rows(sentence) if p == "plans"]


@pytest.mark.parametrize(
    ("sentence", "value"),
    [
        ("I've always wanted to learn Portuguese.", "learn Portuguese"),
        ("I want to visit the Faroe Islands.", "visit Faroe Islands"),
        ("I'm so excited to meet the new volunteers.", "meet new volunteers"),
        ("I hope to open a flower shop.", "open flower shop"),
    ],
)
def test_a_present_wish_is_still_a_plan(sentence: str, value: str) -> None:
    assert ("plans", value) in rows(sentence)


@pytest.mark.parametrize(
    ("sentence", "value"),
    [
        ("I'm planning a trip to the Scottish Highlands.", "take trip to the Scottish Highlands"),
        ("We planned a board game party together.", "have board game party"),
    ],
)
def test_planning_a_noun_plans_to_take_or_have_it(sentence: str, value: str) -> None:
    assert ("plans", value) in rows(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "We have weekly meetings at the community hall.",
        "Our crew has team dinners and outings.",
        "Now I have a backup drive for my photos.",
    ],
)
def test_having_events_without_a_time_ahead_is_no_plan(sentence: str) -> None:
    assert not [v for p, v in rows(sentence) if p == "plans"]


def test_having_an_event_with_a_time_ahead_is_a_plan() -> None:
    assert [v for p, v in rows("I've got a chess tournament next month.") if p == "plans"]


@pytest.mark.parametrize(
    ("sentence", "predicate"),
    [
        ("We roasted chestnuts by the fire.", "roasts"),
        ("We toasted marshmallows by the fire.", "toasts"),
        ("I proceed with the plan.", "proceeds_with"),
    ],
)
def test_a_past_form_tagged_present_names_its_lemma(sentence: str, predicate: str) -> None:
    assert predicate in {p for p, _ in rows(sentence)}
