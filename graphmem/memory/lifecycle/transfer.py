"""Export a group as records and import records back (idempotent: MERGE by id, properties replaced).

An export runs in one transaction that holds the group's write lock (every writer of a group takes
it), so it is a consistent snapshot of that group. An import writes nodes in batches under the
group lock, then the relationships, then recounts the group; a file embedded with another model
(or dimension) is re-embedded with the configured embedder on the way in. Every import transaction
marks the group reset for change-feed readers (graphmem.store.snapshot).

Forgetting survives an import: an episode whose idempotency key (in the target group, or in the
group the file came from) has a tombstone is left out and counted as ``forgotten``; the claims it
gave are stripped from the imported facts and their slots re-resolved, as ``forget`` does (facts
only it supported go; entities left with nothing go). ``allow_forgotten`` brings such episodes back
and deletes their tombstones, so the graph never holds an episode and its tombstone at once.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import AsyncIterable, AsyncIterator, Iterable
from datetime import datetime
from typing import Any

from graphmem.clock import as_utc
from graphmem.errors import Conflict, InvalidInput
from graphmem.memory import changes
from graphmem.memory.context import MemoryContext
from graphmem.memory.lifecycle import records, retarget
from graphmem.memory.lifecycle.forget import (
    entity_tombstone_key,
    forget_entity_in_tx,
    group_tombstone_key,
    rewrite_slots,
)
from graphmem.models.lifecycle import ImportReport
from graphmem.store import context, writes
from graphmem.store import lifecycle as repo
from graphmem.store.driver import Tx
from graphmem.text import episode_text, node_text_fields

EXPORT_LABELS = ("Entity", "Episode", "Fact", "Tombstone")
EMBEDDED = {"Episode": "content", "Fact": "statement", "Entity": "name"}


def _parse_time(value: Any) -> datetime | None:
    try:
        return as_utc(datetime.fromisoformat(str(value)))
    except (TypeError, ValueError):
        return None


def _claim_episodes(properties: dict[str, Any]) -> frozenset[str]:
    """The episode ids a fact's claims cite (claims are JSON strings, graphmem/temporal/claims.py)."""
    cited: set[str] = set()
    for text in properties.get("claims") or []:
        try:
            episode = json.loads(text).get("episode_id")
        except (TypeError, ValueError, AttributeError):
            continue
        if episode:
            cited.add(str(episode))
    return frozenset(cited)


def _embedded_text(label: str, field: str, props: dict[str, Any]) -> str:
    """The text an embedding stands for (episodes: "speaker: content", as ingestion embeds them)."""
    text = str(props.get(field) or "")
    return episode_text(props.get("speaker"), text) if label == "Episode" else text


BATCH = 500


async def export_group(
    ctx: MemoryContext, group_id: str, since: datetime | None = None, *, consistent: bool = True
) -> AsyncIterator[dict[str, Any]]:
    since = as_utc(since) if since is not None else None
    meta = await repo.embedding_meta(ctx.store)
    yield records.header(
        group_id=group_id,
        model=meta["model"] if meta else ctx.embedder.model_name,
        dimension=int(meta["dimension"]) if meta else ctx.embedder.dimension,
        exported_at=ctx.clock(),
        since=since,
    )
    async with ctx.store.transaction(write=consistent) as tx:
        if consistent:
            await repo.lock_existing_group(tx, group_id=group_id)
        for label in EXPORT_LABELS:
            async for row in repo.export_nodes(tx, label=label, group_id=group_id, since=since):
                properties = row["properties"]
                properties.pop("rev", None)  # a revision of this database's group (import stamps anew)
                yield records.node_record(label, properties, row["labels"])
        for owner in ("Episode", "Fact"):
            async for row in repo.export_rels(tx, owner=owner, group_id=group_id, since=since):
                yield records.rel_record(row["rel_type"], row["start_id"], row["end_id"], row["properties"])


async def import_records(
    ctx: MemoryContext,
    items: Iterable[dict[str, Any]] | AsyncIterable[dict[str, Any]],
    *,
    target_group: str | None = None,
    allow_forgotten: bool = False,
) -> ImportReport:
    importer = _Importer(ctx, target_group, allow_forgotten=allow_forgotten)
    async for record in _each(items):
        await importer.add(record)
    await importer.finish_group()
    if importer.header is None:
        raise InvalidInput("nothing to import: no header record", details={})
    return importer.report


