"""Feelings whose thing is not the subject's own words (``rules_en_readers_feelings``): an "it" that
stands for the one thing of the sentence before in the same message, an "it" that stands for an
extraposed infinitive, and a good brought to nobody else. Phrasings written for these tests;
none taken from a dataset. Refused: several things or none before, a person before, a clause
that says what "it" is, a pronoun or pointer in the infinitive, and a good brought to others."""

from __future__ import annotations

import pytest

from tests.unit.en_chat_kit import rows


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I've been doing tai chi a lot. It really helps me unwind.", ("finds_peace_in", "tai chi")),
        ("I love gardening. It's so relaxing.", ("finds_peace_in", "gardening")),
        ("I love knitting and sewing. It's so calming.", ("finds_peace_in", "sewing")),
        (
            "I've been swimming every morning. It's a great way to clear my head.",
            ("finds_peace_in", "swimming"),
        ),
        ("Woodworking has changed my life. It's so therapeutic.", ("finds_peace_in", "woodworking")),
        (
            "I enjoy journaling at night. It's a great way to express myself.",
            ("expresses_self_through", "journaling"),
        ),
        (
            "I started volunteering at the library. It's so rewarding.",
            ("finds_joy_in", "volunteering at the library"),
        ),
    ],
)
def test_it_points_back_to_the_one_thing_before(text: str, fact: tuple[str, str]) -> None:
    assert fact in rows(text)


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("It's so rewarding to coach kids at my gym.", ("finds_joy_in", "coaching kids at Dana's gym")),
        ("It's really fulfilling to teach adults to read.", None),  # a clause inside: no fact
        ("It is so freeing to paint outdoors.", ("finds_freedom_in", "painting outdoors")),
    ],
)
def test_it_stands_for_an_extraposed_infinitive(text: str, fact: tuple[str, str] | None) -> None:
    got = [r for r in rows(text) if r[0].startswith(("finds_", "draws_", "feels_", "expresses_"))]
    assert (fact in got) if fact else got == []


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("Gardening brings so much joy.", ("finds_joy_in", "gardening")),
        ("Birdwatching brings such peace.", ("finds_peace_in", "birdwatching")),
        ("My cats bring joy to my life every day.", ("finds_joy_in", "Dana's cats")),
    ],
)
def test_a_good_brought_to_nobody_else_is_the_speakers(text: str, fact: tuple[str, str]) -> None:
    assert fact in rows(text)


_KINDS = ("finds_", "draws_strength", "feels_supported", "expresses_self")


@pytest.mark.parametrize(
    "text",
    [
        "It's so relaxing.",  # nothing before
        "I love hiking and I enjoy baking. It's so relaxing.",  # two things before: no guess
        "My sister loves tennis. It's so rewarding.",  # a person's liking, not the speaker's
        "I love painting. It's so calming when the kids are asleep.",  # a clause says what "it" is
        "It's so rewarding to see them grow.",  # a pronoun in the infinitive
        "Kindness brings joy to others.",  # brought to others
        "Dogs bring the kids joy.",  # brought to the kids
        "Pets bring so much joy to your life!",  # the listener's life
        "Does painting bring you joy?",  # a question
    ],
)
def test_no_feeling_without_a_clear_thing(text: str) -> None:
    got = [r for r in rows(text) if r[0].startswith(_KINDS)]
    assert got == []
