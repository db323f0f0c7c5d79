"""Opinions about things (``rules_en_readers_opinions``): what matters to the speaker (values) and
what they found hard (finds_challenging). Phrasings written for these tests; none taken from a
dataset. Refused: questions, negations, modals, pronoun or pointed-at things, the listener's
things, and someone else's hardship."""

from __future__ import annotations

import pytest

from tests.unit.en_chat_kit import rows


@pytest.mark.parametrize(
    ("text", "thing"),
    [
        ("Honesty is so important.", "honesty"),
        ("Sleep is essential for recovery.", "sleep"),
        ("Staying curious is key.", "staying curious"),
        ("Good communication is crucial in a team.", "good communication"),
        ("Regular exercise is vital.", "regular exercise"),
    ],
)
def test_what_matters_to_the_speaker(text: str, thing: str) -> None:
    assert ("values", thing) in rows(text)


@pytest.mark.parametrize(
    ("text", "thing"),
    [
        ("Leaving my hometown was really hard.", "leaving Dana's hometown"),
        ("Opening my own bakery has been tough.", "opening Dana's own bakery"),
        ("Finding a good landlord was a real struggle.", "finding a good landlord"),
        ("My commute is exhausting.", "Dana's commute"),
        ("Learning the cello was a big challenge.", "learning the cello"),
    ],
)
def test_what_the_speaker_found_hard(text: str, thing: str) -> None:
    assert ("finds_challenging", thing) in rows(text)


@pytest.mark.parametrize(
    "text",
    [
        "Is sleep important?",  # a question
        "Moving house wasn't that hard.",  # negated
        "Learning the cello can be tricky.",  # a modal
        "It is so important.",  # a pronoun
        "Discussing it is important.",  # a pronoun inside the gerund
        "This part is tough.",  # pointed at
        "Your health is important.",  # the listener's
        "The weather was rough.",  # nothing of the speaker's
        "Rest is important for you.",  # said of the listener
        "Making time for ourselves and our kids is important.",  # a gerund read apart from its subject
    ],
)
def test_refused_opinions(text: str) -> None:
    assert not any(p in ("values", "finds_challenging") for p, _ in rows(text))