async def _each(items: Iterable[dict[str, Any]] | AsyncIterable[dict[str, Any]]) -> AsyncIterator[dict]:
    if isinstance(items, AsyncIterable):
        async for item in items:
            yield item
    else:
        for item in items:
            yield item


class _Importer:
    def __init__(self, ctx: MemoryContext, target: str | None, *, allow_forgotten: bool) -> None:
        self.ctx, self.target = ctx, target
        self.allow_forgotten = allow_forgotten
        self.header: dict[str, Any] | None = None
        self.source = self.group = ""
        self.renamed = False
        self.reembed = False
        self.nodes: dict[str, list[dict[str, Any]]] = defaultdict(list)
        self.rels: list[dict[str, Any]] = []
        self.sessions: set[str] = set()  # sessions of imported episodes: their context is refreshed
        self.forgotten: set[str] = set()  # ids of the episodes left out (tombstoned), this group
        self.fact_episodes: list[tuple[str, frozenset[str]]] = []  # (slot, episodes its claims cite)
        self.entity_ids: list[str] = []  # entities imported: those left with nothing go at the end
        self.entity_sources: dict[str, str] = {}  # imported entity id -> its id in the file's group
        self.predates_forget = False  # the file's group was forgotten after this export: skip it all
        self.group_markers: list[str] = []  # allow_forgotten: group tombstones to delete
        self.report = ImportReport()

    async def add(self, record: dict[str, Any]) -> None:
        kind = record.get("type")
        if kind == "header":
            await self.finish_group()
            self._start(records.check_header(record))
            await self._check_group_forgotten()
        elif self.header is None:
            raise InvalidInput("an export starts with a header record", details={"type": kind})
        elif kind == "node":
            await self._node(record)
        elif kind == "rel":
            if not self.predates_forget:
                self._rel(record)
        else:
            raise InvalidInput(f"unknown record type {kind!r}", details={"type": kind})

    def _start(self, header: dict[str, Any]) -> None:
        source = str(header["group_id"])
        if self.target and self.header is not None and source != self.header["group_id"]:
            raise InvalidInput("--group needs a file of one group", details={"groups": [source]})
        self.header, self.source = header, source
        self.group = self.target or source
        embedder = self.ctx.embedder
        self.reembed = (header["embedding_model"], int(header.get("dimension") or 0)) != (
            embedder.model_name,
            embedder.dimension,
        )
        self.renamed = self.group != source
        if self.group not in self.report.groups:
            self.report.groups.append(self.group)

    async def _check_group_forgotten(self) -> None:
        """Whether the file's group (or the target) was forgotten after the file was exported."""
        assert self.header is not None
        keys = sorted({group_tombstone_key(self.source), group_tombstone_key(self.group)})
        async with self.ctx.store.transaction(write=False) as tx:
            forgotten_at = await repo.group_forgotten_at(tx, keys=keys)
        exported_at = _parse_time(self.header.get("exported_at"))
        if forgotten_at is None or exported_at is None or exported_at > as_utc(forgotten_at):
            return
        if self.allow_forgotten:
            self.group_markers = keys
        else:
            self.predates_forget = True

    async def _node(self, record: dict[str, Any]) -> None:
        label = str(record.get("label"))
        if label not in repo.NODE_LABELS:
            raise InvalidInput(f"unknown node label {label!r}", details={"label": label})
        if self.predates_forget:  # the group's forget wrote tombstones for all of it: nothing to add
            self.report.forgotten += label == "Episode"
            self.report.forgotten_facts += label == "Fact"
            return
        properties = records.decode_properties(record)
        source_key = properties.get("key") if label == "Episode" else None
        source_id = str(properties.get("id"))
        if properties.get("group_id") != self.source:
            raise InvalidInput(
                "a node of another group than the header's",
                details={"label": label, "group_id": properties.get("group_id"), "header": self.source},
            )
        if self.renamed:
            moved = retarget.node(label, properties, self.group)
            if moved is None:
                self.report.tombstones_skipped += 1
                return
            properties = moved
        key = properties.get("key") if label == "Tombstone" else properties.get("id")
        if not key:
            raise InvalidInput(f"a {label} node without its id", details={"label": label})
        extra = records.extra_labels(record)
        repo.check_extra_labels(label, extra)
        embedding = properties.pop("embedding", None)
        if label in EMBEDDED:  # analysed by this version, whatever wrote the file
            properties.update(node_text_fields(label, properties))
        if label == "Episode" and properties.get("session_id"):
            self.sessions.add(str(properties["session_id"]))
        if label == "Fact":
            self.fact_episodes.append((str(properties.get("slot")), _claim_episodes(properties)))
        if label == "Entity":
            self.entity_ids.append(str(key))
            self.entity_sources[str(key)] = source_id
        self.nodes[label].append(
            {
                "id": key,
                "properties": properties,
                "embedding": embedding,
                "extra": extra,
                "source_key": source_key,
            }
        )
        if len(self.nodes[label]) >= BATCH:
            await self._flush(label)

    def _rel(self, record: dict[str, Any]) -> None:
        for field in ("rel_type", "start_id", "end_id"):
            if not isinstance(record.get(field), str):
                raise InvalidInput(f"a relationship without {field}", details={"field": field})
        if record["rel_type"] not in repo.REL_TYPES:
            raise InvalidInput(f"unknown relationship type {record['rel_type']!r}", details={})
        row = retarget.rel(record, self.group) if self.renamed else record
        self.rels.append(
            {
                "rel_type": row["rel_type"],
                "start_id": row["start_id"],
                "end_id": row["end_id"],
                "properties": records.decode_properties(record),
            }
        )

    async def finish_group(self) -> None:
        if self.header is None:
            return
        if self.predates_forget:
            self.predates_forget = False
            return
        for label in list(self.nodes):
            await self._flush(label)
        by_type: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for rel in self.rels:
            by_type[rel["rel_type"]].append(rel)
        self.rels = []
        for rel_type, rows in sorted(by_type.items()):
            rows = [
                r for r in rows if r["start_id"] not in self.forgotten and r["end_id"] not in self.forgotten
            ]
            for start in range(0, len(rows), BATCH):
                chunk = rows[start : start + BATCH]
                async with self.ctx.store.transaction() as tx:
                    await writes.lock_group(tx, group_id=self.group, now=self.ctx.clock())
                    await repo.reset_group(tx, group_id=self.group)
                    written = await repo.import_rels(tx, rel_type=rel_type, group_id=self.group, rows=chunk)
                self.report.relationships += written
                self.report.relationships_skipped += len(chunk) - written
        sessions, self.sessions = sorted(self.sessions), set()
        async with self.ctx.store.transaction() as tx:
            await writes.lock_group(tx, group_id=self.group, now=self.ctx.clock())
            await repo.reset_group(tx, group_id=self.group)
            await self._strip_forgotten(tx, sessions)
            await self._forget_entities(tx)
            await repo.delete_tombstones(tx, keys=self.group_markers)
            await context.refresh_sessions(tx, group_id=self.group, session_ids=sessions)
            await repo.recount_group(tx, group_id=self.group, now=self.ctx.clock())
        self.forgotten, self.fact_episodes, self.entity_ids, self.group_markers = set(), [], [], []
        self.entity_sources = {}

    async def _strip_forgotten(self, tx: Tx, sessions: list[str]) -> None:
        """As ``forget`` does for the episodes left out: strip their claims from the imported facts
        and re-resolve those slots (a fact only they supported goes), close the sessions' gaps and
        delete imported entities left with no relationship."""
        if not self.forgotten:
            return
        gone = self.forgotten
        slots = sorted({slot for slot, cited in self.fact_episodes if cited & gone})
        before = len(await repo.load_slot_facts(tx, group_id=self.group, slots=slots)) if slots else 0
        if slots:
            await rewrite_slots(
                tx, self.ctx, self.group, slots, lambda _f, c: c.episode_id in gone, self.ctx.clock()
            )
        after = len(await repo.load_slot_facts(tx, group_id=self.group, slots=slots)) if slots else 0
        self.report.forgotten_facts += before - after
        await writes.relink_sessions(tx, group_id=self.group, session_ids=sessions)
        await repo.delete_orphan_entities(tx, group_id=self.group, ids=sorted(set(self.entity_ids)))

    async def _forget_entities(self, tx: Tx) -> None:
        """As ``forget_entity`` did: an imported entity with a tombstone (in this group, or under its
        id in the group the file came from) goes again, with the facts about it, its slots
        re-resolved; ``allow_forgotten`` keeps it and deletes its tombstone instead."""
        keys: dict[str, str] = {}
        for entity_id, source_id in self.entity_sources.items():
            keys[entity_tombstone_key(self.group, entity_id)] = entity_id
            keys[entity_tombstone_key(self.source, source_id)] = entity_id
        hit = await repo.tombstoned_keys(tx, keys=sorted(keys)) if keys else set()
        if not hit:
            return
        if self.allow_forgotten:
            mine = sorted(k for k in hit if k == entity_tombstone_key(self.group, keys[k]))
            await repo.delete_tombstones(tx, keys=mine)
            self.report.tombstones_removed += len(mine)
            return
        now = self.ctx.clock()
        for entity_id in sorted({keys[k] for k in hit}):
            if not await repo.entity_exists(tx, group_id=self.group, entity_id=entity_id):
                continue
            plans, _ = await forget_entity_in_tx(tx, self.ctx, self.group, entity_id, now)
            self.report.forgotten_entities += 1
            self.report.forgotten_facts += sum(len(p.delete_ids) for p in plans)

    async def _flush(self, label: str) -> None:
        rows, self.nodes[label] = self.nodes[label], []
        if not rows:
            return
        await self._embed(label, rows)
        async with self.ctx.store.transaction() as tx:
            await writes.lock_group(tx, group_id=self.group, now=self.ctx.clock())
            await repo.reset_group(tx, group_id=self.group)
            if label == "Episode":
                rows = await self._honour_tombstones(tx, rows)
                if not rows:
                    return
            clashes = await repo.import_conflicts(tx, label=label, group_id=self.group, rows=rows)
            if clashes:
                raise Conflict(
                    f"{len(clashes)} {label} nodes clash with nodes already in the database (same id in "
                    "another group, or the same name/key under another id); import into another "
                    "group with --group",
                    details={"label": label, "clashes": clashes[:20]},
                )
            written = await repo.import_nodes(tx, label=label, group_id=self.group, rows=rows)
            self.report.nodes += written
            if written:
                await changes.record_import(
                    tx,
                    self.ctx,
                    self.group,
                    label=label,
                    ids=[str(r["id"]) for r in rows],
                    source_group=self.source,
                    now=self.ctx.clock(),
                )
            for extra in sorted({x for r in rows for x in r["extra"]}):
                ids = [r["id"] for r in rows if extra in r["extra"]]
                await repo.add_labels(tx, label=label, extra=extra, ids=ids)

    async def _honour_tombstones(self, tx: Tx, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The episode rows to write: a tombstoned one (its key here, or in the group the file came
        from) is left out, unless ``allow_forgotten``, which deletes its tombstone instead."""
        keys = {str(k) for r in rows for k in (r["properties"].get("key"), r["source_key"]) if k}
        tombstoned = await repo.tombstoned_keys(tx, keys=sorted(keys))
        if not tombstoned:
            return rows
        hit = [r for r in rows if {r["properties"].get("key"), r["source_key"]} & tombstoned]
        if self.allow_forgotten:
            mine = sorted({str(r["properties"]["key"]) for r in hit} & tombstoned)
            await repo.delete_tombstones(tx, keys=mine)
            self.report.tombstones_removed += len(mine)
            return rows
        self.forgotten |= {str(r["id"]) for r in hit}
        self.report.forgotten += len(hit)
        return [r for r in rows if r not in hit]

    async def _embed(self, label: str, rows: list[dict[str, Any]]) -> None:
        field = EMBEDDED.get(label)
        if field is None:
            return
        todo: list[dict[str, Any]] = []
        for row in rows:
            if self.reembed or row["embedding"] is None:
                todo.append(row)
            elif len(row["embedding"]) != self.ctx.embedder.dimension:
                raise InvalidInput(
                    "an embedding of the wrong dimension", details={"label": label, "id": row["id"]}
                )
        if not todo:
            return
        vectors = await self.ctx.embed([_embedded_text(label, field, r["properties"]) for r in todo])
        for row, vector in zip(todo, vectors, strict=True):
            row["embedding"] = [float(x) for x in vector]
        self.report.reembedded += len(todo)
