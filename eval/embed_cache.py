"""A disk cache of text embeddings for the retrieval evals (``--embed-cache DIR``).

Embedding is most of an eval's ingestion on a CPU: LongMemEval dev's 29,707 turns take about 40
minutes with MiniLM on one loaded core, and every run embeds the same texts again. ``CachedEmbedder``
wraps the configured embedder and answers texts it has seen from ``DIR``: one file pair per model
and dimension, ``<model>-<dim>.keys`` (one SHA-256 of the text a line) and ``<model>-<dim>.f32``
(the vectors, float32, in the same order), appended to as new texts are embedded. A vector is the
embedder's own output for that text, so a cached run ranks as an uncached one does (batch padding
can move the last float bit). Only ingestion goes through the cache; search embeds its query with
the real embedder, so search latencies are not flattered.

Processes may share a directory: each append of keys and vectors holds an exclusive lock on
``<model>-<dim>.lock``, so the two files stay in step; a process sees the others' vectors when it
next opens the cache. A process that stopped between the two appends leaves more keys than vectors
(or a partial vector): the unmatched tail is ignored on load and cut off by the next writer.
"""

from __future__ import annotations

import fcntl
import hashlib
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from graphmem.ports import Embedder

__all__ = ["CachedEmbedder", "EmbeddingCache", "fill", "text_key"]
KEY_LINE = 65  # a SHA-256 in hex and a newline


