"""A chat sentence that drops its "I" before a past verb ("Been working on X", "Got some new
gear"), read by ``rules_en_readers_dropped`` with the speaker written in. Phrasings written for
these tests; none taken from a dataset. Refused: a present verb or an imperative, a question, a
participle that opens a phrase about something else, a verb that has its own subject."""

from __future__ import annotations

import pytest

from graphmem.providers.extractors.en_parse import parse
from graphmem.providers.extractors.rules_en_readers_dropped import dropped_sentence
from tests.unit.en_chat_kit import rows


@pytest.mark.parametrize(
    ("text", "sentence"),
    [
        ("Been testing out some vegan cookie recipes.", "I've been testing out some vegan cookie recipes."),
        ("Got a new tent for the summer.", "I got a new tent for the summer."),
        ("Just finished my second quilt!", "I just finished my second quilt!"),
    ],
)
def test_the_speaker_written_in(text: str, sentence: str) -> None:
    assert dropped_sentence(parse(text)) == sentence


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("Been testing out some vegan cookie recipes.", ("tests_out", "vegan cookie recipes")),
        ("Finally finished my second quilt!", ("finishes", "Dana's second quilt")),
        ("Graduated from nursing school in May!", ("graduates_from", "nursing school")),
        ("Lost my job at the bank, so I'm looking around.", ("loses", "Dana's job at bank")),
    ],
)
def test_a_deed_with_a_dropped_i(text: str, fact: tuple[str, str]) -> None:
    assert fact in rows(text)


@pytest.mark.parametrize(
    "text",
    [
        "Need some tips on growing tomatoes.",  # present: a request
        "Love it so much!",  # a reaction
        "Got any tips for a beginner?",  # a question
        "Made in Portugal, this jug is sturdy.",  # a participle about the jug
        "Painted by my aunt, it hangs in the hall.",
        "Read widely and try new authors.",  # an imperative
        "Really made me happy and reminded me of home.",  # the dropped subject is "it"
        "Been crazy for me this month.",
        "Took a lot of patience but the shelf is done.",  # an effort
    ],
)
def test_near_misses_are_not_restated(text: str) -> None:
    assert dropped_sentence(parse(text)) is None
