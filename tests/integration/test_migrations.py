"""Schema migrations are idempotent; a different embedding model is refused at start-up."""

from __future__ import annotations

import pytest

from graphmem.errors import EmbeddingMismatch
from graphmem.memory import GraphMemory
from graphmem.providers.embedders.hashing import HashingEmbedder
from graphmem.providers.extractors.rules import RulesExtractor
from graphmem.store.cypher import schema
from graphmem.store.driver import Store
from graphmem.store.migrations import apply_migrations, schema_snapshot, wait_for_indexes


async def test_migrations_run_twice_give_the_same_schema(memory: GraphMemory, store: Store) -> None:
    before = await schema_snapshot(store)
    applied = await apply_migrations(store, dimension=memory.ctx.embedder.dimension)
    await wait_for_indexes(store)
    assert applied == []
    assert await schema_snapshot(store) == before
    names = {row["name"] for row in before}
    assert {
        "episode_text",
        "fact_text",
        "entity_text",
        "episode_embedding",
        "fact_embedding",
        "entity_embedding",
        "entity_name",
        "episode_key",
    } <= names


async def test_wrong_embedding_dimension_is_refused(memory: GraphMemory, store: Store) -> None:
    with pytest.raises(EmbeddingMismatch) as err:
        await GraphMemory.open(
            store=store, embedder=HashingEmbedder(128, name="other/model"), extractor=RulesExtractor()
        )
    assert "graphmem reembed" in err.value.message


async def test_every_index_is_online(store: Store) -> None:
    rows = await store.read(schema.INDEX_STATES)
    assert rows and all(r["state"] == "ONLINE" for r in rows)
