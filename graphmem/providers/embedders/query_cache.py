"""Query vectors of repeated search texts, kept per process in a bounded LRU.

Agents repeat queries ("what does the user like?", the same question each turn), and a query
embedding is most of a search's own CPU (a MiniLM query on ONNX Runtime costs several ms, the rest
of a search a few). ``QueryCache`` wraps an embedder: ``embed_query`` answers a text it has seen
among the last ``size`` from memory and asks the inner embedder otherwise; ``embed`` (passages:
episodes, facts, names) passes through uncached. The key is the exact query text: a vector depends
only on the text and the model, and the model is fixed for the wrapper's life. Every caller gets
its own copy (callers normalise their vector in place), so no caller can change what the next one
is given. Thread-safe: searches embed in worker threads.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from graphmem.ports import Embedder
from graphmem.providers.embedders import embed_query


class QueryCache:
    """Wraps an embedder; ``embed_query`` is answered from the ``size`` most recently used texts."""

    def __init__(self, inner: Embedder, *, size: int = 1024) -> None:
        if size < 1:
            raise ValueError("size must be at least 1")
        self.inner = inner
        self.size = size
        self._lock = threading.Lock()
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        self.hits = 0
        self.misses = 0

    @property
    def model_name(self) -> str:
        return self.inner.model_name

    @property
    def dimension(self) -> int:
        return self.inner.dimension

    def __len__(self) -> int:
        return len(self._vectors)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return self.inner.embed(texts)

    def embed_query(self, text: str) -> np.ndarray:
        """One query's vector (1 x dimension), the caller's own copy."""
        with self._lock:
            vector = self._vectors.get(text)
            if vector is not None:
                self._vectors.move_to_end(text)
                self.hits += 1
                return vector.copy()
            self.misses += 1
        vector = np.array(embed_query(self.inner, text), copy=True).reshape(1, -1)
        with self._lock:
            self._vectors[text] = vector
            self._vectors.move_to_end(text)
            while len(self._vectors) > self.size:
                self._vectors.popitem(last=False)
        return vector.copy()
