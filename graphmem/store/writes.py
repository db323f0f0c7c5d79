"""Repository functions for the write path. Keyword-only, each takes the caller's ``tx``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise
from typing import Any

from graphmem.store.cypher import ingest as q
from graphmem.store.driver import Store, Tx, run


async def lock_group(tx: Tx, *, group_id: str, now: datetime) -> None:
    """Serialise writers of one group (entity and fact resolution read-then-write)."""
    await run(tx, q.LOCK_GROUP, group_id=group_id, now=now)


def _known(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {r["key"]: r for r in rows if r["id"] is not None or r["tombstoned"]}


async def peek_episode_keys(store: Store, *, keys: list[str]) -> dict[str, dict[str, Any]]:
    """``existing_episode_keys`` outside any write (before the lock, which re-checks): one
    auto-commit read, a round trip and no commit."""
    return _known(await store.read(q.EXISTING_EPISODE_KEYS, keys=keys)) if keys else {}


async def peek_entities(store: Store, *, group_id: str, keys: list[str]) -> dict[str, dict[str, Any]]:
    """``find_entities`` outside any write (an auto-commit read)."""
    return _first_by_key(await store.read(q.FIND_ENTITIES, group_id=group_id, names=keys)) if keys else {}


async def relink_sessions(tx: Tx, *, group_id: str, session_ids: list[str]) -> None:
    if session_ids:
        await run(tx, q.RELINK_SESSIONS, group_id=group_id, sessions=session_ids)


@dataclass
class IngestStart:
    """What BEGIN_INGEST read under the freshly taken group lock."""

    known: dict[str, dict[str, Any]]  # as ``existing_episode_keys``
    entities: dict[str, dict[str, Any]]  # as ``find_entities``
    evidence: set[str]  # as ``episodes_in_group``


async def begin_ingest(
    tx: Tx, *, group_id: str, now: datetime, keys: list[str], names: list[str], evidence_ids: list[str]
) -> IngestStart:
    """``lock_group``, then ``existing_episode_keys``, ``find_entities`` and ``episodes_in_group``
    under the lock, in one round trip."""
    p = {"keys": keys, "names": names, "evidence_ids": evidence_ids}
    rows = await run(tx, q.BEGIN_INGEST, group_id=group_id, now=now, p=p)
    row = rows[0]
    known = {r["key"]: r for r in row["known"]}
    return IngestStart(known, _first_by_key(row["entities"]), set(row["evidence"]))


def _first_by_key(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for row in sorted(rows, key=lambda r: r["id"]):
        found.setdefault(row["key"], row)
    return found


async def create_episodes_and_tails(
    tx: Tx,
    *,
    group_id: str,
    group_token: str,
    rows: list[dict[str, Any]],
    since: dict[str, datetime],
    now: datetime,
) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    """``create_episodes`` and the reading half of ``link_sessions`` in one round trip; returns the
    NEXT edges to drop and to add (``link_episodes`` applies them)."""
    if not rows:
        return [], []
    sessions = [{"id": sid, "since": at} for sid, at in sorted(since.items())]
    tails = await run(
        tx,
        q.CREATE_EPISODES_TAILS,
        group_id=group_id,
        group_token=group_token,
        p={"rows": rows, "sessions": sessions},
        now=now,
    )
    return _chain_edits(tails)


def _chain_edits(tails: list[dict[str, Any]]) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    drop: list[dict[str, str]] = []
    add: list[dict[str, str]] = []
    for row in tails:
        ids: list[str] = row["ids"]
        wanted = set(pairwise(ids))
        current = {(a, b) for a, targets in zip(ids, row["nexts"], strict=True) for b in targets}
        drop.extend({"a": a, "b": b} for a, b in sorted(current - wanted))
        add.extend({"a": a, "b": b} for a, b in sorted(wanted - current))
    return drop, add


async def link_episodes(
    tx: Tx,
    *,
    group_id: str,
    group_token: str,
    unlink: list[dict[str, str]],
    link: list[dict[str, str]],
    refresh_ids: list[str],
    entities: list[dict[str, Any]],
    aliases: list[dict[str, Any]],
    mentions: list[dict[str, str | None]],
    slots: list[str],
    now: datetime,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The NEXT edits, ``context.refresh_around``, ``merge_entities``, ``add_aliases``,
    ``link_mentions`` and ``load_slots`` in one round trip; returns the merged entities' rows and
    the slots' facts."""
    if not (unlink or link or refresh_ids or entities or aliases or mentions or slots):
        return [], []
    rows = await run(
        tx,
        q.LINK_EPISODES,
        group_id=group_id,
        group_token=group_token,
        p={
            "unlink": unlink,
            "link": link,
            "ids": refresh_ids,
            "entities": entities,
            "aliases": aliases,
            "mentions": mentions,
            "slots": slots,
        },
        now=now,
    )
    return rows[0]["merged"], rows[0]["slot_rows"]


