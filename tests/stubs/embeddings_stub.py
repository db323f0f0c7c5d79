"""A local OpenAI-compatible ``/v1/embeddings`` endpoint for tests and the ingest benchmark.

The same real HTTP server as :mod:`tests.stubs.openai_stub` (scripted replies, every request
recorded, clean shutdown), serving ``POST .../embeddings``. Its default answer is
:func:`hashed`: for each input, the hash-seeded vector of `HashingEmbedder` (texts that share words
are similar), so ingestion and search through the stub behave like a real, if crude, model::

    with EmbeddingsStub(dimension=64, delay_s=0.02) as stub:
        embedder = OpenAIEmbedder(base_url=stub.base_url, model="m", dimension=64)
        embedder.embed(["a", "b"])
        assert stub.requests[0].json()["input"] == ["a", "b"]

Standalone, for ``graphmem eval ingest`` (docs/embedders.md): a fixed latency per request, whatever
its size (``--delay-ms``), plus one per text (``--per-text-ms``, as a GPU server's time grows with
the batch), so the ingest rate measures the pipeline's concurrency rather than this machine's CPU::

    python -m tests.stubs.embeddings_stub --port 8765 --dimension 384 --delay-ms 20
    python -m tests.stubs.embeddings_stub --port 8765 --dimension 384 --delay-ms 0 --per-text-ms 0.625
"""

from __future__ import annotations

import argparse
import base64
import json
import threading
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from graphmem.providers.embedders.hashing import HashingEmbedder
from tests.stubs.openai_stub import OpenAIStub, Recorded, Reply, Responder, error, slow

__all__ = ["EmbeddingsStub", "embeddings", "error", "hashed", "pooled", "slow"]


def embeddings(vectors: Sequence[Sequence[float]], *, shuffled: bool = False, b64: bool = False) -> Reply:
    """An embeddings response carrying ``vectors`` (``shuffled``: data items in reverse index order;
    ``b64``: each vector as base64 of little-endian float32, as ``encoding_format: base64`` asks)."""

    def encoded(v: Sequence[float]) -> object:
        return base64.b64encode(np.asarray(v, dtype="<f4").tobytes()).decode() if b64 else list(v)

    data = [{"object": "embedding", "index": i, "embedding": encoded(v)} for i, v in enumerate(vectors)]
    if shuffled:
        data.reverse()
    body = {"object": "list", "data": data, "model": "stub-embedder", "usage": {"prompt_tokens": 1}}
    return Reply(200, json.dumps(body).encode())


class _CachedHashing(HashingEmbedder):
    """HashingEmbedder's vectors, each token's drawn once (a benchmark's stub must cost little CPU)."""

    @lru_cache(maxsize=100_000)  # noqa: B019 (one instance per stub, kept for its lifetime)
    def _token_vector(self, token: str) -> np.ndarray:
        return super()._token_vector(token)


def wants_base64(rec: Recorded) -> bool:
    return bool(rec.json().get("encoding_format") == "base64")


def hashed(dimension: int, *, delay_s: float = 0.0) -> Responder:
    """Answer every request with the hash-seeded vectors of its inputs, after ``delay_s``."""
    model = _CachedHashing(dimension)

    def respond(rec: Recorded) -> Reply:
        inputs = rec.json()["input"]
        texts = [inputs] if isinstance(inputs, str) else list(inputs)
        return slow(delay_s, embeddings(model.embed(texts).tolist(), b64=wants_base64(rec)))

    return respond


def pooled(dimension: int, *, delay_s: float = 0.0, per_text_s: float = 0.0, pool: int = 64) -> Responder:
    """Answer with vectors drawn in turn from a fixed random pool, each body encoded once per input
    count: almost no CPU per request, so a benchmark measures the client, not the stub. Each answer
    waits ``delay_s`` plus ``per_text_s`` per input."""
    rng = np.random.default_rng(0)
    vectors = rng.standard_normal((pool, dimension)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    bodies: dict[tuple[int, bool], Reply] = {}
    lock = threading.Lock()

    def respond(rec: Recorded) -> Reply:
        key = (len(rec.json()["input"]), wants_base64(rec))
        with lock:
            if key not in bodies:
                rows = np.resize(vectors, (key[0], dimension)).tolist()
                bodies[key] = slow(delay_s + per_text_s * key[0], embeddings(rows, b64=key[1]))
            return bodies[key]

    return respond


class EmbeddingsStub(OpenAIStub):
    """Serves ``/embeddings``; scripted replies first, then :func:`hashed` vectors of ``dimension``."""

    route = "/embeddings"

    def __init__(self, *, dimension: int = 64, delay_s: float = 0.0, port: int = 0) -> None:
        super().__init__()
        self.port = port
        self.otherwise(hashed(dimension, delay_s=delay_s))

    def inputs(self) -> list[list[str]]:
        """The ``input`` list of every request so far, in arrival order."""
        return [list(r.json()["input"]) for r in self.requests]


def main() -> None:
    parser = argparse.ArgumentParser(description="Serve /v1/embeddings with hash-seeded vectors.")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--dimension", type=int, default=384)
    parser.add_argument("--delay-ms", type=float, default=20.0, help="latency of every request")
    parser.add_argument(
        "--per-text-ms", type=float, default=0.0, help="added latency per input text (pooled)"
    )
    parser.add_argument(
        "--vectors", choices=("pooled", "hashed"), default="pooled",
        help="pooled: cheap fixed vectors (speed); hashed: texts sharing words are similar (search)",
    )  # fmt: skip
    args = parser.parse_args()
    delay_s = args.delay_ms / 1000
    stub = EmbeddingsStub(dimension=args.dimension, delay_s=delay_s, port=args.port)
    if args.vectors == "pooled":
        stub.otherwise(pooled(args.dimension, delay_s=delay_s, per_text_s=args.per_text_ms / 1000))
    with stub:
        latency = f"{args.delay_ms:g} ms + {args.per_text_ms:g} ms per text"
        print(f"serving {stub.base_url}/embeddings ({args.dimension}-d, {latency})", flush=True)
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
