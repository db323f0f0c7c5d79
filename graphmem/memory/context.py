"""What the memory layer runs with: the store, the providers and the clock (built at the edge)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from graphmem.clock import Clock, utc_now
from graphmem.memory.write_gate import WriteGate
from graphmem.ports import Embedder, Extractor
from graphmem.privacy import Redactor
from graphmem.store.driver import Store


@dataclass
class MemoryContext:
    store: Store
    embedder: Embedder
    extractor: Extractor
    clock: Clock = utc_now
    vector_exact_threshold: int = 1_000
    max_batch: int = 500
    search_index: bool = True
    index_max_nodes: int = 1_000_000
    index_sync_limit: int = 5_000
    index_ann_threshold: int = 10_000
    index_max_bytes: int | None = None
    index_vectors: str = "i8"  # the tenant index's vector matrices: i8 (+ residual) or f32
    index_snapshot_dir: Path | None = None  # tenant index snapshots (tenant_index.persist); None: off
    index_snapshot_max_bytes: int | None = None  # the snapshot directory's budget (None: none)
    query_batch_window_s: float = 0.0
    query_batch: bool = True  # concurrent searches share query-embedding calls (CoalescingEmbedder)
    query_cache_size: int = 1024  # query vectors of repeated texts, per process (QueryCache; 0: off)
    write_gate: WriteGate = field(default_factory=WriteGate)
    write_embed_ahead: bool = True  # embed new names and statements before the group lock (ingestion)
    change_log: bool = True  # append a :Change record per state change (graphmem.memory.changes)
    redactor: Redactor | None = None  # PII tokens on write and the vault's cipher (graphmem.memory.pii)

    async def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embedding is CPU-bound: run it off the event loop."""
        if not texts:
            return np.zeros((0, self.embedder.dimension), dtype=np.float32)
        return await asyncio.to_thread(self.embedder.embed, list(texts))