def text_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class EmbeddingCache:
    """Vectors by text key for one model and dimension, stored under ``directory``."""

    def __init__(self, directory: Path, model_name: str, dimension: int) -> None:
        stem = re.sub(r"[^A-Za-z0-9._-]+", "_", model_name).strip("_") or "model"
        directory.mkdir(parents=True, exist_ok=True)
        self.dimension = dimension
        self.keys_path = directory / f"{stem}-{dimension}.keys"
        self.vectors_path = directory / f"{stem}-{dimension}.f32"
        self.lock_path = directory / f"{stem}-{dimension}.lock"
        self._lock = threading.Lock()
        self.rows: dict[str, int] = {}
        self.matrix = np.zeros((0, dimension), dtype=np.float32)
        with self._file_lock():
            keys, raw = self._read()
            n = min(len(keys), raw.size // dimension)
            self.matrix = raw[: n * dimension].reshape(n, dimension).astype(np.float32)
            for i, key in enumerate(keys[:n]):
                self.rows.setdefault(key, i)  # rows index ``matrix`` (this process's view)

    @contextmanager
    def _file_lock(self) -> Iterator[None]:
        with self.lock_path.open("a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def _read(self) -> tuple[list[str], np.ndarray]:
        keys = self.keys_path.read_text(encoding="ascii").split() if self.keys_path.exists() else []
        raw = np.fromfile(self.vectors_path, dtype=np.float32) if self.vectors_path.exists() else np.zeros(0)
        return keys, raw

    def _repair(self) -> None:
        """Cut both files back to their matched part (a torn append); the lock is held. Keys are
        fixed-width lines, so the sizes alone say how many of each there are."""
        sizes = [p.stat().st_size if p.exists() else 0 for p in (self.keys_path, self.vectors_path)]
        n = min(sizes[0] // KEY_LINE, sizes[1] // (4 * self.dimension))
        for path, size, width in (
            (self.keys_path, sizes[0], KEY_LINE),
            (self.vectors_path, sizes[1], 4 * self.dimension),
        ):
            if size != n * width:
                with path.open("r+b") as f:
                    f.truncate(n * width)

    def __len__(self) -> int:
        return len(self.rows)

    def get(self, keys: Sequence[str]) -> list[np.ndarray | None]:
        return [None if (row := self.rows.get(k)) is None else self.matrix[row] for k in keys]

    def put(self, keys: Sequence[str], vectors: np.ndarray) -> None:
        """Append the vectors of ``keys`` not held yet (first occurrence wins)."""
        with self._lock:
            new: dict[str, int] = {}
            for i, key in enumerate(keys):
                if key not in self.rows and key not in new:
                    new[key] = i
            if not new:
                return
            block = np.ascontiguousarray(vectors[list(new.values())], dtype=np.float32)
            with self._file_lock():
                self._repair()
                with self.vectors_path.open("ab") as f:
                    f.write(block.tobytes())
                with self.keys_path.open("a", encoding="ascii") as f:
                    f.write("".join(k + "\n" for k in new))
            start = len(self.matrix)
            self.matrix = np.vstack([self.matrix, block])
            for offset, key in enumerate(new):
                self.rows[key] = start + offset


class CachedEmbedder:
    """``inner`` with its vectors kept in ``cache``: only texts never seen are embedded."""

    def __init__(self, inner: Embedder, cache: EmbeddingCache) -> None:
        if cache.dimension != inner.dimension:
            raise ValueError(f"cache dimension {cache.dimension} != embedder dimension {inner.dimension}")
        self.inner, self.cache = inner, cache
        self.hits = 0
        self.misses = 0
        self.outer: Embedder | None = None  # what ``embed`` answers through (``open``)

    @classmethod
    def open(cls, inner: Embedder, directory: Path) -> CachedEmbedder:
        """The cache of ``inner``'s model. An embedder that cuts long texts into windows
        (``LongTextEmbedder``) is cached beneath the cut: its windows are texts of the inner model,
        so a text's whole-text vector and its windows' vectors never share a key."""
        from graphmem.providers.embedders.long_text import LongTextEmbedder

        if isinstance(inner, LongTextEmbedder):
            base = cls(inner.inner, EmbeddingCache(directory, inner.model_name, inner.dimension))
            base.outer = inner.with_inner(_Through(base))
            return base
        return cls(inner, EmbeddingCache(directory, inner.model_name, inner.dimension))

    @property
    def model_name(self) -> str:
        return self.inner.model_name

    @property
    def dimension(self) -> int:
        return self.inner.dimension

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if self.outer is not None:
            return self.outer.embed(texts)
        return self.embed_cached(texts)

    def embed_query(self, text: str) -> np.ndarray:
        from graphmem.providers.embedders import embed_query

        return embed_query(self.inner, text)

    def embed_cached(self, texts: Sequence[str]) -> np.ndarray:
        """``texts`` as the inner model embeds them, through the cache."""
        keys = [text_key(t) for t in texts]
        found = self.cache.get(keys)
        missing = list(dict.fromkeys(k for k, v in zip(keys, found, strict=True) if v is None))
        self.hits += len(keys) - sum(1 for v in found if v is None)
        self.misses += len(missing)
        if missing:
            first = {k: t for k, t in zip(keys, texts, strict=True)}
            self.cache.put(
                missing, np.asarray(self.inner.embed([first[k] for k in missing]), dtype=np.float32)
            )
            found = self.cache.get(keys)
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for i, vector in enumerate(found):
            assert vector is not None
            out[i] = vector
        return out


class _Through:
    """A cached embedder's ``embed_cached`` as an embedder (the inner of a ``LongTextEmbedder``)."""

    def __init__(self, cached: CachedEmbedder) -> None:
        self.cached = cached

    @property
    def model_name(self) -> str:
        return self.cached.model_name

    @property
    def dimension(self) -> int:
        return self.cached.dimension

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return self.cached.embed_cached(texts)


def fill(
    embedder: CachedEmbedder,
    texts: Iterable[str],
    *,
    batch: int = 64,
    log: Callable[[str], None] | None = None,
) -> int:
    """Embed every text not cached yet, ``batch`` at a time; how many were embedded."""
    pending = list(dict.fromkeys(t for t in texts if text_key(t) not in embedder.cache.rows))
    for start in range(0, len(pending), batch):
        embedder.embed(pending[start : start + batch])
        if log is not None:
            log(f"embedded {min(start + batch, len(pending))}/{len(pending)}")
    return len(pending)
