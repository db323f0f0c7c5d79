"""How a retrieval eval ingests: the embedding cache and the choice to skip fact extraction.

``eval_ingest(memory, embed_cache=DIR, facts=False)`` swaps the memory's ingestion providers for
the ``with`` block and puts them back after:

- ``embed_cache``: episodes (and entity names, fact statements) are embedded through
  ``eval.embed_cache.CachedEmbedder``; search keeps the real embedder for its queries;
- ``facts=False``: ``NoFacts`` extracts nothing, so every episode is stored and indexed as usual
  but no entity or fact is derived (extraction and entity resolution are most of the rest of a
  LongMemEval ingestion). The graphmem-backed retrievers then search episodes only: their fact
  targets, the graph channel and the episodes' ``facts`` field are empty. rank-bm25 never reads
  the graph and is unchanged. Results from such a run carry ``"facts": false``: they are not
  the default pipeline's numbers.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

from eval.embed_cache import CachedEmbedder
from graphmem.memory import GraphMemory
from graphmem.models.extraction import Extraction

__all__ = ["NoFacts", "eval_ingest"]


class NoFacts:
    """An extractor that finds nothing (episodes only)."""

    name = "none"
    version = "0"

    def extract(self, *, content: str, speaker: str | None, reference_time: datetime) -> Extraction:
        return Extraction()


@contextmanager
def eval_ingest(
    memory: GraphMemory, *, embed_cache: Path | None = None, facts: bool = True
) -> Iterator[CachedEmbedder | None]:
    """Ingestion through the cache and/or without extraction inside the block; yields the cached
    embedder (its ``hits`` / ``misses``) when there is one."""
    ctx = memory.ctx
    embedder, extractor = ctx.embedder, ctx.extractor
    cached = CachedEmbedder.open(embedder, embed_cache) if embed_cache is not None else None
    try:
        if cached is not None:
            ctx.embedder = cached
        if not facts:
            ctx.extractor = NoFacts()
        yield cached
    finally:
        ctx.embedder, ctx.extractor = embedder, extractor
