"""The graph channel over the tenant's entity adjacency (pure), the in-memory twin of
``GRAPH_EXPAND`` / ``GRAPH_EPISODES`` in graphmem/store/cypher/search.py.

Facts: from each seed entity, its visible facts (1 hop), and — through the other entities of the
seed's unexpired facts — those entities' visible facts (2 hops, at most ``HOP2_LIMIT`` per seed).
Score = (1 / hop) * (1 + ln(1 + evidence)) * (1 + 0.1 * paths), ties by id. Episodes: those
mentioning a seed, by the number of seeds they mention, newest first, then by id. ``HOP2_LIMIT`` is
the Cypher's own constant; the spec test (tests/integration/test_engine_spec.py) holds the two
together. Past ``HOP2_LIMIT`` 2-hop facts of one seed, the two may keep different ones.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from graphmem.retrieval.tenant_index.lexical import Strings
from graphmem.store.cypher.search import HOP2_LIMIT

Hits = list[tuple[int, float]]


class Ids(Protocol):
    """Node ids by slot (a list, or a restored index's packed ``columns.StringColumn``)."""

    def __getitem__(self, slot: int, /) -> str: ...


_NONE: frozenset[int] = frozenset()


@dataclass
class FrozenAdjacency:
    """Both directions as columns (what a snapshot holds): ``names`` the entity ids sorted; node
    ``node_slots[i]`` (ascending) names ``codes[node_starts[i]:node_starts[i + 1]]`` (rows of
    ``names``, in the node's order); entity ``names[j]`` is named by the slots
    ``entity_slots[entity_starts[j]:entity_starts[j + 1]]`` (ascending)."""

    names: Strings
    node_slots: np.ndarray
    node_starts: np.ndarray
    codes: np.ndarray
    entity_starts: np.ndarray
    entity_slots: np.ndarray

    @classmethod
    def of(cls, of_node: dict[int, tuple[str, ...]]) -> FrozenAdjacency:
        names = sorted({e for ents in of_node.values() for e in ents})
        code = {e: i for i, e in enumerate(names)}
        slots = sorted(s for s, ents in of_node.items() if ents)
        counts = np.fromiter((len(of_node[s]) for s in slots), dtype=np.int64, count=len(slots))
        node_starts = np.zeros(len(slots) + 1, dtype=np.int64)
        np.cumsum(counts, out=node_starts[1:])
        codes = np.fromiter(
            (code[e] for s in slots for e in of_node[s]), dtype=np.int64, count=int(counts.sum())
        )
        node_slots = np.asarray(slots, dtype=np.int64)
        owner = np.repeat(node_slots, counts)  # the node of each (node, entity) pair
        order = np.lexsort((owner, codes))  # by entity, then slot
        entity_starts = np.zeros(len(names) + 1, dtype=np.int64)
        np.cumsum(np.bincount(codes, minlength=len(names)), out=entity_starts[1:])
        return cls(Strings(names), node_slots, node_starts, codes, entity_starts, owner[order])

    def node(self, slot: int) -> tuple[str, ...] | None:
        i = int(np.searchsorted(self.node_slots, slot))
        if i == len(self.node_slots) or self.node_slots[i] != slot:
            return None
        return tuple(self.names[int(c)] for c in self.codes[self.node_starts[i] : self.node_starts[i + 1]])

    def entity(self, entity_id: str) -> list[int] | None:
        j = bisect_left(self.names, entity_id)
        if j == len(self.names) or self.names[j] != entity_id:
            return None
        return self.entity_slots[self.entity_starts[j] : self.entity_starts[j + 1]].tolist()

    def nbytes(self) -> int:
        arrays = (self.node_slots, self.node_starts, self.codes, self.entity_starts, self.entity_slots)
        return self.names.nbytes() + sum(a.nbytes for a in arrays)


class Adjacency:
    """node slot <-> entity ids, both ways, rewritable per node. Pickled (``tenant_index.persist``)
    as ``FrozenAdjacency`` columns: a restore copies no dict; a node's or an entity's entry moves
    out of the columns into the dicts when first read or written, and the dicts win from then on."""

    def __init__(self) -> None:
        self.of_node: dict[int, tuple[str, ...]] = {}
        self.of_entity: defaultdict[str, set[int]] = defaultdict(set)
        self.frozen: FrozenAdjacency | None = None

    def __getstate__(self) -> dict[str, Any]:
        nodes = dict(self.of_node)
        if self.frozen is not None:  # read, not moved: pickling leaves the index as it was
            for slot in self.frozen.node_slots.tolist():
                if slot not in nodes:
                    nodes[slot] = self.frozen.node(slot) or ()
        return {"of_node": {}, "of_entity": defaultdict(set), "frozen": FrozenAdjacency.of(nodes)}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.frozen = None
        vars(self).update(state)

    def node(self, slot: int) -> tuple[str, ...]:
        """The entity ids ``slot`` names."""
        found = self.of_node.get(slot)
        if found is None:
            found = self.frozen.node(slot) if self.frozen is not None else None
            if found is None:
                return ()
            self.of_node[slot] = found
        return found

    def entity(self, entity_id: str) -> set[int] | frozenset[int]:
        """The slots that name ``entity_id`` (do not change the set returned)."""
        found = self.of_entity.get(entity_id)
        if found is None:
            slots = self.frozen.entity(entity_id) if self.frozen is not None else None
            if slots is None:
                return _NONE
            found = self.of_entity[entity_id] = set(slots)
        return found

    def nodes(self) -> int:
        """How many nodes have an entry (the columns' and the dicts' together, an upper bound)."""
        return len(self.of_node) + (0 if self.frozen is None else len(self.frozen.node_slots))

    def set(self, slot: int, entity_ids: list[str | None]) -> None:
        ents = tuple(dict.fromkeys(e for e in entity_ids if e))
        for old in self.node(slot):
            self.entity(old)  # moved out of the columns before it changes
            self.of_entity[old].discard(slot)
        self.of_node[slot] = ents
        for e in ents:
            self.entity(e)
            self.of_entity[e].add(slot)


def expand_facts(
    adj: Adjacency,
    seeds: list[str],
    *,
    visible: np.ndarray,
    unexpired: np.ndarray,
    evidence: np.ndarray,
    limit: int,
    ids: Ids,
) -> Hits:
    facts: list[np.ndarray] = []
    hops: list[np.ndarray] = []
    for seed in seeds:
        around = adj.entity(seed)
        first = np.fromiter(around, dtype=np.int64, count=len(around))
        first = first[visible[first]]
        second: set[int] = set()
        for f1 in around:
            if len(second) >= HOP2_LIMIT:
                break
            if not unexpired[f1]:
                continue
            for other in adj.node(f1):
                if other != seed:
                    second.update(f for f in adj.entity(other) if f != f1 and visible[f])
        hop2 = np.fromiter(second, dtype=np.int64, count=len(second))[:HOP2_LIMIT]
        facts += [first, hop2]
        hops += [np.ones(len(first), dtype=np.int64), np.full(len(hop2), 2, dtype=np.int64)]
    if not facts:
        return []
    fact_rows, hop_rows = np.concatenate(facts), np.concatenate(hops)
    if not len(fact_rows):
        return []
    unique, inverse, paths = np.unique(fact_rows, return_inverse=True, return_counts=True)
    hop = np.full(len(unique), 2, dtype=np.int64)
    np.minimum.at(hop, inverse, hop_rows)
    score = (1.0 / hop) * (1.0 + np.log1p(evidence[unique])) * (1.0 + 0.1 * paths)
    order = sorted(range(len(unique)), key=lambda i: (-float(score[i]), ids[int(unique[i])]))[:limit]
    return [(int(unique[i]), float(score[i])) for i in order]


def mentioning_episodes(
    adj: Adjacency,
    seeds: list[str],
    *,
    visible: np.ndarray | None,
    when: np.ndarray,
    limit: int,
    ids: Ids,
) -> Hits:
    counts: dict[int, int] = defaultdict(int)
    for seed in dict.fromkeys(seeds):
        for e in adj.entity(seed):
            if visible is None or visible[e]:
                counts[e] += 1
    ranked = sorted(counts, key=lambda e: (-counts[e], -float(when[e]), ids[e]))[:limit]
    return [(e, float(counts[e])) for e in ranked]
