"""Statement classes read by ``rules_en_readers``: family, goals, deeds under a factual head,
achievements, passives with an agent, inspiration, creations shown. Each class has paraphrases
written for these tests (several subjects, tenses and time phrases; none taken from a dataset)
and the forms that must give nothing: questions, negations, hypotheticals, hearsay, vague
subjects or objects."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.unit.en_chat_kit import REF, facts, rows


def _has(text: str, predicate: str) -> list[str]:
    return [value for p, value in rows(text) if p == predicate]


# --------------------------------------------------------------------------- family


@pytest.mark.parametrize(
    ("text", "relative"),
    [
        ("My daughter started kindergarten last week.", "daughter"),
        ("My husband and I drove up the coast.", "husband"),
        ("Our kids spent the afternoon at the lake.", "kids"),
        ("My older brother fixed the fence for us.", "older brother"),
        ("I baked a cake with my grandma on Sunday.", "grandma"),
        ("My mom called this morning about the recipe.", "mom"),
    ],
)
def test_a_relative_of_the_speaker_is_family(text: str, relative: str) -> None:
    assert relative in _has(text, "has")


def test_a_relative_of_the_listener_belongs_to_the_other_speaker() -> None:
    found = [(f.subject, f.predicate, f.literal) for f in facts("Glad to hear your son is feeling better.")]
    assert ("Sam", "has", "son") in found


@pytest.mark.parametrize(
    "text",
    [
        "Is your daughter still in college?",
        "If my sister were here she would laugh.",
        "I lost my dad two years ago.",
        "I really miss my grandpa.",
        "My future husband will love this place.",
        "She said her nephew plays the drums.",
        "I don't have my kids this weekend.",
    ],
)
def test_no_family_from_questions_losses_hypotheticals_or_hearsay(text: str) -> None:
    assert not [f for f in facts(text) if f.predicate == "has" and f.subject == "Dana"]


# --------------------------------------------------------------------------- goals


@pytest.mark.parametrize(
    ("text", "plan"),
    [
        ("My dream is to open a bakery by the sea.", "open bakery by sea"),
        ("My goal is to run a full marathon.", "run full marathon"),
        ("I've always dreamed of owning a horse ranch.", "own horse ranch"),
        ("I'm studying to be a pharmacist.", "become pharmacist"),
        ("We're training to become volunteer firefighters.", "become volunteer firefighters"),
    ],
)
def test_a_goal_is_an_inferred_plan(text: str, plan: str) -> None:
    plans = [f for f in facts(text) if f.predicate == "plans"]
    assert plan in [f.literal for f in plans]
    assert all(f.source_kind == "inferred" for f in plans)


@pytest.mark.parametrize(
    "text",
    [
        "My aim was to show how the light falls.",
        "Her dream is to open a shop.",
        "My dream isn't to open a shop.",
        "Is your goal to run a marathon?",
        "I dreamed of flying last night.",
    ],
)
def test_no_goal_in_the_past_of_another_or_negated(text: str) -> None:
    assert not _has(text, "plans")


# --------------------------------------------------------------------------- deeds under a head


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I had the chance to volunteer at a food bank.", ("volunteers_at", "food bank")),
        ("Last spring we got the opportunity to tour a vineyard.", ("tours", "vineyard")),
        ("I finally got to meet Ada Lovelace's biographer.", ("met", "Ada Lovelace's biographer")),
        ("We managed to finish the quilt before the holidays.", ("finishes", "quilt")),
        ("I got to visit Kyoto in April.", ("visited", "Kyoto")),
        ("I felt so proud giving my speech at the gala.", ("gives", "Dana's speech")),
    ],
)
def test_a_deed_under_a_factual_head_is_the_deed(text: str, fact: tuple[str, str]) -> None:
    assert fact in rows(text)


@pytest.mark.parametrize(
    "text",
    [
        "I never got the chance to volunteer at the food bank.",
        "I'd love the chance to tour a vineyard.",
        "If I get to meet her, I'll ask for an autograph.",
        "Did you get to visit Kyoto?",
        "I have the chance to tour a vineyard next year.",
        "I didn't feel proud giving my speech.",
    ],
)
def test_no_deed_when_it_did_not_happen(text: str) -> None:
    assert not [v for p, v in rows(text) if p in ("volunteers_at", "tours", "met", "visited", "gives")]


# --------------------------------------------------------------------------- achievements


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I got a promotion last month!", ("got", "promotion")),
        ("We won first place at the regional chili contest.", ("won", "first place")),
        ("We finally got our pilot licence.", ("got", "Dana's pilot licence")),
        ("I got promoted yesterday!", ("got", "promotion")),
        ("She got a scholarship, and I got a medal.", ("got", "medal")),
    ],
)
def test_an_achievement_is_got_earned_or_won(text: str, fact: tuple[str, str]) -> None:
    assert fact in rows(text)


def test_an_achievement_is_dated_by_its_time_phrase() -> None:
    got = [f for f in facts("I got a promotion yesterday.") if f.predicate == "got"]
    assert [f.valid_from.date() for f in got] == [(REF - timedelta(days=1)).date()]


@pytest.mark.parametrize(
    "text",
    [
        "I didn't get the promotion.",
        "I hope I get a promotion.",
        "If I win first place, we'll celebrate.",
        "Did you get the scholarship?",
        "He said he won an award.",
        "I got a place near the park.",
    ],
)
def test_no_achievement_when_not_asserted(text: str) -> None:
    assert not [v for p, v in rows(text) if p in ("got", "won", "earned")]


# --------------------------------------------------------------------------- passive with agent


def test_a_passive_with_its_agent_names_the_agent() -> None:
    assert ("was_mentored_by", "retired engineer") in rows("I got mentored by a retired engineer.")
    assert ("was_interviewed_by", "local paper") in rows("Last week I was interviewed by a local paper.")


def test_no_passive_agent_when_negated_or_asked() -> None:
    assert not rows("I wasn't interviewed by the paper.")
    assert not rows("Were you interviewed by the paper?")


# --------------------------------------------------------------------------- inspiration


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("That concert really inspired me.", ("is_inspired_by", "concert")),
        ("Maya Angelou's poems inspire us.", ("is_inspired_by", "Maya Angelou's poems")),
    ],
)
def test_what_moves_the_speaker_is_an_inspiration(text: str, fact: tuple[str, str]) -> None:
    assert fact in rows(text)


@pytest.mark.parametrize(
    "text",
    [
        "Your story inspired me.",
        "You inspire me every day.",
        "It inspired me.",
        "That concert didn't inspire me.",
        "Would that concert inspire me?",
    ],
)
def test_no_inspiration_from_the_listener_a_pronoun_or_a_negation(text: str) -> None:
    assert not [v for p, v in rows(text) if p.startswith("is_inspired")]


# --------------------------------------------------------------------------- creations shown


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I made this bowl in my pottery class.", ("makes", "bowl")),
        ("I painted this landscape last summer.", ("paints", "landscape")),
        ("We built that treehouse together.", ("builds", "treehouse")),
    ],
)
def test_a_creation_shown_is_the_thing_made(text: str, fact: tuple[str, str]) -> None:
    assert fact in rows(text)


@pytest.mark.parametrize(
    "text", ["I made this.", "I'll make this cake tomorrow.", "I didn't paint that mural."]
)
def test_no_creation_from_a_pronoun_a_future_or_a_negation(text: str) -> None:
    assert not [v for p, v in rows(text) if p in ("makes", "paints")]


# --------------------------------------------------------------------------- outings and tries


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("We had a great time in Lisbon last summer.", ("visited", "Lisbon")),
        ("We had a moving experience at a war memorial.", ("visited", "war memorial")),
        ("I took this photo at a lake called Silver Mere.", ("visited", "Silver Mere")),
        ("Yesterday I tried a spicy lentil soup.", ("tried", "spicy lentil soup")),
        ("Tried my hand at pottery for the first time!", ("tried", "pottery")),
        ("We had a lovely afternoon at the street carnival.", ("attended", "street carnival")),
        ("I had an awful experience on a hike.", ("goes_on", "hike")),
    ],
)
def test_an_outing_or_a_try_is_read(text: str, fact: tuple[str, str]) -> None:
    assert fact in rows(text)


@pytest.mark.parametrize(
    "text",
    [
        "We'll have a great time in Lisbon.",
        "Did you have a good time at the lake?",
        "I took this pic at the park.",
        "I didn't try the ramen recipe.",
        "I tried my best.",
        "We had a blast at the Harvest fest.",
        "I had a bad day at work.",
    ],
)
def test_no_outing_or_try_when_not_asserted_or_vague(text: str) -> None:
    assert not [v for p, v in rows(text) if p in ("visited", "tried")]


def test_a_relative_mourned_or_furred_or_a_vocative_name_is_no_family() -> None:
    """Regression: "my grandma passed away" gave has grandma, "my fur kids" has kids, and "pass it
    on to your kids, Sam" read the listener's name as the kids' name."""
    assert not _has("Last week, my grandma passed away.", "has")
    assert not _has("I took my fur kids to the groomer.", "has")
    found = [(f.subject, f.literal) for f in facts("That's a lesson to pass on to your kids, Sam.")]
    assert ("Sam", "kids") in found


# --------------------------------------------------------------------------- traits


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I'm lactose intolerant, so no cheese for me.", ("is", "lactose intolerant")),
        ("We're vegetarian these days.", ("is", "vegetarian")),
        ("I've been married for twelve years.", ("relationship_status", "married")),
        ("Honestly I'm pretty introverted.", ("is", "introverted")),
    ],
)
def test_a_trait_of_the_speaker_is_read(text: str, fact: tuple[str, str]) -> None:
    assert fact in rows(text)


@pytest.mark.parametrize(
    "text",
    ["I was vegan for years.", "I'm not vegetarian.", "Are you vegan?", "If I were single, I'd travel more."],
)
def test_no_trait_in_the_past_negated_asked_or_supposed(text: str) -> None:
    assert not [v for p, v in rows(text) if p in ("is", "relationship_status")]


def test_a_child_expected_is_no_relative_yet() -> None:
    """Regression: "pregnant with our second child" gave has child."""
    assert not _has("I'm pregnant with our second child.", "has")
