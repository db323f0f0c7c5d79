"""Copies of a group made inside Neo4j, for benchmarks that need many tenants (``eval.tenants_seed``).

``read_template`` returns what a copy must rewrite: each node's id and the keys derived from ids
(an episode's idempotency key, a fact's subject, object, slot and claims, an entity's normalized
name), and the relationships among the group's nodes. The caller computes each copy's values and
``write_copies`` creates the nodes from the template's (every other property, embeddings included,
is copied inside Neo4j), then the relationships and the Group nodes, in one transaction per call.
``delete_copies`` removes such groups in batches. Copies carry no change log, tombstones or vault
entries, so deleting their nodes removes all of them; a group written through the library is
forgotten through it instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from graphmem.store.cypher import tenant_copy as q
from graphmem.store.driver import Store, run

LABELS = ("Episode", "Fact", "Entity")
RELATIONSHIPS = tuple(rel for _, rel, _ in q.RELATIONSHIPS)


async def read_template(store: Store, *, group_id: str) -> dict[str, list[dict[str, Any]]]:
    """``{label: node rows, relationship type: [{a, b, props}]}`` of the group."""
    out: dict[str, list[dict[str, Any]]] = {}
    for label in LABELS:
        out[label] = await store.read(q.TEMPLATE_NODES[label], group_id=group_id)
    for rel in RELATIONSHIPS:
        out[rel] = await store.read(q.TEMPLATE_RELATIONSHIPS[rel], group_id=group_id)
    return out


async def write_copies(
    store: Store,
    *,
    groups: Sequence[Mapping[str, Any]],
    nodes: Mapping[str, Sequence[Mapping[str, Any]]],
    relationships: Mapping[str, Sequence[Mapping[str, Any]]],
) -> int:
    """Create copies in one transaction: ``nodes[label]`` rows ``{src: template id, set: {...}}``,
    ``relationships[type]`` rows ``{a, b, props}`` by the new ids, and ``groups`` rows ``{id,
    template, episodes, facts, entities}`` (the Group nodes, with their template's other properties). Returns
    the nodes created."""
    created = 0
    async with store.transaction() as tx:
        for label in LABELS:
            rows = list(nodes.get(label, ()))
            if rows:
                created += int((await run(tx, q.COPY_NODES[label], rows=rows))[0]["n"])
        for rel in RELATIONSHIPS:
            rows = list(relationships.get(rel, ()))
            if rows:
                await run(tx, q.COPY_RELATIONSHIPS[rel], rows=rows)
        if groups:
            await run(tx, q.COPY_GROUPS, groups=list(groups))
    return created


async def delete_copies(store: Store, *, group_ids: Sequence[str], batch: int = 5_000) -> int:
    """Delete the groups' Episode, Fact and Entity nodes (``batch`` a transaction) and their Group
    nodes; returns the nodes deleted. For groups ``write_copies`` made (see the module docstring)."""
    groups, deleted = list(group_ids), 0
    for label in LABELS:
        while True:
            rows = await store.write(q.DELETE_NODES[label], groups=groups, limit=batch)
            n = int(rows[0]["n"]) if rows else 0
            deleted += n
            if n < batch:
                break
    await store.write(q.DELETE_GROUPS, groups=groups)
    return deleted
