"""Query vectors of repeated texts (graphmem.providers.embedders.query_cache): bounded, LRU, exact."""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from graphmem.providers.embedders.coalescing import CoalescingEmbedder
from graphmem.providers.embedders.hashing import HashingEmbedder
from graphmem.providers.embedders.query_cache import QueryCache


class _Counting(HashingEmbedder):
    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.texts.extend(texts)
        return super().embed(texts)


def test_a_repeated_query_is_embedded_once_and_gets_the_same_vector() -> None:
    inner = _Counting()
    cache = QueryCache(inner, size=8)
    first = cache.embed_query("where does Alice live?")
    again = cache.embed_query("where does Alice live?")
    other = cache.embed_query("where does Bob live?")
    assert inner.texts == ["where does Alice live?", "where does Bob live?"]
    assert first.shape == (1, inner.dimension)
    np.testing.assert_array_equal(first, again)
    np.testing.assert_array_equal(first, inner.embed(["where does Alice live?"]))
    assert not np.array_equal(first, other)
    assert (cache.hits, cache.misses) == (1, 2)


def test_the_cache_holds_at_most_size_texts_and_evicts_the_least_recently_used() -> None:
    inner = _Counting()
    cache = QueryCache(inner, size=3)
    for text in ["a", "b", "c", "a", "d"]:  # "a" used again, so "b" is the oldest when "d" comes
        cache.embed_query(text)
    assert len(cache) == 3
    inner.texts.clear()
    for text in ["a", "c", "d", "b"]:
        cache.embed_query(text)
    assert inner.texts == ["b"]
    for i in range(100):
        cache.embed_query(f"query {i}")
    assert len(cache) == 3


def test_a_caller_changing_its_vector_changes_no_other_callers_and_passages_are_not_cached() -> None:
    """Regression: the tenant index normalises the query vector in place; a cached vector handed
    out as it is (or read-only) was changed for, or broke, the next search with the same text."""
    inner = _Counting()
    cache = QueryCache(inner, size=4)
    vector = cache.embed_query("x")
    vector /= 2.0  # in place, as a caller may
    np.testing.assert_array_equal(cache.embed_query("x"), inner.embed(["x"]))
    inner.texts.clear()
    cache.embed(["x", "x"])
    assert inner.texts == ["x", "x"] and len(cache) == 1
    assert (cache.model_name, cache.dimension) == (inner.model_name, inner.dimension)
    with pytest.raises(ValueError):
        QueryCache(inner, size=0)


def test_concurrent_callers_through_the_coalescing_embedder_get_their_own_texts_vectors() -> None:
    inner = _Counting()
    cache = QueryCache(CoalescingEmbedder(inner), size=16)
    texts = [f"q{i % 5}" for i in range(40)]
    with ThreadPoolExecutor(max_workers=8) as pool:
        vectors = list(pool.map(cache.embed_query, texts))
    for text, vector in zip(texts, vectors, strict=True):
        np.testing.assert_array_equal(vector, inner.embed([text]))
    assert len(cache) == 5
