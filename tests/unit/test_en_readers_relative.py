"""A deed the speaker tells inside a relative clause ("the figurines I bought yesterday"), read by
``rules_en_readers_relative`` as a sentence of its own. Phrasings written for these tests; none
taken from a dataset. Refused: another subject, a negation, a present or progressive clause (a plan
whose time was cut), a noun that is a time, a clause with its own object or a complement, a
perception or a thought, a question."""

from __future__ import annotations

import pytest

from graphmem.providers.extractors.en_parse import parse
from graphmem.providers.extractors.rules_en_readers_relative import relative_sentence
from tests.unit.en_chat_kit import rows


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("The candles I bought at the market are lovely.", ("owns", "candles")),
        ("This photo reminds me of a road trip we took last spring.", ("takes", "road trip")),
        ("Here's a pic of a lemon tart I baked on Sunday!", ("bakes", "lemon tart")),
        ("Look at these puppies I met at the rescue center!", ("met", "puppies")),
        ("A guy I met at the conference gave me a card.", ("met", "guy at the conference")),
        ("The poem that I wrote for my niece won a prize.", ("writes", "poem for Dana's niece")),
    ],
)
def test_a_deed_in_a_relative_clause(text: str, fact: tuple[str, str]) -> None:
    assert fact in rows(text)


@pytest.mark.parametrize(
    ("text", "sentence"),
    [
        ("These candles I bought at the market are lovely.", "I bought candles at the market."),
        ("Here's the scarf I knitted for my mom.", "I knitted a scarf for my mom."),
        ("The projects I've been working on are fun.", "I've been working on projects."),
    ],
)
def test_the_clause_written_as_a_sentence(text: str, sentence: str) -> None:
    assert [s for v in parse(text) if (s := relative_sentence(v))] == [sentence]


@pytest.mark.parametrize(
    "text",
    [
        "The candles she bought last weekend smell amazing.",  # not the speaker's deed
        "The cake I didn't bake was the best one.",  # negated
        "The trip we're taking next month will be fun.",  # present: a plan, time cut
        "I still remember the day I met my husband.",  # the noun is a time
        "That's the way I painted it.",  # a manner
        "It's a list of all the hurdles I had to clear.",  # the noun belongs to the inner verb
        "It reminded me of the sunset I saw on the beach.",  # a perception
        "Look at this piece I made!",  # a bare piece says nothing
        "It reminds me of a trip I took in May.",
        "Here's the pond I found on a map.",  # finding
        "We loved this arts/crafts fair we attended.",  # a torn pair
    ],
)
def test_near_misses_give_no_deed(text: str) -> None:
    assert not [s for v in parse(text) if (s := relative_sentence(v))]


def test_a_question_gives_no_deed() -> None:
    assert not [r for r in rows("Did you like the tart I baked?") if r[0] == "bakes"]
