"""``TenantIndex``: one tenant's episodes, facts and entities, as rows from the change feed (pure).

Rows are ``graphmem.store.snapshot``'s (episode / fact / entity); applying a row again replaces the
node's previous state. The time-view masks reproduce ``FACT_VISIBLE`` / ``EPISODE_VISIBLE`` of
graphmem/store/cypher/search.py on the fields the rows carry; hydration re-checks them in Neo4j.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from graphmem.retrieval.fusion import Features, Key
from graphmem.retrieval.tenant_index.columns import NEG_INF, POS_INF, Column, Slots, StringColumn, stamp
from graphmem.retrieval.tenant_index.fields import EpisodeFields
from graphmem.retrieval.tenant_index.graph import Adjacency, expand_facts, mentioning_episodes
from graphmem.retrieval.tenant_index.lexical import Lexical
from graphmem.retrieval.tenant_index.vectors import PRECISION, Vectors

Hits = list[tuple[str, float]]
TARGETS = ("episode", "fact", "entity")
MASKS_KEPT = 16


@dataclass(frozen=True)
class View:
    """A search's time view: ``as_of`` (valid time; None = now), whether history is included, and
    a time range [``since``, ``until``) the hits' times must intersect (an episode's reference time,
    a fact's valid interval). The rule is ``FACT_VISIBLE`` / ``EPISODE_VISIBLE`` in Cypher and
    ``TenantIndex._mask`` in numpy; tests/integration/test_view_rules.py holds the two together."""

    as_of: datetime | None = None
    history: bool = False
    since: datetime | None = None
    until: datetime | None = None

    @property
    def ranged(self) -> bool:
        return self.since is not None or self.until is not None

    @property
    def default(self) -> bool:
        """Now, current facts only: the view the facts' part 0 (``vectors``) is built for."""
        return self.as_of is None and not self.history and not self.ranged

    def params(self) -> dict[str, Any]:
        """The view as the Cypher parameters ``FACT_VISIBLE`` / ``EPISODE_VISIBLE`` read."""
        return {"as_of": self.as_of, "history": self.history, "since": self.since, "until": self.until}


