"""Resolve entity names to ids inside the caller's write transaction."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from graphmem.store import writes
from graphmem.store.driver import Tx
from graphmem.temporal.entities import Candidate, fuzzy_match
from graphmem.temporal.normalize import group_token, normalize_name
from graphmem.text import query_terms, search_text


@dataclass
class ResolvedEntities:
    ids: dict[str, str]  # normalized name -> entity id
    names: dict[str, str]  # normalized name -> canonical display name
    created: int
    aliases: list[dict[str, str]] = field(default_factory=list)  # names merged into an entity


@dataclass
class EntityPlan:
    """Names resolved before the merge: ``ids``/``names`` of entities found (exactly, by alias or
    by fuzzy match), ``aliases`` to add, ``rows`` of the entities to create (their ids are new)."""

    ids: dict[str, str]
    names: dict[str, str]
    aliases: list[dict[str, str]]
    rows: list[dict[str, Any]]

    def expected(self) -> ResolvedEntities:
        """The outcome the merge gives under the group lock: every row created as it is."""
        rows = [
            {"key": r["normalized_name"], "id": r["id"], "name": r["name"], "created": True}
            for r in self.rows
        ]
        return self.resolved(rows)

    def resolved(self, merged: list[dict[str, Any]]) -> ResolvedEntities:
        """The outcome once ``rows`` were merged (``merged``: MERGE_ENTITIES' rows)."""
        ids, names = dict(self.ids), dict(self.names)
        for row in merged:
            ids[row["key"]], names[row["key"]] = row["id"], row["name"]
        return ResolvedEntities(ids, names, sum(1 for r in merged if r["created"]), self.aliases)


async def resolve_entities(
    tx: Tx,
    *,
    group_id: str,
    wanted: dict[str, tuple[str, str]],  # normalized name -> (display name, kind)
    vectors: dict[str, np.ndarray],
    now: datetime,
    embed: Callable[[Sequence[str]], Awaitable[np.ndarray]] | None = None,
) -> ResolvedEntities:
    """Map names to entity ids: exact key, alias, conservative fuzzy match, else a new entity.
    ``embed`` fills ``vectors`` for the names not found exactly (the only ones that need one)."""
    found = await writes.find_entities(tx, group_id=group_id, keys=sorted(wanted))
    plan = await plan_entities(
        tx, group_id=group_id, wanted=wanted, found=found, vectors=vectors, embed=embed
    )
    merged = await writes.merge_entities(
        tx, group_id=group_id, group_token=group_token(group_id), rows=plan.rows, now=now
    )
    await writes.add_aliases(tx, group_id=group_id, rows=plan.aliases)
    return plan.resolved(merged)


async def plan_entities(
    tx: Tx,
    *,
    group_id: str,
    wanted: dict[str, tuple[str, str]],
    found: dict[str, dict[str, Any]],
    vectors: dict[str, np.ndarray],
    embed: Callable[[Sequence[str]], Awaitable[np.ndarray]] | None = None,
) -> EntityPlan:
    """``resolve_entities`` up to the merge, from ``found`` (``writes.find_entities`` of ``wanted``):
    the fuzzy matches (one full-text query, only when a name is unknown) and the rows to create."""
    ids = {k: r["id"] for k, r in found.items()}
    names = {k: r["name"] for k, r in found.items()}
    aliases: list[dict[str, str]] = []
    unknown = {k: wanted[k] for k in sorted(set(wanted) - set(ids))}
    missing = sorted({name for name, _ in unknown.values() if name not in vectors})
    if missing and embed is not None:
        vectors.update(zip(missing, await embed(missing), strict=True))
    for key, match in (await _fuzzy(tx, group_id=group_id, unknown=unknown, vectors=vectors)).items():
        ids[key], names[key] = match.id, match.name
        name = wanted[key][0]
        aliases.append({"id": match.id, "alias": name, "alias_key": key, "search_text": search_text(name)})
    rows = [
        {
            "id": str(uuid.uuid4()),
            "name": wanted[k][0],
            "kind": wanted[k][1],
            "normalized_name": k,
            "search_text": search_text(wanted[k][0]),
            "embedding": _vec(vectors, wanted[k][0]),
        }
        for k in sorted(set(wanted) - set(ids))
    ]
    return EntityPlan(ids, names, aliases, rows)


def _vec(vectors: dict[str, np.ndarray], name: str) -> list[float]:
    return vectors[name].tolist()  # float32 -> float, exactly as float(x) converts


async def _fuzzy(
    tx: Tx, *, group_id: str, unknown: dict[str, tuple[str, str]], vectors: dict[str, np.ndarray]
) -> dict[str, Candidate]:
    """Conservative fuzzy matches for names not found exactly (one full-text query for all)."""
    token = group_token(group_id)
    queries = []
    for key, (name, kind) in unknown.items():
        terms = query_terms(name)
        if kind != "person" and terms:
            queries.append({"key": key, "lucene": f"+group_token:{token} +search_text:({' '.join(terms)})"})
    candidates: dict[str, list[Candidate]] = {}
    for r in await writes.entity_candidates(tx, queries=queries, limit=10):
        embedding = np.asarray(r["embedding"], dtype=np.float32) if r["embedding"] is not None else None
        cand = Candidate(
            r["id"], r["name"], r["normalized_name"] or normalize_name(r["name"]), r["kind"], embedding
        )
        candidates.setdefault(r["key"], []).append(cand)
    matches: dict[str, Candidate] = {}
    for key, cands in candidates.items():
        name, kind = unknown[key]
        match = fuzzy_match(name, kind, vectors.get(name), cands)
        if match is not None:
            matches[key] = match
    return matches
