"""Micro-batched query embeddings (graphmem.providers.embedders.coalescing)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from graphmem.providers.embedders.coalescing import CoalescingEmbedder
from graphmem.providers.embedders.hashing import HashingEmbedder


class _Counting:
    """Counts model calls; the first one blocks until released, so the others queue behind it."""

    def __init__(self) -> None:
        self.inner = HashingEmbedder()
        self.batches: list[int] = []
        self.gate = threading.Event()

    model_name = "counting"
    dimension = HashingEmbedder().dimension

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.batches.append(len(texts))
        if len(self.batches) == 1:
            self.gate.wait(5)
        return self.inner.embed(texts)


@pytest.mark.parametrize("window_s", [0.0, 0.001])
def test_concurrent_queries_share_model_calls_and_get_their_own_vectors(window_s: float) -> None:
    """With no window (the default) queries that arrive while a call runs share the next one."""
    inner = _Counting()
    coalescing = CoalescingEmbedder(inner, window_s=window_s)
    texts = [f"query number {i}" for i in range(17)]
    with ThreadPoolExecutor(max_workers=17) as pool:
        futures = [pool.submit(coalescing.embed_query, t) for t in texts]
        threading.Timer(0.2, inner.gate.set).start()
        vectors = [f.result(timeout=10) for f in futures]
    assert sum(inner.batches) == 17 and len(inner.batches) < 17
    for text, vector in zip(texts, vectors, strict=True):
        assert vector.shape == (1, inner.dimension)
        np.testing.assert_allclose(vector[0], inner.inner.embed([text])[0], rtol=1e-6)


def test_a_lone_query_is_one_call_and_errors_reach_every_caller() -> None:
    inner = HashingEmbedder()
    coalescing = CoalescingEmbedder(inner)
    np.testing.assert_allclose(coalescing.embed_query("hello"), inner.embed(["hello"]))
    assert coalescing.calls == 1

    class Broken(HashingEmbedder):
        def embed(self, texts: Sequence[str]) -> np.ndarray:
            raise RuntimeError("model failed")

    broken = CoalescingEmbedder(Broken())
    with pytest.raises(RuntimeError, match="model failed"):
        broken.embed_query("x")
    with pytest.raises(RuntimeError, match="model failed"):  # the leader role was released
        broken.embed_query("y")
