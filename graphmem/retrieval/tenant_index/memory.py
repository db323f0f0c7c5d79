"""What a tenant index holds in memory, in bytes (pure): the registry's budget is in bytes.

numpy columns count their allocated capacity exactly, HNSW graphs their own ``memory_usage``;
Python structures (id tables, BM25 postings, texts, adjacency) are estimated from their entry
counts with CPython's per-object costs below (64-bit CPython 3.11, measured with ``tracemalloc``
by tests/unit/test_tenant_index_memory.py to within a factor of two).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from graphmem.retrieval.tenant_index.index import TenantIndex

# per entry: a dict slot (hash, key, value, index; at its usual fill)
DICT_ENTRY = 50
STR_OBJECT = 49  # plus one byte per ASCII character
ID_ENTRY = DICT_ENTRY + STR_OBJECT + 36 + 8  # a UUID string in the id list and the slot dict
POSTING = DICT_ENTRY  # slot -> term frequency
TERM = DICT_ENTRY + 232 + STR_OBJECT + 8  # a term's key and its (small) postings dict
ADJACENCY = 3 * DICT_ENTRY + 56  # a node's tuple of entity ids, and its slot in each entity's set
EVICTION_WINDOW = 16  # eviction chooses among this many least recently used indexes


def victim(candidates: Sequence[tuple[str, int, int]], now: int) -> str:
    """The index to drop, of ``(group, bytes, last used tick)`` candidates (the least recently used
    few): the one with the most bytes x ticks idle. Among cold tenants a big one goes before small
    ones (one eviction frees what many would), yet a small tenant idle long enough still goes
    first; ties go to the least recently used."""
    return max(candidates, key=lambda c: (c[1] * (now - c[2] + 1), -c[2]))[0]


def _arrays(obj: Any) -> int:
    """Bytes of the numpy arrays held by ``obj``'s ``Column`` attributes (``.data``)."""
    total = 0
    for value in vars(obj).values():
        data = getattr(value, "data", None)
        if isinstance(data, np.ndarray):
            total += data.nbytes
    return total


def _texts(texts: Any) -> int:
    if hasattr(texts, "nbytes"):  # a restored index's packed column (tenant_index.columns)
        return int(texts.nbytes())
    values = texts.values() if isinstance(texts, dict) else texts
    return sum(STR_OBJECT + len(t) + DICT_ENTRY for t in values)


def _lexical(lexical: Any) -> int:
    postings = sum(len(p) for p in lexical.postings.values())
    cached = sum(rows.nbytes + tf.nbytes for rows, tf in lexical.cache.values())
    return (
        len(lexical.postings) * TERM
        + postings * POSTING
        + cached
        + _texts(lexical.texts)
        + lexical.length.data.nbytes
        + lexical.nbytes()  # a restored index's frozen columns (tenant_index.lexical)
    )


def index_bytes(index: TenantIndex) -> int:
    """An estimate of the memory ``index`` holds (see the module docstring)."""
    total = _arrays(index)
    for target in index.targets.values():
        total += target.slots.nbytes() + _texts(target.texts)
        total += _lexical(target.lexical)
        adjacency = target.adjacency
        total += adjacency.nodes() * ADJACENCY
        total += 0 if adjacency.frozen is None else adjacency.frozen.nbytes()
        vectors = target.vectors
        total += _arrays(vectors) + sum(
            len(vectors.viewed[p]) if p in vectors.viewed else int(g.memory_usage)  # a view: its bytes
            for p, g in vectors.hnsw.items()
        )
        if vectors.subset is not None:
            total += vectors.subset[1].nbytes + vectors.subset[2].nbytes
    fields = index.fields
    total += sum(_texts(t) for t in fields.texts.values())
    if fields.active:
        total += sum(_lexical(lex) for lex in fields.lexical.values())
    total += fields.entries() * ID_ENTRY
    return total
