"""Classes of English clauses and values that state no fact, each with near neighbours that keep
their fact (regressions: "relies for strength", "likes watching", "looks off court", "steps into
books", "values colors", "does running" for a campaign, "works as writer" from "I'm no writer",
"values moments like these", "searches for perfect dance studio's a tough job" were written).

- an object pronoun dropped, so a later phrase became the object ("rely on them for strength");
- a verb whose object or complement clause was cut ("watching them play" → "watching");
- a phrase fronted before the verb taken as its object ("Off the court, I'm looking into X");
- a clause likened under "feel like / seem like" ("It feels like I'm stepping into the book");
- "the" and a bare noun as a valued thing ("The colors make me feel calm") and a cause taken as a
  good ("X made me want to / decide to ...");
- a hobby verb in another sense ("running for office", "running around");
- values that point back ("moments like these"), end on a function word, hold a contracted "is",
  or are denied by "no".
"""

from __future__ import annotations

import pytest

from graphmem.providers.extractors.rules_en_gates import (
    clause_inside,
    dangling_end,
    points_back,
    said_with_no,
)
from tests.unit.en_chat_kit import rows


@pytest.mark.parametrize(
    ("sentence", "bad"),
    [
        ("My parents are great - I lean on them for advice.", "advice"),
        ("I adore watching them dance at recitals.", "watching"),
        ("I drafted a plan for getting it published.", "plan for getting"),
        ("Off the field, I'm also looking into coaching clinics.", "field"),
        ("It feels like I'm walking into a fairy tale!", "fairy tale"),
        ("The shapes make me feel calm.", "shapes"),
        ("Hearing her story made me want to volunteer more.", "Hearing her story"),
    ],
)
def test_a_clause_that_states_no_fact_gives_none(sentence: str, bad: str) -> None:
    assert not [v for _, v in rows(sentence) if bad.casefold() in v.casefold()]


@pytest.mark.parametrize(
    ("sentence", "fact"),
    [
        ("I lean on my sister for advice.", "sister"),
        ("I adore watching old westerns.", "watching old westerns"),
        ("Off the field, I'm also looking into coaching clinics.", "coaching clinics"),
        ("I'm walking into a new chapter of my career.", "new chapter"),
        ("The ocean sunsets make me feel calm.", "ocean sunsets"),
        ("Gardening makes me so happy.", "gardening"),
    ],
)
def test_the_near_neighbours_keep_their_fact(sentence: str, fact: str) -> None:
    assert any(fact.casefold() in v.casefold() for _, v in rows(sentence)), rows(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "I'm running for city council again.",
        "Always running around with the kids these days.",
    ],
)
def test_a_hobby_verb_in_another_sense_is_no_activity(sentence: str) -> None:
    assert ("does", "running") not in rows(sentence)


@pytest.mark.parametrize(
    "sentence",
    ["I've been running a lot lately.", "I've been running for weeks now."],
)
def test_a_hobby_said_plainly_is_an_activity(sentence: str) -> None:
    assert ("does", "running") in rows(sentence)


def test_a_job_denied_by_no_is_no_job() -> None:
    assert not [
        v for p, v in rows("Honestly, I'm no baker, but the bread came out fine.") if p == "job_title"
    ]


@pytest.mark.parametrize(
    ("value", "points"),
    [
        ("moments like these", True),
        ("sound of that place", True),
        ("some of these little ones around", True),
        ("those moments", True),
        ("this cute pup from a shelter", False),
        ("that stuffed toy rabbit", False),
        ("hike this weekend", False),
    ],
)
def test_a_demonstrative_pointing_into_the_talk(value: str, points: bool) -> None:
    assert points_back(value) is points


def test_cut_values_and_clauses_inside_values() -> None:
    assert dangling_end("moments like") and dangling_end("plan for") and not dangling_end("tea")
    assert clause_inside("perfect studio's a tough job") and not clause_inside("Dana's brand")
    assert said_with_no("writer", "I'm no writer like you")
    assert not said_with_no("writer", "I'm a writer")
    assert not said_with_no("Paris", "No, I moved to Paris")
