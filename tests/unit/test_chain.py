"""Slot resolution (DESIGN §1 rules 2-4) as a pure function."""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem.temporal.chain import SlotFact, resolve_slot
from graphmem.temporal.claims import Claim

NOW = datetime(2025, 1, 1, tzinfo=UTC)


def t(month: int, year: int = 2024) -> datetime:
    return datetime(year, month, 1, tzinfo=UTC)


def claim(
    ref: str,
    value: str,
    at: datetime | None,
    kind: str = "assert",
    source: str = "user_stated",
    replaces: str | None = None,
    until: datetime | None = None,
) -> Claim:
    return Claim(
        ref=ref,
        kind=kind,
        value=value,
        value_key=value.lower(),
        at=at,
        source_kind=source,
        recorded_at=NOW,
        replaces=replaces,
        until=until,
    )


def facts_of(plan) -> list[tuple[str, datetime | None, datetime | None]]:  # type: ignore[no-untyped-def]
    return [(r.value, r.valid_from, r.valid_to) for r in plan.runs]


def test_new_value_closes_the_old_interval_and_supersedes() -> None:
    plan = resolve_slot([], [claim("a", "Hangzhou", t(3)), claim("b", "Shanghai", t(9))], functional=True)
    assert facts_of(plan) == [("Hangzhou", t(3), t(9)), ("Shanghai", t(9), None)]
    assert len(plan.supersedes) == 1 and plan.supersedes[0][2] == t(9)


def test_same_value_again_adds_evidence() -> None:
    plan = resolve_slot([], [claim("a", "Paris", t(1)), claim("b", "Paris", t(5))], functional=True)
    assert facts_of(plan) == [("Paris", t(1), None)]
    assert {c.ref for c in plan.runs[0].claims} == {"a", "b"}


def test_late_older_claim_is_slotted_into_history() -> None:
    first = resolve_slot([], [claim("b", "Shanghai", t(9))], functional=True)
    run = first.runs[0]
    existing = [
        SlotFact(run.id, run.value, run.value_key, run.tier, run.claims, run.valid_from, run.valid_to)
    ]
    plan = resolve_slot(existing, [claim("a", "Hangzhou", t(3))], functional=True)
    assert facts_of(plan) == [("Hangzhou", t(3), t(9)), ("Shanghai", t(9), None)]
    assert plan.runs[1].id == run.id  # the existing fact keeps its id


def test_end_claim_closes_without_successor() -> None:
    plan = resolve_slot([], [claim("a", "Acme", t(1)), claim("b", "Acme", t(6), kind="end")], functional=True)
    assert facts_of(plan) == [("Acme", t(1), t(6))]
    assert plan.supersedes == []


def test_inferred_never_supersedes_stated() -> None:
    plan = resolve_slot(
        [], [claim("a", "Paris", t(1)), claim("b", "Rome", t(6), source="inferred")], functional=True
    )
    current = [(r.value, r.tier) for r in plan.runs if r.valid_to is None]
    assert sorted(current) == [("Paris", "stated"), ("Rome", "inferred")]
    assert plan.supersedes == []


def test_correction_expires_the_wrong_fact_and_takes_its_place() -> None:
    plan = resolve_slot(
        [],
        [claim("a", "Hangzhou", t(3)), claim("b", "Suzhou", t(5), kind="correct", replaces="hangzhou")],
        functional=True,
    )
    assert facts_of(plan) == [("Suzhou", t(3), None)]
    assert [r.value for r in plan.expired_runs] == ["Hangzhou"]


def test_explicit_valid_to_is_kept() -> None:
    plan = resolve_slot([], [claim("a", "Acme", t(1), until=t(4))], functional=True)
    assert facts_of(plan) == [("Acme", t(1), t(4))]


def test_multi_valued_reassertion_after_end_is_a_new_fact() -> None:
    plan = resolve_slot(
        [],
        [claim("a", "jazz", t(1)), claim("b", "jazz", t(3), kind="end"), claim("c", "jazz", t(8))],
        functional=False,
    )
    assert facts_of(plan) == [("jazz", t(1), t(3)), ("jazz", t(8), None)]
    assert plan.supersedes == []


def test_correction_without_a_named_value_replaces_what_held() -> None:
    """Regression: "Correction: I live in Edinburgh." (no "not Y") used to act as a move."""
    plan = resolve_slot(
        [], [claim("a", "Glasgow", t(3)), claim("b", "Edinburgh", t(5), kind="correct")], functional=True
    )
    assert facts_of(plan) == [("Edinburgh", t(3), None)]
    assert [r.value for r in plan.expired_runs] == ["Glasgow"]


def test_explicit_end_and_later_value_do_not_overlap() -> None:
    """Regression: Paris [Jan, Dec) from an explicit valid_to and Rome from May used to overlap."""
    plan = resolve_slot(
        [], [claim("a", "Paris", t(1), until=t(12)), claim("b", "Rome", t(5))], functional=True
    )
    assert facts_of(plan) == [("Paris", t(1), t(5)), ("Rome", t(5), None)]
    assert len(plan.supersedes) == 1


def test_local_bm25_discounts_a_term_common_in_the_tenant() -> None:
    """Regression: Lucene's IDF spans all tenants, so a name frequent in one conversation ranked
    turns that only mention the name above the turn that answers."""
    from graphmem.retrieval.bm25 import rescore

    docs = {"a": "Wow Caroline, great!", "b": "I went to a support group yesterday", "c": "Caroline, hi"}
    ranked = rescore(["caroline", "support", "group"], docs, {"caroline": 90, "support": 2, "group": 3}, 100)
    assert ranked[0][0] == "b"
