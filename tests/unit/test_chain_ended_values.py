"""An end of a value the slot never held (``temporal.chain``): the ended value is the last one known,
so the slot's next value supersedes it."""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem.temporal.chain import resolve_slot
from graphmem.temporal.claims import Claim

NOW = datetime(2025, 1, 1, tzinfo=UTC)


def _claim(ref: str, value: str, month: int, kind: str = "assert") -> Claim:
    at = datetime(2024, month, 1, tzinfo=UTC)
    return Claim(ref, kind, value, value.lower(), at, "user_stated", NOW)


def _history(plan) -> list[str]:  # type: ignore[no-untyped-def]
    head = next(r for r in plan.runs if r.valid_to is None)
    values = []
    while head is not None:
        values.append(head.value)
        head = head.previous
    return values[::-1]


def test_a_value_left_in_the_same_breath_as_the_new_one_is_its_predecessor() -> None:
    """Regression: "I left Leeds and settled in Bristol" (Leeds never stated before) gave the
    history [Bristol]: the end made a closed Leeds fact that nothing superseded."""
    plan = resolve_slot([], [_claim("a", "Leeds", 6, "end"), _claim("b", "Bristol", 6)], functional=True)
    assert _history(plan) == ["Leeds", "Bristol"]
    leeds = next(r for r in plan.runs if r.value == "Leeds")
    assert leeds.valid_to == datetime(2024, 6, 1, tzinfo=UTC)


def test_a_later_value_after_an_end_supersedes_it_in_any_order() -> None:
    claims = [_claim("a", "Initech", 3, "end"), _claim("b", "Globex", 8)]
    for order in (claims, claims[::-1]):
        assert _history(resolve_slot([], order, functional=True)) == ["Initech", "Globex"]


def test_an_end_while_another_value_holds_leaves_the_chain_alone() -> None:
    claims = [_claim("a", "Denver", 1), _claim("b", "Boston", 4, "end"), _claim("c", "Austin", 8)]
    assert _history(resolve_slot([], claims, functional=True)) == ["Denver", "Austin"]


def test_an_end_of_a_multi_valued_value_supersedes_nothing() -> None:
    plan = resolve_slot([], [_claim("a", "jazz", 2, "end"), _claim("b", "rock", 5)], functional=False)
    assert plan.supersedes == []
