"""An in-process mirror of one tenant's searchable state, used as the retrieval channels' candidate
generator (docs/design-notes.md, "Tenant index").

Neo4j stays the source of truth: the index is loaded from it, kept current from the ``rev`` change
feed (``graphmem.store.snapshot``), and every hit is re-read — and its visibility re-checked — in
Neo4j when results are hydrated. What the index buys is latency: BM25, vector and graph channels in
a few milliseconds of numpy and HNSW instead of one Neo4j round trip each.
"""
