"""Forget (DESIGN §1 rule 2): explicit, complete deletion, each in one write transaction under the
group lock.

An episode goes with its edges; the claims it supports are stripped from every fact, facts left
without claims are deleted and the touched slots are re-resolved from what remains (so supersession
chains stay consistent, as if the episode had never been ingested); a tombstone (key and content
hash, no content) refuses an idempotent re-ingest. Entities left with no fact and no mention go too.
Deleting nodes marks the group reset (``reset_seq``) for change-feed readers (graphmem.store.snapshot).
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import Any

from graphmem.clock import as_utc
from graphmem.errors import NotFound
from graphmem.memory import changes, facts, pii
from graphmem.memory.context import MemoryContext
from graphmem.models.lifecycle import ForgetReport
from graphmem.store import context, writes
from graphmem.store import lifecycle as repo
from graphmem.store import privacy as vault_repo
from graphmem.store.driver import Tx
from graphmem.temporal.chain import SlotFact
from graphmem.temporal.claims import Claim

Drop = Callable[[SlotFact, Claim], bool]


async def forget_episode(ctx: MemoryContext, group_id: str, episode_id: str) -> ForgetReport:
    async with ctx.store.transaction() as tx:
        now = ctx.clock()
        found = await repo.lock_existing_group(tx, group_id=group_id)
        episodes = await repo.episodes_by_ids(tx, group_id=group_id, ids=[episode_id]) if found else []
        if not episodes:
            raise NotFound("episode not found", details={"episode_id": episode_id})
        return await _forget_episodes(tx, ctx, group_id, episodes, now)


async def forget_before(ctx: MemoryContext, group_id: str, before: datetime) -> ForgetReport:
    """Episodes said before ``before`` (reference time) and the facts only they support."""
    async with ctx.store.transaction() as tx:
        now = ctx.clock()
        if not await repo.lock_existing_group(tx, group_id=group_id):
            return ForgetReport()
        episodes = await repo.episodes_before(tx, group_id=group_id, before=as_utc(before))
        return await _forget_episodes(tx, ctx, group_id, episodes, now)


async def forget_entity(ctx: MemoryContext, group_id: str, entity_id: str) -> ForgetReport:
    """The entity, its aliases and every fact it is the subject or object of. Episodes mentioning it
    stay (they are evidence of other things too); forget those by episode. An entity tombstone (a
    hash of group and id, no content) keeps an import of an earlier export from bringing it back."""
    async with ctx.store.transaction() as tx:
        now = ctx.clock()
        found = await repo.lock_existing_group(tx, group_id=group_id)
        if not found or not await repo.entity_exists(tx, group_id=group_id, entity_id=entity_id):
            raise NotFound("entity not found", details={"entity_id": entity_id})
        await repo.reset_group(tx, group_id=group_id)
        before = await repo.group_counts(tx, group_id=group_id)
        plans, updated = await forget_entity_in_tx(tx, ctx, group_id, entity_id, now)
        key = entity_tombstone_key(group_id, entity_id)
        await repo.write_entity_tombstone(tx, group_id=group_id, key=key, now=now)
        await changes.record_forget(
            tx, ctx, group_id, scope="entity", targets=[entity_id], plans=plans, hashes=[], now=now
        )
        return await _finish(tx, group_id, before, updated, now)


async def forget_entity_in_tx(
    tx: Tx, ctx: MemoryContext, group_id: str, entity_id: str, now: datetime
) -> tuple[list[facts.FactWrites], int]:
    """Delete the entity and the facts about it, re-resolve the slots where it was the object and
    delete entities left with nothing (the caller holds the group lock). Returns the plans (for
    the change log) and how many surviving facts were rewritten."""
    linked = await repo.slots_of_entity(tx, group_id=group_id, entity_id=entity_id)
    doomed = {r["fact_id"] for r in linked}
    slots = sorted({r["slot"] for r in linked})
    neighbours = await repo.entities_of_slots(tx, group_id=group_id, slots=slots)
    tokens = await pii.texts_at_risk(tx, group_id, slots=slots, entity_ids=[entity_id])
    plans: list[facts.FactWrites] = []
    updated = await rewrite_slots(
        tx,
        ctx,
        group_id,
        slots,
        lambda fact, claim: fact.id in doomed or claim.object_id == entity_id,
        now,
        sink=plans,
    )
    await repo.delete_entity(tx, group_id=group_id, entity_id=entity_id)
    await repo.delete_orphan_entities(tx, group_id=group_id, ids=sorted(neighbours - {entity_id}))
    await pii.collect(tx, group_id, tokens)
    return plans, updated


def entity_tombstone_key(group_id: str, entity_id: str) -> str:
    """The key of a forgotten entity's tombstone."""
    return hashlib.sha256(f"{group_id}\x1fentity\x1f{entity_id}".encode()).hexdigest()


def group_tombstone_key(group_id: str) -> str:
    """The key of a forgotten group's marker tombstone (beside its episodes' idempotency keys)."""
    return hashlib.sha256(f"{group_id}\x1fgroup".encode()).hexdigest()


