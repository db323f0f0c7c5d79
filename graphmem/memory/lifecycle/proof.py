"""Proof of forgetting (docs/lifecycle.md, "Proof of forgetting"): for a group, or one external
id of it, look in every store its content could live in and say what each still holds.

Stores: ``graph`` (episodes, facts, entities; by id, and by the probe texts), ``fulltext`` (the
three Lucene indexes, by the group's token or by the probes), ``vector`` (the group's embedded
nodes; for probes, near-identical neighbours of their embeddings), ``tenant_index`` (this
process's in-memory index of the group, brought current first), ``index_snapshot`` (the group's
tenant index snapshot file, when a snapshot directory is configured), ``change_log`` (records whose
payload still holds content), ``vault`` (PII originals that no remaining text names) and
``export_dir`` (JSONL exports and backups under a configured directory: copies a forget cannot
reach, listed so that their owner can). ``tombstones`` are listed too: keys and content hashes
only, kept so that imports and restores do not resurrect what was forgotten.

Probes are texts the caller knows were forgotten (an episode's content): an external id's
content is gone from the graph, so only the caller can say what to look for. They are
tokenised as written text is, so a probe holding PII finds its token.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

from graphmem.memory.context import MemoryContext
from graphmem.models.privacy import ForgetProof, StoreCheck
from graphmem.privacy import tokens_in
from graphmem.retrieval.tenant_index.index import TARGETS, Target, TenantIndex
from graphmem.retrieval.tenant_index.persist import SnapshotError
from graphmem.retrieval.tenant_index.registry import TenantIndexes
from graphmem.store import privacy as repo
from graphmem.temporal.normalize import group_token
from graphmem.text import escape_lucene, query_terms

FULLTEXT = ("episode_text", "fact_text", "entity_text")
VECTOR = ("episode_embedding", "fact_embedding", "entity_embedding")
NEAR_IDENTICAL = 0.98  # cosine of a probe's embedding to a node that holds the same text


def external_key(group_id: str, external_id: str) -> str:
    """The idempotency key of an episode sent with ``external_id`` (``EpisodeIn.idempotency_key``)."""
    return hashlib.sha256(f"{group_id}\x1fext\x1f{external_id}".encode()).hexdigest()


async def prove(
    ctx: MemoryContext,
    indexes: TenantIndexes | None,
    group_id: str,
    *,
    external_id: str | None = None,
    probes: Sequence[str] = (),
    export_dir: Path | None = None,
) -> ForgetProof:
    texts = _probes(ctx, group_id, probes)
    scoped = external_id is not None or bool(texts)
    stores = [
        await _graph(ctx, group_id, external_id, texts),
        await _fulltext(ctx, group_id, texts, scoped),
        await _vector(ctx, group_id, texts, scoped),
        await _tenant_index(indexes, group_id, texts, scoped),
        await _index_snapshot(indexes, group_id, texts, scoped),
        await _changes(ctx, group_id, external_id, texts),
        await _vault(ctx, group_id, texts, scoped),
        _exports(export_dir, group_id, external_id, texts),
    ]
    graph = await repo.proof_graph(
        ctx.store,
        group_id=group_id,
        external_id=external_id,
        key=external_key(group_id, external_id) if external_id else None,
    )
    stores.append(
        StoreCheck(
            store="tombstones",
            holds_content=False,
            found=int(graph["tombstones"]),
            detail="keys and content hashes only: they keep imports and restores from resurrecting",
        )
    )
    return ForgetProof(
        group_id=group_id,
        external_id=external_id,
        probes=len(texts),
        checked_at=ctx.clock(),
        forgotten=all(s.found == 0 for s in stores if s.holds_content and s.store != "export_dir"),
        stores=stores,
    )


def _probes(ctx: MemoryContext, group_id: str, probes: Sequence[str]) -> list[str]:
    out: list[str] = []
    for text in (p.strip() for p in probes):
        if not text:
            continue
        out.append(text)
        if ctx.redactor is not None:
            redacted = ctx.redactor.redact(group_id, text, always=True).text
            if redacted != text:
                out.append(redacted)
    return list(dict.fromkeys(out))


async def _graph(ctx: MemoryContext, group_id: str, external_id: str | None, texts: list[str]) -> StoreCheck:
    graph = await repo.proof_graph(ctx.store, group_id=group_id, external_id=external_id, key=None)
    if external_id is not None or texts:
        ids = list(graph["episodes"]) if external_id is not None else []
        ids += await repo.proof_text(ctx.store, group_id=group_id, probes=texts)
        ids = sorted(set(ids))
        return StoreCheck(
            store="graph",
            found=len(ids),
            ids=ids,
            detail="episodes of the external id; nodes holding a probe",
        )
    ids = sorted([*graph["episodes"], *graph["facts"], *graph["entities"]])[:100]
    counts = (graph["n_episodes"], graph["n_facts"], graph["n_entities"])
    detail = "{} episodes, {} facts, {} entities".format(*counts)
    return StoreCheck(store="graph", found=sum(counts), ids=ids, detail=detail)


async def _fulltext(ctx: MemoryContext, group_id: str, texts: list[str], scoped: bool) -> StoreCheck:
    ids: set[str] = set()
    for index in FULLTEXT:
        if not scoped:
            hits = await repo.proof_fulltext(
                ctx.store, group_id=group_id, index=index, lucene=f'group_token:"{group_token(group_id)}"'
            )
            ids |= {h["id"] for h in hits}
        for text in texts:
            terms = " ".join(query_terms(text))
            query = f'search_text:"{escape_lucene(text)}"' + (f" OR search_text:({terms})" if terms else "")
            hits = await repo.proof_fulltext(ctx.store, group_id=group_id, index=index, lucene=query)
            ids |= {h["id"] for h in hits if text in h["text"]}
    detail = "any node of the group" if not scoped else "hits whose text holds a probe"
    return StoreCheck(store="fulltext", found=len(ids), ids=sorted(ids)[:100], detail=detail)


async def _vector(ctx: MemoryContext, group_id: str, texts: list[str], scoped: bool) -> StoreCheck:
    if not scoped:
        embedded = await repo.proof_embedded(ctx.store, group_id=group_id)
        return StoreCheck(store="vector", found=embedded, detail="nodes of the group with an embedding")
    ids: set[str] = set()
    if texts:
        vectors = await ctx.embed(texts)
        for vector in vectors:
            for index in VECTOR:
                ids |= set(
                    await repo.proof_vector(
                        ctx.store,
                        group_id=group_id,
                        index=index,
                        vector=[float(x) for x in vector],
                        k=50,
                        min_score=NEAR_IDENTICAL,
                    )
                )
    detail = f"nearest neighbours of the probes' embeddings with cosine >= {NEAR_IDENTICAL}"
    return StoreCheck(store="vector", checked=bool(texts), found=len(ids), ids=sorted(ids), detail=detail)


async def _tenant_index(
    indexes: TenantIndexes | None, group_id: str, texts: list[str], scoped: bool
) -> StoreCheck:
    if indexes is None:
        return StoreCheck(store="tenant_index", checked=False, detail="the tenant index is off")
    async with indexes.acquire(group_id, await indexes.state(group_id)) as index:
        if index is None:
            return StoreCheck(store="tenant_index", detail="no index of the group is held")
        held = _held(index)
    return _held_check("tenant_index", held, texts, scoped, "held in this process")


async def _index_snapshot(
    indexes: TenantIndexes | None, group_id: str, texts: list[str], scoped: bool
) -> StoreCheck:
    if indexes is None or indexes.snapshots is None:
        return StoreCheck(store="index_snapshot", checked=False, detail="no snapshot directory configured")
    path = indexes.snapshots.path(group_id)
    try:
        saved = await indexes.read_snapshot(group_id)
    except (SnapshotError, OSError) as exc:  # there, but unreadable: it may hold anything
        return StoreCheck(
            store="index_snapshot", found=1, ids=[str(path)], detail=f"an unreadable snapshot file ({exc})"
        )
    if saved is None:
        return StoreCheck(store="index_snapshot", detail="no snapshot file of the group")
    return _held_check("index_snapshot", _held(saved), texts, scoped, f"in {path}")


def _held(index: TenantIndex) -> list[tuple[str, str]]:
    """(node id, text) of every node an index holds."""
    return [(node_id, text) for t in TARGETS for node_id, text in _entries(index.targets[t])]


def _held_check(
    store: str, held: list[tuple[str, str]], texts: list[str], scoped: bool, where: str
) -> StoreCheck:
    if scoped:
        hits = sorted({node_id for node_id, text in held if any(p in text for p in texts)})
        return StoreCheck(store=store, found=len(hits), ids=hits, detail=f"texts holding a probe, {where}")
    return StoreCheck(
        store=store,
        found=len(held),
        ids=sorted({i for i, _ in held})[:100],
        detail=f"nodes of the group {where}",
    )


def _entries(target: Target) -> list[tuple[str, str]]:
    slots, texts = target.slots, target.texts
    return [(node_id, texts[i] if i < len(texts) else "") for i, node_id in enumerate(slots.ids)]


async def _changes(
    ctx: MemoryContext, group_id: str, external_id: str | None, texts: list[str]
) -> StoreCheck:
    ids = await repo.proof_changes(ctx.store, group_id=group_id, external_id=external_id, probes=texts)
    return StoreCheck(
        store="change_log", found=len(ids), ids=ids[:100], detail="records whose payload holds content"
    )


async def _vault(ctx: MemoryContext, group_id: str, texts: list[str], scoped: bool) -> StoreCheck:
    tokens = sorted(set().union(*(tokens_in(t) for t in texts))) if scoped else None
    if scoped and not tokens:
        return StoreCheck(store="vault", detail="the probes hold no PII token")
    rows = await repo.proof_vault(ctx.store, group_id=group_id, tokens=tokens)
    orphans = [r["token"] for r in rows if not r["named"]]
    found = orphans if scoped else [r["token"] for r in rows]
    named = len(rows) - len(orphans)
    detail = (
        f"{named} entries still named by the group's remaining text" if scoped else "entries of the group"
    )
    return StoreCheck(store="vault", found=len(found), ids=found, detail=detail)


def _exports(export_dir: Path | None, group_id: str, external_id: str | None, texts: list[str]) -> StoreCheck:
    if export_dir is None:
        return StoreCheck(store="export_dir", checked=False, detail="no export directory configured")
    files: list[str] = []
    for path in sorted(export_dir.rglob("*.jsonl")):
        if _file_holds(path, group_id, external_id, texts):
            files.append(str(path))
    return StoreCheck(
        store="export_dir",
        found=len(files),
        ids=files,
        detail=f"files under {export_dir} holding the content (copies: delete or keep them offline)",
    )


def _file_holds(path: Path, group_id: str, external_id: str | None, texts: list[str]) -> bool:
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue
            props = record.get("properties") or {}
            if record.get("type") != "node" or record.get("label") == "Tombstone":
                continue
            if props.get("group_id") != group_id:
                continue
            if external_id is None and not texts:
                return True
            if external_id is not None and props.get("external_id") == external_id:
                return True
            if any(t in line for t in texts):
                return True
    return False
