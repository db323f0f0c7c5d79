"""Ingestion (DESIGN §3): validate → key → embed → extract → resolve → one write transaction."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

import numpy as np

from graphmem.errors import NotFound
from graphmem.memory.context import MemoryContext
from graphmem.memory.drafts import Draft, from_explicit, from_extracted
from graphmem.memory.entities import resolve_entities
from graphmem.memory.facts import build_claims, resolve_and_write
from graphmem.models.episode import EpisodeIn, EpisodeOutcome, IngestResult
from graphmem.models.extraction import Extraction
from graphmem.models.fact import FactIn
from graphmem.models.predicates import lookup
from graphmem.store import context, writes
from graphmem.store.driver import Tx
from graphmem.temporal.normalize import group_token, normalize_name
from graphmem.text import episode_fields, episode_text


@dataclass
class Prepared:
    id: str
    key: str
    episode: EpisodeIn
    extraction: Extraction


def indexed_text(ep: EpisodeIn) -> str:
    """What search embeds of an episode: "speaker: content" (``graphmem.text.episode_text``)."""
    return episode_text(ep.speaker, ep.content)


def _row(p: Prepared, vector: np.ndarray) -> dict[str, Any]:
    ep = p.episode
    return {
        "id": p.id,
        "key": p.key,
        "external_id": ep.external_id,
        "session_id": ep.session_id,
        "source": ep.source,
        "speaker": ep.speaker,
        "content": ep.content,
        "reference_time": ep.reference_time,
        "content_hash": ep.content_hash(),
        **episode_fields(ep.speaker, ep.content),  # search_text gets its session context below
        "embedding": vector.tolist(),  # float32 -> float, as float(x) does
    }


async def _known_keys(ctx: MemoryContext, keys: list[str]) -> dict[str, dict[str, Any]]:
    async with ctx.store.transaction(write=False) as tx:
        return await writes.existing_episode_keys(tx, keys=keys)


def _extract(ctx: MemoryContext, episodes: list[tuple[str, EpisodeIn]]) -> list[Extraction]:
    return [
        ctx.extractor.extract(content=ep.content, speaker=ep.speaker, reference_time=ep.reference_time)
        for _, ep in episodes
    ]


def _drafts(prepared: list[Prepared]) -> list[Draft]:
    return [
        from_extracted(f, ref=f"{p.id}:{i}", episode_id=p.id, at=p.episode.reference_time)
        for p in prepared
        for i, f in enumerate(p.extraction.facts)
    ]


def _wanted_entities(prepared: list[Prepared], drafts: list[Draft]) -> dict[str, tuple[str, str]]:
    wanted: dict[str, tuple[str, str]] = {}
    for p in prepared:
        for ent in p.extraction.entities:
            wanted.setdefault(normalize_name(ent.name), (ent.name, ent.kind))
    for d in drafts:
        wanted.setdefault(normalize_name(d.subject), (d.subject, d.subject_kind))
        if d.object_name:
            wanted.setdefault(normalize_name(d.object_name), (d.object_name, d.object_kind))
    return {k: v for k, v in wanted.items() if k}


@dataclass
class PreparedBatch:
    """One batch keyed, extracted and embedded outside the group lock (``prepare_episodes``), so
    that it can overlap the previous batch's write; ``commit_episodes`` writes it under the lock,
    re-checking the keys (a key stored meanwhile is reported as existing, never added twice)."""

    group_id: str
    allow_forgotten: bool
    keyed: list[tuple[str, EpisodeIn]]
    known: dict[str, dict[str, Any]]
    new_ids: dict[str, str]
    prepared: list[Prepared]
    vectors: np.ndarray


async def prepare_episodes(
    ctx: MemoryContext, group_id: str, episodes: Sequence[EpisodeIn], *, allow_forgotten: bool = False
) -> PreparedBatch:
    """The lock-free part of ``add_episodes``: dedupe by key, extract, embed. Writes nothing."""
    keyed = [(ep.idempotency_key(group_id), ep) for ep in episodes]
    known = await _known_keys(ctx, sorted({k for k, _ in keyed}))
    new_ids: dict[str, str] = {}
    fresh: list[tuple[str, EpisodeIn]] = []
    for key, ep in keyed:
        if _status(known.get(key), allow_forgotten) is None and key not in new_ids:
            new_ids[key] = str(uuid.uuid4())
            fresh.append((key, ep))
    extractions = await asyncio.to_thread(_extract, ctx, fresh)
    prepared = [Prepared(new_ids[k], k, ep, x) for (k, ep), x in zip(fresh, extractions, strict=True)]
    vectors = await ctx.embed([indexed_text(p.episode) for p in prepared])
    return PreparedBatch(group_id, allow_forgotten, keyed, known, new_ids, prepared, vectors)


async def commit_episodes(ctx: MemoryContext, batch: PreparedBatch) -> IngestResult:
    """Write a prepared batch in one transaction under the group lock."""
    result = await _commit(
        ctx,
        batch.group_id,
        batch.prepared,
        _drafts(batch.prepared),
        batch.vectors,
        allow_forgotten=batch.allow_forgotten,
    )
    outcomes: list[EpisodeOutcome] = []
    reported: set[str] = set()
    for key, ep in batch.keyed:
        known = batch.known.get(key)
        status = _status(known, batch.allow_forgotten)
        if status is None:
            status = "created" if key in result.created_keys and key not in reported else "existing"
        eid = batch.new_ids.get(key) if key in result.created_keys else None
        eid = eid or (known or {}).get("id") or result.existing_ids.get(key, "")
        outcomes.append(EpisodeOutcome(id=eid, external_id=ep.external_id, status=status))
        reported.add(key)
    return IngestResult(episodes=outcomes, facts=result.changes)


async def add_episodes(
    ctx: MemoryContext, group_id: str, episodes: Sequence[EpisodeIn], *, allow_forgotten: bool = False
) -> IngestResult:
    batch = await prepare_episodes(ctx, group_id, episodes, allow_forgotten=allow_forgotten)
    return await commit_episodes(ctx, batch)


Status = Literal["created", "existing", "forgotten"]


def _status(row: dict[str, Any] | None, allow_forgotten: bool) -> Status | None:
    if row is None:
        return None
    if row.get("id"):
        return "existing"
    return None if allow_forgotten else "forgotten"


async def add_facts(ctx: MemoryContext, group_id: str, facts: Sequence[FactIn]) -> IngestResult:
    drafts: list[Draft] = []
    for fact in facts:
        base = f"explicit:{uuid.uuid4()}"
        evidence: list[str | None] = list(fact.evidence_episode_ids) or [None]
        drafts.extend(
            from_explicit(fact, ref=f"{base}:{i}", episode_id=eid) for i, eid in enumerate(evidence)
        )
    result = await _commit(ctx, group_id, [], drafts, np.zeros((0, ctx.embedder.dimension)))
    return IngestResult(episodes=[], facts=result.changes)


@dataclass
class _CommitResult:
    created_keys: set[str]
    existing_ids: dict[str, str]
    changes: list[Any]


async def _commit(
    ctx: MemoryContext,
    group_id: str,
    prepared: list[Prepared],
    drafts: list[Draft],
    episode_vectors: np.ndarray,
    *,
    allow_forgotten: bool = False,
) -> _CommitResult:
    wanted = _wanted_entities(prepared, drafts)
    # Only episodes are embedded up front (``prepare_episodes``); statements of facts that turn out
    # to be new and names of entities that turn out to be unknown are embedded inside the
    # transaction, once known.
    vectors: dict[str, np.ndarray] = {}
    now = ctx.clock()

    async def work(tx: Tx) -> _CommitResult:
        await writes.lock_group(tx, group_id=group_id, now=now)
        kept, existing = await _recheck(tx, prepared, allow_forgotten)
        await _check_evidence(tx, group_id, drafts)
        rows = [_row(p, v) for p, v in zip(kept, episode_vectors, strict=True) if p is not None]
        await writes.create_episodes(
            tx, group_id=group_id, group_token=group_token(group_id), rows=rows, now=now
        )
        live = [p for p in kept if p is not None]
        await writes.link_sessions(tx, group_id=group_id, since=_earliest_by_session(live))
        await context.refresh_around(tx, group_id=group_id, ids=[p.id for p in live])
        live_ids = {p.id for p in live}
        kept_drafts = [
            d
            for d in drafts
            if d.episode_id is None or d.episode_id in live_ids or d.ref.startswith("explicit:")
        ]
        entities = await resolve_entities(
            tx, group_id=group_id, wanted=wanted, vectors=vectors, now=now, embed=ctx.embed
        )
        await writes.link_mentions(tx, group_id=group_id, rows=_mentions(live, entities.ids))
        slots = build_claims(kept_drafts, entities, now=now)
        fw = await resolve_and_write(
            tx, group_id=group_id, slots=slots, vectors=vectors, embed_missing=ctx.embed, now=now
        )
        await writes.update_group_counts(
            tx, group_id=group_id, episodes=len(rows), facts=fw.created, entities=entities.created, now=now
        )
        return _CommitResult({p.key for p in live}, existing, fw.changes)

    return await ctx.store.execute(work)


def _earliest_by_session(prepared: list[Prepared]) -> dict[str, datetime]:
    since: dict[str, datetime] = {}
    for p in prepared:
        sid, at = p.episode.session_id, p.episode.reference_time
        if sid and (sid not in since or at < since[sid]):
            since[sid] = at
    return since


async def _recheck(
    tx: Tx, prepared: list[Prepared], allow_forgotten: bool
) -> tuple[list[Prepared | None], dict[str, str]]:
    """Under the group lock, drop episodes a concurrent writer stored (or forgot) meanwhile;
    a forgotten (tombstoned) episode comes back only when ``allow_forgotten``."""
    if not prepared:
        return [], {}
    known = await writes.existing_episode_keys(tx, keys=[p.key for p in prepared])
    existing = {k: r["id"] for k, r in known.items() if r.get("id")}
    dropped = set(existing) if allow_forgotten else set(known)
    return [None if p.key in dropped else p for p in prepared], existing


async def _check_evidence(tx: Tx, group_id: str, drafts: list[Draft]) -> None:
    ids = sorted({d.episode_id for d in drafts if d.episode_id and d.ref.startswith("explicit:")})
    found = await writes.episodes_in_group(tx, group_id=group_id, ids=ids)
    missing = [i for i in ids if i not in found]
    if missing:
        raise NotFound(
            "evidence episode not found in this group",
            details={"field": "evidence_episode_ids", "ids": missing},
        )


def _mentions(prepared: list[Prepared], ids: dict[str, str]) -> list[dict[str, str]]:
    rows: dict[tuple[str, str], dict[str, str]] = {}
    for p in prepared:
        names = [e.name for e in p.extraction.entities]
        names += [f.subject for f in p.extraction.facts]
        names += [f.object for f in p.extraction.facts if f.object and lookup(f.predicate).object_is_entity]
        for name in names:
            eid = ids.get(normalize_name(name))
            if eid:
                rows[(p.id, eid)] = {"episode_id": p.id, "entity_id": eid}
    return list(rows.values())
