"""The change log (docs/schema.md, ``:Change``): every write appends its records in its own
transaction, under the group lock, so a record exists exactly when its change does.

Who asks for a write travels in a ``contextvars.ContextVar`` (``ChangeMeta``) set at the edge: the
API sets it per request (``api/deps.py``, each request runs in its own task, so nothing leaks to
another request), the CLI per command, a library user with ``with change_context(...):``. Without
one the actor is ``library``. Facts an extractor derived name the extractor as actor and the
edge's actor as ``requested_by``.

Kinds (``graphmem.models.changes.ChangeKind``): ``episode_added``; ``fact_*`` from the
``FactChange`` list each write computes (created, evidence_added, updated, ended, superseded,
corrected or retracted (expired), merged) and ``fact_archived`` (maintain); ``entity_merged`` (a
name matched to an existing entity and kept as its alias); ``forget``; ``import``.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token
from datetime import datetime
from functools import cache
from importlib import metadata
from typing import Any

from graphmem.errors import InvalidInput, InvalidTimeRange
from graphmem.memory.context import MemoryContext
from graphmem.memory.facts import FactWrites
from graphmem.models.changes import MAINTAIN, Actor, ChangeMeta, ChangePage, ChangeRecord
from graphmem.models.fact import FactChange
from graphmem.store import changes as repo
from graphmem.store import lifecycle as lifecycle_repo
from graphmem.store.driver import Tx

_DEFAULT = ChangeMeta()
_meta: ContextVar[ChangeMeta | None] = ContextVar("graphmem_change_meta", default=None)


def current() -> ChangeMeta:
    return _meta.get() or _DEFAULT


def set_meta(meta: ChangeMeta) -> Token[ChangeMeta | None]:
    """For edges that own their task (an API request): set, and let the task end it."""
    return _meta.set(meta)


@contextmanager
def change_context(
    *, actor: Actor | None = None, reason: str | None = None, consent_id: str | None = None
) -> Iterator[ChangeMeta]:
    """Writes inside the block are recorded with this actor, reason and consent id."""
    meta = ChangeMeta(actor=actor or current().actor, reason=reason, consent_id=consent_id)
    token = _meta.set(meta)
    try:
        yield meta
    finally:
        _meta.reset(token)


def _hash(payload: dict[str, Any] | None) -> tuple[str | None, str | None]:
    if payload is None:
        return None, None
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return text, hashlib.sha256(text.encode()).hexdigest()


def record(
    kind: str,
    targets: Iterable[str],
    *,
    meta: ChangeMeta,
    actor: Actor | None = None,
    occurred_at: datetime | None = None,
    version_before: int | None = None,
    version_after: int | None = None,
    sources: Iterable[str] = (),
    valid_from: datetime | None = None,
    valid_to: datetime | None = None,
    content_hash: str | None = None,
    payload: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One record row (pure); ``actor`` overrides the edge's, which then becomes ``requested_by``."""
    who = actor or meta.actor
    text, digest = _hash(payload)
    return {
        "id": str(uuid.uuid4()),
        "kind": kind,
        "target_ids": list(targets),
        "version_before": version_before,
        "version_after": version_after,
        "occurred_at": occurred_at,
        "actor": who.id,
        "actor_role": who.role,
        "requested_by": meta.actor.id if actor is not None and actor != meta.actor else None,
        "reason": meta.reason,
        "consent_id": meta.consent_id,
        "source_episode_ids": sorted(set(sources)),
        "valid_from": valid_from,
        "valid_to": valid_to,
        "content_hash": content_hash,
        "payload": text,
        "payload_hash": digest,
    }


_FACT_KIND = {
    "created": "fact_created",
    "evidence_added": "fact_evidence_added",
    "updated": "fact_updated",
    "ended": "fact_ended",
    "superseded": "fact_superseded",
    "merged": "fact_merged",
}


def fact_kind(change: str, op: str) -> str:
    """A ``FactChange.change`` as a record kind; an expiry is a retraction when the write was one."""
    if change == "expired":
        return "fact_retracted" if op == "retract" else "fact_corrected"
    return _FACT_KIND[change]


