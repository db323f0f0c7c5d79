"""Fact resolution for one slot (DESIGN §1 rules 2-4) as a pure function.

A *slot* is the history of one (group, subject, functional predicate[, qualifier]) or, for a
multi-valued predicate, of one value. ``resolve_slot`` takes the slot's existing facts and new claims
and returns the facts the slot should hold: runs of the same value merge (the same fact again adds
evidence), a new value closes the previous interval and SUPERSEDES it, ``end`` claims close a fact
without a successor, ``correct`` claims expire the mistaken fact (system time) and put the right value
in its place. Inferred claims form a separate history, so they never supersede stated facts.
"""

from __future__ import annotations

import uuid
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from datetime import datetime

from graphmem.temporal.claims import Claim
from graphmem.temporal.opposites import is_derived

_MIN = datetime.min


@dataclass
class SlotFact:
    """A fact already in the graph, as the resolver sees it."""

    id: str
    value: str
    value_key: str
    tier: str
    claims: list[Claim]
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    expired_at: datetime | None = None
    object_id: str | None = None
    version: int = 1


@dataclass
class Run:
    value: str
    value_key: str
    tier: str
    object_id: str | None
    valid_from: datetime | None
    valid_to: datetime | None = None
    claims: list[Claim] = field(default_factory=list)
    previous: Run | None = None
    id: str = ""

    @property
    def open(self) -> bool:
        return self.valid_to is None


@dataclass
class SlotPlan:
    runs: list[Run]
    delete_ids: list[str]
    expire_ids: list[str]
    changed_ids: set[str]
    created_ids: set[str]
    supersedes: list[tuple[str, str, datetime | None]]  # (new id, old id, at)
    expired_runs: list[Run]


def _order(claim: Claim, early: AbstractSet[str] = frozenset()) -> tuple[bool, datetime, int, str, str]:
    """The order claims are applied in. Undated claims come first; claims made at the same instant
    are applied ``end`` before ``assert`` (an end at t closes what held up to t, so a value asserted
    at t starts after it), then by value and ref, so the outcome never depends on arrival order: of two
    values asserted at one instant, the later in this order holds and the earlier keeps an empty
    interval [t, t). An assert in ``early`` (``_held_up_to_its_end``) comes before the ends."""
    at = claim.at.replace(tzinfo=None) if claim.at else _MIN
    rank = -1 if claim.ref in early else {"end": 0, "assert": 1}.get(claim.kind, 1)
    return (claim.at is not None, at, rank, claim.value_key, claim.ref)


def _runs(claims: list[Claim], *, functional: bool) -> list[Run]:
    runs: list[Run] = []
    for tier in ("stated", "inferred"):
        runs.extend(_walk([c for c in claims if c.tier == tier], functional=functional))
    return runs


REPLACING = ("correct", "retract")


def _apply_corrections(claims: list[Claim], *, functional: bool) -> tuple[list[Claim], list[Run]]:
    """``correct`` and ``retract`` claims expire the run of the mistaken value (``replaces``) that
    held when they were made, in the claim's own tier (stated and inferred are separate histories,
    so a user's correction never expires an inferred fact in place of the stated one it names); a
    correction's value takes that run's place in time, or starts when it was said when that run's
    start is unknown (an undated start would leave two open values with no order between them).

    They are re-applied from all of the slot's claims on every resolution (they stay stored with
    their own kind), so the outcome does not depend on the order in which claims arrived.
    A ``guessed`` correction (its predicate was the extractor's guess) corrects only a slot where
    its mistake held.

    Returns (claims for the chain, expired runs)."""
    plain = [c for c in claims if c.kind not in REPLACING]
    expired: list[Run] = []
    for claim in sorted((c for c in claims if c.kind in REPLACING), key=_order):
        tier = [c for c in plain if c.tier == claim.tier]
        candidates = [r for r in _walk(tier, functional=functional) if _corrects(claim, r)]
        target = candidates[-1] if candidates else None
        start = target.valid_from if target is not None and target.valid_from is not None else claim.at
        if target is not None:
            refs = {c.ref for c in target.claims}
            plain = [c for c in plain if c.ref not in refs]
            target.previous = None
            expired.append(target)
        if claim.kind == "correct" and (target is not None or not claim.guessed):
            plain.append(claim.moved_to(start))
        elif target is not None:
            target.claims.append(claim)
        else:  # nothing to retract (yet), or a guessed slot where the mistake never held: keep
            # the claim on an empty, expired fact, so the mistake told later still meets it
            expired.append(Run(claim.value, claim.value_key, claim.tier, None, claim.at, claim.at, [claim]))
    return plain, expired


