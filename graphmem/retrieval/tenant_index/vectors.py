"""Cosine search over one target's embeddings: exact numpy for small sets, HNSW above (pure).

Every vector lives in one matrix (exact scoring, and the fallback for selective filters): int8 by
default (``PRECISION``), each row scaled by its largest component, with the row's rounding error
kept as a second int8 row (``residual``): half of f32's bytes. Exact scoring scans the int8 rows
(converted to f32 in blocks for BLAS: numpy has no fast int8 or f16 product, and int8 converts ~20x
faster than f16), then rescores its best ``2k + 16`` candidates with row + residual, within ~1e-5 of
f32. Measured on LoCoMo dev turns embedded with MiniLM (``eval/vector_recall.py``): recall@10 against
exact f32 is 0.993-0.997 from the int8 scan alone, 1.0 after rescoring. ``precision="f32"`` keeps
full floats. Slots
belong to a *part* (facts: 0 = in the default view, 1 = superseded, ended or retracted; other
targets: all 0), and each part past ``ann_threshold`` vectors gets its own HNSW graph (usearch, f16,
keyed by slot). A search names the parts it needs: the default view searches part 0 alone, so its
HNSW answers without a filter. Superseded facts sit next to their successors in vector space: with
one graph for all, the top hits of a query were mostly filtered out (a fetch of 50 needed up to 330
candidates, 3-4 retries at 100k facts). Within a part, filters apply after the HNSW step with the
fetch grown to the filter's selectivity, and a filter that keeps few rows is scored exactly.
"""

from __future__ import annotations

import math
import pickle
from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

# onnxruntime is loaded before usearch, always: usearch's wheel links a static libstdc++ that makes a
# later onnxruntime import segfault (graphmem/providers/embedders/minilm_onnx.py)
from graphmem.providers.embedders import minilm_onnx  # noqa: F401
from graphmem.retrieval.tenant_index.columns import Column

from usearch.index import Index, MetricKind  # isort: skip (after onnxruntime, see above)
from usearch.index import search as exact_search  # isort: skip

Hits = list[tuple[int, float]]
NOWHERE = -1
PRECISIONS = ("i8", "f32")
PRECISION = "i8"
BLOCK = 4_096  # rows converted to f32 at a time by exact int8 scoring (6 MB at 384 dimensions)
# Measured on the 100k synthetic episodes (recall@10 of a top 50 against exact scoring): building
# with expansion 64 and searching with 64 gave 0.81; building with 128 gave 0.91 searching with 64
# and 0.97 with 128 (connectivity 32 changed nothing but the build time).
CONNECTIVITY, EXPANSION_ADD, EXPANSION_SEARCH = 16, 128, 128
# int8 rows' coarse scan: "cos" (usearch's exact SIMD cosine over the int8 rows and the int8-coded
# query: 2.3 ms CPU at 9,800 x 384 against 20.9 for "dot", the f32 blocks through BLAS, on the
# loaded dev VM); both rescore their best 2k + 16 with the residual rows
I8_SCAN = "cos"


