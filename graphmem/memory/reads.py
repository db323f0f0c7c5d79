"""Reads: current facts, facts at a time, as known at a time, timelines and provenance."""

from __future__ import annotations

from datetime import datetime

from graphmem.errors import NotFound
from graphmem.memory.context import MemoryContext
from graphmem.memory.known_at import as_record, believed_at, holds
from graphmem.models.entity import EntityRecord
from graphmem.models.episode import EpisodeRecord
from graphmem.models.fact import FactRecord
from graphmem.store import reads
from graphmem.store.reads import to_fact
from graphmem.temporal.claims import Claim
from graphmem.temporal.normalize import normalize_name


def _mode(as_of: datetime | None, include_history: bool) -> str:
    if include_history:
        return "history"
    return "as_of" if as_of is not None else "current"


async def facts_about(
    ctx: MemoryContext,
    group_id: str,
    subject: str,
    *,
    predicate: str | None = None,
    as_of: datetime | None = None,
    known_at: datetime | None = None,
    include_history: bool = False,
) -> list[FactRecord]:
    if known_at is not None:
        return await _facts_known_at(ctx, group_id, subject, predicate, as_of, known_at, include_history)
    rows = await reads.facts_of_subject(
        ctx.store,
        group_id=group_id,
        subject_key=normalize_name(subject),
        predicate=predicate,
        mode=_mode(as_of, include_history),
        as_of=as_of,
        known_at=known_at,
    )
    return [to_fact(r) for r in rows]


async def _facts_known_at(
    ctx: MemoryContext,
    group_id: str,
    subject: str,
    predicate: str | None,
    as_of: datetime | None,
    known_at: datetime,
    include_history: bool,
) -> list[FactRecord]:
    key = normalize_name(subject)
    slots = await reads.subject_slots(
        ctx.store, group_id=group_id, subject_key=key, predicate=predicate, known_at=known_at
    )
    records = {f.id: f for f in await facts_by_ids(ctx, group_id, [r["id"] for r in slots])}
    members = [
        (records[r["id"]], r["slot"], [Claim.from_json(c) for c in r["claims"] or []])
        for r in slots
        if r["id"] in records
    ]
    believed = [
        as_record(f, run)
        for f, run in believed_at(members, known_at)
        if holds(run, as_of=as_of, include_history=include_history)
    ]
    return sorted(
        believed,
        key=lambda f: (f.predicate, f.valid_from or known_at.min.replace(tzinfo=known_at.tzinfo), f.id),
    )


async def list_facts(
    ctx: MemoryContext,
    group_id: str,
    *,
    predicate: str | None = None,
    as_of: datetime | None = None,
    known_at: datetime | None = None,
    include_history: bool = False,
    limit: int = 1000,
) -> list[FactRecord]:
    rows = await reads.facts_of_group(
        ctx.store,
        group_id=group_id,
        predicate=predicate,
        mode=_mode(as_of, include_history),
        as_of=as_of,
        known_at=known_at,
        limit=limit,
    )
    return [to_fact(r) for r in rows]


async def get_fact(ctx: MemoryContext, group_id: str, fact_id: str) -> FactRecord:
    rows = await reads.facts_by_ids(ctx.store, group_id=group_id, ids=[fact_id])
    if not rows:
        raise NotFound("fact not found", details={"fact_id": fact_id})
    return to_fact(rows[0])


async def facts_by_ids(ctx: MemoryContext, group_id: str, ids: list[str]) -> list[FactRecord]:
    rows = await reads.facts_by_ids(ctx.store, group_id=group_id, ids=ids)
    return [to_fact(r) for r in rows]


async def timeline(ctx: MemoryContext, group_id: str, entity_id: str) -> list[FactRecord]:
    await get_entity(ctx, group_id, entity_id)
    return [to_fact(r) for r in await reads.timeline(ctx.store, group_id=group_id, entity_id=entity_id)]


async def get_entity(ctx: MemoryContext, group_id: str, entity_id: str) -> EntityRecord:
    row = await reads.entity_by_id(ctx.store, group_id=group_id, entity_id=entity_id)
    if row is None:
        raise NotFound("entity not found", details={"entity_id": entity_id})
    return EntityRecord(**{k: v for k, v in row.items() if v is not None})


async def find_entities(
    ctx: MemoryContext, group_id: str, name: str | None = None, *, limit: int = 50
) -> list[EntityRecord]:
    key = normalize_name(name) if name else None
    rows = await reads.entities_by_name(ctx.store, group_id=group_id, key=key, limit=limit)
    return [EntityRecord(**{k: v for k, v in r.items() if v is not None}) for r in rows]


async def get_episode(
    ctx: MemoryContext, group_id: str, episode_id: str
) -> tuple[EpisodeRecord, list[FactRecord]]:
    row = await reads.episode_by_id(ctx.store, group_id=group_id, episode_id=episode_id)
    if row is None:
        raise NotFound("episode not found", details={"episode_id": episode_id})
    episode = EpisodeRecord(**{k: v for k, v in row["episode"].items() if v is not None})
    return episode, await facts_by_ids(ctx, group_id, row["fact_ids"])
