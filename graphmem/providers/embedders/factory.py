"""Build the configured embedder: by name (`build_embedder`) or from `Settings` (`embedder_from_settings`).

minilm   all-MiniLM-L6-v2, bundled weights, ONNX Runtime (numpy where onnxruntime is missing)
local    a BERT-family sentence-transformers directory (GRAPHMEM_EMBED_MODEL_DIR), same backends
openai   an OpenAI-compatible /v1/embeddings endpoint (GRAPHMEM_EMBED_BASE_URL, _MODEL, _DIMENSION)
hashing  deterministic hash-seeded vectors of any dimension (tests, tools that need no semantics)

The BERT-family embedders (minilm, local) embed a stored text longer than the model's window as
the mean of its windows' vectors (``long_text.LongTextEmbedder``; queries unchanged) when
``long_text`` is on (``GRAPHMEM_EMBED_LONG_TEXT``; off by default: on LongMemEval dev it moved no
recall at R@10, docs/design-notes.md).
"""

from __future__ import annotations

from pathlib import Path

from graphmem.config import Settings
from graphmem.errors import ConfigError
from graphmem.ports import Embedder
from graphmem.providers.embedders.hashing import HashingEmbedder
from graphmem.providers.embedders.long_text import for_bert
from graphmem.providers.embedders.minilm_numpy import BertNumpyEmbedder, MiniLMEmbedder
from graphmem.providers.embedders.minilm_onnx import (
    BertOnnxEmbedder,
    MiniLMOnnxEmbedder,
    onnx_runtime_available,
)

EMBEDDERS = ("minilm", "local", "openai", "hashing")


def embedder_from_settings(settings: Settings) -> Embedder:
    """The embedder ``GRAPHMEM_EMBEDDER`` names, with its ``GRAPHMEM_EMBED_*`` settings."""
    if settings.embedder == "openai":
        return _openai(settings)
    if settings.embedder == "local":
        return _local(settings)
    return build_embedder(
        settings.embedder,
        dimension=settings.embedding_dimension,
        threads=settings.embed_threads,
        long_text=settings.embed_long_text,
    )


def build_embedder(
    name: str, *, dimension: int = 384, threads: int | None = 1, long_text: bool = False
) -> Embedder:
    """An embedder that needs no other settings (``minilm``, ``hashing``); ``long_text`` wraps
    minilm in ``LongTextEmbedder``."""
    if name == "minilm":
        # same model and vectors; ONNX Runtime embeds a query ~2x faster (docs/design-notes.md)
        bert = (
            MiniLMOnnxEmbedder(threads=threads)
            if onnx_runtime_available()
            else MiniLMEmbedder(threads=threads)
        )
        return _long(bert, long_text)
    if name == "hashing":
        return HashingEmbedder(dimension)
    if name in EMBEDDERS:
        raise ConfigError(
            f"the {name} embedder needs its GRAPHMEM_EMBED_* settings (embedder_from_settings)",
            details={"field": "GRAPHMEM_EMBEDDER"},
        )
    raise ConfigError(
        f"unknown embedder {name!r}; choose one of {', '.join(EMBEDDERS)}",
        details={"field": "GRAPHMEM_EMBEDDER"},
    )


def local_embedder(
    model_dir: Path,
    *,
    name: str | None = None,
    threads: int | None = 1,
    passage_prefix: str = "",
    query_prefix: str = "",
) -> BertOnnxEmbedder | BertNumpyEmbedder:
    """A sentence-transformers directory on ONNX Runtime (numpy without it), recorded in the graph as
    ``local:<name>`` (default: the directory's name)."""
    cls = BertOnnxEmbedder if onnx_runtime_available() else BertNumpyEmbedder
    return cls(
        model_dir,
        name=f"local:{name or Path(model_dir).resolve().name}",
        threads=threads,
        passage_prefix=passage_prefix,
        query_prefix=query_prefix,
    )


def _local(settings: Settings) -> Embedder:
    if settings.embed_model_dir is None:
        raise ConfigError(
            "GRAPHMEM_EMBED_MODEL_DIR is required for the local embedder",
            details={"field": "GRAPHMEM_EMBED_MODEL_DIR"},
        )
    embedder = local_embedder(
        settings.embed_model_dir,
        name=settings.embed_model,
        threads=settings.embed_threads,
        passage_prefix=settings.embed_passage_prefix,
        query_prefix=settings.embed_query_prefix,
    )
    if (
        "embedding_dimension" in settings.model_fields_set
        and settings.embedding_dimension != embedder.dimension
    ):
        raise ConfigError(
            f"GRAPHMEM_EMBED_DIMENSION is {settings.embedding_dimension} but the model in "
            f"{settings.embed_model_dir} is {embedder.dimension}-d; unset it or fix it",
            details={"field": "GRAPHMEM_EMBED_DIMENSION"},
        )
    return _long(embedder, settings.embed_long_text)


def _long(embedder: BertOnnxEmbedder | BertNumpyEmbedder, long_text: bool) -> Embedder:
    """``embedder`` with long stored texts embedded whole (``LongTextEmbedder``) when asked."""
    if not long_text:
        return embedder
    return for_bert(embedder)


def _openai(settings: Settings) -> Embedder:
    from graphmem.providers.embedders.openai_compat import OpenAIEmbedder

    missing = [
        field
        for field, unset in (
            ("GRAPHMEM_EMBED_BASE_URL", not settings.embed_base_url),
            ("GRAPHMEM_EMBED_MODEL", not settings.embed_model),
            ("GRAPHMEM_EMBED_DIMENSION", "embedding_dimension" not in settings.model_fields_set),
        )
        if unset
    ]
    if missing:
        raise ConfigError(
            f"the openai embedder needs {', '.join(missing)}",
            details={"field": missing[0], "fields": missing},
        )
    key = settings.embed_api_key.get_secret_value() if settings.embed_api_key else None
    return OpenAIEmbedder(
        base_url=settings.embed_base_url or "",
        model=settings.embed_model or "",
        dimension=settings.embedding_dimension,
        api_key=key,
        batch_size=settings.embed_batch_size,
        concurrency=settings.embed_concurrency,
        timeout_s=settings.embed_timeout_s,
        max_retries=settings.embed_max_retries,
        passage_prefix=settings.embed_passage_prefix,
        query_prefix=settings.embed_query_prefix,
        encoding=settings.embed_encoding,
        send_dimensions=settings.embed_send_dimensions,
    )