class Vectors:
    def __init__(self, dimension: int, *, ann_threshold: int = 10_000, precision: str = PRECISION) -> None:
        if precision not in PRECISIONS:
            raise ValueError(f"vector precision must be one of {PRECISIONS}, not {precision!r}")
        self.dimension = dimension
        self.ann_threshold = ann_threshold
        quantized = precision == "i8"
        self.matrix = Column(np.int8 if quantized else np.float32, 0, width=dimension)
        # int8: a row's value = matrix row * scale + residual row * fine (None for f32)
        self.scale = Column(np.float32, 0.0) if quantized else None
        self.residual = Column(np.int8, 0, width=dimension) if quantized else None
        self.fine = Column(np.float32, 0.0) if quantized else None
        self.present = Column(np.bool_, False)
        self.part = Column(np.int8, 0)  # the part a slot belongs to
        self.held = Column(np.int8, NOWHERE)  # the part whose HNSW graph holds the slot
        self.size = 0
        self.hnsw: dict[int, Index] = {}
        # a restored graph reads its snapshot's bytes in place (usearch's view): part -> those
        # bytes, until the graph's first write copies it into usearch (``_writable``)
        self.viewed: dict[int, Any] = {}
        self.pending: set[int] = set()  # slots to (re)place in the HNSW graphs at the next flush
        self.subset: tuple[Hashable, np.ndarray, np.ndarray] | None = None  # key, rows, their vectors

    def __getstate__(self) -> dict[str, Any]:
        """Picklable state (``tenant_index.persist``): each HNSW graph as usearch's own bytes (its
        nodes and links: restoring it costs a copy, not a build), without the subset cache."""
        if self.pending:
            raise ValueError("flush the vectors before pickling them")
        state = dict(vars(self))
        state["hnsw"] = {  # out of band: a snapshot keeps them as buffers beside the pickle
            part: pickle.PickleBuffer(
                bytearray(self.viewed[part] if part in self.viewed else graph.save() or b"")
            )
            for part, graph in self.hnsw.items()
        }
        state.pop("viewed", None)
        state["subset"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        """A graph restores as a view of its saved bytes (a snapshot's buffer, kept alive here):
        no copy until its first write."""
        graphs = state.pop("hnsw")
        vars(self).update(state)
        self.hnsw, self.viewed = {}, {}
        for part, saved in graphs.items():
            self.hnsw[part] = _restore(saved, view=True)
            self.viewed[part] = saved

    def _writable(self, part: int) -> Index:
        """The part's graph, copied into usearch first if it is a view of a snapshot's bytes."""
        saved = self.viewed.pop(part, None)
        if saved is not None:
            self.hnsw[part] = _restore(saved, view=False)
        return self.hnsw[part]

    def set_many(
        self, slots: list[int], vectors: list[list[float] | None], parts: Sequence[int] | None = None
    ) -> None:
        """Store (normalised) the vectors of ``slots`` and their parts (default 0); rows without a
        vector of this dimension keep their old vector but take the new part. One numpy conversion
        per batch: rows arrive from Neo4j as lists of floats."""
        if not slots:
            return
        self._grow(max(slots) + 1)
        if parts is not None:
            moved = [s for s, p in zip(slots, parts, strict=True) if self.part.data[s] != p]
            self.part.data[slots] = parts
            self.pending.update(s for s in moved if self.present.data[s])
        keep = [(s, v) for s, v in zip(slots, vectors, strict=True) if v and len(v) == self.dimension]
        if not keep:
            return
        rows = np.fromiter((s for s, _ in keep), dtype=np.int64, count=len(keep))
        block = np.asarray([v for _, v in keep], dtype=np.float32)
        block /= np.maximum(np.linalg.norm(block, axis=1, keepdims=True), 1e-12)
        changed = ~self.present.data[rows]
        if self.scale is not None and self.residual is not None and self.fine is not None:
            coarse, scale, residual, fine = _quantize(block)
            changed |= ~np.all(self.residual.data[rows] == residual, axis=1) | (
                self.scale.data[rows] != scale
            )
            self.scale.data[rows], self.residual.data[rows], self.fine.data[rows] = scale, residual, fine
            block = coarse
        changed |= ~np.all(self.matrix.data[rows] == block, axis=1)
        self.matrix.data[rows] = block
        self.present.data[rows] = True
        self.pending.update(rows[changed].tolist())

    def _grow(self, size: int) -> None:
        self.size = max(self.size, size)
        for column in (self.matrix, self.present, self.part, self.held, self.scale, self.residual, self.fine):
            if column is not None:
                column.ensure(self.size)

    def floats(self, slots: np.ndarray) -> np.ndarray:
        """The (normalised) vectors of ``slots`` as f32 (int8: row * scale + residual * fine)."""
        rows = self.matrix.data[slots]
        if self.scale is None or self.residual is None or self.fine is None:
            return rows
        out = rows.astype(np.float32) * self.scale.data[slots][:, None]
        out += self.residual.data[slots].astype(np.float32) * self.fine.data[slots][:, None]
        return out

    def flush(self) -> None:
        """Place the slots changed since the last flush in their part's HNSW graph (if it has one)."""
        if not self.pending:
            return
        slots = np.fromiter(self.pending, dtype=np.int64, count=len(self.pending))
        self.pending.clear()
        for part in list(self.hnsw):
            gone = slots[self.held.data[slots] == part]
            add = slots[(self.part.data[slots] == part) & self.present.data[slots]]
            if not len(gone) and not len(add):
                continue
            graph = self._writable(part)
            for slot in gone.tolist():
                graph.remove(slot)
            self.held.data[gone] = NOWHERE
            if len(add):
                graph.add(add, self.floats(add))
                self.held.data[add] = part

    def ensure_ann(self, threads: int = 0) -> None:
        """Build the HNSW graph of each part that outgrows exact scoring (seconds for 100k vectors)."""
        present, part = self.present.view(self.size), self.part.view(self.size)
        for p in np.unique(part[present]).tolist():
            if p in self.hnsw:
                continue
            slots = np.flatnonzero(present & (part == p))
            if len(slots) <= self.ann_threshold:
                continue
            for other in list(self.hnsw):  # slots that moved here from another part
                moved = slots[self.held.data[slots] == other].tolist()
                if moved:
                    graph = self._writable(other)
                    for slot in moved:
                        graph.remove(slot)
            graph = Index(
                ndim=self.dimension,
                metric="cos",
                dtype="f16",
                connectivity=CONNECTIVITY,
                expansion_add=EXPANSION_ADD,
                expansion_search=EXPANSION_SEARCH,
            )
            graph.add(slots, self.floats(slots), threads=threads)
            self.hnsw[p] = graph
            self.held.data[slots] = p
            self.pending.difference_update(slots.tolist())

    def search(
        self,
        query: np.ndarray,
        k: int,
        mask: np.ndarray | None,
        *,
        parts: Sequence[int] | None = None,
        subset: Hashable | None = None,
    ) -> Hits:
        """Top ``k`` slots by cosine among present slots of ``parts`` (None: all) passing ``mask``
        (None: all). ``subset`` names the mask (and the data's version): the rows a selective mask
        keeps are copied out once and kept for the next search of that name, not gathered again."""
        if not self.size or k <= 0:
            return []
        allowed = self.present.view(self.size).copy()
        if mask is not None:
            allowed &= mask[: self.size]
        if parts is not None:
            of = self.part.view(self.size)
            allowed &= np.logical_or.reduce([of == p for p in parts])
        if not allowed.any():
            return []
        self.flush()
        held = self.held.view(self.size)
        hits: Hits = []
        approximated: list[int] = []
        for part, graph in self.hnsw.items():
            in_part = allowed & (held == part)
            n = int(in_part.sum())
            if n > self.ann_threshold and (parts is None or part in parts):
                found = _ann(graph, query, k, in_part, n)
                if len(found) >= min(k, n):
                    hits += found
                    allowed &= ~in_part
                    approximated.append(part)
        n_exact = int(allowed.sum())
        if n_exact:
            key = (subset, tuple(approximated)) if subset else None
            exact = self._exact_i8 if self.scale is not None and I8_SCAN == "cos" else self._exact
            hits += exact(query, k, allowed, n_exact, key)
        hits.sort(key=lambda x: (-x[1], x[0]))
        return hits[:k]

    def _exact(
        self, query: np.ndarray, k: int, allowed: np.ndarray, n_allowed: int, subset: Hashable | None
    ) -> Hits:
        matrix = self.matrix.view(self.size)
        scale = None if self.scale is None else self.scale.view(self.size)
        if 4 * n_allowed > self.size:
            # most rows allowed: one matrix-vector product beats copying the allowed rows out first
            rows = np.flatnonzero(allowed)
            scores = _dot(matrix, scale, query)[rows]
        elif subset is None:
            rows = np.flatnonzero(allowed)
            scores = _dot(matrix[rows], None if scale is None else scale[rows], query)
        else:
            if self.subset is None or self.subset[0] != subset:
                rows = np.flatnonzero(allowed)
                self.subset = (subset, rows, matrix[rows])
            _, rows, vectors = self.subset
            scores = _dot(vectors, None if scale is None else scale[rows], query)
        if self.scale is None:
            return _top(rows, scores, k)
        return self._rescore(query, _top(rows, scores, 2 * k + 16), k)

    def _exact_i8(
        self, query: np.ndarray, k: int, allowed: np.ndarray, n_allowed: int, subset: Hashable | None
    ) -> Hits:
        """``_exact`` for int8 rows: the coarse scan is the cosine of each int8 row with the query
        quantized alike (usearch's exact search, SIMD over the int8 rows: a row's scale cancels in
        a cosine), its best ``2k + 16`` rescored with their residual rows as before."""
        matrix = self.matrix.view(self.size)
        want, coded = 2 * k + 16, _code(query)
        if 4 * n_allowed > self.size:  # most rows allowed: scan them all, keep the allowed
            coarse = _cos_top_allowed(matrix, coded, want, allowed, n_allowed)
        elif subset is None:
            rows = np.flatnonzero(allowed)
            coarse = _cos_top(matrix[rows], rows, coded, want)
        else:
            if self.subset is None or self.subset[0] != subset:
                rows = np.flatnonzero(allowed)
                self.subset = (subset, rows, matrix[rows])
            _, rows, vectors = self.subset
            coarse = _cos_top(vectors, rows, coded, want)
        return self._rescore(query, coarse, k)

    def _rescore(self, query: np.ndarray, coarse: Hits, k: int) -> Hits:
        """The int8 scan's best candidates scored again with their residual rows (near f32)."""
        rows = np.fromiter((s for s, _ in coarse), dtype=np.int64, count=len(coarse))
        return _top(rows, self.floats(rows) @ np.asarray(query, dtype=np.float32), k)


def _code(query: np.ndarray) -> np.ndarray:
    """The query as an int8 row scaled by its largest component (as the matrix rows are)."""
    query = np.asarray(query, dtype=np.float32)
    return np.rint(query * (127 / max(float(np.abs(query).max()), 1e-12))).astype(np.int8)


def _cos_top(vectors: np.ndarray, rows: np.ndarray, coded: np.ndarray, want: int) -> Hits:
    """The ``want`` rows of ``vectors`` (slots ``rows``) nearest ``coded`` by cosine, exactly."""
    if not len(rows):
        return []
    found = exact_search(vectors, coded, min(want, len(rows)), MetricKind.Cos, exact=True, threads=1)
    at = np.asarray(found.keys, dtype=np.int64)
    return [(int(s), 1.0 - float(d)) for s, d in zip(rows[at], found.distances, strict=True)]


def _cos_top_allowed(
    matrix: np.ndarray, coded: np.ndarray, want: int, allowed: np.ndarray, n_allowed: int
) -> Hits:
    """The ``want`` allowed rows of ``matrix`` nearest ``coded``: the scan's best ``fetch`` rows
    (sorted) filtered, ``fetch`` grown until ``want`` of them (or every allowed row) are allowed.
    The scan is exact, so the allowed rows among its best are the best allowed rows."""
    size = len(matrix)
    fetch = min(size, math.ceil(1.25 * want * size / max(n_allowed, 1)) + 8)
    while True:
        found = exact_search(matrix, coded, fetch, MetricKind.Cos, exact=True, threads=1)
        slots = np.asarray(found.keys, dtype=np.int64)
        keep = allowed[slots]
        if int(keep.sum()) >= min(want, n_allowed) or fetch >= size:
            break
        fetch = min(size, 4 * fetch)
    dist = np.asarray(found.distances, dtype=np.float32)[keep][:want]
    return [(int(s), 1.0 - float(d)) for s, d in zip(slots[keep][:want], dist, strict=True)]


def _restore(saved: Any, *, view: bool) -> Index:
    """An HNSW graph from usearch's saved bytes: a view reads them in place, else a copy."""
    graph = Index.restore(  # the search parameters are not in usearch's file
        saved,
        view=view,
        connectivity=CONNECTIVITY,
        expansion_add=EXPANSION_ADD,
        expansion_search=EXPANSION_SEARCH,
    )
    if graph is None:
        raise ValueError("an HNSW graph did not restore")
    return graph


def _quantize(block: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """f32 rows as int8 rows and scales (largest |component| -> 127), and their rounding error the
    same way: row ~ coarse * scale + residual * fine."""
    scale = (np.maximum(np.abs(block).max(axis=1), 1e-12) / 127).astype(np.float32)
    coarse = np.rint(block / scale[:, None]).astype(np.int8)
    error = block - coarse.astype(np.float32) * scale[:, None]
    fine = (np.maximum(np.abs(error).max(axis=1), 1e-12) / 127).astype(np.float32)
    residual = np.rint(error / fine[:, None]).astype(np.int8)
    return coarse, scale, residual, fine


def _dot(matrix: np.ndarray, scale: np.ndarray | None, query: np.ndarray) -> np.ndarray:
    """Every row's inner product with ``query`` (f32). int8 rows: converted to f32 ``BLOCK`` rows at
    a time, multiplied, and rescaled by their row's scale."""
    if scale is None:
        return np.asarray(matrix @ query, dtype=np.float32)
    out = np.empty(len(matrix), dtype=np.float32)
    query = np.asarray(query, dtype=np.float32)
    for start in range(0, len(matrix), BLOCK):
        block = matrix[start : start + BLOCK].astype(np.float32)
        out[start : start + BLOCK] = block @ query
    out *= scale
    return out


def _ann(graph: Index, query: np.ndarray, k: int, allowed: np.ndarray, n_allowed: int) -> Hits:
    """The top ``k`` allowed slots of one HNSW graph: fetch what the filter is expected to leave k
    of, with a margin; retry wider before giving up (the caller then scores exactly)."""
    size = len(graph)
    fetch = min(size, math.ceil(1.25 * k * size / n_allowed) + 8)
    for _ in range(3):
        matches = graph.search(query, fetch)
        slots = np.asarray(matches.keys, dtype=np.int64)
        keep = allowed[slots]
        if keep.sum() >= min(k, n_allowed) or fetch >= size:
            break
        fetch = min(size, 4 * fetch)
    dist = np.asarray(matches.distances, dtype=np.float32)[keep]
    return [(int(s), float(1.0 - d)) for s, d in zip(slots[keep][:k], dist[:k], strict=True)]


def _top(rows: np.ndarray, scores: np.ndarray, k: int) -> Hits:
    if len(rows) > k:
        part = np.argpartition(-scores, k - 1)[:k]
        rows, scores = rows[part], scores[part]
    order = np.lexsort((rows, -scores))
    return [(int(rows[i]), float(scores[i])) for i in order]
