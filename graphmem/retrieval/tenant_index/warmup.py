"""A worker's warm-up of the tenant index's code paths, before it serves (issue 22; pure, no DB).

A fresh worker's first cold search of a big tenant took 382/667 ms p50/p99 on a quiet host, against
55/132 ms for a later cold search of the same tenant (``eval.tenants_cold``): its first restore maps
a file for the first time, views an HNSW graph through usearch for the first time, and makes the
first big allocations and BLAS calls of exact scoring. None of that depends on the tenant, so
``warm_up`` runs it once over a small synthetic index at start-up: it builds one (a part past its own
ANN threshold, so an HNSW graph is built, saved and viewed; the other parts are scored exactly),
and one exact scan of more rows than ``vectors.BLOCK`` (usearch's int8 cosine; for f32 rows a
full block through BLAS), saves it to a temporary snapshot directory, restores it both
ways (read, and mapped as a big file is), runs every channel of a search and the rerank's inputs
over the restored index in the default and a dated view, then applies a write to it (the catch-up
path: frozen columns thawed, a viewed graph copied). The directory is removed after; the process
keeps nothing but its warm code, allocator and libraries.
"""

from __future__ import annotations

import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from graphmem.retrieval.tenant_index.index import TenantIndex, View
from graphmem.retrieval.tenant_index.persist import Expected, Snapshots
from graphmem.retrieval.tenant_index.vectors import BLOCK, PRECISION, _code, _cos_top, _dot

GROUP = "graphmem-warm-up"
# Neo4j 5 caches a statement's plan by its text and its parameters' types, where a string's or a
# list's type carries a size bucket (1, 2-10, 11-100, 101-1,000 items: measured on 5.26) and a null
# is another type than a value. A group id (1-128 characters: ``models.common.GroupId``) falls in one
# of four buckets, so the warm-up sends the cold path's reads once for a group id of each
# (``TenantIndexes.warm_up``). '~' is outside a group id's alphabet: these name no tenant.
GROUP_IDS = tuple("~" * n for n in (1, 2, 11, 101))
NO_ID = "~" * 36  # an id no node has, of a node id's length (a UUID's 36 characters)
WORDS = tuple(f"w{i}" for i in range(64))
ANN_THRESHOLD = 64  # the synthetic facts' part outgrows it: an HNSW graph is built and viewed
FACTS = 256
ENTITIES = 32


EPISODES = 48


def synthetic_rows(
    dimension: int, episodes: int = EPISODES, seed: int = 0
) -> dict[str, list[dict[str, Any]]]:
    """Rows of a small tenant in the change feed's shape (``store.snapshot``): ``episodes``
    episodes, ``FACTS`` facts (a few ended: both fact parts), ``ENTITIES`` entities."""
    rng = np.random.default_rng(seed)
    n = episodes + FACTS + ENTITIES
    vectors = rng.standard_normal((n, dimension)).astype(np.float32)
    words = rng.integers(0, len(WORDS), size=(n, 8))
    when = datetime(2024, 1, 1, tzinfo=UTC)
    entity_ids = [f"warm-entity-{i:05d}" for i in range(ENTITIES)]

    def text(i: int) -> str:
        return " ".join(WORDS[w] for w in words[i])

    out: dict[str, list[dict[str, Any]]] = {"episode": [], "fact": [], "entity": []}
    for i in range(episodes):
        out["episode"].append(
            {
                "id": f"warm-episode-{i:05d}",
                "search_text": f"{text(i)} {text(i + 1)}",
                "speaker_terms": "",
                "terms": text(i),
                "text": text(i),
                "reference_time": when + timedelta(minutes=i),
                "embedding": vectors[i].tolist(),
                "mentions": [entity_ids[i % ENTITIES]],
            }
        )
    for j in range(FACTS):
        i = episodes + j
        out["fact"].append(
            {
                "id": f"warm-fact-{j:05d}",
                "search_text": text(i),
                "text": text(i),
                "valid_from": when + timedelta(days=j),
                "valid_to": when + timedelta(days=j + 1) if j % 8 == 0 else None,
                "status": "active",
                "expired_at": None,
                "evidence": 1,
                "evidence_ids": [f"warm-episode-{j % episodes:05d}"],
                "recorded_at": when + timedelta(days=j),
                "confidence": 0.9,
                "tier": "inferred" if j % 5 == 0 else "extracted",
                "subject_id": entity_ids[j % ENTITIES],
                "object_id": entity_ids[(j + 1) % ENTITIES],
                "embedding": vectors[i].tolist(),
            }
        )
    for k, entity_id in enumerate(entity_ids):
        i = episodes + FACTS + k
        out["entity"].append(
            {"id": entity_id, "search_text": text(i), "text": text(i), "embedding": vectors[i].tolist()}
        )
    return out


