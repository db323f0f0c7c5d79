"""Activities (``does``) that say nothing, or say a plan.

"I've been practicing hard", "Been practicing for my tournament": practice says what only with
what it is of or for (the open rule reads "practices_for"); a present progressive with a time
ahead ("I'm hiking with some buddies this weekend", "We're camping next month") is a plan, not an
activity now. A hobby said in the (perfect) progressive stays ("I've been knitting a lot",
"I'm running a lot these days"), and so does "practicing yoga" (what is practised is named).
A light verb with an idiom noun in "-es" ("made a few wishes") is no fact either.
"""

from __future__ import annotations

import pytest

from graphmem.providers.extractors.rules_en_gates import light_idiom
from tests.unit.en_chat_kit import rows


@pytest.mark.parametrize(
    "sentence",
    [
        "I've been practicing hard lately.",
        "Been practicing a lot for the recital.",
        "I'm hiking with my cousins this weekend.",
        "We're camping next month at the lake.",
        "I'm swimming tomorrow with my team.",
    ],
)
def test_no_activity(sentence: str) -> None:
    assert not any(p == "does" for p, _ in rows(sentence)), rows(sentence)


def test_the_plan_and_the_purpose_still_read() -> None:
    assert any(p == "plans" for p, _ in rows("I'm hiking with my cousins this weekend.")), rows(
        "I'm hiking with my cousins this weekend."
    )
    assert any(p == "practices_for" for p, _ in rows("I've been practicing for my piano recital."))


@pytest.mark.parametrize(
    ("sentence", "value"),
    [
        ("I've been knitting a lot.", "knitting"),
        ("I'm running a lot these days.", "running"),
        ("I've been swimming a lot lately.", "swimming"),
    ],
)
def test_a_hobby_in_the_progressive_stays(sentence: str, value: str) -> None:
    assert ("does", value) in rows(sentence), rows(sentence)


def test_practicing_something_named_stays() -> None:
    assert any(v == "yoga" for _, v in rows("I've been practicing yoga every morning."))


def test_an_idiom_noun_in_es() -> None:
    assert light_idiom("makes", "a few wishes") and light_idiom("makes", "wishes on Dana's birthday")
    assert not light_idiom("makes", "dishes")
    assert rows("I made a few wishes on my birthday.") == []
