"""Facts *as known at* a system time: the slot history recomputed from the claims recorded by then.

Fact nodes hold today's view (a fact ended by a later episode has ``valid_to`` set in place).
Because a slot's history is a pure function of its claims and each claim keeps its
``recorded_at``, the belief at system time S is ``resolve_slot`` over the claims recorded at or
before S — exact bitemporal reads without storing versions.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime

from graphmem.models.fact import FactRecord
from graphmem.models.predicates import is_functional
from graphmem.temporal.chain import Run, resolve_slot
from graphmem.temporal.claims import Claim


def believed_at(
    facts: list[tuple[FactRecord, str, list[Claim]]], known_at: datetime
) -> list[tuple[FactRecord, Run]]:
    """For (fact, slot, claims) of every fact in some slots, the runs believed at ``known_at``,
    each paired with the stored fact that shares most claims with it (for display fields)."""
    by_slot: dict[str, list[tuple[FactRecord, list[Claim]]]] = defaultdict(list)
    for fact, slot, claims in facts:
        by_slot[slot].append((fact, claims))
    out: list[tuple[FactRecord, Run]] = []
    for members in by_slot.values():
        claims = [c for _, cs in members for c in cs if c.recorded_at <= known_at]
        if not claims:
            continue
        plan = resolve_slot([], claims, functional=is_functional(members[0][0].predicate))
        for run in plan.runs:
            refs = {c.ref for c in run.claims}
            best = max(members, key=lambda m: len(refs & {c.ref for c in m[1]}))
            out.append((best[0], run))
    return out


def holds(run: Run, *, as_of: datetime | None, include_history: bool) -> bool:
    if include_history:
        return True
    if as_of is None:
        return run.valid_to is None
    return (run.valid_from is None or run.valid_from <= as_of) and (
        run.valid_to is None or run.valid_to > as_of
    )


def as_record(fact: FactRecord, run: Run) -> FactRecord:
    return fact.model_copy(
        update={
            "value": run.value,
            "valid_from": run.valid_from,
            "valid_to": run.valid_to,
            "expired_at": None,
        }
    )