async def forget_group(ctx: MemoryContext, group_id: str, *, purge_tombstones: bool = False) -> ForgetReport:
    """Tenant purge: every episode, fact and entity and the Group node. Tombstones are written for
    the episodes and kept (a re-ingest reports "forgotten") with a marker for the group (an import
    of an export taken before now leaves it all out), unless ``purge_tombstones``."""
    async with ctx.store.transaction() as tx:
        now = ctx.clock()
        await repo.lock_existing_group(tx, group_id=group_id)
        before = await repo.group_counts(tx, group_id=group_id)
        await repo.delete_group(tx, group_id=group_id, now=now, purge_tombstones=purge_tombstones)
        await vault_repo.delete_group_vault(tx, group_id=group_id)
        await changes.record_forget(
            tx, ctx, group_id, scope="group", targets=[group_id], plans=[], hashes=[], now=now
        )
        if not purge_tombstones:
            await repo.write_group_tombstone(
                tx, group_id=group_id, key=group_tombstone_key(group_id), now=now
            )
        after = await repo.group_counts(tx, group_id=group_id)
        report = _report(before, after, updated=0)
        if purge_tombstones:
            report.tombstones, report.tombstones_deleted = 0, before["tombstones"]
        return report


async def _forget_episodes(
    tx: Tx, ctx: MemoryContext, group_id: str, episodes: list[dict[str, Any]], now: datetime
) -> ForgetReport:
    before = await repo.group_counts(tx, group_id=group_id)
    ids = [e["id"] for e in episodes]
    if ids:
        await repo.reset_group(tx, group_id=group_id)
    gone = set(ids)
    slots = await repo.slots_of_episodes(tx, group_id=group_id, ids=ids)
    candidates = await repo.entities_mentioned(tx, group_id=group_id, ids=ids)
    candidates |= await repo.entities_of_slots(tx, group_id=group_id, slots=slots)
    tokens = await pii.texts_at_risk(
        tx, group_id, episode_ids=ids, slots=slots, entity_ids=sorted(candidates)
    )
    plans: list[facts.FactWrites] = []
    updated = await rewrite_slots(
        tx, ctx, group_id, slots, lambda _f, c: c.episode_id in gone, now, sink=plans
    )
    await repo.delete_episodes(tx, group_id=group_id, ids=ids)
    sessions = sorted({e["session_id"] for e in episodes if e["session_id"]})
    await writes.relink_sessions(tx, group_id=group_id, session_ids=sessions)
    await context.refresh_sessions(tx, group_id=group_id, session_ids=sessions)  # drop their words
    tombstones = [{"key": e["key"], "content_hash": e["content_hash"]} for e in episodes if e["key"]]
    await repo.write_tombstones(tx, group_id=group_id, rows=tombstones, now=now)
    await repo.delete_orphan_entities(tx, group_id=group_id, ids=sorted(candidates))
    await pii.collect(tx, group_id, tokens)
    if ids:
        hashes = [str(e["content_hash"]) for e in episodes if e.get("content_hash")]
        await changes.record_forget(
            tx, ctx, group_id, scope="episode", targets=ids, plans=plans, hashes=hashes, now=now
        )
    return await _finish(tx, group_id, before, updated, now)


async def _finish(tx: Tx, group_id: str, before: dict[str, int], updated: int, now: datetime) -> ForgetReport:
    await repo.recount_group(tx, group_id=group_id, now=now)
    return _report(before, await repo.group_counts(tx, group_id=group_id), updated=updated)


def _report(before: dict[str, int], after: dict[str, int], *, updated: int) -> ForgetReport:
    return ForgetReport(
        episodes=before["episodes"] - after["episodes"],
        facts_deleted=before["facts"] - after["facts"],
        facts_updated=updated,
        entities_deleted=before["entities"] - after["entities"],
        edges_deleted=before["relationships"] - after["relationships"],
        tombstones=after["tombstones"] - before["tombstones"],
    )


async def rewrite_slots(
    tx: Tx,
    ctx: MemoryContext,
    group_id: str,
    slots: list[str],
    drop: Drop,
    now: datetime,
    *,
    sink: list[facts.FactWrites] | None = None,
) -> int:
    """Strip the claims ``drop`` selects from the slots' facts and re-resolve each slot from the
    remaining claims (memory/facts.py, temporal/chain.py): a fact left without claims is deleted,
    intervals, SUPERSEDES and expiry (corrections, retractions are claims too) are derived again.
    Returns how many surviving facts were rewritten; ``sink`` collects the plan (change log)."""
    rows = await repo.load_slot_facts(tx, group_id=group_id, slots=slots)
    infos: dict[str, facts.SlotInfo] = {}
    existing: dict[str, list[SlotFact]] = defaultdict(list)
    touched: set[str] = set()
    for row in rows:
        infos.setdefault(row["slot"], _slot_info(row))
        fact = facts.slot_fact(row)
        kept = [c for c in fact.claims if not drop(fact, c)]
        if len(kept) != len(fact.claims):
            touched.add(fact.id)
        existing[row["slot"]].append(replace(fact, claims=kept))
    out = facts.plan_slots(infos, existing, now=now, force_ids=frozenset(touched))
    await facts.write_plans(
        tx, group_id=group_id, slots=sorted(infos), out=out, vectors={}, embed_missing=ctx.embed, now=now
    )
    if sink is not None:
        sink.append(out)
    gone = set(out.delete_ids) | out.created_ids
    return len({r["id"] for r in out.facts} - gone)


def _slot_info(row: dict[str, Any]) -> facts.SlotInfo:
    return facts.SlotInfo(
        row["subject_id"], row["subject"], row["predicate"], row["qualifier"], float(row["importance"])
    )
