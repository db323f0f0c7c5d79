"""Seventh session, facts fix: a contracted "is" the small model reads as a possessive ("Music's
so special to me" parsed as "Music's ...": no verb, no reader fired), and a plan's wish-duration
tail ("plans to open a bakery for a while now"). Invented sentences; near misses give nothing."""

from __future__ import annotations

import pytest

from graphmem.providers.extractors.en_parse import parse
from graphmem.providers.extractors.rules_en_chat import contracted_is
from graphmem.providers.extractors.rules_en_gates import drop_time_tail
from tests.unit.en_chat_kit import SPEAKERS, fact, rows


@pytest.mark.parametrize(
    ("sentence", "row"),
    [
        ("Music's so special to me.", ("values", "music")),
        ("Honesty's super important to me.", ("values", "honesty")),
        ("Sailing's awesome for clearing my head.", ("likes", "sailing")),
        ("Knitting's my escape.", ("likes", "knitting")),
        ("Gardening's always been my haven.", ("likes", "gardening")),
    ],
)
def test_a_contracted_is_after_a_noun_is_read(sentence: str, row: tuple[str, str]) -> None:
    got = [(p, v.lower()) for p, v in rows(sentence)]
    assert row in got, got


@pytest.mark.parametrize(
    "sentence",
    [
        "Sam's amazing cake was a hit.",
        "The lake's water is cold.",
        "Dana's been my friend for years.",
        "Music's so special to him.",
        "Is music's magic special?",
    ],
)
def test_a_possessive_stays_a_possessive(sentence: str) -> None:
    assert not [v for p, v in rows(sentence) if p in ("values", "likes")], rows(sentence)


def test_contracted_is_reads_again_only_when_needed() -> None:
    assert contracted_is(parse("Music is so special to me."), SPEAKERS) is None
    assert contracted_is(parse("Sam's bike is red."), SPEAKERS) is None
    fixed = contracted_is(parse("Honesty's super important to me."), SPEAKERS)
    assert fixed is not None and fixed.text == "Honesty is super important to me."


@pytest.mark.parametrize(
    ("value", "cut"),
    [
        ("open a bakery for a while now", "open a bakery"),
        ("learn the cello for ages", "learn the cello"),
        ("get a dog too", "get a dog"),
        ("run for office", "run for office"),
        ("visit Rome next month", "visit Rome next month"),
    ],
)
def test_a_plan_loses_how_long_it_was_wished(value: str, cut: str) -> None:
    assert drop_time_tail(fact("plans", value)).literal == cut


def test_a_word_alone_elsewhere_is_no_torn_word() -> None:
    got = rows("I'm considering getting a cat too, but finding a cat-friendly flat is hard.")
    assert ("plans", "get cat") in got, got
    assert not [v for p, v in rows("I went out to de-stress.") if v.endswith(" de")]


@pytest.mark.parametrize(
    ("sentence", "value"),
    [
        ("I've been into birdwatching since I was a kid.", "birdwatching"),
        ("I'm mostly into classical music.", "classical music"),
        ("I've always been into marine biology.", "marine biology"),
    ],
)
def test_a_liking_with_an_adverb_or_a_perfect(sentence: str, value: str) -> None:
    assert ("likes", value) in rows(sentence), rows(sentence)


@pytest.mark.parametrize(
    "sentence", ["I was into skating as a teen.", "I've been into that show lately.", "Are you into jazz?"]
)
def test_a_past_or_pointed_liking_is_none(sentence: str) -> None:
    assert not [v for p, v in rows(sentence) if p == "likes"], rows(sentence)


def test_a_perfect_passion_keeps_the_parse_reading() -> None:
    got = rows("I've always been passionate about veterans and their rights.")
    assert ("likes", "veterans") not in got, got
