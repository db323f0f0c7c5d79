"""Correct, end or retract one fact, with optimistic concurrency on its ``version``.

- correct (new value/object): a ``correct`` claim: the old fact is expired (system time) and the
  new value takes its place in valid time;
- end (``end=True`` or only ``valid_to``): an ``end`` claim closes the fact in the world;
- retract: a ``retract`` claim expires the fact (we learned it was never true); the slot is
  re-resolved, so a fact it had superseded holds again.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from graphmem.errors import Conflict, InvalidInput, NotFound
from graphmem.memory import changes, pii
from graphmem.memory.context import MemoryContext
from graphmem.memory.entities import resolve_entities
from graphmem.memory.facts import SlotInfo, resolve_and_write
from graphmem.models.fact import FactChange, FactRecord
from graphmem.models.predicates import lookup
from graphmem.store import reads, writes
from graphmem.store.driver import Tx
from graphmem.temporal.claims import Claim
from graphmem.temporal.normalize import normalize_name, value_key
from graphmem.text import clean_name, clean_text


async def _locked_fact(
    tx: Tx, ctx: MemoryContext, group_id: str, fact_id: str, expected_version: int | None
) -> dict[str, Any]:
    await writes.lock_group(tx, group_id=group_id, now=ctx.clock())
    row = await writes.fact_for_update(tx, group_id=group_id, fact_id=fact_id)
    if row is None:
        raise NotFound("fact not found", details={"fact_id": fact_id})
    if expected_version is not None and int(row["version"]) != expected_version:
        raise Conflict(
            "the fact changed since you read it",
            details={"fact_id": fact_id, "expected_version": expected_version, "version": row["version"]},
        )
    if row["expired_at"] is not None:
        raise Conflict("the fact was already corrected or retracted", details={"fact_id": fact_id})
    return row


def _slot(row: dict[str, Any], claim: Claim | None) -> dict[str, SlotInfo]:
    info = SlotInfo(row["subject_id"], row["subject"], row["predicate"], row["qualifier"], row["importance"])
    if claim is not None:
        info.claims.append(claim)
    return {row["slot"]: info}


async def _new_value(
    tx: Tx, ctx: MemoryContext, group_id: str, row: dict[str, Any], value: str | None, obj: str | None
) -> tuple[str, str | None]:
    if obj is None:
        return value or "", None
    kind = lookup(row["predicate"]).object_kind
    vectors = {obj: (await ctx.embed([obj]))[0]}
    resolved = await resolve_entities(
        tx, group_id=group_id, wanted={normalize_name(obj): (obj, kind)}, vectors=vectors, now=ctx.clock()
    )
    key = normalize_name(obj)
    return resolved.names[key], resolved.ids[key]


async def correct_fact(
    ctx: MemoryContext,
    group_id: str,
    fact_id: str,
    *,
    expected_version: int,
    value: str | None = None,
    obj: str | None = None,
    valid_from: datetime | None = None,
    valid_to: datetime | None = None,
    end: bool = False,
) -> FactRecord:
    value = clean_text(value) if value is not None else None
    obj = clean_name(obj) if obj is not None else None
    if obj == "":
        raise InvalidInput("object is empty once control characters are removed", details={"field": "object"})
    if value is not None and obj is not None:
        raise InvalidInput("give either 'value' or 'object', not both", details={"field": "object"})
    if not (end or valid_to or value is not None or obj is not None):
        raise InvalidInput(
            "nothing to change: give value, object, valid_to or end", details={"field": "body"}
        )
    value, found = pii.redact_text(ctx, group_id, value)
    obj, found_obj = pii.redact_text(ctx, group_id, obj)
    now = ctx.clock()

    async def work(tx: Tx) -> None:
        row = await _locked_fact(tx, ctx, group_id, fact_id, expected_version)
        ref = f"explicit:{uuid.uuid4()}"
        if value is None and obj is None:
            claim = Claim(
                ref=ref,
                kind="end",
                value=row["value"],
                value_key=row["value_key"],
                at=valid_to or now,
                source_kind="user_stated",
                recorded_at=now,
            )
        else:
            new_value, object_id = await _new_value(tx, ctx, group_id, row, value, obj)
            at = row["valid_from"] or valid_from or now
            claim = Claim(
                ref=ref,
                kind="correct",
                value=new_value,
                value_key=value_key(new_value),
                at=at,
                source_kind="user_stated",
                recorded_at=now,
                object_id=object_id,
                until=valid_to,
                replaces=row["value_key"],
            )
        written = await resolve_and_write(
            tx, group_id=group_id, slots=_slot(row, claim), vectors={}, embed_missing=ctx.embed, now=now
        )
        await changes.record_facts(tx, ctx, group_id, written, op=claim.kind, now=now)
        await pii.write_vault(tx, ctx, group_id, found + found_obj, [value, obj], now)
        if claim.kind == "correct":
            await _link_correction(tx, group_id, fact_id, written.changes)

    async with ctx.write_gate.slot(group_id):
        await ctx.store.execute(work)
    return await _current_of_slot(ctx, group_id, fact_id)


_CORRECTED_INTO = ("created", "evidence_added", "updated")  # the new value: a new fact, else one it joined


async def _link_correction(tx: Tx, group_id: str, old_id: str, changes: list[FactChange]) -> None:
    """The expired fact points to the fact that corrected it (``corrected_by``) and back
    (``corrects``), so a reader of the old fact finds its correction."""
    expired = any(c.fact_id == old_id and c.change == "expired" for c in changes)
    ranked = sorted(
        (c for c in changes if c.fact_id != old_id and c.change in _CORRECTED_INTO),
        key=lambda c: _CORRECTED_INTO.index(c.change),
    )
    new_id = ranked[0].fact_id if ranked else None
    if expired and new_id is not None:
        await writes.link_correction(tx, group_id=group_id, old_id=old_id, new_id=new_id)


async def retract_fact(
    ctx: MemoryContext, group_id: str, fact_id: str, *, expected_version: int | None = None
) -> FactRecord:
    now = ctx.clock()

    async def work(tx: Tx) -> None:
        row = await _locked_fact(tx, ctx, group_id, fact_id, expected_version)
        claim = Claim(
            ref=f"explicit:{uuid.uuid4()}",
            kind="retract",
            value=row["value"],
            value_key=row["value_key"],
            at=row["valid_from"],
            source_kind="inferred" if row["tier"] == "inferred" else "user_stated",
            recorded_at=now,
            replaces=row["value_key"],
        )
        written = await resolve_and_write(
            tx, group_id=group_id, slots=_slot(row, claim), vectors={}, embed_missing=ctx.embed, now=now
        )
        await changes.record_facts(tx, ctx, group_id, written, op="retract", now=now)

    async with ctx.write_gate.slot(group_id):
        await ctx.store.execute(work)
    return await _fact(ctx, group_id, fact_id)


async def _fact(ctx: MemoryContext, group_id: str, fact_id: str) -> FactRecord:
    rows = await reads.facts_by_ids(ctx.store, group_id=group_id, ids=[fact_id])
    if not rows:
        raise NotFound("fact not found", details={"fact_id": fact_id})
    return reads.to_fact(rows[0])


async def _current_of_slot(ctx: MemoryContext, group_id: str, fact_id: str) -> FactRecord:
    """After a correction the old fact is expired; return what replaced it when there is one."""
    old = await _fact(ctx, group_id, fact_id)
    if old.expired_at is None:
        return old
    candidates = await reads.facts_of_subject(
        ctx.store,
        group_id=group_id,
        subject_key=normalize_name(old.subject),
        predicate=old.predicate,
        mode="history",
        as_of=None,
        known_at=None,
    )
    current = [reads.to_fact(r) for r in candidates if r["fact"].get("expired_at") is None]
    newest = max(current, key=lambda f: f.recorded_at, default=None)
    return newest or old
