"""Feelings and experiences (``rules_en_readers_feelings``): what a thing does for the speaker,
read as one of six predicates whose object is the thing. Phrasings written for these tests; none
taken from a dataset. Refused: questions, negations, hypotheticals, pronoun or pointed-at things,
the listener's things, a thing's own feeling ("my dogs are happy") and the generic "you"."""

from __future__ import annotations

import pytest

from tests.unit.en_chat_kit import rows


@pytest.mark.parametrize(
    ("text", "predicate", "thing"),
    [
        ("Knitting helps me unwind after work.", "finds_peace_in", "knitting"),
        ("Swimming calms me down.", "finds_peace_in", "swimming"),
        ("Long walks keep me sane.", "finds_peace_in", "long walks"),
        ("Gardening is a great way to relax.", "finds_peace_in", "gardening"),
        ("I find baking really therapeutic.", "finds_peace_in", "baking"),
        ("Music brings me so much joy.", "finds_joy_in", "music"),
        ("Volunteering makes me really happy.", "finds_joy_in", "volunteering"),
        ("Teaching gives me a real sense of fulfillment.", "finds_joy_in", "teaching"),
        (
            "My running club gives me the strength to keep going.",
            "draws_strength_from",
            "Dana's running club",
        ),
        ("Cycling keeps me motivated.", "draws_strength_from", "cycling"),
        ("My choir made me feel so accepted.", "feels_supported_by", "Dana's choir"),
        ("Photography gives me a sense of freedom.", "finds_freedom_in", "photography"),
        ("Writing poems helps me express my feelings.", "expresses_self_through", "writing poems"),
        ("Drumming is my outlet.", "expresses_self_through", "drumming"),
        ("Singing is a fun way to express myself.", "expresses_self_through", "singing"),
    ],
)
def test_what_a_thing_does_for_the_speaker(text: str, predicate: str, thing: str) -> None:
    assert (predicate, thing) in rows(text)


def test_each_conjoined_thing_is_a_fact() -> None:
    found = rows("Hiking and cooking bring me peace.")
    assert ("finds_peace_in", "hiking") in found and ("finds_peace_in", "cooking") in found


@pytest.mark.parametrize(
    "text",
    [
        "Does knitting help you unwind?",  # a question
        "Swimming doesn't calm me down at all.",  # negated
        "If running kept me sane, I'd do it daily.",  # hypothetical
        "It brings me so much joy.",  # a pronoun
        "That song gives me hope.",  # pointed at
        "Your advice gives me strength.",  # thanks to the listener
        "Playing it helps me relax.",  # a pronoun inside the gerund
        "My dogs are so happy at the park.",  # their joy, not the speaker's
        "Gardening gives you peace.",  # the generic "you"
        "Seeing my students grow makes me happy.",  # a clause inside the thing
    ],
)
def test_refused_feelings(text: str) -> None:
    assert not any(
        p
        in (
            "finds_peace_in",
            "finds_joy_in",
            "draws_strength_from",
            "feels_supported_by",
            "finds_freedom_in",
            "expresses_self_through",
        )
        for p, _ in rows(text)
    )
