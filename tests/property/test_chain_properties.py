"""Temporal invariants of slot resolution, for any claims in any order (hypothesis)."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

from hypothesis import example, given, settings
from hypothesis import strategies as st

from graphmem.temporal.chain import SlotFact, resolve_slot
from graphmem.temporal.claims import Claim
from tests.conftest import examples

BASE = datetime(2024, 1, 1, tzinfo=UTC)
NOW = datetime(2025, 1, 1, tzinfo=UTC)


@st.composite
def claim_sets(draw: st.DrawFn) -> list[Claim]:
    n = draw(st.integers(min_value=1, max_value=8))
    claims = []
    for i in range(n):
        value = draw(st.sampled_from(["Paris", "Rome", "Oslo"]))
        kind = draw(st.sampled_from(["assert", "assert", "assert", "end", "correct"]))
        day = draw(st.integers(min_value=0, max_value=60))
        tier = draw(st.sampled_from(["user_stated", "user_stated", "extracted", "inferred"]))
        until = draw(st.none() | st.integers(min_value=1, max_value=30)) if kind == "assert" else None
        wrong = draw(st.sampled_from(["paris", "rome", "oslo"])) if kind == "correct" else None
        at = BASE + timedelta(days=day)
        claims.append(
            Claim(
                ref=f"c{i}",
                kind=kind,
                value=value,
                value_key=value.lower(),
                at=at,
                source_kind=tier,
                recorded_at=NOW,
                replaces=wrong,
                until=at + timedelta(days=until) if until else None,
            )
        )
    return claims


def _facts(plan) -> list[SlotFact]:  # type: ignore[no-untyped-def]
    live = [
        SlotFact(r.id, r.value, r.value_key, r.tier, list(r.claims), r.valid_from, r.valid_to)
        for r in plan.runs
    ]
    return live + [
        SlotFact(r.id, r.value, r.value_key, r.tier, list(r.claims), r.valid_from, r.valid_to, expired_at=NOW)
        for r in plan.expired_runs
    ]


def _incremental(claims: list[Claim], functional: bool):  # type: ignore[no-untyped-def]
    facts: list[SlotFact] = []
    plan = None
    for c in claims:
        plan = resolve_slot(facts, [c], functional=functional)
        facts = _facts(plan)
    return plan


def _shape(plan) -> list[tuple]:  # type: ignore[no-untyped-def]
    by_id = {r.id: r for r in plan.runs}
    chains = {
        (by_id[n].value, by_id[n].valid_from, by_id[o].value, by_id[o].valid_from)
        for n, o, _ in plan.supersedes
    }
    runs = sorted(
        (r.tier, r.value, r.valid_from or BASE, r.valid_to or NOW, tuple(sorted(c.ref for c in r.claims)))
        for r in plan.runs
    )
    expired = sorted((r.value, tuple(sorted(c.ref for c in r.claims))) for r in plan.expired_runs)
    return [runs, sorted(chains, key=str), expired]


@settings(max_examples=examples(150), deadline=None)
@given(claims=claim_sets(), order=st.randoms(use_true_random=False), functional=st.booleans())
def test_any_ingestion_order_gives_the_same_history(claims, order, functional) -> None:  # type: ignore[no-untyped-def]
    shuffled = list(claims)
    order.shuffle(shuffled)
    if not functional:  # multi-valued slots hold one value each
        claims = [c for c in claims if c.value == "Paris"] or claims[:1]
        shuffled = [c for c in shuffled if c in claims]
    batch = resolve_slot([], claims, functional=functional)
    assert _shape(_incremental(shuffled, functional)) == _shape(batch)
    assert _shape(_incremental(list(reversed(claims)), functional)) == _shape(batch)


def _empty(run) -> bool:  # type: ignore[no-untyped-def]
    return run.valid_from is not None and run.valid_from == run.valid_to


def _claim(ref: str, kind: str, value: str, tier: str = "user_stated", replaces: str | None = None) -> Claim:
    return Claim(ref, kind, value, value.lower(), BASE, tier, NOW, replaces=replaces)


# Found by CI (defect 2 of the correctness issue): a stated correction expired the *inferred* run of
# the value it named, and a correction of a run with an unknown start was itself undated, so two
# undated values were both left open: Paris (open, no valid_from) overlapped Rome (no valid_from, to t).
SAME_INSTANT_CORRECTIONS = [
    _claim("c0", "end", "Paris", tier="inferred"),
    _claim("c1", "correct", "Paris", replaces="oslo"),
    _claim("c2", "correct", "Rome", replaces="paris"),
    _claim("c3", "assert", "Paris"),
    _claim("c4", "end", "Paris"),
    _claim("c5", "assert", "Paris"),
    _claim("c6", "end", "Oslo"),
]


@settings(max_examples=examples(150), deadline=None)
@given(claims=claim_sets())
@example(claims=SAME_INSTANT_CORRECTIONS)
def test_valid_intervals_of_a_functional_slot_never_overlap(claims) -> None:  # type: ignore[no-untyped-def]
    plan = resolve_slot([], claims, functional=True)
    for tier in ("stated", "inferred"):
        # an end claim about a value that never held is kept as an empty interval [t, t)
        runs = sorted(
            (r for r in plan.runs if r.tier == tier and not _empty(r)), key=lambda r: r.valid_from or BASE
        )
        for a, b in itertools.pairwise(runs):
            end = a.valid_to or NOW + timedelta(days=9999)
            assert end <= (b.valid_from or BASE), (a, b)


@settings(max_examples=examples(100), deadline=None)
@given(claims=claim_sets())
def test_every_claim_is_kept_by_exactly_one_fact(claims) -> None:  # type: ignore[no-untyped-def]
    plan = resolve_slot([], claims, functional=True)
    refs = [c.ref for r in plan.runs + plan.expired_runs for c in r.claims]
    assert sorted(refs) == sorted(c.ref for c in claims)


@settings(max_examples=examples(100), deadline=None)
@given(claims=claim_sets())
def test_inferred_never_supersedes_stated(claims) -> None:  # type: ignore[no-untyped-def]
    plan = resolve_slot([], claims, functional=True)
    tiers = {r.id: r.tier for r in plan.runs}
    for new, old, _ in plan.supersedes:
        assert tiers[new] == tiers[old]
