"""A statement that ends in a tag question after a dash ("I finished a new vase - want to see
it?"), read by ``rules_en_readers_tagged``: the part before the dash read as a sentence of its
own. Phrasings written for these tests; none taken from a dataset."""

from __future__ import annotations

import pytest

from graphmem.providers.extractors.rules_en_readers_tagged import tagged_statement
from tests.unit.en_chat_kit import rows


@pytest.mark.parametrize(
    ("text", "sentence"),
    [
        ("I finished a new vase - want to see a pic?", "I finished a new vase."),
        ("We adopted a kitten – any tips on litter training?", "We adopted a kitten."),
        ("I signed up for a pottery class — have you tried it?", "I signed up for a pottery class."),
    ],
)
def test_the_statement_before_the_tag(text: str, sentence: str) -> None:
    assert tagged_statement(text) == sentence


@pytest.mark.parametrize(
    "text",
    [
        "Have you been to Lisbon?",  # no dash
        "Did you go? - I did?",  # a question before the dash
        "Is self-care hard for you?",  # a dash inside a word
        "I went - can you believe how long it took us to get there after the storm and all the traffic?",
        "I finished a new vase - want to see a pic!",  # no question: read as it is
        "Yes - really?",  # too short before the dash
    ],
)
def test_no_statement_without_a_tag_question(text: str) -> None:
    assert tagged_statement(text) is None


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I finished another quilt - want to see a pic?", ("finishes", "quilt")),
        ("I adopted a kitten last week – any tips on litter training?", ("has_pet", "kitten")),
    ],
)
def test_the_statement_s_facts(text: str, fact: tuple[str, str]) -> None:
    assert fact in rows(text)


@pytest.mark.parametrize(
    "text",
    [
        "I didn't finish the quilt - want to help?",  # negated
        "If I adopt a kitten - any tips?",  # hypothetical
        "Do you like quilts - or not really?",  # a question before the dash
    ],
)
def test_the_statement_s_own_refusals_stand(text: str) -> None:
    assert not any(p in ("finishes", "adopts", "has_pet", "likes") for p, _ in rows(text))
