"""Opposite predicates: a new ``dislikes X`` ends a current ``likes X`` and vice versa.

The two are different slots, so the resolver links them with *derived* ``end`` claims: every assert
in one slot becomes an end claim (ref ``derived:<ref>``, same time and evidence) in the opposite slot
when that slot exists. Derived ends only close a run that holds at their time (they never create a
fact), and they are re-derived whenever either slot is touched, so the order of arrival does not
matter.
"""

from __future__ import annotations

from dataclasses import replace

from graphmem.temporal.claims import Claim
from graphmem.temporal.normalize import slot_key

OPPOSITE: dict[str, str] = {"likes": "dislikes", "dislikes": "likes"}
DERIVED = "derived:"


def opposite_slot(subject_id: str, predicate: str, value: str, qualifier: str) -> str | None:
    other = OPPOSITE.get(predicate)
    return slot_key(subject_id, other, value, qualifier) if other else None


def derived_ends(claims: list[Claim]) -> list[Claim]:
    """End claims mirroring the asserts of the opposite slot."""
    return [
        replace(c, ref=DERIVED + c.ref, kind="end", until=None, replaces=None)
        for c in claims
        if c.kind == "assert" and not c.ref.startswith(DERIVED)
    ]


def is_derived(claim: Claim) -> bool:
    return claim.ref.startswith(DERIVED)
