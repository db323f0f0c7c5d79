"""A local OpenAI-compatible ``/v1/embeddings`` endpoint for tests and the ingest benchmark.

The same real HTTP server as :mod:`tests.stubs.openai_stub` (scripted replies, every request
recorded, clean shutdown), serving ``POST .../embeddings``. Its default answer is
:func:`hashed`: for each input, the hash-seeded vector of `HashingEmbedder` (texts that share words
are similar), so ingestion and search through the stub behave like a real, if crude, model::

    with EmbeddingsStub(dimension=64, delay_s=0.02) as stub:
        embedder = OpenAIEmbedder(base_url=stub.base_url, model="m", dimension=64)
        embedder.embed(["a", "b"])
        assert stub.requests[0].json()["input"] == ["a", "b"]
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from graphmem.providers.embedders.hashing import HashingEmbedder
from tests.stubs.openai_stub import OpenAIStub, Recorded, Reply, Responder, error, slow

__all__ = ["EmbeddingsStub", "embeddings", "error", "hashed", "slow"]


def embeddings(vectors: Sequence[Sequence[float]], *, shuffled: bool = False) -> Reply:
    """An embeddings response carrying ``vectors`` (``shuffled``: data items in reverse index order)."""
    data = [{"object": "embedding", "index": i, "embedding": list(v)} for i, v in enumerate(vectors)]
    if shuffled:
        data.reverse()
    body = {"object": "list", "data": data, "model": "stub-embedder", "usage": {"prompt_tokens": 1}}
    return Reply(200, json.dumps(body).encode())


def hashed(dimension: int, *, delay_s: float = 0.0) -> Responder:
    """Answer every request with the hash-seeded vectors of its inputs, after ``delay_s``."""
    model = HashingEmbedder(dimension)

    def respond(rec: Recorded) -> Reply:
        inputs = rec.json()["input"]
        texts = [inputs] if isinstance(inputs, str) else list(inputs)
        return slow(delay_s, embeddings(model.embed(texts).tolist()))

    return respond


class EmbeddingsStub(OpenAIStub):
    """Serves ``/embeddings``; scripted replies first, then :func:`hashed` vectors of ``dimension``."""

    route = "/embeddings"

    def __init__(self, *, dimension: int = 64, delay_s: float = 0.0) -> None:
        super().__init__()
        self.otherwise(hashed(dimension, delay_s=delay_s))

    def inputs(self) -> list[list[str]]:
        """The ``input`` list of every request so far, in arrival order."""
        return [list(r.json()["input"]) for r in self.requests]
