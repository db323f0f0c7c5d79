"""Classes of English values cut inside their noun phrase, each with near neighbours that keep
their value (regressions: "likes creating a safe", "attended amazing", "takes dog", "likes
action", "participates in 5 K charity", "visited poetry" were written before).

- a comma, "and" or hyphen among a noun's premodifiers ended the value ("a safe, inviting place",
  "an amazing and emotional ceremony", "dairy-free", "get-together");
- a verb form the model hung on the noun it heads ("a poetry reading", "a charity run") was cut;
- a bare noun the model read as a second object ("a dog grooming course") stood alone;
- a bare first conjunct that shares the head noun ("action and sci-fi movies") stood alone;
- a number and its unit tokenised apart ("5K") were spaced.
"""

from __future__ import annotations

import pytest

from graphmem.providers.extractors.en_parse import parse
from graphmem.providers.extractors.rules_en_gates import cut_inside_phrase
from tests.unit.en_chat_kit import rows


def _values(text: str) -> set[str]:
    return {v for _, v in rows(text)}


@pytest.mark.parametrize(
    ("sentence", "value"),
    [
        ("I'm passionate about building a warm, welcoming space for teens.", "warm, welcoming space"),
        ("We had a lovely and moving naming ceremony last week.", "lovely and moving naming ceremony"),
        ("I'm trying out gluten-free breads lately.", "gluten-free breads"),
        ("We hosted a small get-together with the neighbours.", "small get-together"),
    ],
)
def test_premodifiers_stay_in_the_value(sentence: str, value: str) -> None:
    assert any(value in v for v in _values(sentence)), _values(sentence)


@pytest.mark.parametrize(
    ("sentence", "value"),
    [
        ("I took a cake decorating course.", "cake decorating course"),
        ("I ran in a 10K charity race for the hospital.", "10K charity race"),
        ("I love jazz and blues records.", "jazz and blues records"),
    ],
)
def test_the_noun_the_model_split_is_one_value(sentence: str, value: str) -> None:
    assert any(v.startswith(value) for v in _values(sentence)), _values(sentence)


@pytest.mark.parametrize(
    ("sentence", "value"),
    [
        ("I love hiking, baking and knitting.", "hiking"),
        ("I love tea and biscuits.", "tea"),
        ("I adopted a cat named Miso.", "cat named Miso"),
    ],
)
def test_separate_conjuncts_and_named_things_stay_as_they_were(sentence: str, value: str) -> None:
    assert value in _values(sentence)


@pytest.mark.parametrize(
    ("value", "sentence", "cut"),
    [
        ("building a warm", "I'm passionate about building a warm, welcoming space.", True),
        ("lovely", "We had a lovely and moving ceremony.", True),
        ("jazz", "I love jazz and blues records.", True),
        ("welcoming space", "I'm passionate about building a warm, welcoming space.", False),
        ("tea", "I love tea and biscuits.", False),
    ],
)
def test_a_value_ending_on_a_modifier_is_cut(value: str, sentence: str, cut: bool) -> None:
    assert cut_inside_phrase(value, parse(sentence)) is cut


def test_a_value_ending_on_the_modifier_of_a_cut_noun_is_none() -> None:
    assert not [
        v for _, v in rows('I\'ve been taking regular "me-time" walks at the lake.') if v == "regular"
    ]
