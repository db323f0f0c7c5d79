"""Apply schema migrations idempotently and check the stored embedding model (DESIGN §6)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from graphmem.errors import EmbeddingMismatch, StoreUnavailable
from graphmem.store import context
from graphmem.store.cypher import analysis, schema
from graphmem.store.driver import Store, Tx, run
from graphmem.text import ANALYSIS_VERSION, node_text_fields


async def apply_migrations(store: Store, *, dimension: int) -> list[str]:
    """Create constraints and indexes; return the ids applied by this call (empty when up to date)."""
    done = {row["id"] for row in await store.read(schema.APPLIED_MIGRATIONS)}
    applied: list[str] = []
    for migration in schema.migrations(dimension):
        if migration.id in done:
            continue
        for statement in migration.statements:
            await store.write(statement)  # schema statements need their own transactions
        await store.write(schema.RECORD_MIGRATION, id=migration.id, description=migration.description)
        applied.append(migration.id)
    return applied


async def check_embedding_model(store: Store, *, model: str, dimension: int) -> None:
    """Record the model on first start; refuse a different one later (fix: ``graphmem reembed``)."""
    rows = await store.read(schema.GET_EMBEDDING_META)
    if not rows:
        await store.write(schema.SET_EMBEDDING_META, model=model, dimension=dimension)
        return
    stored = rows[0]
    if stored["model"] != model or int(stored["dimension"]) != dimension:
        raise EmbeddingMismatch(
            f"the graph holds embeddings of {stored['model']} ({stored['dimension']}-d) but "
            f"{model} ({dimension}-d) is configured; run `graphmem reembed` to rewrite them, "
            "or configure the stored model",
            details={"stored": stored, "configured": {"model": model, "dimension": dimension}},
        )


async def reanalyze_text(
    store: Store, *, version: int = ANALYSIS_VERSION, page: int = 1000, group_id: str | None = None
) -> int:
    """Rewrite every node's analysed text when the stored analysis version is not ``version``, then
    the episodes' session context (idempotent: a crash midway redoes the pass at the next start;
    deadlocks with live writers are retried). With ``group_id``: that group only, unconditionally,
    and the recorded version is left alone. At the end the groups covered get a new revision and
    are marked reset (graphmem.store.snapshot). Returns nodes rewritten."""
    if group_id is None:
        rows = await store.read(analysis.GET_ANALYSIS_VERSION)
        if rows and rows[0]["version"] == version:
            return 0
    rewritten = 0
    for label, query in analysis.PAGE.items():
        async for batch in _pages(store, query, page, group_id):
            fields = [{"id": r["id"], **node_text_fields(label, r)} for r in batch]
            await store.execute(_write(analysis.SET_FIELDS[label], fields), write=True)
            rewritten += len(fields)
    async for batch in _pages(store, analysis.PAGE_EPISODE_GROUPS, page, group_id):
        by_group: dict[str, list[str]] = {}
        for r in batch:
            by_group.setdefault(r["group_id"], []).append(r["id"])
        for gid, ids in by_group.items():
            await store.execute(_refresh(gid, ids), write=True)
    if rewritten:
        await store.write(analysis.RESET_GROUPS, group_id=group_id)
    if group_id is None:
        await store.write(analysis.SET_ANALYSIS_VERSION, version=version)
    return rewritten


async def _pages(
    store: Store, query: str, page: int, group_id: str | None
) -> AsyncIterator[list[dict[str, Any]]]:
    after = ""
    while batch := await store.read(query, after=after, limit=page, group_id=group_id):
        yield batch
        after = batch[-1]["id"]


def _write(query: str, rows: list[dict[str, Any]]) -> Callable[[Tx], Awaitable[None]]:
    async def work(tx: Tx) -> None:
        await run(tx, query, rows=rows)

    return work


def _refresh(group_id: str, ids: list[str]) -> Callable[[Tx], Awaitable[None]]:
    async def work(tx: Tx) -> None:
        await context.refresh_ids(tx, group_id=group_id, ids=ids)

    return work


async def wait_for_indexes(store: Store, *, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        rows = await store.read(schema.INDEX_STATES)
        pending = [r["name"] for r in rows if r["state"] != "ONLINE"]
        failed = [r["name"] for r in rows if r["state"] == "FAILED"]
        if failed:
            raise StoreUnavailable(f"indexes failed to populate: {', '.join(failed)}")
        if not pending:
            return
        if time.monotonic() > deadline:
            raise StoreUnavailable(f"indexes not ONLINE after {timeout:.0f}s: {', '.join(pending)}")
        await asyncio.sleep(0.2)


async def prepare_schema(store: Store, *, model: str, dimension: int) -> list[str]:
    """Start-up: migrate, check the embedding model, wait for every index to be ONLINE."""
    await check_embedding_model(store, model=model, dimension=dimension)
    applied = await apply_migrations(store, dimension=dimension)
    await reanalyze_text(store)
    await wait_for_indexes(store)
    return applied


async def schema_snapshot(store: Store) -> list[dict[str, object]]:
    return await store.read(schema.SCHEMA_SNAPSHOT)
