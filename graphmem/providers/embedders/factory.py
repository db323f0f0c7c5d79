"""Build the configured embedder by name."""

from __future__ import annotations

from graphmem.errors import ConfigError
from graphmem.ports import Embedder
from graphmem.providers.embedders.hashing import HashingEmbedder
from graphmem.providers.embedders.minilm_numpy import MiniLMEmbedder
from graphmem.providers.embedders.minilm_onnx import MiniLMOnnxEmbedder, onnx_runtime_available

EMBEDDERS = ("minilm", "hashing")


def build_embedder(name: str, *, dimension: int = 384, threads: int | None = 1) -> Embedder:
    if name == "minilm":
        # same model and vectors; ONNX Runtime embeds a query ~2x faster (docs/design-notes.md)
        if onnx_runtime_available():
            return MiniLMOnnxEmbedder(threads=threads)
        return MiniLMEmbedder(threads=threads)
    if name == "hashing":
        return HashingEmbedder(dimension)
    raise ConfigError(
        f"unknown embedder {name!r}; choose one of {', '.join(EMBEDDERS)}",
        details={"field": "GRAPHMEM_EMBEDDER"},
    )
