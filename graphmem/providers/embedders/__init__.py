"""Embedders (``factory``): MiniLM on ONNX Runtime (default; the numpy forward pass where onnxruntime is
missing), any BERT-family sentence-transformers directory on the same path (``local``), an
OpenAI-compatible endpoint (``openai``), hashing (tests)."""

from __future__ import annotations

import numpy as np

from graphmem.ports import Embedder


def embed_query(embedder: Embedder, text: str) -> np.ndarray:
    """A search query's vector (1 x dimension): through the embedder's ``embed_query`` where it has one
    (e5-style models embed queries with their own prefix), else as any text."""
    own = getattr(embedder, "embed_query", None)
    if callable(own):
        vector: np.ndarray = own(text)
        return vector
    return embedder.embed([text])
