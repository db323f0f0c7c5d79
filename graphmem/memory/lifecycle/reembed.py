"""Re-embed: rewrite every embedding with the configured embedder, in batches, resumably.

Progress is a cursor (label, last id done) in ``(:GraphmemMeta {key: 'reembed'})``, saved in the same
transaction as each batch, so an interrupted run resumes where it stopped. For a full run whose
dimension differs from the vector indexes', the indexes are dropped first and recreated at the new
dimension at the end; the recorded model (``GraphmemMeta {key: 'embedding'}``) is updated last, which
is what lets the service start again. A run scoped to one group keeps the indexes and the recorded
model, so it needs the indexes' dimension (it repairs or refreshes one tenant). Each batch locks
the groups of its nodes and marks them reset (graphmem.store.snapshot).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from graphmem.errors import ConfigError
from graphmem.memory.context import MemoryContext
from graphmem.models.lifecycle import ReembedReport
from graphmem.store import lifecycle as repo
from graphmem.store.migrations import wait_for_indexes

LABELS = ("Episode", "Fact", "Entity")
_COUNT = {"Episode": "episodes", "Fact": "facts", "Entity": "entities"}


@dataclass
class _Cursor:
    label: str = LABELS[0]
    after: str = ""
    episodes: int = 0
    facts: int = 0
    entities: int = 0
    batches: int = 0


async def reembed(
    ctx: MemoryContext, *, batch_size: int = 256, resume: bool = True, group_id: str | None = None
) -> ReembedReport:
    model, dimension = ctx.embedder.model_name, ctx.embedder.dimension
    meta = await repo.embedding_meta(ctx.store)
    indexes = await repo.vector_index_dimensions(ctx.store)
    resize = group_id is None and (len(indexes) < len(LABELS) or set(indexes.values()) != {dimension})
    if group_id is not None and any(d != dimension for d in indexes.values()):
        raise ConfigError(
            f"the vector indexes are {sorted(set(indexes.values()))}-d but {model} is {dimension}-d; "
            "a dimension change needs a full `graphmem reembed` (all groups)",
            details={"indexes": indexes, "dimension": dimension},
        )
    cursor, resumed = await _open_cursor(ctx, model, dimension, group_id, resume)
    if resize:
        await repo.drop_vector_indexes(ctx.store)
    await _run(ctx, cursor, model=model, dimension=dimension, group_id=group_id, batch_size=batch_size)
    if resize:
        await repo.create_vector_indexes(ctx.store, dimension=dimension)
        await wait_for_indexes(ctx.store)
    async with ctx.store.transaction() as tx:
        if group_id is None:
            await repo.set_embedding_meta(tx, model=model, dimension=dimension)
        await repo.clear_reembed_cursor(tx, group_id=group_id)
    return ReembedReport(
        model=model,
        dimension=dimension,
        previous_model=meta["model"] if meta else None,
        previous_dimension=int(meta["dimension"]) if meta else None,
        group_id=group_id,
        episodes=cursor.episodes,
        facts=cursor.facts,
        entities=cursor.entities,
        batches=cursor.batches,
        resumed=resumed,
        indexes_recreated=resize,
    )


async def _open_cursor(
    ctx: MemoryContext, model: str, dimension: int, group_id: str | None, resume: bool
) -> tuple[_Cursor, bool]:
    async with ctx.store.transaction(write=False) as tx:
        saved = await repo.reembed_cursor(tx, group_id=group_id)
    same = saved is not None and (saved["model"], saved["dimension"], saved["group_id"]) == (
        model,
        dimension,
        group_id,
    )
    if resume and saved is not None and same and saved["label"] in LABELS:
        fields = ("label", "after", "episodes", "facts", "entities", "batches")
        return _Cursor(**{k: saved[k] for k in fields if saved[k] is not None}), True
    return _Cursor(), False


async def _run(
    ctx: MemoryContext, cursor: _Cursor, *, model: str, dimension: int, group_id: str | None, batch_size: int
) -> None:
    for label in LABELS[LABELS.index(cursor.label) :]:
        if label != cursor.label:
            cursor.label, cursor.after = label, ""
        while True:
            async with ctx.store.transaction(write=False) as tx:
                page = await repo.reembed_page(
                    tx, label=label, group_id=group_id, after=cursor.after, limit=batch_size
                )
            if not page:
                break
            vectors = await ctx.embed([r["text"] for r in page])
            rows = [
                {"id": r["id"], "embedding": [float(x) for x in v]}
                for r, v in zip(page, vectors, strict=True)
            ]
            cursor.after = page[-1]["id"]
            setattr(cursor, _COUNT[label], getattr(cursor, _COUNT[label]) + len(rows))
            cursor.batches += 1
            async with ctx.store.transaction() as tx:
                await repo.lock_reset_groups(tx, group_ids=[r["group_id"] for r in page if r["group_id"]])
                await repo.set_embeddings(tx, label=label, rows=rows)
                await repo.save_reembed_cursor(tx, group_id=group_id, **_saved(cursor, model, dimension))


def _saved(cursor: _Cursor, model: str, dimension: int) -> dict[str, Any]:
    return {
        "model": model,
        "dimension": dimension,
        "label": cursor.label,
        "after": cursor.after,
        "episodes": cursor.episodes,
        "facts": cursor.facts,
        "entities": cursor.entities,
        "batches": cursor.batches,
    }
