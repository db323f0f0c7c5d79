"""``GraphMemory``: the one object library users, the API, ingestion and eval talk to."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterable, AsyncIterator, Iterable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from graphmem.clock import Clock, utc_now
from graphmem.config import Settings
from graphmem.memory import (
    browse,
    changes,
    corrections,
    ingestion,
    lifecycle,
    reads,
    replay,
    scopes,
    sessions,
)
from graphmem.memory.browse import GroupSummary
from graphmem.memory.context import MemoryContext
from graphmem.memory.ingestion import PreparedBatch
from graphmem.memory.lifecycle.proof import prove
from graphmem.memory.pii import redact_query, reveal
from graphmem.memory.replay import ReplayReport
from graphmem.memory.write_gate import WriteGate
from graphmem.models.browse import (
    EpisodePage,
    GroupPage,
    SessionDigest,
    SessionPage,
    SessionTurn,
    SessionWindow,
)
from graphmem.models.changes import ChangePage
from graphmem.models.entity import EntityRecord
from graphmem.models.episode import EpisodeIn, EpisodeRecord, IngestResult
from graphmem.models.fact import FactIn, FactRecord
from graphmem.models.lifecycle import (
    BackupReport,
    DecayPolicy,
    ForgetReport,
    ImportReport,
    MaintainReport,
    ReembedReport,
)
from graphmem.models.privacy import ForgetProof, PiiReveal
from graphmem.models.search import SearchRequest, SearchResult
from graphmem.ports import Embedder, Extractor
from graphmem.privacy import redactor_from_settings
from graphmem.providers.embedders.coalescing import CoalescingEmbedder
from graphmem.providers.embedders.factory import embedder_from_settings
from graphmem.providers.embedders.query_cache import QueryCache
from graphmem.providers.extractors.factory import build_extractor
from graphmem.retrieval.pipeline import Searcher
from graphmem.retrieval.tenant_index.persist import Snapshots
from graphmem.retrieval.tenant_index.registry import TenantIndexes
from graphmem.store.analyst import AnalystResult, run_readonly
from graphmem.store.driver import Store
from graphmem.store.migrations import prepare_schema


class GraphMemory:
    """Temporal knowledge-graph memory. Every method takes the tenant (``group_id``) explicitly."""

    def __init__(self, ctx: MemoryContext) -> None:
        self.ctx = ctx
        indexes = (
            TenantIndexes(
                ctx.store,
                dimension=ctx.embedder.dimension,
                max_nodes=ctx.index_max_nodes,
                sync_limit=ctx.index_sync_limit,
                ann_threshold=ctx.index_ann_threshold,
                max_bytes=ctx.index_max_bytes,
                vector_precision=ctx.index_vectors,
                snapshots=(
                    Snapshots(ctx.index_snapshot_dir, ctx.index_snapshot_max_bytes)
                    if ctx.index_snapshot_dir
                    else None
                ),
            )
            if ctx.search_index
            else None
        )
        # texts arriving while one call embeds share the next model call (no wait unless configured):
        # searches' queries, and writes' episodes, names and statements (ctx.embedder)
        if ctx.query_batch and not isinstance(ctx.embedder, CoalescingEmbedder):
            ctx.embedder = CoalescingEmbedder(ctx.embedder, window_s=ctx.query_batch_window_s, passages=True)
        queries: Embedder = ctx.embedder
        if ctx.query_cache_size:  # a repeated query text is answered from memory (bounded LRU)
            queries = QueryCache(queries, size=ctx.query_cache_size)
        self.searcher = Searcher(ctx.store, queries, ctx.clock, ctx.vector_exact_threshold, indexes)

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
                embedder=embedder_from_settings(settings),
                extractor=build_extractor(settings),
                clock=clock,
                vector_exact_threshold=settings.vector_exact_threshold,
                max_batch=settings.max_batch,
                search_index=settings.search_index,
                index_max_nodes=settings.index_max_nodes,
                index_sync_limit=settings.index_sync_limit,
                index_ann_threshold=settings.index_ann_threshold,
                index_max_bytes=settings.index_max_bytes,
                index_vectors=settings.index_vectors,
                index_snapshot_dir=settings.index_snapshot_path,
                index_snapshot_max_bytes=settings.index_snapshot_max_bytes,
                query_batch_window_s=settings.query_batch_window_ms / 1000,
                query_batch=settings.query_batch,
                query_cache_size=settings.query_cache_size,
                write_embed_ahead=settings.write_embed_ahead,
                change_log=settings.change_log,
                redactor=redactor_from_settings(settings),
                write_gate=WriteGate(
                    per_group=settings.write_queue_per_group,
                    total=settings.write_queue_total,
                    wait_s=settings.write_wait_s,
                    batch_max=settings.write_batch_max,
                    # writes to different groups share a transaction: a commit's index work (the
                    # Lucene full-text and vector readers reopened) is paid once for them
                    span_groups=settings.write_batch_max > 1,
                ),
            )
        except BaseException:
            await store.close()
            raise

    async def close(self) -> None:
        await self.searcher.settle()
        if self.searcher.indexes is not None:
            await self.searcher.indexes.close()
        release = getattr(self.ctx.embedder, "close", None)  # an endpoint embedder's connections
        if callable(release):
            release()
        stop = getattr(self.ctx.extractor, "close", None)  # a pooled extractor's worker processes
        if callable(stop):
            await asyncio.to_thread(stop)
        await self.ctx.store.close()

    async def warm_index(self, group_id: str) -> bool:
        """Load the tenant's search index now (big tenants otherwise load in the background on
        their first search); False when the index is off or the tenant is empty or too big."""
        indexes = self.searcher.indexes
        return indexes is not None and await indexes.ready(group_id) is not None

    def index_stats(self) -> dict[str, int]:
        """This process's tenant indexes: ``tenants`` held, estimated ``bytes``, ``evictions`` so far."""
        indexes = self.searcher.indexes
        if indexes is None:
            return {"tenants": 0, "bytes": 0, "evictions": 0}
        return {"tenants": len(indexes.entries), "bytes": indexes.nbytes(), "evictions": indexes.evictions}

    def write_stats(self) -> dict[str, int]:
        """This process's write commits since start: ``transactions`` run, ``writes`` they carried
        (more writes than transactions: group commit), ``fallbacks`` (combined ones retried one by one)
        and writes ``queued`` now."""
        gate = self.ctx.write_gate
        s = gate.stats
        return {
            "transactions": s.transactions,
            "writes": s.writes,
            "fallbacks": s.fallbacks,
            "queued": gate.queued,
        }

    async def ping(self) -> None:
        await self.ctx.store.ping()

    # writes
    async def add_episodes(
        self,
        group_id: str,
        episodes: Sequence[EpisodeIn],
        *,
        allow_forgotten: bool = False,
        replace: bool = False,
    ) -> IngestResult:
        """Ingest episodes (idempotent by key). An ``external_id`` already stored with other content
        raises ``IdempotencyConflict``; ``replace=True`` forgets the stored episode and ingests the
        new content in its place, in the same transaction."""
        return await ingestion.add_episodes(
            self.ctx, group_id, episodes, allow_forgotten=allow_forgotten, replace=replace
        )

    async def prepare_episodes(
        self, group_id: str, episodes: Sequence[EpisodeIn], *, allow_forgotten: bool = False
    ) -> PreparedBatch:
        """First half of ``add_episodes`` (dedupe, extract, embed; writes nothing, takes no lock):
        batch ingestion prepares the next batch while the previous one commits."""
        return await ingestion.prepare_episodes(self.ctx, group_id, episodes, allow_forgotten=allow_forgotten)

    async def commit_episodes(self, batch: PreparedBatch) -> IngestResult:
        """Second half of ``add_episodes``: write a prepared batch (one transaction, group lock)."""
        return await ingestion.commit_episodes(self.ctx, batch)

    async def add_episode(self, group_id: str, episode: EpisodeIn) -> IngestResult:
        return await self.add_episodes(group_id, [episode])

    async def add_facts(self, group_id: str, facts: Sequence[FactIn]) -> IngestResult:
        return await ingestion.add_facts(self.ctx, group_id, facts)

    async def correct_fact(
        self,
        group_id: str,
        fact_id: str,
        *,
        expected_version: int,
        value: str | None = None,
        object: str | None = None,
        valid_from: datetime | None = None,
        valid_to: datetime | None = None,
        end: bool = False,
    ) -> FactRecord:
        """Correct a fact's value (expires it, the new value takes its place) or end it in the world."""
        return await corrections.correct_fact(
            self.ctx,
            group_id,
            fact_id,
            expected_version=expected_version,
            value=value,
            obj=object,
            valid_from=valid_from,
            valid_to=valid_to,
            end=end,
        )

    async def retract_fact(
        self, group_id: str, fact_id: str, *, expected_version: int | None = None
    ) -> FactRecord:
        """Retract a fact that was never true (system-time expiry); its slot is re-resolved."""
        return await corrections.retract_fact(self.ctx, group_id, fact_id, expected_version=expected_version)

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
        req = self._tokenise(group_id, req)
        if req.session is not None:  # short-term memory beside the long-term hits
            return await sessions.search_with_session(
                self.ctx, lambda r: self.searcher.search(group_id, r), req, [group_id]
            )
        return await self.searcher.search(group_id, req)

    async def search_groups(self, group_ids: Sequence[str], request: SearchRequest) -> SearchResult:
        """One search over several groups, fused by rank, each hit labelled with its group."""
        if request.session is not None:
            return await sessions.search_with_session(
                self.ctx,
                lambda r: self.search_groups(group_ids, r),  # r has no session: PII tokens too
                request,
                list(group_ids),
            )
        return await scopes.search_groups(self.searcher, group_ids, request, prepare=self._tokenise)

    def _tokenise(self, group_id: str, req: SearchRequest) -> SearchRequest:
        """The query with its PII tokenised as the group's stored text is (graphmem.memory.pii)."""
        query = redact_query(self.ctx, group_id, req.query)
        return req if query == req.query else req.model_copy(update={"query": query})

    async def cypher(
        self,
        query: str,
        params: dict[str, Any] | None = None,
        *,
        timeout_s: float = 10.0,
        row_cap: int = 10_000,
    ) -> AnalystResult:
        """Analysts' read-only Cypher: refused unless its plan only reads (see store/analyst.py)."""
        return await run_readonly(self.ctx.store, query, params, timeout_s=timeout_s, row_cap=row_cap)

    async def get_episode(self, group_id: str, episode_id: str) -> tuple[EpisodeRecord, list[FactRecord]]:
        return await reads.get_episode(self.ctx, group_id, episode_id)

    async def changes(
        self,
        group_id: str,
        *,
        since: datetime | None = None,
        until: datetime | None = None,
        target: str | None = None,
        cursor: str | None = None,
        limit: int = 100,
    ) -> ChangePage:
        """The group's change log in commit order (docs/schema.md, "Change log"). Writes record
        their actor, reason and consent id from ``graphmem.memory.changes.change_context``."""
        return await changes.read_changes(
            self.ctx, group_id, since=since, until=until, target=target, cursor=cursor, limit=limit
        )

    async def replay_changes(
        self, group_id: str, into: str, *, until: datetime | None = None
    ) -> ReplayReport:
        """Rebuild the group's facts in the scratch group ``into`` from its episodes and change
        log, up to ``until`` (graphmem/memory/replay.py says what replays and what does not)."""
        return await replay.replay(self.ctx, group_id, into, until=until)

    async def list_groups(self, group_ids: Sequence[str] | None = None) -> list[GroupSummary]:
        """Groups holding memory (of ``group_ids`` only, when given)."""
        return await browse.list_groups(self.ctx, group_ids)

    async def group_page(
        self, group_ids: Sequence[str] | None = None, *, cursor: str | None = None, limit: int = 1000
    ) -> GroupPage:
        """A page of the groups holding memory (of ``group_ids`` only, when given), in id order."""
        return await browse.group_page(self.ctx, group_ids, cursor=cursor, limit=limit)

    async def session_turns(self, group_id: str, session_id: str, *, last_n: int = 100) -> list[SessionTurn]:
        """A session's last ``last_n`` turns, oldest first, with the facts each produced."""
        return await browse.session_turns(self.ctx, group_id, session_id, last_n=last_n)

    async def list_sessions(
        self, group_id: str, *, cursor: str | None = None, limit: int = 100
    ) -> SessionPage:
        """The group's sessions in id order with counts and first/last times (cursor-paginated)."""
        return await browse.list_sessions(self.ctx, group_id, cursor=cursor, limit=limit)

    async def list_episodes(
        self,
        group_id: str,
        *,
        session_id: str | None = None,
        speaker: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        order: Literal["asc", "desc"] = "asc",
        cursor: str | None = None,
        limit: int = 100,
    ) -> EpisodePage:
        """The group's episodes by reference time, ``since <= reference_time < until``, filtered by
        session and speaker when given (cursor-paginated)."""
        return await browse.list_episodes(
            self.ctx,
            group_id,
            session_id=session_id,
            speaker=speaker,
            since=since,
            until=until,
            order=order,
            cursor=cursor,
            limit=limit,
        )

    async def session_digest(self, group_id: str, window: SessionWindow) -> SessionDigest:
        """A session's current facts, key turns and newest turns, with their text (no model)."""
        return await sessions.session_digest(self.ctx, group_id, window)

    async def reveal_pii(self, group_id: str, token: str) -> PiiReveal:
        """The original behind a PII token, from the group's vault; recorded as ``pii_revealed``."""
        return await reveal(self.ctx, group_id, token)

    async def forget_proof(
        self,
        group_id: str,
        *,
        external_id: str | None = None,
        probes: Sequence[str] = (),
        export_dir: Path | None = None,
    ) -> ForgetProof:
        """Proof of forgetting: what every store (graph, full-text, vector, this process's tenant
        index, change log, PII vault, an export directory) still holds of a group, or of one
        external id and the probe texts the caller knows it held (graphmem/memory/lifecycle/proof.py)."""
        return await prove(
            self.ctx,
            self.searcher.indexes,
            group_id,
            external_id=external_id,
            probes=probes,
            export_dir=export_dir,
        )

    # lifecycle (docs/lifecycle.md)
    def _discard_snapshot(self, group_id: str) -> None:
        """A forget removes the group's tenant index snapshot file: it holds the group's texts,
        and the reset the forget sets would only replace it at the group's next load."""
        if self.searcher.indexes is not None:
            self.searcher.indexes.discard_snapshot(group_id)

    async def forget_episode(self, group_id: str, episode_id: str) -> ForgetReport:
        """Delete an episode, the evidence it gave and the facts only it supported; tombstone it."""
        report = await lifecycle.forget_episode(self.ctx, group_id, episode_id)
        self._discard_snapshot(group_id)
        return report

    async def forget_entity(self, group_id: str, entity_id: str) -> ForgetReport:
        """Delete an entity, its aliases and every fact it is the subject or object of."""
        report = await lifecycle.forget_entity(self.ctx, group_id, entity_id)
        self._discard_snapshot(group_id)
        return report

    async def forget_before(self, group_id: str, before: datetime) -> ForgetReport:
        """Forget every episode with ``reference_time < before`` (and the facts only they support)."""
        report = await lifecycle.forget_before(self.ctx, group_id, before)
        self._discard_snapshot(group_id)
        return report

    async def forget_group(self, group_id: str, *, purge_tombstones: bool = False) -> ForgetReport:
        """Tenant purge. Tombstones stay (a re-ingest reports "forgotten") unless purged."""
        report = await lifecycle.forget_group(self.ctx, group_id, purge_tombstones=purge_tombstones)
        self._discard_snapshot(group_id)
        return report

    def export_group(
        self, group_id: str, since: datetime | None = None, *, consistent: bool = True
    ) -> AsyncIterator[dict[str, Any]]:
        """Header, nodes, relationships of one group as JSON-ready dicts (write each as a JSONL line)."""
        return lifecycle.export_group(self.ctx, group_id, since, consistent=consistent)

    async def import_records(
        self,
        records: Iterable[dict[str, Any]] | AsyncIterable[dict[str, Any]],
        *,
        target_group: str | None = None,
        allow_forgotten: bool = False,
    ) -> ImportReport:
        """Import exported records (idempotent); re-embeds when the file's model differs. Tombstoned
        episodes are left out (``forgotten`` in the report) unless ``allow_forgotten``."""
        return await lifecycle.import_records(
            self.ctx, records, target_group=target_group, allow_forgotten=allow_forgotten
        )

    async def reembed(
        self, *, batch_size: int = 256, resume: bool = True, group_id: str | None = None
    ) -> ReembedReport:
        """Rewrite embeddings with the configured embedder (all groups unless ``group_id``)."""
        return await lifecycle.reembed(self.ctx, batch_size=batch_size, resume=resume, group_id=group_id)

    async def maintain(
        self,
        now: datetime | None = None,
        *,
        group_id: str | None = None,
        policy: DecayPolicy | None = None,
    ) -> MaintainReport:
        """Archive facts whose use-decayed importance fell below the policy's threshold."""
        return await lifecycle.maintain(self.ctx, now, group_id=group_id, policy=policy)

    async def backup(self, out_dir: Path, *, group_ids: list[str] | None = None) -> BackupReport:
        """Logical, stop-free backup: one JSONL export per group plus a manifest."""
        return await lifecycle.backup(self.ctx, out_dir, group_ids=group_ids)

    async def restore(self, in_dir: Path, *, allow_forgotten: bool = False) -> ImportReport:
        """Import a backup written by ``backup`` (checksums verified first); tombstones honoured
        as by ``import_records``."""
        return await lifecycle.restore(self.ctx, in_dir, allow_forgotten=allow_forgotten)
