"""``TenantIndex``: one tenant's episodes, facts and entities, as rows from the change feed (pure).

Rows are ``graphmem.store.snapshot``'s (episode / fact / entity); applying a row again replaces the
node's previous state. The time-view masks reproduce ``FACT_VISIBLE`` / ``EPISODE_VISIBLE`` of
graphmem/store/cypher/search.py on the fields the rows carry; hydration re-checks them in Neo4j.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from graphmem.retrieval.tenant_index.columns import NEG_INF, POS_INF, Column, Slots, stamp
from graphmem.retrieval.tenant_index.graph import Adjacency, expand_facts, mentioning_episodes
from graphmem.retrieval.tenant_index.lexical import Lexical
from graphmem.retrieval.tenant_index.vectors import Vectors

Hits = list[tuple[str, float]]
TARGETS = ("episode", "fact", "entity")


@dataclass
class View:
    """A search's time view: ``as_of`` (valid time; None = now) and whether history is included."""

    as_of: datetime | None = None
    history: bool = False


class Target:
    """The structures one label needs: slots, BM25 postings, vectors, entity adjacency."""

    def __init__(self, dimension: int, ann_threshold: int) -> None:
        self.slots = Slots()
        self.lexical = Lexical()
        self.vectors = Vectors(dimension, ann_threshold=ann_threshold)
        self.adjacency = Adjacency()

    def ids(self, hits: list[tuple[int, float]]) -> Hits:
        return [(self.slots.ids[s], score) for s, score in hits]

    def top_lexical(self, terms: list[str], k: int, mask: np.ndarray | None) -> Hits:
        scores = self.lexical.scores(terms)
        if mask is not None:
            scores = np.where(mask[: len(scores)], scores, 0.0)
        rows = np.flatnonzero(scores > 0)
        if len(rows) > k:
            rows = rows[np.argpartition(-scores[rows], k - 1)[:k]]
        ranked = sorted(
            ((int(r), float(scores[r])) for r in rows), key=lambda x: (-x[1], self.slots.ids[x[0]])
        )
        return self.ids(ranked)


@dataclass
class TenantIndex:
    group_id: str
    dimension: int
    ann_threshold: int = 10_000
    seq: int = 0  # the Group.lock_seq this index reflects
    created_at: datetime | None = None
    stale: bool = False  # nodes were deleted since the load: a reload is due (kept until it lands)
    targets: dict[str, Target] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.targets = {t: Target(self.dimension, self.ann_threshold) for t in TARGETS}
        self.ref_time = Column(np.float64, POS_INF)  # by episode slot
        self.valid_from = Column(np.float64, NEG_INF)  # by fact slot, from here on
        self.valid_to = Column(np.float64, POS_INF)
        self.active = Column(np.bool_, False)
        self.expired = Column(np.bool_, True)
        self.evidence = Column(np.float32, 0.0)

    # --- writes -------------------------------------------------------------------------------
    def apply(self, label: str, rows: list[dict[str, Any]]) -> int:
        """Insert or replace ``rows`` of ``label``; returns how many."""
        target = self.targets[label]
        slots = [self._put(target, label, row) for row in rows]
        target.vectors.set_many(slots, [row.get("embedding") for row in rows])
        return len(slots)

    def _put(self, target: Target, label: str, row: dict[str, Any]) -> int:
        slot = target.slots.slot(row["id"])
        target.lexical.set(slot, row.get("search_text"))
        if label == "episode":
            self.ref_time[slot] = stamp(row.get("reference_time"), missing=POS_INF)
            target.adjacency.set(slot, list(row.get("mentions") or []))
        elif label == "fact":
            self.valid_from[slot] = stamp(row.get("valid_from"), missing=NEG_INF)
            self.valid_to[slot] = stamp(row.get("valid_to"), missing=POS_INF)
            self.active[slot] = (row.get("status") or "active") == "active"
            self.expired[slot] = row.get("expired_at") is not None
            self.evidence[slot] = float(row.get("evidence") or 0)
            target.adjacency.set(slot, [row.get("subject_id"), row.get("object_id")])
        return slot

    def finish(self, threads: int = 0) -> None:
        """Bring the HNSW graphs up to date: build those the data has outgrown, add pending vectors
        to the others (seconds for a 100k build: call it off the event loop)."""
        for target in self.targets.values():
            target.vectors.ensure_ann(threads)
            target.vectors.flush()

    @property
    def size(self) -> int:
        return sum(len(t.slots) for t in self.targets.values())

    # --- masks --------------------------------------------------------------------------------
    def mask(self, label: str, view: View) -> np.ndarray | None:
        n = len(self.targets[label].slots)
        if label == "episode":
            return None if view.as_of is None else self.ref_time.view(n) <= view.as_of.timestamp()
        if label == "fact":
            visible = ~self.expired.view(n)
            if view.history:
                return visible
            visible &= self.active.view(n)
            if view.as_of is None:
                return visible & np.isposinf(self.valid_to.view(n))
            t = view.as_of.timestamp()
            return visible & (self.valid_from.view(n) <= t) & (self.valid_to.view(n) > t)
        return None

    # --- channels -----------------------------------------------------------------------------
    def bm25(self, label: str, terms: list[str], k: int, view: View) -> Hits:
        return self.targets[label].top_lexical(terms, k, self.mask(label, view))

    def vector(self, label: str, query: np.ndarray, k: int, view: View) -> Hits:
        target = self.targets[label]
        return target.ids(target.vectors.search(query, k, self.mask(label, view)))

    def graph(self, label: str, seeds: list[str], k: int, view: View) -> Hits:
        if not seeds:
            return []
        target = self.targets[label]
        n = len(target.slots)
        if label == "fact":
            visible = self.mask("fact", view)
            assert visible is not None
            hits = expand_facts(
                target.adjacency,
                seeds,
                visible=visible,
                unexpired=~self.expired.view(n),
                evidence=self.evidence.view(n),
                limit=k,
            )
        else:
            hits = mentioning_episodes(
                target.adjacency,
                seeds,
                visible=self.mask("episode", view),
                when=self.ref_time.view(n),
                limit=k,
            )
        return target.ids(hits)
