"""Apply schema migrations idempotently and check the stored embedding model (DESIGN §6)."""

from __future__ import annotations

import asyncio
import time

from graphmem.errors import EmbeddingMismatch, StoreUnavailable
from graphmem.store.cypher import schema
from graphmem.store.driver import Store


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
    await wait_for_indexes(store)
    return applied


async def schema_snapshot(store: Store) -> list[dict[str, object]]:
    return await store.read(schema.SCHEMA_SNAPSHOT)