def _place_open_ends(claims: list[Claim], *, functional: bool) -> tuple[list[Claim], list[Run]]:
    """An ``end`` naming no value (``WHATEVER_HOLDS``: 我辞职了 in an episode that does not name the
    employer) ends the run of its tier that holds at its time, else the last one started by then
    (the claim stays with it); it takes that run's value for the chain (the stored claim keeps its
    own). With no run started by then it waits on an empty, expired fact: when an earlier value
    arrives, resolving again places it. Placed from all of the slot's claims on every resolution,
    so the outcome does not depend on the order in which the claims arrived."""
    plain = [c for c in claims if not c.ends_whatever_holds]
    waiting: list[Run] = []
    for claim in sorted((c for c in claims if c.ends_whatever_holds), key=_order):
        runs = _walk([c for c in plain if c.tier == claim.tier], functional=functional)
        started = [r for r in runs if r.valid_from is None or claim.at is None or r.valid_from <= claim.at]
        holding = [r for r in started if _holds(r, claim.at)]
        target = holding[-1] if holding else started[-1] if started else None
        if target is None:
            waiting.append(Run(claim.value, claim.value_key, claim.tier, None, claim.at, claim.at, [claim]))
            continue
        plain.append(
            replace(claim, value=target.value, value_key=target.value_key, object_id=target.object_id)
        )
    return plain, waiting


def _corrects(claim: Claim, run: Run) -> bool:
    """Whether ``claim`` declares ``run`` mistaken: the run of the named wrong value that had started
    by the claim's time, or, when no value is named ("correction: I live in X"), whatever other
    value held at that time."""
    started = run.valid_from is None or claim.at is None or run.valid_from <= claim.at
    if claim.replaces is not None:
        return run.value_key == claim.replaces and started
    return run.value_key != claim.value_key and started and _holds(run, claim.at)


def _holds(run: Run | None, at: datetime | None) -> bool:
    """Whether ``run`` still holds at ``at`` (it is open, or ends after ``at``)."""
    if run is None:
        return False
    return run.valid_to is None or (at is not None and run.valid_to > at)


def _walk(claims: list[Claim], *, functional: bool) -> list[Run]:
    """Turn one tier's claims into consecutive runs."""
    runs: list[Run] = []
    cur: Run | None = None
    early = _held_up_to_its_end(claims)
    claims = [replace(c, at=early[c.ref]) if c.ref in early else c for c in claims]
    for claim in sorted(claims, key=lambda c: _order(c, early.keys())):
        if claim.kind == "end":
            cur = _end(runs, cur, claim, functional=functional)
            continue
        if cur is not None and _holds(cur, claim.at) and cur.value_key == claim.value_key:
            cur.claims.append(claim)
            _apply_until(cur, claim)
            continue
        if cur is not None and _holds(cur, claim.at):
            cur.valid_to = claim.at
        start = None if claim.ref in early and not runs else claim.at  # held since before we know
        new = Run(claim.value, claim.value_key, claim.tier, claim.object_id, start, claims=[claim])
        if functional and cur is not None:  # the next value of the slot replaces the previous one,
            new.previous = cur  # also after a gap ("I quit Acme" ... "I joined Beta")
            if cur.value_key == claim.value_key and cur.valid_from == cur.valid_to:
                new.previous = cur.previous  # an empty end of this very value is no predecessor
        _apply_until(new, claim)
        runs.append(new)
        cur = new
    return runs