def _occurred(c: FactChange, now: datetime) -> datetime:
    if c.change == "created" and c.valid_from is not None:
        return c.valid_from
    if c.change in ("ended", "superseded") and c.valid_to is not None:
        return c.valid_to
    return now


def fact_records(
    out: FactWrites,
    *,
    meta: ChangeMeta,
    op: str,
    now: datetime,
    sources: frozenset[str] | set[str] = frozenset(),
    actor: Actor | None = None,
    skip: frozenset[str] | set[str] = frozenset(),
) -> list[dict[str, Any]]:
    """One record per ``FactChange`` (pure). ``sources``: the episodes behind this write; each
    record keeps those among its fact's evidence."""
    evidence: dict[str, set[str]] = {}
    for e in out.evidence:
        evidence.setdefault(e["fact_id"], set()).add(e["episode_id"])
    rows: list[dict[str, Any]] = []
    for c in out.changes:
        if c.fact_id in skip:
            continue
        before = out.versions.get(c.fact_id)
        merged = c.change == "merged"
        rows.append(
            record(
                fact_kind(c.change, op),
                [c.fact_id],
                meta=meta,
                actor=actor,
                occurred_at=_occurred(c, now),
                version_before=before or None,
                version_after=None if merged else (before or 0) + 1,
                sources=evidence.get(c.fact_id, set()) & sources,
                valid_from=c.valid_from,
                valid_to=c.valid_to,
                payload=None if merged else {"statement": c.statement},
            )
        )
    return rows


def episode_records(rows: list[dict[str, Any]], *, meta: ChangeMeta) -> list[dict[str, Any]]:
    return [
        record(
            "episode_added",
            [r["id"]],
            meta=meta,
            occurred_at=r["reference_time"],
            version_after=1,
            sources=[r["id"]],
            content_hash=r["content_hash"],
            payload={k: r[k] for k in ("external_id", "session_id", "speaker", "source")},
        )
        for r in rows
    ]


def merge_records(
    aliases: list[dict[str, str]], *, meta: ChangeMeta, actor: Actor | None, now: datetime
) -> list[dict[str, Any]]:
    """A name matched to an existing entity (kept as its alias): one ``entity_merged`` each."""
    return [
        record(
            "entity_merged", [a["id"]], meta=meta, actor=actor, occurred_at=now, payload={"alias": a["alias"]}
        )
        for a in aliases
    ]


def extractor_actor(ctx: MemoryContext) -> Actor:
    """``extractor:<name>@<version>``: the extractor's own ``version`` when it has one, else
    graphmem's (the rules extractor is versioned with the package)."""
    name = getattr(ctx.extractor, "name", type(ctx.extractor).__name__)
    return Actor.extractor(str(name), str(getattr(ctx.extractor, "version", None) or _package_version()))


@cache
def _package_version() -> str:
    try:
        return metadata.version("graphmem")
    except metadata.PackageNotFoundError:
        return "0"


async def append(
    tx: Tx, ctx: MemoryContext, group_id: str, rows: list[dict[str, Any]], now: datetime
) -> None:
    if ctx.change_log and rows:
        await repo.append(tx, group_id=group_id, rows=rows, now=now)


def ingest_records(
    ctx: MemoryContext,
    *,
    episodes: list[dict[str, Any]],
    aliases: list[dict[str, str]],
    out: FactWrites,
    sources: set[str],
    extracted: bool,
    now: datetime,
) -> list[dict[str, Any]]:
    """Records of one ingestion write (pure; none with the change log off): each episode added,
    each name merged into an entity, each fact change (the extractor is the actor of what it
    derived; explicit facts: the edge's)."""
    if not ctx.change_log:
        return []
    meta = current()
    actor = extractor_actor(ctx) if extracted else None
    rows = episode_records(episodes, meta=meta)
    rows += merge_records(aliases, meta=meta, actor=actor, now=now)
    rows += fact_records(out, meta=meta, op="ingest", now=now, sources=sources, actor=actor)
    return rows


