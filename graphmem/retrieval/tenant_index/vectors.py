"""Cosine search over one target's embeddings: exact numpy for small sets, HNSW above (pure).

Every vector lives in an f32 matrix (exact scoring, and the fallback for selective filters). Past
``ann_threshold`` vectors an HNSW graph (usearch, f16, keyed by slot) answers the unfiltered top-k in
about a millisecond; filters apply after it, with the fetch grown to the filter's selectivity, and a
filter that keeps few rows is scored exactly over those rows instead.
"""

from __future__ import annotations

import math
from collections.abc import Hashable

import numpy as np
from usearch.index import Index

from graphmem.retrieval.tenant_index.columns import Column

Hits = list[tuple[int, float]]


class Vectors:
    def __init__(self, dimension: int, *, ann_threshold: int = 10_000) -> None:
        self.dimension = dimension
        self.ann_threshold = ann_threshold
        self.matrix = Column(np.float32, 0.0, width=dimension)
        self.present = Column(np.bool_, False)
        self.size = 0
        self.count = 0
        self.hnsw: Index | None = None
        self.pending: dict[int, bool] = {}  # slot -> was already in the HNSW graph (re-set)
        self.subset: tuple[Hashable, np.ndarray, np.ndarray] | None = None  # key, rows, their vectors

    def set_many(self, slots: list[int], vectors: list[list[float] | None]) -> None:
        """Store (normalised) the vectors of ``slots``; rows without a vector of this dimension are
        skipped. One numpy conversion per batch: rows arrive from Neo4j as lists of floats."""
        keep = [(s, v) for s, v in zip(slots, vectors, strict=True) if v and len(v) == self.dimension]
        if not keep:
            return
        rows = np.fromiter((s for s, _ in keep), dtype=np.int64, count=len(keep))
        block = np.asarray([v for _, v in keep], dtype=np.float32)
        block /= np.maximum(np.linalg.norm(block, axis=1, keepdims=True), 1e-12)
        self.size = max(self.size, int(rows.max()) + 1)
        self.matrix.ensure(self.size)
        self.present.ensure(self.size)
        had = self.present.data[rows].copy()
        changed = ~had | ~np.all(self.matrix.data[rows] == block, axis=1)
        self.matrix.data[rows] = block
        self.present.data[rows] = True
        self.count += int((~had).sum())
        if self.hnsw is not None:
            for slot, was in zip(rows[changed].tolist(), had[changed].tolist(), strict=True):
                self.pending[slot] = self.pending.get(slot, False) or was

    def flush(self) -> None:
        """Add the vectors set since the last flush to the HNSW graph, in one call."""
        if self.hnsw is None or not self.pending:
            return
        for slot in [s for s, had in self.pending.items() if had]:
            self.hnsw.remove(slot)
        slots = np.fromiter(self.pending, dtype=np.int64, count=len(self.pending))
        self.hnsw.add(slots, self.matrix.data[slots])
        self.pending.clear()

    def ensure_ann(self, threads: int = 0) -> None:
        """Build the HNSW graph once the set outgrows exact scoring (seconds for 100k vectors)."""
        if self.hnsw is not None or self.count <= self.ann_threshold:
            return
        index = Index(ndim=self.dimension, metric="cos", dtype="f16", connectivity=16, expansion_add=64)
        slots = np.flatnonzero(self.present.view(self.size))
        index.add(slots, self.matrix.data[slots], threads=threads)
        self.hnsw = index
        self.pending.clear()

    def search(
        self, query: np.ndarray, k: int, mask: np.ndarray | None, *, subset: Hashable | None = None
    ) -> Hits:
        """Top ``k`` slots by cosine among present slots passing ``mask`` (None: all). ``subset``
        names the mask (and the data's version): the rows a selective mask keeps are copied out
        once and kept for the next search with the same name, instead of gathered every time."""
        if not self.size or k <= 0:
            return []
        present = self.present.view(self.size)
        allowed = present if mask is None else present & mask[: self.size]
        n_allowed = int(allowed.sum())
        if not n_allowed:
            return []
        self.flush()
        if self.hnsw is not None and n_allowed > self.ann_threshold:
            hits = self._ann(query, k, allowed, n_allowed)
            if len(hits) >= min(k, n_allowed):
                return hits
        matrix = self.matrix.view(self.size)
        if 4 * n_allowed > self.size:
            # most rows allowed: one matrix-vector product beats copying the allowed rows out first
            rows = np.flatnonzero(allowed)
            return _top(rows, (matrix @ query)[rows], k)
        if subset is None:
            rows = np.flatnonzero(allowed)
            return _top(rows, matrix[rows] @ query, k)
        if self.subset is None or self.subset[0] != subset:
            rows = np.flatnonzero(allowed)
            self.subset = (subset, rows, matrix[rows])
        _, rows, vectors = self.subset
        return _top(rows, vectors @ query, k)

    def _ann(self, query: np.ndarray, k: int, allowed: np.ndarray, n_allowed: int) -> Hits:
        assert self.hnsw is not None
        # fetch what the filter is expected to leave k of, with a margin; retry wider before giving up
        share = n_allowed / max(self.count, 1)
        fetch = min(self.count, math.ceil(1.25 * k / share) + 8)
        for _ in range(3):
            found = self.hnsw.search(query, fetch)
            slots = np.asarray(found.keys, dtype=np.int64)
            keep = allowed[slots]
            if keep.sum() >= k or fetch >= self.count:
                break
            fetch = min(self.count, 4 * fetch)
        slots, dist = slots[keep], np.asarray(found.distances, dtype=np.float32)[keep]
        return [(int(s), float(1.0 - d)) for s, d in zip(slots[:k], dist[:k], strict=True)]


def _top(rows: np.ndarray, scores: np.ndarray, k: int) -> Hits:
    if len(rows) > k:
        part = np.argpartition(-scores, k - 1)[:k]
        rows, scores = rows[part], scores[part]
    order = np.lexsort((rows, -scores))
    return [(int(rows[i]), float(scores[i])) for i in order]
