"""More classes of English clauses that state no fact, with the near neighbours that keep theirs
(regressions: "owns car" from "I'll buy a car if I get the job", "sees mentee's face" from
"Seeing my mentee's face light up was the best", "creates positive environment" from "Creating
a positive environment can be helpful", "stumbles with stories" from "stumbled upon this book
... with stories" were written).

- a future said with will/'ll gave a state that holds now (owns, likes);
- a sentence-initial gerund that is the subject of a later "be" read as a chat "I" dropped;
- after an object that points back ("upon this book", "on them") a later phrase became the object.
"""

from __future__ import annotations

import pytest

from tests.unit.en_chat_kit import rows


@pytest.mark.parametrize(
    "sentence",
    [
        "I'll buy a kayak if the bonus comes through.",
        "If the lease works out, I'll get a cat.",
        "I will always love that old bike.",
    ],
)
def test_a_future_holds_no_state_now(sentence: str) -> None:
    assert not [v for p, v in rows(sentence) if p in ("owns", "has_pet", "likes")]


@pytest.mark.parametrize(
    ("sentence", "fact"),
    [
        ("I bought a kayak last week.", ("owns", "kayak")),
        ("I will adopt a kitten next month.", ("plans", "adopt a kitten next month")),
    ],
)
def test_a_past_deed_and_a_plan_keep_their_fact(sentence: str, fact: tuple[str, str]) -> None:
    assert fact in rows(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Watching my students improve was the highlight of the year!",
        "Building a strong routine and sticking to it can be really helpful.",
    ],
)
def test_a_gerund_subject_is_no_deed_of_the_speaker(sentence: str) -> None:
    assert rows(sentence) == []


@pytest.mark.parametrize(
    ("sentence", "value"),
    [
        ("Working on my novel and the plot is great.", "Dana's novel"),
        ("Just finished a pottery class!", "pottery class"),
    ],
)
def test_a_chat_sentence_without_its_i_keeps_its_fact(sentence: str, value: str) -> None:
    assert value in {v for _, v in rows(sentence)}


def test_after_an_object_that_points_back_a_later_phrase_is_no_object() -> None:
    found = rows("I stumbled upon this lovely old map with notes and sketches.")
    assert not [v for _, v in found if "notes" in v]


def test_a_preposition_the_model_tags_as_a_conjunction_still_takes_its_object() -> None:
    assert ("stumbles_upon", "tiny bakery in Porto") in rows("I stumbled upon a tiny bakery in Porto.")


@pytest.mark.parametrize(
    ("sentence", "fact"),
    [
        ("I'm studying Korean now - hard but fun.", ("studies", "Korean")),
        ("I just joined a new book club last Thurs.", ("joins", "new book club")),
        ("I'm loving baking with rye flour lately.", ("likes", "baking with rye flour")),
    ],
)
def test_a_time_adverb_at_the_end_of_a_value_is_cut_off(sentence: str, fact: tuple[str, str]) -> None:
    assert fact in rows(sentence), rows(sentence)


@pytest.mark.parametrize(
    ("sentence", "kept"),
    [
        ("Sending you the playlist now!", False),
        ("I emailed you the photos last night.", False),
        ("I mailed the photos to my cousin.", True),
    ],
)
def test_a_handing_over_to_the_listener_is_no_fact(sentence: str, kept: bool) -> None:
    assert bool([v for _, v in rows(sentence) if "photos" in v or "playlist" in v]) is kept


def test_making_memories_is_an_idiom_no_plan() -> None:
    assert not [v for p, v in rows("Can't wait to make more memories at the lake house!") if p == "plans"]
