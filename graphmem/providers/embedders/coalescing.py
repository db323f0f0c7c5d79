"""Embeddings of concurrent callers coalesced into one model call (micro-batching).

Searches embed their query, and writes their episodes, names and statements, in worker threads
(``asyncio.to_thread``). Under load several of them do so at once, and one batched ONNX call for n
short texts costs much less than n calls (all-MiniLM-L6-v2, one thread, the load test's sentences:
7.8 ms of CPU a text one at a time, 3.7 at four a call, 3.2 at eight). The first caller to arrive
becomes the leader: it embeds everything queued (at most ``max_batch`` texts a call, repeated until
the queue is empty) and hands each caller its rows, so texts that arrive while a call runs share the
next one. ``window_s`` (default 0) makes the leader wait first for more to join; with 0 a lone
caller pays only a lock.

Queries and passages queue apart (an e5-style model prefixes them differently). A passage call of
``max_batch`` texts or more is already a batch and goes straight through. Within a coalesced call
texts of very different lengths are split into separate model calls (``_similar_lengths``): the
model pads a call to its longest text, so a long episode would otherwise make every short name in
its call cost as much as itself.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from graphmem.ports import Embedder

LENGTH_RATIO = 2  # texts in one model call: the longest at most this many times the shortest ...
LENGTH_SLACK = 64  # ... plus this many characters (short texts pad to a few tokens anyway)


@dataclass
class _Waiter:
    texts: list[str]
    done: threading.Event = field(default_factory=threading.Event)
    vectors: np.ndarray | None = None
    error: BaseException | None = None


def _similar_lengths(texts: list[str]) -> list[list[int]]:
    """The indexes of ``texts`` in runs of similar length (shortest first), one model call each."""
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    runs: list[list[int]] = []
    for i in order:
        if runs and len(texts[i]) <= LENGTH_RATIO * len(texts[runs[-1][0]]) + LENGTH_SLACK:
            runs[-1].append(i)
        else:
            runs.append([i])
    return runs


class _Batcher:
    """One queue of waiting callers and its leader protocol, around one embedding function."""

    def __init__(self, embed: Callable[[list[str]], np.ndarray], *, window_s: float, max_batch: int) -> None:
        self._embed = embed
        self.window_s = window_s
        self.max_batch = max_batch
        self._lock = threading.Lock()
        self._queue: list[_Waiter] = []
        self._leading = False
        self.calls = 0  # coalesced rounds run (tests and measurements read it)

    def run(self, texts: list[str]) -> np.ndarray:
        waiter = _Waiter(texts)
        with self._lock:
            self._queue.append(waiter)
            lead = not self._leading
            self._leading = True
        if lead:
            self._lead()
        waiter.done.wait()
        if waiter.error is not None:
            raise waiter.error
        assert waiter.vectors is not None
        return waiter.vectors

    def _take(self) -> list[_Waiter]:
        """The next round: queued callers, FIFO, up to ``max_batch`` texts (at least one caller)."""
        with self._lock:
            n, size = 0, 0
            for w in self._queue:
                if n and size + len(w.texts) > self.max_batch:
                    break
                n, size = n + 1, size + len(w.texts)
            batch, self._queue = self._queue[:n], self._queue[n:]
            if not batch:
                self._leading = False
            return batch

    def _lead(self) -> None:
        if self.window_s > 0:
            time.sleep(self.window_s)
        while batch := self._take():
            try:
                texts = [t for w in batch for t in w.texts]
                vectors = np.empty((len(texts), 0), dtype=np.float32)
                for run in _similar_lengths(texts):
                    rows = self._embed([texts[i] for i in run])
                    if vectors.shape[1] != rows.shape[1]:
                        vectors = np.empty((len(texts), rows.shape[1]), dtype=rows.dtype)
                    vectors[run] = rows
                self.calls += 1
                start = 0
                for w in batch:
                    w.vectors = vectors[start : start + len(w.texts)]
                    start += len(w.texts)
            except BaseException as exc:  # every caller of the round sees the failure
                for w in batch:
                    w.error = exc
            finally:
                for w in batch:
                    w.done.set()


class CoalescingEmbedder:
    """Wraps an embedder; ``embed_query`` batches across threads, and so does ``embed`` (passages)
    when ``passages`` is set (otherwise it passes through)."""

    def __init__(
        self, inner: Embedder, *, window_s: float = 0.0005, max_batch: int = 32, passages: bool = False
    ) -> None:
        self.inner = inner
        self.window_s = window_s
        self.max_batch = max_batch
        self.passages = passages
        self._queries = _Batcher(self._embed_queries, window_s=window_s, max_batch=max_batch)
        self._passages = _Batcher(inner.embed, window_s=window_s, max_batch=max_batch)

    @property
    def calls(self) -> int:
        """Coalesced query rounds run (each one or more model calls of similar lengths)."""
        return self._queries.calls

    @property
    def passage_calls(self) -> int:
        return self._passages.calls

    def __getattr__(self, name: str) -> object:
        """Anything else is the inner embedder's (``close`` of an endpoint embedder, its prefixes)."""
        if name == "inner":  # not set yet (copy, unpickling): no recursion
            raise AttributeError(name)
        return getattr(self.inner, name)

    @property
    def model_name(self) -> str:
        return self.inner.model_name

    @property
    def dimension(self) -> int:
        return self.inner.dimension

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not self.passages or not texts or len(texts) >= self.max_batch:
            return self.inner.embed(texts)
        return self._passages.run(list(texts))

    def embed_query(self, text: str) -> np.ndarray:
        """One query's vector (1 x dimension), embedded as a query (`_embed_queries`)."""
        return self._queries.run([text]).reshape(1, -1)

    def _embed_queries(self, texts: list[str]) -> np.ndarray:
        """Through the inner embedder's ``embed_queries`` (its query prefix, e5-style models; not its
        passage prefix), else as any texts."""
        own = getattr(self.inner, "embed_queries", None)
        vectors: np.ndarray = own(texts) if callable(own) else self.inner.embed(texts)
        return vectors
