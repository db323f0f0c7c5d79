"""Turn drafts into claims, resolve every touched slot and write the result (one transaction)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from graphmem.memory.drafts import Draft
from graphmem.memory.entities import ResolvedEntities
from graphmem.models.fact import FactChange
from graphmem.models.predicates import is_functional
from graphmem.store import writes
from graphmem.store.driver import Tx
from graphmem.temporal.chain import Run, SlotFact, SlotPlan, resolve_slot
from graphmem.temporal.claims import Claim
from graphmem.temporal.normalize import group_token, normalize_name, slot_key, statement, value_key
from graphmem.temporal.opposites import OPPOSITE, derived_ends, opposite_slot
from graphmem.text import search_text


@dataclass
class SlotInfo:
    subject_id: str
    subject: str
    predicate: str
    qualifier: str
    importance: float
    claims: list[Claim] = field(default_factory=list)


def build_claims(drafts: list[Draft], entities: ResolvedEntities, *, now: datetime) -> dict[str, SlotInfo]:
    slots: dict[str, SlotInfo] = {}
    for d in drafts:
        subject_key = normalize_name(d.subject)
        subject_id = entities.ids[subject_key]
        object_id = entities.ids.get(normalize_name(d.object_name)) if d.object_name else None
        value = entities.names.get(normalize_name(d.object_name), d.value) if d.object_name else d.value
        slot = slot_key(subject_id, d.predicate, value, d.qualifier)
        info = slots.setdefault(
            slot,
            SlotInfo(subject_id, entities.names[subject_key], d.predicate, d.qualifier, d.importance),
        )
        info.claims.append(
            Claim(
                ref=d.ref,
                kind=d.kind,
                value=value,
                value_key=value_key(value),
                at=d.at,
                source_kind=d.source_kind,
                recorded_at=now,
                object_id=object_id,
                until=d.until,
                confidence=d.confidence,
                episode_id=d.episode_id,
                quote=d.quote,
                start=d.start,
                end=d.end,
                replaces=value_key(d.replaces) if d.replaces else None,
                guessed=d.guessed or None,
            )
        )
    return slots


def slot_fact(row: dict[str, Any]) -> SlotFact:
    """A LOAD_SLOTS row as the resolver sees it."""
    return SlotFact(
        id=row["id"],
        value=row["value"],
        value_key=row["value_key"],
        tier=row["tier"],
        claims=[Claim.from_json(c) for c in row["claims"] or []],
        valid_from=row["valid_from"],
        valid_to=row["valid_to"],
        expired_at=row["expired_at"],
        object_id=row["object_id"],
        version=row["version"] or 1,
    )


@dataclass
class FactWrites:
    facts: list[dict[str, Any]] = field(default_factory=list)
    evidence: list[dict[str, Any]] = field(default_factory=list)
    delete_ids: list[str] = field(default_factory=list)
    supersedes: list[dict[str, Any]] = field(default_factory=list)
    changes: list[FactChange] = field(default_factory=list)
    created: int = 0
    created_ids: set[str] = field(default_factory=set)
    versions: dict[str, int] = field(default_factory=dict)  # fact id -> version before (0: new)


async def resolve_and_write(
    tx: Tx,
    *,
    group_id: str,
    slots: dict[str, SlotInfo],
    vectors: dict[str, np.ndarray],
    embed_missing: Any,
    now: datetime,
) -> FactWrites:
    out = await resolve_slots(tx, group_id=group_id, slots=slots, now=now)
    await write_plans(
        tx,
        group_id=group_id,
        slots=sorted(slots),
        out=out,
        vectors=vectors,
        embed_missing=embed_missing,
        now=now,
    )
    return out


def slot_keys(slots: dict[str, SlotInfo]) -> list[str]:
    """The slots ``resolve_slots`` loads: the touched ones and their opposites."""
    return sorted(set(slots) | set(_opposite_pairs(slots).values()))


async def resolve_slots(
    tx: Tx,
    *,
    group_id: str,
    slots: dict[str, SlotInfo],
    now: datetime,
    loaded: list[dict[str, Any]] | None = None,
) -> FactWrites:
    """Load the touched slots (and their opposites) and resolve them: ``resolve_and_write`` up to
    the write. ``slots`` gains the opposite slots that derived ends touch. ``loaded``: the facts
    of ``slot_keys(slots)`` when the caller read them already (LOAD_SLOTS' rows)."""
    pairs = _opposite_pairs(slots)
    keys = sorted(set(slots) | set(pairs.values()))
    rows = loaded if loaded is not None else await writes.load_slots(tx, group_id=group_id, slots=keys)
    existing: dict[str, list[SlotFact]] = defaultdict(list)
    for row in rows:
        existing[row["slot"]].append(slot_fact(row))
    _mirror_opposites(slots, pairs, existing)
    return plan_slots(slots, existing, now=now)


def _opposite_pairs(slots: dict[str, SlotInfo]) -> dict[str, str]:
    """slot -> its opposite slot (likes X <-> dislikes X) for the slots being written."""
    pairs: dict[str, str] = {}
    for key, info in slots.items():
        if info.claims:
            other = opposite_slot(info.subject_id, info.predicate, info.claims[0].value, info.qualifier)
            if other:
                pairs[key] = other
    return pairs


def _mirror_opposites(
    slots: dict[str, SlotInfo], pairs: dict[str, str], existing: dict[str, list[SlotFact]]
) -> None:
    """Add derived end claims both ways between each slot and its opposite, when the opposite exists."""
    for key, other in list(pairs.items()):
        if other not in existing and other not in slots:
            continue
        info = slots[key]
        if other not in slots:
            slots[other] = SlotInfo(
                info.subject_id, info.subject, OPPOSITE[info.predicate], info.qualifier, info.importance
            )
        mine = info.claims + [c for f in existing.get(key, []) for c in f.claims]
        theirs = slots[other].claims + [c for f in existing.get(other, []) for c in f.claims]
        slots[other].claims.extend(derived_ends(mine))
        info.claims.extend(derived_ends(theirs))


def plan_slots(
    slots: dict[str, SlotInfo],
    existing: dict[str, list[SlotFact]],
    *,
    now: datetime,
    force_ids: frozenset[str] = frozenset(),
) -> FactWrites:
    """Resolve every slot (pure). ``force_ids``: facts to rewrite even when the resolver sees no
    change (forget strips claims from them before resolving, so their stored claims are stale)."""
    out = FactWrites()
    for slot in sorted(slots):
        info = slots[slot]
        plan = resolve_slot(existing.get(slot, []), info.claims, functional=is_functional(info.predicate))
        _collect(out, slot, info, plan, {f.id: f for f in existing.get(slot, [])}, now, force_ids)
    return out


async def write_plans(
    tx: Tx,
    *,
    group_id: str,
    slots: list[str],
    out: FactWrites,
    vectors: dict[str, np.ndarray],
    embed_missing: Any,
    now: datetime,
    change_rows: list[dict[str, Any]] | None = None,
    counts: dict[str, int] | None = None,
) -> None:
    """Write resolved slots; only facts created here need an embedding. ``change_rows`` and
    ``counts`` go with them (``writes.write_facts``)."""
    created = [r for r in out.facts if r["id"] in out.created_ids]
    missing = sorted({r["statement"] for r in created if r["statement"] not in vectors})
    if missing:
        vectors.update(zip(missing, await embed_missing(missing), strict=True))
    for row in out.facts:
        vector = vectors.get(row["statement"]) if row["id"] in out.created_ids else None
        row["embedding"] = vector.tolist() if vector is not None else None
    await writes.write_facts(
        tx,
        group_id=group_id,
        group_token=group_token(group_id),
        facts=out.facts,
        evidence=out.evidence,
        delete_ids=out.delete_ids,
        slots=slots,
        supersedes=out.supersedes,
        now=now,
        change_rows=change_rows,
        counts=counts,
    )


def _collect(
    out: FactWrites,
    slot: str,
    info: SlotInfo,
    plan: SlotPlan,
    before: dict[str, SlotFact],
    now: datetime,
    force_ids: frozenset[str] = frozenset(),
) -> None:
    successors = {old for _, old, _ in plan.supersedes}
    touched = plan.created_ids | plan.changed_ids | set(plan.expire_ids) | force_ids
    expired_ids = {r.id for r in plan.expired_runs}
    for run in plan.runs + plan.expired_runs:
        if run.id not in touched:
            continue
        expired = run.id in expired_ids
        out.versions[run.id] = before[run.id].version if run.id in before else 0
        expired_at = (before[run.id].expired_at if run.id in before else None) or now
        out.facts.append(_fact_row(slot, info, run, expired_at if expired else None))
        out.evidence.extend(_evidence_rows(run))
        out.changes.append(
            FactChange(
                fact_id=run.id,
                change=_change(run, plan, before, successors, expired),
                statement=statement(info.subject, info.predicate, run.value),
                valid_from=run.valid_from,
                valid_to=run.valid_to,
            )
        )
        if run.id in plan.created_ids:
            out.created += 1
            out.created_ids.add(run.id)
    out.delete_ids.extend(plan.delete_ids)
    out.versions.update({i: before[i].version for i in plan.delete_ids if i in before})
    out.created -= len(plan.delete_ids)
    out.changes.extend(FactChange(fact_id=i, change="merged", statement="") for i in plan.delete_ids)
    out.supersedes.extend({"new_id": n, "old_id": o, "at": at} for n, o, at in plan.supersedes)


def _change(
    run: Run, plan: SlotPlan, before: dict[str, SlotFact], successors: set[str], expired: bool
) -> Any:
    if expired:
        return "expired"
    if run.id in plan.created_ids:
        return "created"
    old = before[run.id]
    if old.valid_to is None and run.valid_to is not None:
        return "superseded" if run.id in successors else "ended"
    return "evidence_added" if old.valid_to == run.valid_to else "updated"


def _fact_row(slot: str, info: SlotInfo, run: Run, expired_at: datetime | None) -> dict[str, Any]:
    strongest = max(
        run.claims, key=lambda c: (c.tier == "stated", c.source_kind == "user_stated", c.confidence)
    )
    text = statement(info.subject, info.predicate, run.value)
    return {
        "id": run.id,
        "slot": slot,
        "subject_id": info.subject_id,
        "subject": info.subject,
        "predicate": info.predicate,
        "qualifier": info.qualifier,
        "value": run.value,
        "value_key": run.value_key,
        "object_id": run.object_id,
        "statement": text,
        "valid_from": run.valid_from,
        "valid_to": run.valid_to,
        "expired_at": expired_at,
        "claims": [c.to_json() for c in sorted(run.claims, key=lambda c: c.ref)],
        "confidence": max(c.confidence for c in run.claims),
        "source_kind": strongest.source_kind,
        "tier": run.tier,
        "search_text": search_text(text),
        "importance": info.importance,
    }


def _evidence_rows(run: Run) -> list[dict[str, Any]]:
    seen: dict[str, dict[str, Any]] = {}
    for c in sorted(run.claims, key=lambda c: c.ref):
        if c.episode_id and c.episode_id not in seen:
            seen[c.episode_id] = {
                "fact_id": run.id,
                "episode_id": c.episode_id,
                "quote": c.quote,
                "start": c.start,
                "end": c.end,
                "claim": c.kind,
            }
    return list(seen.values())
