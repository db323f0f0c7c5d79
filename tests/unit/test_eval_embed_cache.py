"""The retrieval evals' embedding cache (eval.embed_cache): same vectors as the embedder, each
distinct text embedded once, kept across processes, a torn append survived. No database."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from eval.embed_cache import CachedEmbedder, EmbeddingCache, fill
from eval.ingest_setup import NoFacts
from graphmem.providers.embedders.hashing import HashingEmbedder


class Counting(HashingEmbedder):
    def __init__(self) -> None:
        super().__init__(16, name="test/hash")
        self.seen: list[str] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.seen.extend(texts)
        return super().embed(texts)


def test_cached_vectors_equal_the_embedders_and_each_text_is_embedded_once(tmp_path: Path) -> None:
    inner = Counting()
    cached = CachedEmbedder.open(inner, tmp_path)
    texts = [
        "user: I keep my bike in the garage.",
        "assistant: Try carbonara.",
        "user: I keep my bike in the garage.",
    ]
    first = cached.embed(texts)
    np.testing.assert_array_equal(first, HashingEmbedder(16, name="x").embed(texts))
    again = cached.embed(list(reversed(texts)))
    np.testing.assert_array_equal(again, first[::-1])
    assert inner.seen == texts[:2]  # the duplicate within the batch and the second call: no work
    assert (cached.hits, cached.misses) == (3, 2)  # hits: texts found already cached


def test_the_cache_persists_across_processes_per_model_and_dimension(tmp_path: Path) -> None:
    CachedEmbedder.open(Counting(), tmp_path).embed(["a", "b"])
    inner = Counting()
    reopened = CachedEmbedder.open(inner, tmp_path)
    reopened.embed(["b", "a", "c"])
    assert inner.seen == ["c"]
    other = HashingEmbedder(8, name="test/hash")  # another dimension: its own files
    assert len(EmbeddingCache(tmp_path, other.model_name, other.dimension)) == 0


def test_a_torn_append_keeps_the_matched_part_and_is_rewritten(tmp_path: Path) -> None:
    """Regression: a process stopped between appending the keys and the vectors must not shift
    every later vector onto the wrong text."""
    cached = CachedEmbedder.open(Counting(), tmp_path)
    cached.embed(["a", "b"])
    with cached.cache.keys_path.open("a", encoding="ascii") as f:
        f.write("f" * 64 + "\n")  # a key whose vector never landed
    with cached.cache.vectors_path.open("ab") as f:
        f.write(b"\0\0")  # and half a float
    inner = Counting()
    reopened = CachedEmbedder.open(inner, tmp_path)
    assert len(reopened.cache) == 2
    vectors = reopened.embed(["a", "b", "c"])
    np.testing.assert_array_equal(vectors, HashingEmbedder(16).embed(["a", "b", "c"]))
    assert inner.seen == ["c"]
    assert len(CachedEmbedder.open(Counting(), tmp_path).cache) == 3


def test_fill_embeds_only_what_is_missing(tmp_path: Path) -> None:
    inner = Counting()
    cached = CachedEmbedder.open(inner, tmp_path)
    cached.embed(["a"])
    assert fill(cached, ["a", "b", "c", "b"], batch=1) == 2
    assert inner.seen == ["a", "b", "c"]


def test_no_facts_extracts_nothing() -> None:
    from datetime import UTC, datetime

    found = NoFacts().extract(content="I moved to Paris.", speaker="user", reference_time=datetime.now(UTC))
    assert found.facts == [] and found.entities == []


def test_two_writers_on_one_directory_keep_keys_and_vectors_in_step(tmp_path: Path) -> None:
    """Regression: two eval processes filling one cache must not pair a key with the other's vector."""
    first, second = CachedEmbedder.open(Counting(), tmp_path), CachedEmbedder.open(Counting(), tmp_path)
    first.embed(["a"])
    second.embed(["b", "c"])
    first.embed(["d"])
    reopened = CachedEmbedder.open(Counting(), tmp_path)
    assert len(reopened.cache) == 4
    texts = ["a", "b", "c", "d"]
    np.testing.assert_array_equal(reopened.embed(texts), HashingEmbedder(16).embed(texts))
