"""Ninth-session precision gates of the English rules extractor (``rules_en_gates``): vague outcome
nouns, meetings with nobody named, generic places, standings with no field, places that only say
where people come from, one indefinite generic noun, passing wants; each class over several
phrasings, with the near phrasings that must keep their fact."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.providers.extractors.rules import RulesExtractor
from graphmem.providers.extractors.rules_en_gates import (
    bare_standing,
    generic_place,
    indefinite_generic,
    named_by_origin,
    passing_want,
    unnamed_people,
    vague_outcome,
)

REF = datetime(2024, 6, 12, 15, 30, tzinfo=UTC)
EXTRACTOR = RulesExtractor()


def values(text: str) -> set[tuple[str, str]]:
    facts = EXTRACTOR.extract(content=text, speaker="Alice", reference_time=REF, other_speaker="Bob").facts
    return {(f.predicate, f.literal) for f in facts}


@pytest.mark.parametrize(
    ("predicate", "value", "vague"),
    [
        ("got", "good advice", True),
        ("got", "possible leads", True),
        ("had", "setback", True),
        ("had", "unexpected adventure", True),
        ("got", "win", True),
        ("received", "many compliments", True),
        ("got", "great feedback from the editor", False),  # the tail says which
        ("had", "setback at work", False),
        ("got", "promotion at work", False),
        ("had", "accident at the park", False),
        ("got", "new puppy", False),
        ("plays", "win", False),  # not a verb of getting
    ],
)
def test_vague_outcome(predicate: str, value: str, vague: bool) -> None:
    assert vague_outcome(predicate, value) is vague


@pytest.mark.parametrize(
    "text",
    [
        "I met some investors and got some good advice.",
        "I got some possible leads, so that was awesome.",
        "Recently I had a setback.",
        "I had an unexpected adventure last week.",
        "We fought hard and got the win!",
    ],
)
def test_vague_outcomes_give_no_fact(text: str) -> None:
    assert not {(p, v) for p, v in values(text) if p in ("got", "had", "met")}


@pytest.mark.parametrize(
    ("value", "unnamed"),
    [
        ("investors", True),
        ("new people", True),
        ("kids", True),
        ("other dog owners", True),
        ("guy at the conference", False),  # where says which
        ("amazing woman", True),
        ("a guy", True),
        ("Sarah", False),
        ("Dana's mentor", False),
        ("Jean at the shelter", False),
    ],
)
def test_unnamed_people(value: str, unnamed: bool) -> None:
    assert unnamed_people("met", value) is unnamed
    assert unnamed_people("knows", value) is False


@pytest.mark.parametrize(
    ("predicate", "value", "generic"),
    [
        ("lives_in", "city", True),
        ("lives_in", "small town", True),
        ("tried", "new spot in town", True),
        ("visited", "cool place", True),
        ("lives_in", "Boston", False),
        ("visited", "Woodhaven", False),
        ("tried", "new sushi spot", False),
        ("visited", "spot in Kyoto", False),
        ("likes", "city", False),
    ],
)
def test_generic_place(predicate: str, value: str, generic: bool) -> None:
    assert generic_place(predicate, value) is generic


def test_a_place_in_a_named_place_is_the_named_place() -> None:
    assert ("visited", "London") in values("I went to a place in London a few years ago.")
    assert ("visited", "Kyoto") in values("I went to a lovely spot in Kyoto last spring.")
    assert not {p for p, _ in values("Living in the city, I miss nature a lot.")} & {"lives_in"}
    assert not {p for p, _ in values("I live in a small town.")} & {"lives_in"}
    assert ("lives_in", "Boston") in values("I live in Boston.")


@pytest.mark.parametrize(
    ("value", "bare"),
    [
        ("a newbie", True),
        ("still a beginner", True),
        ("a total pro", True),
        ("a huge fan", True),
        ("an expert hiker", False),
        ("a total movie fan", False),
        ("lactose intolerant", False),
    ],
)
def test_bare_standing(value: str, bare: bool) -> None:
    assert bare_standing("is", value) is bare


@pytest.mark.parametrize(
    ("quote", "origin"),
    [
        ("Yesterday, I took up some community work with my friends from church.", True),
        ("Last weekend I had a picnic with some friends from church.", True),
        ("I went hiking with some guys from the gym.", True),
        ("I had lunch with people from work.", True),
        ("I just got back from church.", False),
        ("I went to church with my friends from church.", False),
        ("I went to the gym.", False),
    ],
)
def test_named_by_origin(quote: str, origin: bool) -> None:
    place = "gym" if "gym" in quote else "work" if "work." in quote else "church"
    assert named_by_origin("attended", place, quote) is origin


def test_friends_from_a_place_are_no_event_there() -> None:
    assert ("attended", "church") not in values(
        "Yesterday, I did some community work with my friends from church."
    )
    assert ("attended", "church") in values("I just got back from church.")


@pytest.mark.parametrize(
    ("predicate", "value", "quote", "indefinite"),
    [
        ("picks_up", "book", "I finally picked up a book and it's been awesome!", True),
        ("goes_on", "tour", "I also went on a tour which was amazing.", True),
        ("plays", "top team", "We played a top team and it was tough.", True),
        ("sees", "movie", "I recently saw a movie that blew my mind.", True),
        ("reads", "fantasy novel", "I'm reading a fantasy novel.", False),
        ("reads", "book", "I'm reading the book you gave me.", False),  # not said with "a"
        ("was_drafted_by", "team", "I was drafted by a team.", False),  # a passive says the deed
    ],
)
def test_indefinite_generic(predicate: str, value: str, quote: str, indefinite: bool) -> None:
    assert indefinite_generic(predicate, value, quote) is indefinite


@pytest.mark.parametrize(
    ("predicate", "passing"),
    [("craves", True), ("dies_for", True), ("is_dying_for", True), ("cooks", False), ("dives_into", False)],
)
def test_passing_want(predicate: str, passing: bool) -> None:
    assert passing_want(predicate) is passing


@pytest.mark.parametrize("text", ["Now I'm craving pastries!", "I'm dying for some pizza right now."])
def test_a_craving_is_no_fact(text: str) -> None:
    assert values(text) == set()


def test_a_fair_share_of_something_is_the_something() -> None:
    assert ("does", "research") in values("I've been doing my fair share of research for it.")


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I used to love skating.", ("likes", "skating")),
        ("I used to live in Boston.", ("lives_in", "Boston")),
    ],
)
def test_used_to_ends_the_fact(text: str, fact: tuple[str, str]) -> None:
    facts = EXTRACTOR.extract(content=text, speaker="Alice", reference_time=REF).facts
    assert [(f.predicate, f.literal, f.claim) for f in facts if f.predicate == fact[0]] == [(*fact, "end")]


@pytest.mark.parametrize(
    "text",
    [
        "I'm planning to visit Rome next month.",
        "I want to adopt a dog.",
        "I'm going to paint a mural next week.",
    ],
)
def test_a_plan_is_inferred_not_a_deed(text: str) -> None:
    facts = EXTRACTOR.extract(content=text, speaker="Alice", reference_time=REF).facts
    assert facts and all(f.predicate == "plans" and f.source_kind == "inferred" for f in facts)