async def find_entities(tx: Tx, *, group_id: str, keys: list[str]) -> dict[str, dict[str, Any]]:
    return _first_by_key(await run(tx, q.FIND_ENTITIES, group_id=group_id, names=keys))


async def entity_candidates(
    tx: Tx, *, queries: list[dict[str, str]], limit: int = 10
) -> list[dict[str, Any]]:
    """Full-text candidates for several names at once (``queries``: [{key, lucene}])."""
    return await run(tx, q.ENTITY_CANDIDATES, queries=queries, limit=limit) if queries else []


async def merge_entities(
    tx: Tx, *, group_id: str, group_token: str, rows: list[dict[str, Any]], now: datetime
) -> list[dict[str, Any]]:
    if not rows:
        return []
    return await run(tx, q.MERGE_ENTITIES, group_id=group_id, group_token=group_token, rows=rows, now=now)


async def add_aliases(tx: Tx, *, group_id: str, rows: list[dict[str, Any]]) -> None:
    if rows:
        await run(tx, q.ADD_ALIASES, group_id=group_id, rows=rows)


async def load_slots(tx: Tx, *, group_id: str, slots: list[str]) -> list[dict[str, Any]]:
    return await run(tx, q.LOAD_SLOTS, group_id=group_id, slots=slots) if slots else []


async def write_facts(
    tx: Tx,
    *,
    group_id: str,
    group_token: str,
    facts: list[dict[str, Any]],
    evidence: list[dict[str, Any]],
    delete_ids: list[str],
    slots: list[str],
    supersedes: list[dict[str, Any]],
    now: datetime,
    change_rows: list[dict[str, Any]] | None = None,
    counts: dict[str, int] | None = None,
) -> None:
    """Apply resolved slot plans: upsert facts, rebuild their evidence and the slots' chains; then
    append ``change_rows`` to the change log and add ``counts`` ({episodes, facts, entities}) to the
    group's counters. One round trip (WRITE_FACTS)."""
    if not (delete_ids or facts or evidence or slots or supersedes or change_rows or counts):
        return
    await run(
        tx,
        q.WRITE_FACTS,
        group_id=group_id,
        group_token=group_token,
        p={
            "delete_ids": delete_ids,
            "rows": facts,
            "evidence": evidence,
            "slots": slots,
            "supersedes": supersedes,
            "change_rows": change_rows or [],
            "counts": counts,
        },
        now=now,
    )


async def link_correction(tx: Tx, *, group_id: str, old_id: str, new_id: str) -> None:
    await run(tx, q.LINK_CORRECTION, group_id=group_id, old_id=old_id, new_id=new_id)


async def fact_for_update(tx: Tx, *, group_id: str, fact_id: str) -> dict[str, Any] | None:
    rows = await run(tx, q.FACT_FOR_UPDATE, group_id=group_id, fact_id=fact_id)
    return rows[0] if rows else None
