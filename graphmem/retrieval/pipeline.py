"""The search pipeline: run channels concurrently, fuse, hydrate, rerank, assemble context."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np

from graphmem.clock import Clock
from graphmem.models.entity import EntityRecord
from graphmem.models.episode import EpisodeRecord
from graphmem.models.search import EntityHit, EpisodeHit, FactHit, Hit, SearchRequest, SearchResult
from graphmem.ports import Embedder
from graphmem.providers.embedders import embed_query
from graphmem.retrieval import bm25
from graphmem.retrieval.config import SearchConfig, recipe
from graphmem.retrieval.context import build_context
from graphmem.retrieval.fusion import Features, Key, fuse, rerank
from graphmem.retrieval.intent import adapt, time_focus
from graphmem.retrieval.tenant_index.index import TenantIndex, View
from graphmem.retrieval.tenant_index.registry import TenantIndexes
from graphmem.store import reads, search
from graphmem.store.driver import Store
from graphmem.temporal.normalize import group_token, normalize_name
from graphmem.text import analyze, has_cjk, query_terms

Hits = list[tuple[str, float]]
Sizes = dict[str, dict[str, int]]
DF_CAP = 2000  # in-tenant document frequencies are counted up to this many episodes
# one thread: a search's first vector target runs there beside the others (1-2 ms saved at 100k)
_VECTOR_POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="graphmem-vector")


@dataclass
class Searcher:
    store: Store
    embedder: Embedder
    clock: Clock
    exact_threshold: int = 1_000
    indexes: TenantIndexes | None = None
    touch_delay_s: float = 0.2
    background: set[asyncio.Task[Any]] = field(default_factory=set)
    pending: dict[str, list[str]] = field(default_factory=dict)
    _flush: asyncio.Task[None] | None = None

    async def search(
        self, group_id: str, req: SearchRequest, cfg: SearchConfig | None = None
    ) -> SearchResult:
        cfg = adapt(cfg or recipe(req.recipe), req.query)
        history = req.include_history or cfg.include_history
        run = _Run(self, group_id, req, cfg, history)
        return await run.execute()

    async def settle(self) -> None:
        """Let the access bookkeeping in flight finish (before the store closes)."""
        await asyncio.gather(*list(self.background), return_exceptions=True)

    def touch_later(self, group_id: str, ids: list[str]) -> None:
        """Use-based decay bookkeeping, off the hot path: hits are collected and written in one
        transaction per tenant shortly after (a write per search cost each search a commit)."""
        self.pending.setdefault(group_id, []).extend(ids)  # one count per search that hit it
        if self._flush is None or self._flush.done():
            self._flush = asyncio.create_task(self._touch())
            self.background.add(self._flush)
            self._flush.add_done_callback(self.background.discard)

    async def _touch(self) -> None:
        await asyncio.sleep(self.touch_delay_s)
        pending, self.pending = self.pending, {}
        for group_id, ids in pending.items():
            try:
                await search.touch(self.store, group_id=group_id, ids=ids, now=self.clock())
            except Exception:  # bookkeeping must never fail a search
                continue


class _Run:
    def __init__(self, s: Searcher, group_id: str, req: SearchRequest, cfg: SearchConfig, history: bool):
        self.s, self.group_id, self.req, self.cfg, self.history = s, group_id, req, cfg, history
        self.timings: dict[str, float] = {}
        self.rankings: dict[str, list[Key]] = {}
        self.channel_scores: dict[Key, dict[str, float]] = {}
        terms = self.terms = query_terms(req.query)
        tok = group_token(group_id)
        self.lucene = f"+group_token:{tok} +search_text:({' '.join(terms)})" if terms else None
        self.time: dict[str, Any] = {"as_of": req.as_of, "history": history}
        self._view = View(req.as_of, history)
        self.focus = time_focus(req.query, req.as_of or s.clock()) if cfg.time_weight > 0 else None
        self._sizes_task: asyncio.Future[Sizes] | None = None
        self._embedding: asyncio.Future[np.ndarray] | None = None

    def _sizes(self) -> asyncio.Future[Sizes]:
        """The tenant's and the database's sizes, read once per search and shared by the channels."""
        if self._sizes_task is None:
            read = search.sizes(self.s.store, group_id=self.group_id)
            self._sizes_task = asyncio.ensure_future(self._timed("sizes", read))
        return self._sizes_task

    async def _timed(self, name: str, aw: Awaitable[Any]) -> Any:
        began = time.perf_counter()
        try:
            return await aw
        finally:
            self.timings[name] = (time.perf_counter() - began) * 1000

    def _add(self, channel: str, target: str, hits: Hits) -> None:
        name = f"{channel}:{target}"
        keys = [(target, i) for i, _ in hits]
        self.rankings[name] = keys
        for (t, i), (_, score) in zip(keys, hits, strict=True):
            self.channel_scores.setdefault((t, i), {})[name] = round(score, 6)

    def _embed(self) -> asyncio.Future[np.ndarray]:
        """The query's embedding, computed once (in a thread) and shared by both channel paths."""
        if self._embedding is None:
            embed = asyncio.to_thread(embed_query, self.s.embedder, self.req.query)
            self._embedding = asyncio.ensure_future(self._timed("embed", embed))
        return self._embedding

    async def execute(self) -> SearchResult:
        began = time.perf_counter()
        indexes = self.s.indexes
        if self.cfg.channel_on("vector"):
            self._embed()  # started now: it runs beside the state read
        ranked = await self._indexed_search(indexes) if indexes is not None else None
        if ranked is None:
            await self._channels()
            ranked = await self._hydrate_then_rank(self._fuse())
        began_assembly = time.perf_counter()
        result = self._result(ranked)
        self.timings["assemble"] = (time.perf_counter() - began_assembly) * 1000
        self.timings["total"] = (time.perf_counter() - began) * 1000
        result.timings_ms = {k: round(v, 3) for k, v in self.timings.items()}
        self.s.touch_later(self.group_id, [h.id for h in result.ranked if h.type != "entity"])
        return result

    async def _indexed_search(self, indexes: TenantIndexes) -> list[Hit] | None:
        """Channels, fusion and rerank over the tenant index, then hydration of the hits returned;
        None when the tenant has no index (yet): the Neo4j channels answer. BM25 and the graph run
        while the query embedding is still computing (in its thread, on the other core); the lock
        covers catching up and the in-process work only, never an await."""
        began = time.perf_counter()
        state = await self._timed("index:state", indexes.state(self.group_id))
        async with indexes.acquire(self.group_id, state) as index:
            self.timings["index:wait"] = (time.perf_counter() - began) * 1000
            if index is None:
                return None
            self._lexical_channels(index)
        vector = await self._embed() if self.cfg.channel_on("vector") else None
        async with indexes.acquire(self.group_id, state) as index:  # current as of state already
            if index is None:  # dropped meanwhile (evicted): start again over Neo4j
                self.rankings.clear()
                self.channel_scores.clear()
                return None
            if vector is not None:
                self._vector_channels(index, vector)
            fusing = time.perf_counter()
            fused = self._fuse()
            top = self._top(fused)
            features = index.features(top)
            self.timings["fuse"] = (time.perf_counter() - fusing) * 1000
        return await self._rank_then_hydrate(top, fused, features)

    async def _channels(self) -> None:
        cfg, n = self.cfg, self.cfg.candidates
        jobs: list[Awaitable[None]] = []
        targets = list(cfg.targets)
        if cfg.channel_on("bm25") and self.lucene:
            jobs += [self._bm25(t, n) for t in targets]
        if cfg.channel_on("vector"):
            jobs.append(self._vectors(targets, n))
        if cfg.channel_on("graph") and self.lucene:
            jobs.append(self._graph(targets, n))
        await asyncio.gather(*jobs)

    def _run_indexed(self, channel: str, target: str, hits: Callable[..., Hits], *args: Any) -> None:
        """One in-process channel over one target, timed (the index is locked: no awaits here)."""
        began = time.perf_counter()
        self._add(channel, target, hits(target, *args, self.cfg.candidates, self._view))
        self.timings[f"{channel}:{target}"] = (time.perf_counter() - began) * 1000

    def _lexical_channels(self, index: TenantIndex) -> None:
        """BM25 over every target, then the graph from the entities BM25 finds, in process."""
        terms = list(dict.fromkeys(analyze(self.req.query)))
        if not terms:
            return
        targets = list(self.cfg.targets)
        if self.cfg.channel_on("bm25"):
            for target in targets:
                self._run_indexed("bm25", target, partial(index.bm25, fields=self.cfg.field_weights), terms)
        if self.cfg.channel_on("graph"):
            seeds = [i for i, _ in index.bm25("entity", terms, 3, self._view)]
            for target in targets:
                if target != "entity":
                    self._run_indexed("graph", target, index.graph, seeds)

    def _vector_channels(self, index: TenantIndex, matrix: np.ndarray) -> None:
        """The vector channel over every target; the first target's search runs in a thread beside
        the others (usearch and numpy release the GIL; the locked index is only read)."""
        query = np.asarray(matrix[0], dtype=np.float32)
        query /= max(float(np.linalg.norm(query)), 1e-12)
        n, view = self.cfg.candidates, self._view

        def search(target: str) -> tuple[Hits, float]:
            began = time.perf_counter()
            return index.vector(target, query, n, view), (time.perf_counter() - began) * 1000

        first, *rest = self.cfg.targets
        aside = _VECTOR_POOL.submit(search, first)
        found = {target: search(target) for target in rest}
        found[first] = aside.result()
        for target in self.cfg.targets:  # added in a fixed order: fusion sums in the same order
            hits, ms = found[target]
            self._add("vector", target, hits)
            self.timings[f"vector:{target}"] = ms

    async def _bm25(self, target: str, n: int) -> None:
        assert self.lucene is not None
        if target == "episode" and not has_cjk(self.req.query):
            hits = await self._timed("bm25:episode", self._local_bm25(n))
        else:
            hits = await self._timed(
                f"bm25:{target}",
                search.bm25(
                    self.s.store,
                    target=target,
                    group_id=self.group_id,
                    lucene=self.lucene,
                    limit=n,
                    **self.time,
                ),
            )
        self._add("bm25", target, hits)

    async def _local_bm25(self, n: int) -> Hits:
        """Lucene finds candidates; BM25 with the tenant's own statistics ranks them. The candidates,
        the sizes and the document frequencies are read concurrently (one round trip deep)."""
        assert self.lucene is not None
        store, g = self.s.store, self.group_id
        terms = sorted(self.terms)  # query_terms are distinct already
        cands, sizes, counted = await asyncio.gather(
            search.bm25_episode_candidates(
                store, group_id=g, lucene=self.lucene, limit=max(4 * n, 200), **self.time
            ),
            self._sizes(),
            search.term_document_frequency(store, token=group_token(g), terms=terms, cap=DF_CAP),
        )
        size = max(int(sizes["group"]["episodes"]), len(cands), 1)
        cap = min(size, DF_CAP)
        # a term counted up to the cap in a larger tenant is common: give it a half-the-tenant df
        df = {t: (size // 2 + 1 if d >= cap and cap < size else min(d, cap)) for t, d in counted.items()}
        return bm25.rescore(terms, {c["id"]: c["text"] or "" for c in cands}, df, size)[:n]

    async def _vectors(self, targets: list[str], n: int) -> None:
        matrix, sizes = await asyncio.gather(self._embed(), self._sizes())
        embedding = [float(x) for x in matrix[0]]
        plural = {"episode": "episodes", "fact": "facts", "entity": "entities"}

        async def one(target: str) -> None:
            size, total = int(sizes["group"][plural[target]]), int(sizes["total"][plural[target]])
            exact, fetch = search.vector_plan(n, size, total, self.s.exact_threshold)
            hits = await self._timed(
                f"vector:{target}",
                search.vector(
                    self.s.store,
                    target=target,
                    group_id=self.group_id,
                    embedding=embedding,
                    limit=n,
                    exact=exact,
                    fetch=fetch,
                    **self.time,
                ),
            )
            self._add("vector", target, hits)

        await asyncio.gather(*(one(t) for t in targets))

    async def _graph(self, targets: list[str], n: int) -> None:
        assert self.lucene is not None
        seeds = await self._timed(
            "graph:seeds",
            search.bm25(
                self.s.store,
                target="entity",
                group_id=self.group_id,
                lucene=self.lucene,
                limit=3,
                **self.time,
            ),
        )
        seed_ids = [i for i, _ in seeds]
        if "entity" in targets:
            self._add("bm25", "entity", seeds)

        async def one(target: str) -> None:
            hits = await self._timed(
                f"graph:{target}",
                search.graph(
                    self.s.store, target=target, group_id=self.group_id, seeds=seed_ids, limit=n, **self.time
                ),
            )
            self._add("graph", target, hits)

        await asyncio.gather(*(one(t) for t in targets if t != "entity"))

    def _fuse(self) -> dict[Key, float]:
        weights = {
            name: self.cfg.weights.get(name.split(":")[0], 0.0)
            * self.cfg.type_weights.get(name.split(":")[1], 1.0)
            for name in self.rankings
        }
        return fuse(self.rankings, self.channel_scores, weights, self.cfg)

    def _top(self, fused: dict[Key, float]) -> list[Key]:
        """The candidates the rerank orders: the best fused, three times the hits asked for."""
        return sorted(fused, key=lambda key: (-fused[key], key))[: max(self.req.k * 3, 30)]

    async def _hydrate(self, keys: list[Key], fused: dict[Key, float]) -> dict[Key, Hit]:
        """The hits for ``keys`` read from Neo4j, each re-checked against the time view there (one
        round trip); keys that are gone or outside the view are left out."""
        ids = {t: [i for tt, i in keys if tt == t] for t in ("fact", "episode", "entity")}
        fact_rows, episodes, entities = await self._timed(
            "hydrate", search.hydrate(self.s.store, group_id=self.group_id, ids=ids, **self.time)
        )
        facts = {r["fact"]["id"]: reads.to_fact(r) for r in fact_rows}
        hits: dict[Key, Hit] = {}
        for key in keys:
            hit = self._hit(key, fused[key], facts, episodes, entities)
            if hit is not None:
                hits[key] = hit
        return hits

    async def _rank_then_hydrate(
        self, top: list[Key], fused: dict[Key, float], features: dict[Key, Features]
    ) -> list[Hit]:
        """Rerank on what the tenant index holds, then hydrate only the hits returned. A hit Neo4j
        no longer shows (deleted, or out of the view since the index read it) is dropped and the
        rerank rerun without it, so the result is what hydrating every candidate would give."""
        hits: dict[Key, Hit] = {}
        while True:
            ranking = time.perf_counter()
            order, scores = rerank(
                top, fused, features, self.cfg, newest=self._newest(), limit=self.req.k, focus=self.focus
            )
            self.timings["rerank"] = (time.perf_counter() - ranking) * 1000
            missing = [key for key in order if key not in hits]
            if not missing:
                break
            found = await self._hydrate(missing, fused)
            hits.update(found)
            if len(found) == len(missing):
                break
            gone = set(missing) - set(found)
            top = [key for key in top if key not in gone]
        return [self._scored(hits[key], scores[key]) for key in order]

    async def _hydrate_then_rank(self, fused: dict[Key, float]) -> list[Hit]:
        """Without a tenant index: hydrate every candidate and rerank on what Neo4j returned."""
        hits = await self._hydrate(self._top(fused), fused)
        features = {key: _features(hit) for key, hit in hits.items()}
        order, scores = rerank(
            list(hits), fused, features, self.cfg, newest=self._newest(), limit=self.req.k, focus=self.focus
        )
        return [self._scored(hits[key], scores[key]) for key in order]

    def _newest(self) -> float | None:
        """Recency is relative to ``as_of`` when given, else to the newest candidate."""
        return None if self.req.as_of is None else self.req.as_of.timestamp()

    @staticmethod
    def _scored(hit: Hit, score: float) -> Hit:
        hit.score = round(score, 6)
        return hit

    def _hit(
        self,
        key: Key,
        score: float,
        facts: dict[str, Any],
        episodes: dict[str, Any],
        entities: dict[str, Any],
    ) -> Hit | None:
        t, i = key
        common: dict[str, Any] = {
            "id": i,
            "score": score,
            "channels": self.channel_scores.get(key, {}),
            "ranks": {n: r.index(key) + 1 for n, r in self.rankings.items() if key in r},
        }
        if t == "fact" and i in facts:
            return FactHit.model_validate({**common, "fact": facts[i]})
        if t == "episode" and i in episodes:
            row = {k: v for k, v in episodes[i].items() if v is not None}
            episode = EpisodeRecord.model_validate({**row, "group_id": self.group_id})
            return EpisodeHit.model_validate({**common, "episode": episode})
        if t == "entity" and i in entities:
            ent = {k: v for k, v in entities[i].items() if v is not None}
            entity = EntityRecord.model_validate(
                {**ent, "group_id": self.group_id, "normalized_name": normalize_name(ent["name"])}
            )
            return EntityHit.model_validate({**common, "entity": entity})
        return None

    def _result(self, ranked: list[Hit]) -> SearchResult:
        return SearchResult(
            query=self.req.query,
            recipe=self.req.recipe,
            as_of=self.req.as_of,
            facts=[h for h in ranked if isinstance(h, FactHit)],
            episodes=[h for h in ranked if isinstance(h, EpisodeHit)],
            entities=[h for h in ranked if isinstance(h, EntityHit)],
            ranked=[
                Hit(type=h.type, id=h.id, score=h.score, channels=h.channels, ranks=h.ranks) for h in ranked
            ],
            context=build_context(ranked, self.req.token_budget),
        )


def _features(hit: Hit) -> Features:
    """The rerank's inputs read off a hydrated hit (the Neo4j-channel path)."""
    if isinstance(hit, FactHit):
        fact = hit.fact
        when = fact.valid_from or fact.recorded_at
        return Features(when.timestamp(), fact.confidence, fact.tier == "inferred", fact.statement)
    if isinstance(hit, EpisodeHit):
        return Features(hit.episode.reference_time.timestamp(), 0.0, False, hit.episode.content)
    if isinstance(hit, EntityHit):
        return Features(None, 0.0, False, hit.entity.name)
    return Features(None, 0.0, False, "")
