"""Writes' embeddings coalesced across threads (CoalescingEmbedder with ``passages``, issue 17)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from graphmem.providers.embedders.coalescing import CoalescingEmbedder, _similar_lengths
from graphmem.providers.embedders.hashing import HashingEmbedder


class _Counting:
    """Records each model call's texts; the first call blocks until released, so others queue."""

    def __init__(self) -> None:
        self.inner = HashingEmbedder()
        self.calls: list[list[str]] = []
        self.gate = threading.Event()
        self.closed = False

    model_name = "counting"
    dimension = HashingEmbedder().dimension

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append(list(texts))
        if len(self.calls) == 1:
            self.gate.wait(5)
        return self.inner.embed(texts)

    def close(self) -> None:
        self.closed = True


def test_concurrent_passage_calls_share_model_calls_and_get_their_own_rows() -> None:
    """Regression (issue 17): every write embedded its episode, then its names and statements, in
    a model call of its own (7.8 ms of CPU a short text alone against 3.7 at four a call); calls
    that arrive while one runs now share the next, and each caller gets exactly its rows back."""
    inner = _Counting()
    coalescing = CoalescingEmbedder(inner, window_s=0, passages=True)
    jobs = [[f"write {i} text {j}" for j in range(1 + i % 3)] for i in range(12)]
    with ThreadPoolExecutor(max_workers=12) as pool:
        futures = [pool.submit(coalescing.embed, texts) for texts in jobs]
        threading.Timer(0.2, inner.gate.set).start()
        results = [f.result(timeout=10) for f in futures]
    assert sum(len(c) for c in inner.calls) == sum(len(j) for j in jobs)
    assert len(inner.calls) < len(jobs)
    for texts, vectors in zip(jobs, results, strict=True):
        np.testing.assert_allclose(vectors, inner.inner.embed(texts), rtol=1e-6)


def test_passages_pass_through_when_off_or_already_a_batch() -> None:
    inner = _Counting()
    inner.gate.set()
    off = CoalescingEmbedder(inner, passages=False)
    off.embed(["a", "b"])
    big = CoalescingEmbedder(inner, passages=True, max_batch=4)
    big.embed([f"t{i}" for i in range(4)])
    assert [len(c) for c in inner.calls] == [2, 4] and off.passage_calls == big.passage_calls == 0
    assert big.embed([]).shape == (0, inner.dimension)


def test_texts_of_very_different_lengths_go_to_separate_model_calls() -> None:
    """The model pads a call to its longest text: one long episode in a call of short names would
    make each name cost as much as the episode."""
    texts = ["Alice", "Bob", "x" * 2000, "Carol lives in Berlin.", "y" * 1900]
    runs = _similar_lengths(texts)
    assert sorted(i for run in runs for i in run) == list(range(len(texts)))
    assert any(set(run) == {2, 4} for run in runs)
    assert all(2 not in run for run in runs if 0 in run)
    inner = _Counting()
    inner.gate.set()
    vectors = CoalescingEmbedder(inner, passages=True).embed(texts)
    np.testing.assert_allclose(vectors, inner.inner.embed(texts), rtol=1e-6)
    assert len(inner.calls) == len(runs)


def test_errors_reach_every_caller_and_other_attributes_are_the_inner_embedders() -> None:
    class Broken(HashingEmbedder):
        def embed(self, texts: Sequence[str]) -> np.ndarray:
            raise RuntimeError("model failed")

    broken = CoalescingEmbedder(Broken(), passages=True)
    for _ in range(2):  # the leader role was released after the failure
        try:
            broken.embed(["x"])
        except RuntimeError as exc:
            assert "model failed" in str(exc)
        else:
            raise AssertionError("no error")
    inner = _Counting()
    coalescing = CoalescingEmbedder(inner, passages=True)
    coalescing.close()  # type: ignore[attr-defined]  # GraphMemory.close releases an endpoint's connections
    assert inner.closed