class Target:
    """The structures one label needs: slots, BM25 postings, vectors, entity adjacency."""

    def __init__(self, dimension: int, ann_threshold: int, precision: str = PRECISION) -> None:
        self.slots = Slots()
        self.lexical = Lexical()
        self.vectors = Vectors(dimension, ann_threshold=ann_threshold, precision=precision)
        self.adjacency = Adjacency()
        self.texts: list[str] | StringColumn = []  # by slot: what the rerank's MMR compares

    def __getstate__(self) -> dict[str, Any]:
        """The texts pickle packed and restore read in place (``columns.StringColumn``)."""
        state = dict(vars(self))
        if isinstance(self.texts, list):
            state["texts"] = StringColumn.of(self.texts)
        return state

    def set_text(self, slot: int, text: str | None) -> None:
        if slot == len(self.texts):
            self.texts.append(text or "")
        else:
            self.texts[slot] = text or ""

    def ids(self, hits: list[tuple[int, float]]) -> Hits:
        return [(self.slots.ids[s], score) for s, score in hits]

    def top_lexical(
        self, terms: list[str], k: int, mask: np.ndarray | None, scores: np.ndarray | None = None
    ) -> Hits:
        scores = self.lexical.scores(terms) if scores is None else scores
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
    vector_precision: str = PRECISION  # the vector matrices' form (tenant_index.vectors)

    def __post_init__(self) -> None:
        self.targets = {t: Target(self.dimension, self.ann_threshold, self.vector_precision) for t in TARGETS}
        self.ref_time = Column(np.float64, POS_INF)  # by episode slot
        self.valid_from = Column(np.float64, NEG_INF)  # by fact slot, from here on
        self.valid_to = Column(np.float64, POS_INF)
        self.active = Column(np.bool_, False)
        self.expired = Column(np.bool_, True)
        self.evidence = Column(np.float32, 0.0)
        self.recorded_at = Column(np.float64, POS_INF)
        self.confidence = Column(np.float64, 1.0)
        self.inferred = Column(np.bool_, False)
        self.fields = EpisodeFields()  # episodes' own / context / facts fields (field_weights)
        self.version = 0  # bumped by every apply: what the cached masks were computed at
        self._masks: dict[tuple[str, View], tuple[int, np.ndarray | None]] = {}

    def __getstate__(self) -> dict[str, Any]:
        """Picklable state (``tenant_index.persist``), without the cached masks."""
        state = dict(vars(self))
        state["_masks"] = {}
        return state

    # --- writes -------------------------------------------------------------------------------
    def apply(self, label: str, rows: list[dict[str, Any]]) -> int:
        """Insert or replace ``rows`` of ``label``; returns how many."""
        target = self.targets[label]
        self.version += 1
        slots = [self._put(target, label, row) for row in rows]
        parts = None
        if label == "fact":  # part 0: in the default view (its own HNSW graph), 1: the rest
            current = self._default_view(np.asarray(slots, dtype=np.int64))
            parts = np.where(current, 0, 1).tolist()
        target.vectors.set_many(slots, [row.get("embedding") for row in rows], parts)
        return len(slots)

    def _put(self, target: Target, label: str, row: dict[str, Any]) -> int:
        slot = target.slots.slot(row["id"])
        target.lexical.set(slot, row.get("search_text"))
        target.set_text(slot, row.get("text"))
        if label == "episode":
            self.ref_time[slot] = stamp(row.get("reference_time"), missing=POS_INF)
            target.adjacency.set(slot, list(row.get("mentions") or []))
            self.fields.set_episode(slot, row["id"], row)
        elif label == "fact":
            self.valid_from[slot] = stamp(row.get("valid_from"), missing=NEG_INF)
            self.valid_to[slot] = stamp(row.get("valid_to"), missing=POS_INF)
            self.active[slot] = (row.get("status") or "active") == "active"
            self.expired[slot] = row.get("expired_at") is not None
            self.evidence[slot] = float(row.get("evidence") or 0)
            self.recorded_at[slot] = stamp(row.get("recorded_at"), missing=POS_INF)
            confidence = row.get("confidence")
            self.confidence[slot] = 1.0 if confidence is None else float(confidence)
            self.inferred[slot] = row.get("tier") == "inferred"
            target.adjacency.set(slot, [row.get("subject_id"), row.get("object_id")])
            self.fields.set_fact(slot, row, live=bool(self.active.data[slot] and not self.expired.data[slot]))
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

    # --- what the rerank reads ---------------------------------------------------------------
    def features(self, keys: list[Key]) -> dict[Key, Features]:
        """The rerank's inputs for each key the index holds (the same values hydration would give)."""
        out: dict[Key, Features] = {}
        for key in keys:
            label, node_id = key
            target = self.targets[label]
            slot = target.slots.index.get(node_id)
            if slot is None:
                continue
            text = target.texts[slot]
            if label == "fact":
                when = float(self.valid_from.data[slot])
                if when == NEG_INF:
                    when = float(self.recorded_at.data[slot])
                conf, inferred = float(self.confidence.data[slot]), bool(self.inferred.data[slot])
                out[key] = Features(_finite(when), conf, inferred, text)
            elif label == "episode":
                out[key] = Features(_finite(float(self.ref_time.data[slot])), 0.0, False, text)
            else:
                out[key] = Features(None, 0.0, False, text)
        return out

    # --- masks --------------------------------------------------------------------------------
    def mask(self, label: str, view: View) -> np.ndarray | None:
        """Which slots of ``label`` the view shows (None: all); cached until the next apply, since
        a search asks for the same masks in several channels (the caller must not modify it)."""
        key = (label, view)
        cached = self._masks.get(key)
        if cached is not None and cached[0] == self.version:
            return cached[1]
        if len(self._masks) >= MASKS_KEPT:
            self._masks.clear()
        mask = self._mask(label, view)
        self._masks[key] = (self.version, mask)
        return mask

    def _default_view(self, slots: np.ndarray | slice) -> np.ndarray:
        """Which of these fact slots the default view (now, no history) shows: ``FACT_VISIBLE``."""
        return ~self.expired.data[slots] & self.active.data[slots] & np.isposinf(self.valid_to.data[slots])

    def _mask(self, label: str, view: View) -> np.ndarray | None:
        n = len(self.targets[label].slots)
        since = NEG_INF if view.since is None else view.since.timestamp()
        until = POS_INF if view.until is None else view.until.timestamp()
        if label == "episode":
            if view.as_of is None and not view.ranged:
                return None
            when = self.ref_time.view(n)
            upto = POS_INF if view.as_of is None else view.as_of.timestamp()
            return (when <= upto) & (when >= since) & (when < until)
        if label == "fact":
            visible = ~self.expired.view(n)
            if view.ranged:  # the valid interval [valid_from, valid_to) meets [since, until)
                visible &= (self.valid_from.view(n) < until) & (self.valid_to.view(n) > since)
            if view.history:
                return visible
            visible &= self.active.view(n)
            if view.as_of is None:
                return visible if view.ranged else visible & np.isposinf(self.valid_to.view(n))
            t = view.as_of.timestamp()
            return visible & (self.valid_from.view(n) <= t) & (self.valid_to.view(n) > t)
        return None

    # --- channels -----------------------------------------------------------------------------
    def bm25(
        self, label: str, terms: list[str], k: int, view: View, fields: Mapping[str, float] | None = None
    ) -> Hits:
        """Okapi BM25 over ``search_text``; for episodes with ``fields``, the weighted sum of the
        per-field scores instead (``tenant_index.fields``)."""
        target = self.targets[label]
        scores = None
        if fields and label == "episode":
            scores = self.fields.scores(terms, fields, len(target.slots))
        return target.top_lexical(terms, k, self.mask(label, view), scores)

    def vector(self, label: str, query: np.ndarray, k: int, view: View) -> Hits:
        target = self.targets[label]
        subset = (label, view, self.version)
        parts = (0,) if label == "fact" and view.default else None
        found = target.vectors.search(query, k, self.mask(label, view), parts=parts, subset=subset)
        return target.ids(found)

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
                ids=target.slots.ids,
            )
        else:
            hits = mentioning_episodes(
                target.adjacency,
                seeds,
                visible=self.mask("episode", view),
                when=self.ref_time.view(n),
                limit=k,
                ids=target.slots.ids,
            )
        return target.ids(hits)


def _finite(seconds: float) -> float | None:
    return seconds if np.isfinite(seconds) else None
