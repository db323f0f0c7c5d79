"""Bulk seeding for ``graphmem eval tenants``: many tenants as copies of a few seeded ones.

Seeding every tenant through the library costs extraction and a write per batch: 10,000 tenants
would take hours. Instead a few *templates* (synthetic tenants of a ladder of sizes, ``TEMPLATE_SIZES``)
are seeded through the library, and every tenant is made of copies of one template inside Neo4j
(``graphmem.store.tenant_copy``): a small tenant is one copy of the template nearest its size, a
large one ``round(size / largest)`` copies of the largest template in one group (its entities
renamed per copy, so a group's entity names stay unique). A copy keeps the template's text,
embeddings and graph and gets its own ids, group token, slots and keys, so every index, channel
and the tenant index treat it as a tenant of its own. Many tenants go in one transaction
(``BATCH_NODES`` nodes), and ``WRITERS`` such transactions run side by side: a copy's cost is
Neo4j's index maintenance at commit (the vector indexes about two thirds of it, measured in
docs/design-notes.md, "Sixth session: cold tenants"), which two transactions spread over two
cores. Templates are forgotten through the library; copies are deleted in batches.
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from graphmem.memory.lifecycle.retarget import new_id
from graphmem.store import tenant_copy
from graphmem.store.driver import Store
from graphmem.temporal.normalize import group_token, slot_key

Log = Callable[[str], None]
# the templates seeded through the library, by their synthetic size (``eval.tenants.Spec``; the 20,
# 60, 150 and 400 hold 41, 123, 238 and 517 nodes once extracted); a tenant takes the template
# nearest its size in nodes held (``eval.tenants.seed_copies``): with 20 the smallest, the smallest
# of 10,000 tenants held 41 nodes each (776k nodes in all)
TEMPLATE_SIZES = (6, 20, 60, 150, 400)
BATCH_NODES = 4_000  # nodes created per transaction
WRITERS = 2  # copy transactions in flight at once (distinct groups: they never touch a node in common)


@dataclass(frozen=True)
class Plan:
    """A tenant to create: ``copies`` copies of the template group ``template``."""

    group: str
    template: str
    copies: int


def template_for(target_nodes: int, templates: dict[int, str]) -> tuple[str, int]:
    """(template group, copies) for a tenant of about ``target_nodes`` nodes: the template whose
    size is nearest (in ratio) when it is at most the largest, else copies of the largest."""
    largest = max(templates)
    if target_nodes <= largest:
        size = min(templates, key=lambda s: (abs(math.log(max(target_nodes, 1) / s)), s))
        return templates[size], 1
    return templates[largest], max(1, round(target_nodes / largest))


def _id(group: str, copy: int, old: str) -> str:
    return new_id(group, old if copy == 0 else f"{copy}:{old}")


def _claims(texts: list[str] | None, group: str, copy: int) -> list[str]:
    out = []
    for text in texts or []:
        data = json.loads(text)
        for key in ("episode_id", "object_id"):
            if data.get(key):
                data[key] = _id(group, copy, data[key])
        head, sep, tail = str(data.get("ref", "")).partition(":")
        if sep and head != "explicit":
            data["ref"] = f"{_id(group, copy, head)}:{tail}"
        out.append(json.dumps(data, ensure_ascii=False, sort_keys=True))
    return out


def copy_rows(
    template: dict[str, list[dict[str, Any]]], group: str, copy: int
) -> tuple[dict[str, list[dict[str, Any]]], dict[str, list[dict[str, Any]]]]:
    """One copy's node rows (``{src, set}`` by label) and relationship rows (``{a, b, props}``)."""
    token = group_token(group)
    base = {"group_id": group, "group_token": token}

    def nid(old: str | None) -> str | None:
        return None if old is None else _id(group, copy, old)

    nodes: dict[str, list[dict[str, Any]]] = {
        "Episode": [
            {
                "src": r["id"],
                "set": {**base, "id": nid(r["id"]), "key": _id(group, copy, str(r["key"] or r["id"]))},
            }
            for r in template["Episode"]
        ],
        "Entity": [
            {
                "src": r["id"],
                "set": {
                    **base,
                    "id": nid(r["id"]),
                    "normalized_name": r["normalized_name"]
                    if copy == 0
                    else f"{r['normalized_name']} {copy}",
                },
            }
            for r in template["Entity"]
        ],
    }
    facts = []
    for r in template["Fact"]:
        subject = nid(r["subject_id"]) or ""
        slot = slot_key(subject, r["predicate"], r["value"] or "", r["qualifier"] or "")
        facts.append(
            {
                "src": r["id"],
                "set": {
                    **base,
                    "id": nid(r["id"]),
                    "subject_id": subject,
                    "object_id": nid(r["object_id"]),
                    "slot": slot,
                    "claims": _claims(r["claims"], group, copy),
                },
            }
        )
    nodes["Fact"] = facts
    rels = {
        rel: [{"a": nid(r["a"]), "b": nid(r["b"]), "props": r["props"]} for r in template[rel]]
        for rel in tenant_copy.RELATIONSHIPS
    }
    return nodes, rels


async def create(store: Store, plans: list[Plan], log: Log, *, writers: int = WRITERS) -> None:
    """Create every planned tenant (about ``BATCH_NODES`` nodes a transaction, ``writers``
    transactions in flight)."""
    templates: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for name in sorted({p.template for p in plans}):
        templates[name] = await tenant_copy.read_template(store, group_id=name)
    began, done, pending = time.perf_counter(), 0, 0
    batch = _Batch()
    flights: set[asyncio.Task[None]] = set()

    async def launch(batch: _Batch) -> None:
        """Start the batch's transaction, first waiting while ``writers`` are in flight (a failed
        one raises here)."""
        nonlocal flights
        while len(flights) >= max(1, writers):
            done_now, flights = await asyncio.wait(flights, return_when=asyncio.FIRST_COMPLETED)
            for task in done_now:
                task.result()
        flights.add(asyncio.create_task(batch.flush(store)))

    for plan in plans:
        t = templates[plan.template]
        batch.groups.append(
            {
                "id": plan.group,
                "template": plan.template,
                **{key: len(t[label]) * plan.copies for key, label in COUNTERS},
            }
        )
        for copy in range(plan.copies):
            nodes, rels = copy_rows(t, plan.group, copy)
            for label, rows in nodes.items():
                batch.nodes.setdefault(label, []).extend(rows)
                pending += len(rows)
            for rel, rows in rels.items():
                batch.rels.setdefault(rel, []).extend(rows)
            if pending >= BATCH_NODES:
                await launch(batch)
                batch, pending = _Batch(), 0
        done += 1
        if done % 1_000 == 0:
            log(f"tenants: copied {done}/{len(plans)} ({time.perf_counter() - began:.0f} s)")
    await launch(batch)
    for task in asyncio.as_completed(list(flights)):
        await task


COUNTERS = (("episodes", "Episode"), ("facts", "Fact"), ("entities", "Entity"))


@dataclass
class _Batch:
    groups: list[dict[str, Any]] = field(default_factory=list)
    nodes: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    rels: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    async def flush(self, store: Store) -> None:
        if self.groups or self.nodes:
            await tenant_copy.write_copies(
                store, groups=self.groups, nodes=self.nodes, relationships=self.rels
            )


async def delete(store: Store, groups: list[str], log: Log) -> None:
    began = time.perf_counter()
    for start in range(0, len(groups), 500):
        await tenant_copy.delete_copies(store, group_ids=groups[start : start + 500])
    log(f"tenants: deleted {len(groups)} copied tenants ({time.perf_counter() - began:.0f} s)")