def _held_up_to_its_end(claims: list[Claim]) -> dict[str, datetime]:
    """The asserts that an end of the same value in the same episode follows, with that end's time:
    an episode that tells a value without a time and then its end (我在腾讯工作。上周我辞职了。)
    says the value held up to the end, so the assert is applied at the end's time, just before it,
    not after it. The end follows the assert at the same time, or later in the episode's text (an
    end told first, 去年离开了腾讯，现在又回腾讯了, is a value ended and taken up again)."""
    ends = [c for c in claims if c.kind == "end" and c.episode_id is not None and c.at is not None]
    out: dict[str, datetime] = {}
    for claim in claims:
        if claim.kind != "assert" or claim.at is None or claim.episode_id is None:
            continue
        times = [
            e.at
            for e in ends
            if e.at is not None
            and (e.value_key, e.episode_id) == (claim.value_key, claim.episode_id)
            and (
                e.at == claim.at
                or (
                    e.at < claim.at
                    and claim.start is not None
                    and e.start is not None
                    and claim.start < e.start
                )
            )
        ]
        if times:
            out[claim.ref] = max(times)
    return out


def _apply_until(run: Run, claim: Claim) -> None:
    """An explicit end (``until``) closes the run unless a claim already keeps it open longer."""
    if claim.until is None or (run.valid_from is not None and claim.until <= run.valid_from):
        return
    if len(run.claims) == 1 or (run.valid_to is not None and claim.until > run.valid_to):
        run.valid_to = claim.until


def _end(runs: list[Run], cur: Run | None, claim: Claim, *, functional: bool) -> Run | None:
    """Apply an ``end`` claim; return the run the slot's next value follows."""
    if cur is not None and _holds(cur, claim.at) and cur.value_key == claim.value_key:
        cur.valid_to = claim.at
        cur.claims.append(claim)
        return cur
    if is_derived(claim):  # a mirrored end only closes what holds; it never makes a fact
        return cur
    earlier = [r for r in runs if r.value_key == claim.value_key]
    if earlier:
        earlier[-1].claims.append(claim)
        return cur
    # A value that never held here: keep the claim on a fact that ends at the claim's time and
    # starts after whatever came before (an empty interval when another value holds then).
    start: datetime | None = None
    holding = cur is not None and _holds(cur, claim.at)
    if holding:
        start = claim.at
    elif runs and claim.at is not None:
        ends = [r.valid_to for r in runs if r.valid_to is not None]
        start = min(max(ends), claim.at) if ends else claim.at
    ended = Run(claim.value, claim.value_key, claim.tier, claim.object_id, start, claim.at, [claim])
    runs.append(ended)
    if holding or not functional:
        return cur
    # Nothing holds: the ended value is the last one known, so the slot's next value replaces it
    # ("I left Leeds and settled in Bristol", "I quit Initech" ... "I joined Globex").
    ended.previous = cur
    return ended


def _match(runs: list[Run], live: list[SlotFact]) -> list[str]:
    """Give each run the id of the existing fact sharing most claims with it; return unused ids."""
    unused = {f.id: f for f in live}
    for run in sorted(runs, key=lambda r: -len(r.claims)):
        refs = {c.ref for c in run.claims}
        best = max(
            (f for f in unused.values() if f.value_key == run.value_key and f.tier == run.tier),
            key=lambda f: (len(refs & {c.ref for c in f.claims}), f.id),
            default=None,
        )
        if best is not None and refs & {c.ref for c in best.claims}:
            run.id = best.id
            del unused[best.id]
        else:
            run.id = str(uuid.uuid4())
    return sorted(unused)


