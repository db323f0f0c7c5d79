"""A deterministic, hash-seeded embedder for tests and for tools that need no semantics.

Each token contributes a pseudo-random unit vector seeded by its hash, so texts sharing words are
similar and identical texts are identical. Any dimension.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np

_TOKEN = re.compile(r"\w+", re.UNICODE)


class HashingEmbedder:
    def __init__(self, dimension: int = 384, *, name: str = "graphmem/hashing") -> None:
        self._dimension = dimension
        self._name = name

    @property
    def model_name(self) -> str:
        return self._name

    @property
    def dimension(self) -> int:
        return self._dimension

    def _token_vector(self, token: str) -> np.ndarray:
        seed = int.from_bytes(hashlib.blake2b(token.encode(), digest_size=8).digest(), "little")
        return np.random.default_rng(seed).standard_normal(self._dimension).astype(np.float32)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self._dimension), dtype=np.float32)
        for i, text in enumerate(texts):
            for token in _TOKEN.findall(text.casefold()) or [text]:
                out[i] += self._token_vector(token)
            norm = float(np.linalg.norm(out[i]))
            if norm > 0:
                out[i] /= norm
        return out
