"""Query embeddings of concurrent searches coalesced into one model call (micro-batching).

Searches embed their query in a worker thread (``asyncio.to_thread``). Under load several of them
do so at once, and one batched ONNX call for n queries costs much less than n calls. The first
caller to arrive becomes the leader: it embeds everything queued (at most ``max_batch`` a call,
repeated until the queue is empty) and hands each caller its row, so queries that arrive while a
call runs share the next one. ``window_s`` (default 0) makes the leader wait first for more to
join; with 0 a lone search pays only a lock.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from graphmem.ports import Embedder


@dataclass
class _Waiter:
    text: str
    done: threading.Event = field(default_factory=threading.Event)
    vector: np.ndarray | None = None
    error: BaseException | None = None


class CoalescingEmbedder:
    """Wraps an embedder; ``embed_query`` batches across threads, ``embed`` passes through."""

    def __init__(self, inner: Embedder, *, window_s: float = 0.0005, max_batch: int = 32) -> None:
        self.inner = inner
        self.window_s = window_s
        self.max_batch = max_batch
        self._lock = threading.Lock()
        self._queue: list[_Waiter] = []
        self._leading = False
        self.calls = 0  # model calls made for queries (tests and measurements read it)

    @property
    def model_name(self) -> str:
        return self.inner.model_name

    @property
    def dimension(self) -> int:
        return self.inner.dimension

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return self.inner.embed(texts)

    def embed_query(self, text: str) -> np.ndarray:
        """One query's vector (1 x dimension), embedded as a query (`_embed_queries`)."""
        waiter = _Waiter(text)
        with self._lock:
            self._queue.append(waiter)
            lead = not self._leading
            self._leading = True
        if lead:
            self._lead()
        waiter.done.wait()
        if waiter.error is not None:
            raise waiter.error
        assert waiter.vector is not None
        return waiter.vector.reshape(1, -1)

    def _embed_queries(self, texts: list[str]) -> np.ndarray:
        """Through the inner embedder's ``embed_queries`` (its query prefix, e5-style models; not its
        passage prefix), else as any texts."""
        own = getattr(self.inner, "embed_queries", None)
        vectors: np.ndarray = own(texts) if callable(own) else self.inner.embed(texts)
        return vectors

    def _lead(self) -> None:
        if self.window_s > 0:
            time.sleep(self.window_s)
        while True:
            with self._lock:
                batch, self._queue = self._queue[: self.max_batch], self._queue[self.max_batch :]
                if not batch:
                    self._leading = False
                    return
            try:
                vectors = self._embed_queries([w.text for w in batch])
                self.calls += 1
                for w, row in zip(batch, vectors, strict=True):
                    w.vector = row
            except BaseException as exc:  # every caller of the batch sees the failure
                for w in batch:
                    w.error = exc
            finally:
                for w in batch:
                    w.done.set()
