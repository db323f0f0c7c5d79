"""``GraphMemory``: the one object library users, the API, ingestion and eval talk to."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from graphmem.clock import Clock, utc_now
from graphmem.config import Settings
from graphmem.memory import ingestion, reads
from graphmem.memory.context import MemoryContext
from graphmem.models.entity import EntityRecord
from graphmem.models.episode import EpisodeIn, EpisodeRecord, IngestResult
from graphmem.models.fact import FactIn, FactRecord
from graphmem.models.search import SearchRequest, SearchResult
from graphmem.ports import Embedder, Extractor
from graphmem.providers.embedders.factory import build_embedder
from graphmem.providers.extractors.factory import build_extractor
from graphmem.retrieval.pipeline import Searcher
from graphmem.store.driver import Store
from graphmem.store.migrations import prepare_schema


class GraphMemory:
    """Temporal knowledge-graph memory. Every method takes the tenant (``group_id``) explicitly."""

    def __init__(self, ctx: MemoryContext) -> None:
        self.ctx = ctx
        self.searcher = Searcher(ctx.store, ctx.embedder, ctx.clock, ctx.vector_exact_threshold)

    @classmethod
    async def open(
        cls,
        *,
        store: Store,
        embedder: Embedder,
        extractor: Extractor,
        clock: Clock = utc_now,
        migrate: bool = True,
        **options: Any,
    ) -> GraphMemory:
        """Wrap a connected store; apply migrations and check the embedding model first."""
        if migrate:
            await prepare_schema(store, model=embedder.model_name, dimension=embedder.dimension)
        return cls(MemoryContext(store=store, embedder=embedder, extractor=extractor, clock=clock, **options))

    @classmethod
    async def from_settings(cls, settings: Settings, *, clock: Clock = utc_now) -> GraphMemory:
        store = Store.connect(
            settings.effective_uri, auth=settings.neo4j_auth_tuple, database=settings.neo4j_database
        )
        try:
            return await cls.open(
                store=store,
                embedder=build_embedder(settings.embedder, dimension=settings.embedding_dimension),
                extractor=build_extractor(settings),
                clock=clock,
                vector_exact_threshold=settings.vector_exact_threshold,
                max_batch=settings.max_batch,
            )
        except BaseException:
            await store.close()
            raise

    async def close(self) -> None:
        await self.ctx.store.close()

    async def ping(self) -> None:
        await self.ctx.store.ping()

    # writes
    async def add_episodes(
        self, group_id: str, episodes: Sequence[EpisodeIn], *, allow_forgotten: bool = False
    ) -> IngestResult:
        return await ingestion.add_episodes(self.ctx, group_id, episodes, allow_forgotten=allow_forgotten)

    async def add_episode(self, group_id: str, episode: EpisodeIn) -> IngestResult:
        return await self.add_episodes(group_id, [episode])

    async def add_facts(self, group_id: str, facts: Sequence[FactIn]) -> IngestResult:
        return await ingestion.add_facts(self.ctx, group_id, facts)

    # reads
    async def facts_about(
        self,
        group_id: str,
        subject: str,
        *,
        predicate: str | None = None,
        as_of: datetime | None = None,
        known_at: datetime | None = None,
        include_history: bool = False,
    ) -> list[FactRecord]:
        return await reads.facts_about(
            self.ctx,
            group_id,
            subject,
            predicate=predicate,
            as_of=as_of,
            known_at=known_at,
            include_history=include_history,
        )

    async def list_facts(
        self,
        group_id: str,
        *,
        predicate: str | None = None,
        as_of: datetime | None = None,
        known_at: datetime | None = None,
        include_history: bool = False,
        limit: int = 1000,
    ) -> list[FactRecord]:
        return await reads.list_facts(
            self.ctx,
            group_id,
            predicate=predicate,
            as_of=as_of,
            known_at=known_at,
            include_history=include_history,
            limit=limit,
        )

    async def get_fact(self, group_id: str, fact_id: str) -> FactRecord:
        return await reads.get_fact(self.ctx, group_id, fact_id)

    async def timeline(self, group_id: str, entity_id: str) -> list[FactRecord]:
        return await reads.timeline(self.ctx, group_id, entity_id)

    async def get_entity(self, group_id: str, entity_id: str) -> EntityRecord:
        return await reads.get_entity(self.ctx, group_id, entity_id)

    async def find_entities(
        self, group_id: str, name: str | None = None, *, limit: int = 50
    ) -> list[EntityRecord]:
        return await reads.find_entities(self.ctx, group_id, name, limit=limit)

    async def search(self, group_id: str, query: str | SearchRequest, **options: Any) -> SearchResult:
        """Hybrid search (bm25 + vector + graph, fused and reranked) with provenance."""
        req = query if isinstance(query, SearchRequest) else SearchRequest(query=query, **options)
        return await self.searcher.search(group_id, req)

    async def get_episode(self, group_id: str, episode_id: str) -> tuple[EpisodeRecord, list[FactRecord]]:
        return await reads.get_episode(self.ctx, group_id, episode_id)
