"""Batch ingestion through the ``openai`` embedder when the endpoint fails for a while: the
embedder's ``EmbedderUnavailable`` is retryable, so ``graphmem ingest``'s one retry layer waits and
tries the batch again; nothing of a failed batch is written, and every record lands once."""

from __future__ import annotations

import json
from pathlib import Path

from graphmem.memory import GraphMemory
from graphmem.providers.embedders.openai_compat import OpenAIEmbedder
from graphmem.providers.extractors.rules import RulesExtractor
from graphmem.store.driver import Store
from ingest.runner import IngestOptions, run_ingest
from tests.stubs.embeddings_stub import EmbeddingsStub, error

DIM = 384  # the shared database's vector indexes


async def test_an_endpoint_outage_is_retried_by_batch_ingestion(
    store: Store, group: str, tmp_path: Path
) -> None:
    source = tmp_path / "turns.jsonl"
    lines = [
        {"speaker": "Alice", "content": f"Note {i}: I visited museum number {i}.", "external_id": f"n{i}"}
        | {"timestamp": f"2024-01-{i + 1:02d}T10:00:00Z"}
        for i in range(12)
    ]
    source.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    with EmbeddingsStub(dimension=DIM) as stub:
        stub.script(*[error(503, "overloaded")] * 3)  # three failed requests, then answers
        embedder = OpenAIEmbedder(
            base_url=stub.base_url, model="stub", dimension=DIM, batch_size=4, concurrency=2, max_retries=0
        )
        memory = await GraphMemory.open(
            store=store, embedder=embedder, extractor=RulesExtractor(), migrate=False
        )
        try:
            options = IngestOptions(
                paths=(source,),
                fmt="jsonl",
                group=group,
                batch_size=6,
                concurrency=1,
                backoff_s=0.01,
                checkpoint=tmp_path / "checkpoint.json",
                dead_letter=tmp_path / "dead.jsonl",
            )
            summary = await run_ingest(memory, options)
            assert summary.error is None and summary.ingested == 12 and summary.rejected == 0
            assert summary.retries >= 1
            rows = await store.read("MATCH (e:Episode {group_id: $g}) RETURN count(e) AS n", g=group)
            assert rows[0]["n"] == 12
        finally:
            await memory.forget_group(group, purge_tombstones=True)
            await memory.searcher.settle()
            if memory.searcher.indexes is not None:
                await memory.searcher.indexes.close()
