"""LongTextEmbedder: a text over the window is the mean of its windows; one that fits is unchanged."""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import pytest

from graphmem.providers.embedders.hashing import HashingEmbedder
from graphmem.providers.embedders.long_text import LongTextEmbedder, pool_mean, windows


def word_offsets(text: str) -> list[tuple[int, int]]:
    """One token per word, and words over 6 letters split in two pieces (a word-piece's '##')."""
    out: list[tuple[int, int]] = []
    for m in re.finditer(r"\S+", text):
        a, b = m.span()
        if b - a > 6:
            out += [(a, a + 3), (a + 3, b)]
        else:
            out.append((a, b))
    return out


class Recording:
    """An inner embedder that records what it is asked to embed (hash vectors, unit length)."""

    def __init__(self) -> None:
        self.inner = HashingEmbedder(32)
        self.calls: list[list[str]] = []
        self.queries: list[list[str]] = []

    @property
    def model_name(self) -> str:
        return "recording"

    @property
    def dimension(self) -> int:
        return 32

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append(list(texts))
        return self.inner.embed(texts)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        self.queries.append(list(texts))
        return self.inner.embed(texts)


def test_a_text_that_fits_is_one_window_and_the_inner_vector():
    inner = Recording()
    lt = LongTextEmbedder(inner, offsets=word_offsets, window=10)
    texts = ["user: I adopted a cat last week", "assistant: congratulations on the new cat"]
    out = lt.embed(texts)
    assert inner.calls == [texts]
    assert np.array_equal(out, inner.inner.embed(texts))


@pytest.mark.parametrize(
    "text",
    [
        "assistant: " + " ".join(f"step {i} stir the sauce gently" for i in range(12)),
        "user: " + "a very long paragraph about commuting by bicycle every morning " * 9,
        "assistant: Here are some recommendations:\n1. Visit the museum\n2. Try the bakery\n" * 6,
    ],
)
def test_windows_cover_the_text_in_order_and_fit(text):
    offsets = word_offsets(text)
    pieces = windows(text, offsets, 20)
    assert len(pieces) > 1
    assert all(n <= 20 for _, n in pieces)
    assert sum(n for _, n in pieces) == len(offsets)
    # no word cut in two, and the pieces joined are the text's words in order
    assert " ".join(p for p, _ in pieces).split() == text.split()


def test_a_long_text_is_the_token_weighted_mean_of_its_windows():
    inner = Recording()
    lt = LongTextEmbedder(inner, offsets=word_offsets, window=8)
    long = "one two three four five six seven eight nine ten eleven twelve"
    short = "just a short line"
    out = lt.embed([short, long])
    pieces = windows(long, word_offsets(long), 8)
    assert [n for _, n in pieces] == [8, 4]
    chunk = inner.inner.embed([p for p, _ in pieces])
    expected = pool_mean(chunk, [8, 4])
    assert np.allclose(out[1], expected, atol=1e-6)
    assert np.allclose(out[0], inner.inner.embed([short])[0])
    assert np.isclose(np.linalg.norm(out[1]), 1.0, atol=1e-5)
    # one call to the inner model for the whole batch: the short text and the two windows
    assert inner.calls == [[short, pieces[0][0], pieces[1][0]]]


def test_queries_are_the_inner_models_and_never_cut():
    inner = Recording()
    lt = LongTextEmbedder(inner, offsets=word_offsets, window=8)
    question = "what did I say about the bakery near the museum last spring"
    q = lt.embed_query(question)
    assert inner.queries == [[question]] and inner.calls == []
    assert q.shape == (1, 32)


def test_model_name_dimension_and_with_inner():
    inner = Recording()
    lt = LongTextEmbedder(inner, offsets=word_offsets, window=8)
    assert (lt.model_name, lt.dimension) == ("recording", 32)
    other = Recording()
    again = lt.with_inner(other)
    again.embed(["a b c d e f g h i j"])
    assert other.calls and not inner.calls
    assert lt.embed([]).shape == (0, 32)


def test_pool_mean_rejects_mismatched_weights_and_bad_windows():
    with pytest.raises(ValueError):
        pool_mean(np.eye(2, dtype=np.float32), [1])
    with pytest.raises(ValueError):
        LongTextEmbedder(Recording(), offsets=word_offsets, window=2)
    with pytest.raises(ValueError):
        windows("a b", [(0, 1), (2, 3)], 0)


def test_minilm_windows_fit_the_models_limit():
    from graphmem.providers.embedders.factory import build_embedder
    from graphmem.providers.embedders.long_text import for_bert

    base = build_embedder("minilm")
    lt = for_bert(base)
    assert lt.window == base.spec.max_tokens - 2  # type: ignore[attr-defined]
    text = "assistant: " + " ".join(f"tip {i}: keep the receipts for every purchase" for i in range(80))
    pieces = lt.pieces([text])[0]
    assert len(pieces) > 1 and all(n <= lt.window for _, n in pieces)


def test_the_eval_cache_holds_windows_beneath_the_cut(tmp_path):
    from eval.embed_cache import CachedEmbedder

    inner = Recording()
    lt = LongTextEmbedder(inner, offsets=word_offsets, window=8)
    long = "one two three four five six seven eight nine ten eleven twelve"
    cached = CachedEmbedder.open(lt, tmp_path)
    first = cached.embed([long, "a short one"])
    assert np.allclose(first, lt.embed([long, "a short one"]), atol=1e-6)
    inner.calls.clear()
    again = CachedEmbedder.open(lt, tmp_path)  # a later run over the same directory
    assert np.array_equal(again.embed([long, "a short one"]), first)
    assert inner.calls == [] and again.misses == 0
    # the cut text itself was never a key: its windows were
    assert len(again.cache) == 3
    assert again.embed_query("what about twelve").shape == (1, 32)


def test_the_factory_wraps_bert_embedders_when_asked():
    from graphmem.providers.embedders import factory

    on = factory.build_embedder("minilm", long_text=True)
    off = factory.build_embedder("minilm", long_text=False)
    assert isinstance(on, LongTextEmbedder) and not isinstance(off, LongTextEmbedder)
    assert on.model_name == off.model_name and on.dimension == off.dimension
    assert not isinstance(factory.build_embedder("hashing", dimension=16, long_text=True), LongTextEmbedder)
    assert not isinstance(factory.build_embedder("minilm"), LongTextEmbedder)  # off by default


def test_the_setting_turns_long_texts_on(monkeypatch):
    from graphmem.config import Settings
    from graphmem.providers.embedders.factory import embedder_from_settings

    monkeypatch.setenv("GRAPHMEM_EMBED_LONG_TEXT", "true")
    assert isinstance(embedder_from_settings(Settings()), LongTextEmbedder)
    monkeypatch.setenv("GRAPHMEM_EMBED_LONG_TEXT", "false")
    assert not isinstance(embedder_from_settings(Settings()), LongTextEmbedder)
