"""A value that opens with a vague quantity.

"watches a few movies", "reads bunch of fantasy books", "takes plenty of beach pics": the
quantity is no part of what the fact is about, so the value loses it ("watches movies"); after a
verb of finding or trying ("found a few parks", "tried so many unique wines", "picked up a few
new recipes") what was found names nothing in particular and the fact is refused; a vague number
of animals got ("we got a few fish") is a catch, no pet. A part ("a portion of my profits") is
kept, and so is a plan's wording.
"""

from __future__ import annotations

import pytest

from graphmem.providers.extractors.rules_en_gates import drop_quantity
from tests.unit.en_chat_kit import fact, rows


def _values(text: str) -> set[str]:
    return {v for _, v in rows(text)}


@pytest.mark.parametrize(
    ("sentence", "value"),
    [
        ("We watched a few documentaries about whales.", "documentaries about whales"),
        ("I read a bunch of mystery novels this summer.", "mystery novels"),
        ("I took plenty of photos at the wedding.", "photos at the wedding"),
        ("We watched a couple of documentaries about whales.", "documentaries about whales"),
    ],
)
def test_the_quantity_leaves_the_value(sentence: str, value: str) -> None:
    values = _values(sentence)
    assert value in values, values
    assert not any(v.split()[0] in ("few", "bunch", "plenty", "couple", "a") for v in values), values


@pytest.mark.parametrize(
    "sentence",
    [
        "I found a few cafes near the office.",
        "We tried so many unique cheeses at the market.",
        "I tried a bunch of new recipes from the book.",
        "I picked up a few new tricks.",
    ],
)
def test_some_of_many_found_or_tried_is_refused(sentence: str) -> None:
    assert rows(sentence) == [] or all(p in ("attended", "visited") for p, _ in rows(sentence)), rows(
        sentence
    )


def test_a_catch_is_no_pet_but_adopted_kittens_are() -> None:
    assert not any(p == "has_pet" for p, _ in rows("We went fishing and got a few fish."))
    assert ("has_pet", "kittens") in rows("I adopted a couple of kittens last month.")
    assert ("has_pet", "cats") in rows("I have a few cats.")


def test_a_part_and_a_plan_keep_their_words() -> None:
    part = fact("donates", "a portion of Dana's profits to charity")
    assert drop_quantity(part) == part
    plan = fact("plans", "bring a few snacks")
    assert drop_quantity(plan) == plan
    assert drop_quantity(fact("finds", "a few old notebooks")) is None
    assert drop_quantity(fact("watches", "a few movies")).literal == "movies"  # type: ignore[union-attr]