def _idle_guessed_ends(claims: list[Claim]) -> tuple[list[Claim], list[Run]]:
    """A ``guessed`` end (its predicate was the extractor's guess) ends its value only in a slot
    where that value is asserted in its tier; elsewhere it waits on an empty, expired fact, so the
    value asserted later (out of order) still meets it."""
    held = {(c.tier, c.value_key) for c in claims if c.kind != "end"}
    keep = [c for c in claims if not (c.kind == "end" and c.guessed and (c.tier, c.value_key) not in held)]
    idle = [
        Run(c.value, c.value_key, c.tier, None, c.at, c.at, [c])
        for c in claims
        if c.kind == "end" and c.guessed and (c.tier, c.value_key) not in held
    ]
    return keep, idle


def _idle_guessed_asserts(claims: list[Claim]) -> tuple[list[Claim], list[Run]]:
    """A ``guessed`` assert (a change whose slot the extractor could not tell: "I left Globex for
    Hooli" with one name read as a firm, the other as a town, offered to both slots) holds only in
    a slot where a value of its episode's guessed change is told by another, unguessed claim (the
    employer it left); elsewhere it waits on an empty, expired fact, so that value told later (out
    of order) still meets it. Read from the claims as they arrived (before corrections, whose
    guessed moves are asserts of their own)."""
    held = {(c.tier, c.value_key) for c in claims if not c.guessed}
    guessed = [c for c in claims if c.kind == "assert" and c.guessed]
    live_episodes = {c.episode_id for c in guessed if (c.tier, c.value_key) in held}
    idle = [c for c in guessed if c.episode_id not in live_episodes]
    refs = {c.ref for c in idle}
    runs = [Run(c.value, c.value_key, c.tier, None, c.at, c.at, [c]) for c in idle]
    return [c for c in claims if c.ref not in refs], runs


def resolve_slot(existing: list[SlotFact], new_claims: list[Claim], *, functional: bool) -> SlotPlan:
    """The slot's facts as a pure function of all its claims (existing facts' and new ones)."""
    known = {c.ref for f in existing for c in f.claims}
    fresh = {c.ref: c for c in new_claims if c.ref not in known}
    claims = [c for f in existing for c in f.claims] + list(fresh.values())
    originals = {c.ref: c for c in claims}
    claims, waiting = _idle_guessed_asserts(claims)
    chain_claims, expired_runs = _apply_corrections(claims, functional=functional)
    expired_runs += waiting
    chain_claims, idle = _idle_guessed_ends(chain_claims)
    expired_runs += idle
    chain_claims, unplaced = _place_open_ends(chain_claims, functional=functional)
    expired_runs += unplaced
    runs = _runs(chain_claims, functional=functional)
    for run in runs + expired_runs:  # stored claims keep their own kind and time
        run.claims = [originals.get(c.ref, c) for c in run.claims]
    unused = set(_match(runs, existing))
    _match(expired_runs, [f for f in existing if f.id in unused])
    by_id = {f.id: f for f in existing}
    used = {r.id for r in runs + expired_runs}
    created = {r.id for r in runs + expired_runs if r.id not in by_id}
    changed = {r.id for r in runs + expired_runs if r.id in by_id and _differs(r, by_id[r.id])}
    changed |= {r.id for r in runs if r.id in by_id and by_id[r.id].expired_at is not None}
    newly_expired = [r.id for r in expired_runs if r.id not in by_id or by_id[r.id].expired_at is None]
    supersedes = [(r.id, r.previous.id, r.valid_from) for r in runs if r.previous is not None]
    delete_ids = sorted(set(by_id) - used)
    return SlotPlan(runs, delete_ids, newly_expired, changed, created, supersedes, expired_runs)


def _differs(run: Run, fact: SlotFact) -> bool:
    return (
        run.valid_from != fact.valid_from
        or run.valid_to != fact.valid_to
        or {c.ref for c in run.claims} != {c.ref for c in fact.claims}
    )
