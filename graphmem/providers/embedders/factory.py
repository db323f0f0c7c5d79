"""Build the configured embedder by name."""

from __future__ import annotations

from graphmem.errors import ConfigError
from graphmem.ports import Embedder
from graphmem.providers.embedders.hashing import HashingEmbedder
from graphmem.providers.embedders.minilm_numpy import MiniLMEmbedder

EMBEDDERS = ("minilm", "hashing")


def build_embedder(name: str, *, dimension: int = 384, threads: int | None = 1) -> Embedder:
    if name == "minilm":
        return MiniLMEmbedder(threads=threads)
    if name == "hashing":
        return HashingEmbedder(dimension)
    raise ConfigError(
        f"unknown embedder {name!r}; choose one of {', '.join(EMBEDDERS)}",
        details={"field": "GRAPHMEM_EMBEDDER"},
    )