async def record_facts(
    tx: Tx, ctx: MemoryContext, group_id: str, out: FactWrites, *, op: str, now: datetime
) -> None:
    """Records of a correction, an end or a retraction (the API's or the library's)."""
    await append(tx, ctx, group_id, fact_records(out, meta=current(), op=op, now=now), now)


async def record_forget(
    tx: Tx,
    ctx: MemoryContext,
    group_id: str,
    *,
    scope: str,
    targets: list[str],
    plans: list[FactWrites],
    hashes: list[str],
    now: datetime,
) -> None:
    """Forget: strip the content of every earlier record naming what went, then one ``forget``
    record (targets: what was asked for and the facts deleted with it; payload: no content, the
    forgotten episodes' content hashes) and a record per surviving fact the forget re-resolved.
    The content goes from records written earlier even while the log is switched off."""
    deleted = sorted({i for p in plans for i in p.delete_ids})
    gone = sorted(set(targets) | set(deleted))
    await repo.redact(tx, group_id=group_id, ids=None if scope == "group" else gone, now=now)
    if not ctx.change_log:
        return
    meta = current()
    rows = [
        record(
            "forget",
            [*targets, *[d for d in deleted if d not in targets]],
            meta=meta,
            occurred_at=now,
            sources=targets if scope == "episode" else (),
            payload={"scope": scope, "content_hashes": sorted(hashes), "facts_deleted": len(deleted)},
        )
    ]
    for p in plans:
        rows += fact_records(p, meta=meta, op="forget", now=now, skip=set(deleted))
    await repo.append(tx, group_id=group_id, rows=rows, now=now)


async def record_import(
    tx: Tx,
    ctx: MemoryContext,
    group_id: str,
    *,
    label: str,
    ids: list[str],
    source_group: str | None,
    now: datetime,
) -> None:
    rows = [
        record(
            "import",
            ids,
            meta=current(),
            occurred_at=now,
            sources=ids if label == "Episode" else (),
            payload={"label": label, "nodes": len(ids), "source_group": source_group},
        )
    ]
    await append(tx, ctx, group_id, rows, now)


async def archive_facts(ctx: MemoryContext, group_id: str, ids: list[str], now: datetime, tx: Tx) -> int:
    """Archive (``maintain``) and record one ``fact_archived`` per fact it archived."""
    count = await lifecycle_repo.archive_facts(tx, ids=ids, now=now)
    if ctx.change_log and count:
        done = await repo.archived_at(tx, group_id=group_id, ids=ids, now=now)
        meta = current()
        rows = [
            record(
                "fact_archived",
                [r["id"]],
                meta=meta,
                actor=MAINTAIN,
                occurred_at=now,
                version_before=r["version"],
                version_after=r["version"],
                payload={"statement": r["statement"]},
            )
            for r in done
        ]
        await repo.append(tx, group_id=group_id, rows=rows, now=now)
    return count


def parse_cursor(cursor: str | None) -> tuple[int, int]:
    if not cursor:
        return (-1, -1)
    seq, _, n = cursor.partition(".")
    if not (seq.isdigit() and n.isdigit()):
        raise InvalidInput("cursor must be a next_cursor this route returned", details={"field": "cursor"})
    return int(seq), int(n)


def _record(row: dict[str, Any]) -> ChangeRecord:
    payload = row.get("payload")
    return ChangeRecord.model_validate({**row, "payload": json.loads(payload) if payload else None})


async def read_changes(
    ctx: MemoryContext,
    group_id: str,
    *,
    since: datetime | None = None,
    until: datetime | None = None,
    target: str | None = None,
    cursor: str | None = None,
    limit: int = 100,
) -> ChangePage:
    """The group's records in log order after ``cursor`` (``next_cursor`` of the previous page)."""
    if since is not None and until is not None and until <= since:
        raise InvalidTimeRange("until must be after since", details={"field": "until"})
    rows = await repo.page(
        ctx.store,
        group_id=group_id,
        after=parse_cursor(cursor),
        since=since,
        until=until,
        target=target,
        limit=limit + 1,
    )
    records = [_record(r) for r in rows[:limit]]
    return ChangePage(
        changes=records,
        next_cursor=records[-1].cursor if records else cursor,
        has_more=len(rows) > limit,
    )
