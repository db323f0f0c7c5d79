"""Classes of open verb-object facts that state nothing (``rules_en_open``, the vague-value and
listener gates of ``rules_en_gates``), each with sentences written for these tests, beside what the
rule must still extract. Regression tests: each docstring names the class of junk fact it locks."""

from __future__ import annotations

import pytest

from graphmem.providers.extractors.rules_en_gates import vague_open_value, well_formed
from graphmem.providers.extractors.rules_en_readers_feelings import (
    EXPRESSION,
    FREEDOM,
    JOY,
    PEACE,
    STRENGTH,
    SUPPORT,
)
from tests.unit.en_chat_kit import SPEAKERS, fact, facts, rows


def _open(text: str) -> list[tuple[str, str]]:
    """(predicate, literal) of every fact of Dana's message, whoever its subject."""
    return [(f.predicate, f.literal) for f in facts(text) if f.predicate not in ("plans",)]


@pytest.mark.parametrize(
    "text",
    [
        "So nice you found such a welcoming choir.",
        "You really nailed the second verse.",
        "You did great organising the bake sale.",
        "Glad you picked up the courage to audition.",
        "Make sure you check the tide tables first.",
        "Impressive that you're learning Portuguese.",
    ],
)
def test_the_listeners_doings_told_to_them_are_no_facts(text: str) -> None:
    """Bug: "So cool you found such a helpful group" became "Sam finds helpful group": praise,
    advice or a restatement of the listener's own news is no fact about the listener."""
    assert [f for f in facts(text) if f.subject == "Sam"] == []


def test_a_canonical_fact_about_the_listener_stays() -> None:
    assert ("Sam", "lives_in", "Denver") in [
        (f.subject, f.predicate, f.literal) for f in facts("You moved to Denver.")
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Knitting helps me calm my nerves and sort my thoughts.",
        "Gardening lets me forget my worries.",
        "The choir has allowed me to find my voice.",
        "Let me forward you the brochure tonight.",
        "I want to get fitter and improve my stamina.",
        "I hope to open a bakery and hire my cousins.",
        "I'm trying to learn the banjo.",
        "Don't think I'm making any headway with the thesis.",
        "I keep a journal to track my moods, plan my week and count my blessings.",
        "I'll book the tickets and pack the tent.",
        "Speaking of big news, my partner and I adopted a kitten!",
    ],
)
def test_clauses_that_state_no_deed_give_no_open_fact(text: str) -> None:
    """Bug: "Painting helps me express my feelings" became "expresses feelings", "I want to get
    stronger and improve my endurance" became "improves endurance", "I'll make a list" became
    "makes list": an enabler's, a wish's, a purpose's, a negated head's or a future's clause is
    no deed of the speaker. What the enabler does for the speaker ("Knitting helps me calm my
    nerves": finds_peace_in knitting) is the feelings reader's fact, not a deed."""
    kept = ("plans", "has_pet", "owns", "values", "likes", "has")
    feelings = (PEACE, JOY, STRENGTH, SUPPORT, FREEDOM, EXPRESSION)
    assert [r for r in rows(text) if r[0] not in kept + feelings] == [], rows(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Wanted to let you know I joined a chess club.", ("joins", "chess club")),
        ("I wanted to tell you I finished the marathon.", ("finishes", "marathon")),
        ("I knit scarves for the shelter and sell them at the market.", ("knits", "scarves for the shelter")),
        ("We cooked paella and watched the fireworks.", ("watches", "fireworks")),
        ("I taught the kids a few card games.", ("teaches", "kids")),
        ("Grabbed a coffee this morning to wake my brain up.", ("grabs", "coffee")),
    ],
)
def test_deeds_told_or_coordinated_stay(text: str, expected: tuple[str, str]) -> None:
    got = rows(text)
    assert not any(p == "wakes_up" for p, _ in got), got  # the purpose clause is no deed
    if expected == ("teaches", "kids"):  # a recipient beside the thing: the bare thing says nothing
        assert not any(p == "teaches" and v == "few card games" for p, v in got), got
        return
    assert expected in got, got


@pytest.mark.parametrize(
    "text",
    [
        "Took the ferry to Skye to clear my head.",
        "Swimming gives me a boost every morning.",
        "Yeah Sam, patience is key for any gardener.",
    ],
)
def test_a_word_or_a_name_said_to_the_listener_is_no_subject(text: str) -> None:
    """Bug: "Took a short trip to Rome to clear my mind" became "Took clears Jon's mind", "Dance
    gives me an escape" became "Dance gives escape", "Yep Jon, staying focused is key" became "Jon
    is key for entrepreneur": a sentence-initial verb or common word read as a proper noun, and a
    vocative name, are no subjects."""
    assert [f for f in facts(text) if f.subject not in ("Dana",)] == [], facts(text)


@pytest.mark.parametrize(
    "value",
    [
        "project",
        "some new projects",
        "same challenges",
        "Dana's feelings",
        "Dana's own identity",
        "options",
        "awesome connections",
        "the future",
        "eachother",
    ],
)
def test_a_vague_value_of_an_open_fact_is_refused(value: str) -> None:
    """Bug: "works on project", "faces same challenges", "expresses Melanie's feelings",
    "explores options": a value that names no particular thing."""
    assert vague_open_value(value)
    assert not well_formed(fact("works_on", value), SPEAKERS)


@pytest.mark.parametrize(
    "value",
    ["pottery project", "a project for veterans", "Dana's garden shed", "new bike", "community work"],
)
def test_a_particular_value_stays(value: str) -> None:
    assert not vague_open_value(value)


@pytest.mark.parametrize(
    ("predicate", "value"),
    [
        ("misses", "Sam"),
        ("roots_for", "Sam"),
        ("crosses", "Dana's fingers for Sam"),
        ("hears_from", "Sam"),
        ("is_sorry_about", "Rex"),
        ("sends", "prayers"),
        ("puts", "Dana's heart into it"),
    ],
)
def test_courtesy_toward_the_listener_and_idioms_are_refused(predicate: str, value: str) -> None:
    """Bug: "Missed you!" became "misses Caroline", "I'm rooting for you" "roots for Jon", "I'm
    sorry about Max" "is sorry about Max", "Crossing my fingers for you": courtesy, no fact."""
    assert not well_formed(fact(predicate, value), SPEAKERS)


@pytest.mark.parametrize(
    ("predicate", "value"),
    [
        ("plans", "make this work"),
        ("plans", "try the noodles there"),
        ("plans", "have no big trips coming up"),
        ("plans", "make a difference"),
        ("plans", "create a place"),
        ("owns", "fam"),
        ("owns", "main focuses"),
        ("owns", "true calling"),
        ("owns", "good feedback on Dana's essays"),
        ("does", "good"),
        ("does", "OK"),
    ],
)
def test_a_value_the_family_does_not_take_is_refused(predicate: str, value: str) -> None:
    """Bug: "I'm gonna make this work" became "plans to make this work", "Here's a pic of my fam"
    "owns fam", "Those are my main focuses" "owns main focuses", "Doing good!" "does good"."""
    assert not well_formed(fact(predicate, value), SPEAKERS)


@pytest.mark.parametrize(
    ("predicate", "value"),
    [
        ("plans", "hike with some buddies this weekend"),
        ("plans", "join a new band after this next gig"),
        ("plans", "visit Lisbon"),
        ("owns", "vintage camera"),
        ("owns", "tent for the trip"),
        ("does", "aerial yoga"),
    ],
)
def test_a_value_the_family_takes_stays(predicate: str, value: str) -> None:
    assert well_formed(fact(predicate, value), SPEAKERS)
