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

from collections import defaultdict
from collections.abc import Sequence

import numpy as np

from graphmem.store.cypher.search import HOP2_LIMIT

Hits = list[tuple[int, float]]


class Adjacency:
    """node slot <-> entity ids, both ways, rewritable per node."""

    def __init__(self) -> None:
        self.of_node: dict[int, tuple[str, ...]] = {}
        self.of_entity: defaultdict[str, set[int]] = defaultdict(set)

    def set(self, slot: int, entity_ids: list[str | None]) -> None:
        ents = tuple(dict.fromkeys(e for e in entity_ids if e))
        for old in self.of_node.get(slot, ()):
            self.of_entity[old].discard(slot)
        self.of_node[slot] = ents
        for e in ents:
            self.of_entity[e].add(slot)


def expand_facts(
    adj: Adjacency,
    seeds: list[str],
    *,
    visible: np.ndarray,
    unexpired: np.ndarray,
    evidence: np.ndarray,
    limit: int,
    ids: Sequence[str],
) -> Hits:
    facts: list[np.ndarray] = []
    hops: list[np.ndarray] = []
    for seed in seeds:
        around = adj.of_entity.get(seed, set())
        first = np.fromiter(around, dtype=np.int64, count=len(around))
        first = first[visible[first]]
        second: set[int] = set()
        for f1 in around:
            if len(second) >= HOP2_LIMIT:
                break
            if not unexpired[f1]:
                continue
            for other in adj.of_node.get(f1, ()):
                if other != seed:
                    second.update(f for f in adj.of_entity.get(other, ()) if f != f1 and visible[f])
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
    ids: Sequence[str],
) -> Hits:
    counts: dict[int, int] = defaultdict(int)
    for seed in dict.fromkeys(seeds):
        for e in adj.of_entity.get(seed, ()):
            if visible is None or visible[e]:
                counts[e] += 1
    ranked = sorted(counts, key=lambda e: (-counts[e], -float(when[e]), ids[e]))[:limit]
    return [(e, float(counts[e])) for e in ranked]
