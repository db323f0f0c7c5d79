"""The provider matrix (issue 19): minilm (ONNX), the OpenAI-compatible endpoint (a local stub) and
local model directories (a tiny random BERT, and a tiny random XLM-RoBERTa with a SentencePiece
tokenizer, written to disk). For each: ingest, search, re-embed the group with the next provider,
and search again, on the real Neo4j.

The shared database is stamped with MiniLM's 384 dimensions, so every provider here answers
384-d vectors and the memories open without the start-up model check; the full-database switch
(another model and dimension, refused until ``graphmem reembed``) runs on a throwaway Neo4j in
tests/integration/test_lifecycle_reembed.py. Searching an episode's own indexed text
(``speaker: content``) with the vector channel alone must rank that episode first whatever the
model: its stored vector is the query's vector exactly when it was written by the same model.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from graphmem.errors import EmbeddingMismatch
from graphmem.memory import GraphMemory
from graphmem.memory.ingestion import indexed_text
from graphmem.models import EpisodeIn
from graphmem.ports import Embedder
from graphmem.providers.embedders.factory import local_embedder
from graphmem.providers.embedders.minilm_onnx import MiniLMOnnxEmbedder
from graphmem.providers.embedders.openai_compat import OpenAIEmbedder
from graphmem.providers.extractors.rules import RulesExtractor
from graphmem.store.driver import Store
from tests.conftest import utc
from tests.stubs.embeddings_stub import EmbeddingsStub, embeddings
from tests.stubs.openai_stub import Recorded, Reply
from tests.stubs.tiny_bert import TinyShape, write_tiny_bert
from tests.stubs.tiny_xlmr import PAD_ID, write_tiny_xlmr

DIM = 384
EPISODES = [
    EpisodeIn(
        content="I moved to Paris last spring.",
        speaker="Alice",
        reference_time=utc(2024, 3, 1),
        external_id="a1",
    ),
    EpisodeIn(
        content="Bob works at Acme in the city.",
        speaker="Bob",
        reference_time=utc(2024, 4, 1),
        external_id="b1",
    ),
    EpisodeIn(
        content="我昨天去了北京，见到了老朋友。",
        speaker="张伟",
        reference_time=utc(2024, 5, 1),
        external_id="z1",
    ),
    EpisodeIn(
        content="She adores kittens and owns three.",
        speaker="Maria",
        reference_time=utc(2024, 6, 1),
        external_id="m1",
    ),
]
PROVIDERS = ["minilm", "openai", "local", "xlmr"]


@pytest.fixture(scope="module")
def stub() -> Iterator[EmbeddingsStub]:
    with EmbeddingsStub(dimension=DIM) as s:
        yield s


@pytest.fixture(scope="module")
def providers(stub: EmbeddingsStub, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Embedder]:
    tiny = TinyShape(hidden=DIM, layers=2, heads=6, intermediate=256, max_positions=64, max_seq_length=64)
    root = write_tiny_bert(tmp_path_factory.mktemp("tiny-384"), tiny, seed=5)
    xlmr_shape = replace(tiny, max_positions=64 + PAD_ID + 1, pooling="mean")
    xlmr = write_tiny_xlmr(tmp_path_factory.mktemp("xlmr-384"), xlmr_shape, seed=6)
    return {
        "minilm": MiniLMOnnxEmbedder(),
        "openai": OpenAIEmbedder(base_url=stub.base_url, model="stub-embedder", dimension=DIM, batch_size=8),
        "local": local_embedder(root, name="tiny-384"),
        "xlmr": local_embedder(xlmr, name="tiny-xlmr-384"),
    }


async def _open(store: Store, embedder: Embedder) -> GraphMemory:
    return await GraphMemory.open(store=store, embedder=embedder, extractor=RulesExtractor(), migrate=False)


async def _release(memory: GraphMemory) -> None:
    """Close what the memory holds besides the session's shared store."""
    await memory.searcher.settle()
    if memory.searcher.indexes is not None:
        await memory.searcher.indexes.close()


async def _assert_each_episode_finds_itself(memory: GraphMemory, group: str) -> None:
    for ep in EPISODES:
        result = await memory.search(group, indexed_text(ep), recipe="vector", k=5)
        assert result.episodes, memory.ctx.embedder.model_name
        assert result.episodes[0].episode.external_id == ep.external_id, memory.ctx.embedder.model_name


@pytest.mark.parametrize("first", PROVIDERS)
async def test_ingest_search_reembed_with_the_next_provider_and_search_again(
    store: Store, providers: dict[str, Embedder], group: str, first: str
) -> None:
    second = PROVIDERS[(PROVIDERS.index(first) + 1) % len(PROVIDERS)]
    old, new = providers[first], providers[second]
    memory = await _open(store, old)
    try:
        result = await memory.add_episodes(group, EPISODES)
        assert [e.status for e in result.episodes] == ["created"] * len(EPISODES)
        await _assert_each_episode_finds_itself(memory, group)
    finally:
        await _release(memory)

    switched = await _open(store, new)
    try:
        report = await switched.reembed(group_id=group, batch_size=3)
        assert (report.model, report.dimension, report.group_id) == (new.model_name, DIM, group)
        assert report.episodes == len(EPISODES) and report.facts >= 1 and report.entities >= 1
        await _assert_each_episode_finds_itself(switched, group)
        rows = await store.read(
            "MATCH (e:Episode {group_id: $g}) RETURN e.speaker + ': ' + e.content AS text, e.embedding AS v",
            g=group,
        )
        stored = np.array([r["v"] for r in rows], dtype=np.float32)
        assert np.allclose(stored, new.embed([r["text"] for r in rows]), atol=1e-5)
        assert not np.allclose(stored, old.embed([r["text"] for r in rows]), atol=1e-3)
    finally:
        await switched.forget_group(group, purge_tombstones=True)
        await _release(switched)


async def test_a_paraphrase_is_found_through_the_endpoint_with_a_real_model(
    store: Store, group: str, tmp_path: Path
) -> None:
    """The endpoint path carries real semantics: a stub that serves MiniLM's own vectors finds a
    paraphrase that shares no word with its episode (as tests/integration/test_retrieval.py does
    in-process)."""
    minilm = MiniLMOnnxEmbedder()

    def served(rec: Recorded) -> Reply:
        return embeddings(minilm.embed(rec.json()["input"]).tolist())

    with EmbeddingsStub(dimension=DIM) as s:
        s.otherwise(served)
        endpoint = OpenAIEmbedder(base_url=s.base_url, model="all-MiniLM-L6-v2", dimension=DIM)
        memory = await _open(store, endpoint)
        try:
            await memory.add_episodes(group, EPISODES)
            found = await memory.search(group, "Which pets does Maria fancy?", recipe="vector", k=3)
            assert "m1" in [h.episode.external_id for h in found.episodes]
        finally:
            await memory.forget_group(group, purge_tombstones=True)
            await _release(memory)


async def test_switching_provider_is_refused_until_reembed(
    memory: GraphMemory, store: Store, providers: dict[str, Embedder]
) -> None:
    """The shared database is stamped by MiniLM (the ``memory`` fixture opened it first): the same
    dimension from another provider is still another model."""
    for name in ("openai", "local", "xlmr"):
        with pytest.raises(EmbeddingMismatch, match="graphmem reembed") as info:
            await GraphMemory.open(store=store, embedder=providers[name], extractor=RulesExtractor())
        assert info.value.details["configured"] == {"model": providers[name].model_name, "dimension": DIM}
        assert info.value.details["stored"]["model"] == memory.ctx.embedder.model_name
