"""A deed under "might"/"may" is a possible plan (``plans``, inferred), never the state it would
bring about: "I might adopt a kitten" is no pet, "I might move to Paris" no home. Hedged states
stay hedged states, and a deed told plainly keeps its state."""

from __future__ import annotations

import pytest

from tests.unit.en_chat_kit import facts


def _rows(text: str) -> list[tuple[str, str, str]]:
    return [(f.predicate, f.literal, f.source_kind) for f in facts(text) if f.subject == "Dana"]


@pytest.mark.parametrize(
    ("text", "plan"),
    [
        ("I might adopt a kitten.", "adopt a kitten"),
        ("I may adopt a rescue dog in the spring.", "adopt a rescue dog in the spring"),
        ("I might move to Paris.", "move to Paris"),
        ("I may buy a car next year.", "buy a car next year"),
        ("I might start a new job at Acme.", "start a new job at Acme"),
    ],
)
def test_a_hedged_deed_is_an_inferred_plan(text: str, plan: str) -> None:
    rows = _rows(text)
    assert rows == [("plans", plan, "inferred")]


@pytest.mark.parametrize(
    "text", ["I might adopt a kitten.", "I may move to Lisbon soon.", "I might buy a boat."]
)
def test_a_hedged_deed_states_nothing_now(text: str) -> None:
    assert not {p for p, _, _ in _rows(text)} & {"has_pet", "lives_in", "owns", "works_at"}


@pytest.mark.parametrize(
    ("text", "row"),
    [
        ("I adopted a kitten.", ("has_pet", "kitten", "user_stated")),
        ("I might be allergic to cats.", ("is_allergic_to", "cats", "inferred")),
    ],
)
def test_plain_deeds_and_hedged_states_keep_their_reading(text: str, row: tuple[str, str, str]) -> None:
    assert row in _rows(text)


@pytest.mark.parametrize("text", ["I might love it.", "I may have a cold.", "I might know him."])
def test_hedged_feelings_and_states_are_no_plans(text: str) -> None:
    assert "plans" not in {p for p, _, _ in _rows(text)}