def build(dimension: int, precision: str = PRECISION, episodes: int = EPISODES) -> TenantIndex:
    index = TenantIndex(GROUP, dimension, ANN_THRESHOLD, 1, None, vector_precision=precision)
    for label, rows in synthetic_rows(dimension, episodes).items():
        index.apply(label, rows)
    index.finish()
    index.fields.activate()  # saved as the registry saves (``registry._save``)
    return index


def exercise(index: TenantIndex, query: np.ndarray) -> int:
    """Every channel of a search over ``index``, as ``retrieval.sources.IndexSource`` runs them,
    and the rerank's inputs; returns how many hits came back (nonzero when it all ran)."""
    found = 0
    terms = list(WORDS[:3])
    weights = {"own": 1.0, "context": 0.3, "facts": 0.5}
    for view in (View(), View(as_of=datetime(2024, 6, 1, tzinfo=UTC))):
        for label in ("episode", "fact", "entity"):
            hits = index.bm25(label, terms, 50, view, fields=weights if label == "episode" else None)
            hits += index.vector(label, query, 50, view)
            found += len(hits)
            index.features([(label, i) for i, _ in hits[:30]])
        seeds = [i for i, _ in index.bm25("entity", terms, 3, view)]
        for label in ("fact", "episode"):
            found += len(index.graph(label, seeds, 50, view))
    return found


def _restore(index: TenantIndex, directory: Path, mapped: bool, query: np.ndarray) -> TenantIndex:
    """``index`` saved to ``directory`` and restored, read into memory or mapped (as a file of
    ``persist.MAP_BYTES`` or more is), then searched."""
    snapshots = Snapshots(directory)
    snapshots.map_bytes = 0 if mapped else 1 << 62
    snapshots.save(index)
    restored = snapshots.load(GROUP, Expected(index.dimension, index.vector_precision, ANN_THRESHOLD))
    if restored is None or not exercise(restored, query):
        raise RuntimeError("the tenant index warm-up found nothing")
    return restored


def warm_up(dimension: int, precision: str = PRECISION, *, episodes: int = EPISODES) -> dict[str, float]:
    """Warm the tenant index's code paths (see the module's text); returns each step's ms. Seconds
    of CPU at most: run it off the event loop, before the worker serves."""
    ms: dict[str, float] = {}
    began = time.perf_counter()

    def step(name: str) -> None:
        nonlocal began
        now = time.perf_counter()
        ms[name] = round((now - began) * 1000, 2)
        began = now

    index = build(dimension, precision, episodes)
    step("build")
    query = np.random.default_rng(1).standard_normal(dimension).astype(np.float32)
    query /= float(np.linalg.norm(query))
    with tempfile.TemporaryDirectory(prefix="graphmem-warm-up-") as directory:
        restored = [_restore(index, Path(directory), mapped, query) for mapped in (False, True)]
        step("restore")
        last = restored[-1]  # a catch-up: writes into the restored (mapped) columns and graph
        rows = synthetic_rows(dimension, 1, seed=2)
        for label in ("episode", "fact", "entity"):
            last.apply(label, rows[label][:1])
        last.finish()
        exercise(last, query)
        step("catch_up")
        del restored, last
    if precision == "i8":  # the int8 scan over a block of rows, as the scan of a big part runs
        block = np.random.default_rng(2).integers(-127, 128, (BLOCK + 1, dimension), dtype=np.int8)
        _cos_top(block, np.arange(len(block), dtype=np.int64), _code(query), 116)
    else:
        _dot(np.zeros((BLOCK + 1, dimension), dtype=np.float32), None, query)
    step("exact_scan")
    return ms
