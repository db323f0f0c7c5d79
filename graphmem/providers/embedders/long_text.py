"""Texts longer than the model's window, embedded whole: the mean of their windows' vectors.

A BERT-family encoder reads at most ``max_seq_length`` tokens (MiniLM: 256) and the tokenizer cuts
the rest off, so a long assistant answer is embedded from its opening lines only. `LongTextEmbedder`
wraps such an embedder: a text that fits is embedded as before (the same vector, bit for bit); a
longer one is cut at word starts into consecutive windows that each fit, every window is embedded
by the inner model, and the text's vector is the token-weighted mean of the windows' unit vectors,
normalised again. Keyed on the text's own length only, never on where it came from.

Only stored texts (``embed``) go through the windows; queries (``embed_query`` /
``embed_queries``) are the inner model's, unchanged. The vectors stay in the inner model's space,
so ``model_name`` is the inner one: a graph embedded before keeps working (its long turns keep
their cut vectors until ``graphmem reembed``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from graphmem.ports import Embedder

# a text's tokens as (start, end) character offsets, no special tokens, no truncation
Offsets = Callable[[str], list[tuple[int, int]]]
_WORD_BACKOFF = 16  # how many tokens a cut may move back to land on a word start


def windows(text: str, offsets: Sequence[tuple[int, int]], size: int) -> list[tuple[str, int]]:
    """``text`` cut into consecutive pieces of at most ``size`` tokens, each with its token count.

    A cut lands on a word start (a token that does not touch the one before it) where one lies in
    the last ``_WORD_BACKOFF`` tokens of the window, so no word is split between two pieces."""
    if size < 1:
        raise ValueError("window size must be positive")
    n = len(offsets)
    if n <= size:
        return [(text, n)]
    pieces: list[tuple[str, int]] = []
    start = 0
    while start < n:
        end = min(start + size, n)
        if end < n:
            for cut in range(end, max(start + 1, end - _WORD_BACKOFF), -1):
                if offsets[cut][0] > offsets[cut - 1][1]:
                    end = cut
                    break
        begin = offsets[start][0]
        stop = offsets[end][0] if end < n else len(text)
        piece = text[begin:stop].strip()
        if piece:
            pieces.append((piece, end - start))
        start = end
    return pieces or [(text, n)]


def pool_mean(vectors: np.ndarray, weights: Sequence[int]) -> np.ndarray:
    """The weighted mean of unit vectors, normalised (one vector for one text)."""
    w = np.asarray(weights, dtype=np.float32)
    if vectors.shape[0] != w.shape[0] or not w.size:
        raise ValueError("one weight per vector, at least one vector")
    mean = (vectors * w[:, None]).sum(axis=0) / max(float(w.sum()), 1e-12)
    norm = float(np.linalg.norm(mean))
    return (mean / norm if norm > 0 else vectors[0]).astype(np.float32)


class LongTextEmbedder:
    """``inner`` with texts over ``window`` tokens embedded as the mean of their windows (module
    docstring). ``offsets`` tokenises a text as the inner model does, without truncating."""

    def __init__(self, inner: Embedder, *, offsets: Offsets, window: int) -> None:
        if window < 8:
            raise ValueError(f"window {window} is too small to embed text in")
        self.inner = inner
        self.offsets = offsets
        self.window = window

    @property
    def model_name(self) -> str:
        return self.inner.model_name

    @property
    def dimension(self) -> int:
        return self.inner.dimension

    def with_inner(self, inner: Embedder) -> LongTextEmbedder:
        """The same windows over another inner embedder (a cache in front of the same model)."""
        return LongTextEmbedder(inner, offsets=self.offsets, window=self.window)

    def pieces(self, texts: Sequence[str]) -> list[list[tuple[str, int]]]:
        """Each text's windows (one window, the text itself, when it fits)."""
        return [windows(t, self.offsets(t), self.window) for t in texts]

    def embed_pieces(self, texts: Sequence[str]) -> list[np.ndarray]:
        """Each text's windows' vectors (n_windows x dimension), in one call to the inner model."""
        split = self.pieces(texts)
        flat = [p for pieces in split for p, _ in pieces]
        if not flat:
            return []
        vectors = np.asarray(self.inner.embed(flat), dtype=np.float32)
        out: list[np.ndarray] = []
        at = 0
        for pieces in split:
            out.append(vectors[at : at + len(pieces)])
            at += len(pieces)
        return out

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        split = self.pieces(texts)
        if all(len(p) == 1 for p in split):
            return np.asarray(self.inner.embed(list(texts)), dtype=np.float32)
        flat = [t if len(p) == 1 else piece for t, p in zip(texts, split, strict=True) for piece, _ in p]
        vectors = np.asarray(self.inner.embed(flat), dtype=np.float32)
        out = np.empty((len(texts), self.dimension), dtype=np.float32)
        at = 0
        for i, pieces in enumerate(split):
            block = vectors[at : at + len(pieces)]
            out[i] = block[0] if len(pieces) == 1 else pool_mean(block, [n for _, n in pieces])
            at += len(pieces)
        return out

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_queries([text])

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        own = getattr(self.inner, "embed_queries", None)
        if callable(own):
            result: np.ndarray = own(list(texts))
            return result
        return np.asarray(self.inner.embed(list(texts)), dtype=np.float32)


def bert_offsets(tokenizer_json: str) -> Offsets:
    """Offsets from a ``tokenizer.json``: no truncation, no padding, no special tokens."""
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(tokenizer_json)
    tok.no_truncation()
    tok.no_padding()

    def offsets(text: str) -> list[tuple[int, int]]:
        return [(int(a), int(b)) for a, b in tok.encode(text, add_special_tokens=False).offsets]

    return offsets


def for_bert(inner: Embedder) -> LongTextEmbedder:
    """Windows for a `BertBase` embedder: its own tokenizer, its limit less the two special tokens
    and the passage prefix's tokens (each window is embedded with the prefix, as the inner adds it)."""
    spec = inner.spec  # type: ignore[attr-defined]
    offsets = bert_offsets(str(spec.root / "tokenizer.json"))
    prefix = getattr(inner, "passage_prefix", "") or ""
    window = spec.max_tokens - 2 - (len(offsets(prefix)) if prefix else 0)
    return LongTextEmbedder(inner, offsets=offsets, window=window)
