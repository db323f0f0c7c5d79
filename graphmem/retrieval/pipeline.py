"""The search pipeline: one executor over pluggable candidate sources (``retrieval.sources``): the
rankings of one source, fused, reranked and hydrated, then the context assembled."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from graphmem.clock import Clock
from graphmem.models.entity import EntityRecord
from graphmem.models.episode import EpisodeRecord
from graphmem.models.search import EntityHit, EpisodeHit, FactHit, Hit, SearchRequest, SearchResult
from graphmem.ports import Embedder
from graphmem.providers.embedders import embed_query
from graphmem.retrieval.config import SearchConfig, recipe
from graphmem.retrieval.context import build_context
from graphmem.retrieval.focus import boost, focus_terms, held_in_rows, role_terms
from graphmem.retrieval.fusion import Features, Key, evidence_ranking, fuse, rerank
from graphmem.retrieval.intent import adapt, time_focus
from graphmem.retrieval.sources import (
    CandidateSource,
    IndexSource,
    LexicalStats,
    Neo4jSource,
    Probe,
    Rankings,
    SourceGone,
    Timer,
    channel_name,
    merge,
    ordered,
    query_terms,
)
from graphmem.retrieval.tenant_index.columns import slots_of
from graphmem.retrieval.tenant_index.fields import Speakers
from graphmem.retrieval.tenant_index.index import TenantIndex, View
from graphmem.retrieval.tenant_index.registry import TenantIndexes
from graphmem.store import reads, search
from graphmem.store.cypher.focus import FOCUS_SPEAKERS
from graphmem.store.driver import Store
from graphmem.temporal.normalize import normalize_name

DF_CAP = 2000  # eval speed's raw Neo4j calls count in-tenant document frequencies up to this


@dataclass
class Searcher:
    store: Store
    embedder: Embedder
    clock: Clock
    exact_threshold: int = 1_000
    indexes: TenantIndexes | None = None
    touch_delay_s: float = 0.2
    stats: LexicalStats = field(default_factory=LexicalStats)  # the Neo4j source's BM25 statistics
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
    """One search: the executor. It asks one candidate source (``retrieval.sources``: the tenant
    index, else Neo4j) for its rankings, fuses them, reranks and hydrates, whichever source answered.

    Locking: the tenant index's lock (``TenantIndexes.acquire``) is held by each of the index
    source's steps: while the index catches up with the change feed (awaited Neo4j reads of what
    changed since its revision) and during its in-process channel work. It is never held while the
    query embedding computes, while hits are hydrated, or while an index loads: a tenant without an
    index is answered by the Neo4j source with the same ranking while ``TenantIndexes`` builds one
    in the background (small tenants excepted: up to ``sync_limit`` nodes load on the first search,
    awaited outside the lock)."""

    def __init__(self, s: Searcher, group_id: str, req: SearchRequest, cfg: SearchConfig, history: bool):
        self.s, self.group_id, self.req, self.cfg, self.history = s, group_id, req, cfg, history
        self.timer = Timer()
        self.timings = self.timer.ms
        self.rankings: dict[str, list[Key]] = {}
        self.channel_scores: dict[Key, dict[str, float]] = {}
        self.view = View(req.as_of, history, req.since, req.until)
        self.time: dict[str, Any] = self.view.params()
        self.probe = Probe(group_id, query_terms(req.query), self.view, cfg)
        self.focus = time_focus(req.query, req.as_of or s.clock()) if cfg.time_weight > 0 else None
        self._embedding: asyncio.Future[np.ndarray] | None = None

    def _embed(self) -> asyncio.Future[np.ndarray]:
        """The query's embedding, computed once (in a thread) and shared by the sources."""
        if self._embedding is None:
            embed = asyncio.to_thread(embed_query, self.s.embedder, self.req.query)
            self._embedding = asyncio.ensure_future(self.timer.timed("embed", embed))
        return self._embedding

    def neo4j(self) -> Neo4jSource:
        return Neo4jSource(
            self.s.store, self.timer, stats=self.s.stats, exact_threshold=self.s.exact_threshold
        )

    async def execute(self) -> SearchResult:
        began = time.perf_counter()
        if self.cfg.channel_on("vector"):
            self._embed()  # started now: it runs beside the state read and the lexical channels
        source, rankings = await self._collect()
        fusing = time.perf_counter()
        self._set_rankings(rankings)
        fused = await self._focus(source, self._fuse())
        top = self._top(fused)
        self.timings["fuse"] = (time.perf_counter() - fusing) * 1000
        features = await source.features(self.probe, top) if top else None
        if features is None:
            ranked = await self._hydrate_then_rank(fused)
        else:
            ranked = await self._rank_then_hydrate(top, fused, features)
        began_assembly = time.perf_counter()
        result = self._result(ranked)
        self.timings["assemble"] = (time.perf_counter() - began_assembly) * 1000
        self.timings["total"] = (time.perf_counter() - began) * 1000
        result.timings_ms = {k: round(v, 3) for k, v in self.timings.items()}
        self.s.touch_later(self.group_id, [h.id for h in result.ranked if h.type != "entity"])
        return result

    async def _collect(self) -> tuple[CandidateSource, Rankings]:
        """Every channel's ranking from one source: the tenant index when it holds the tenant (and
        still does once the embedding is there), else Neo4j."""
        indexes = self.s.indexes
        if indexes is not None:
            began = time.perf_counter()
            state = await self.timer.timed("index:state", indexes.state(self.group_id))
            source = IndexSource(indexes, state, self.timer)
            try:
                rankings = await source.lexical(self.probe)
                self.timings["index:wait"] = (time.perf_counter() - began) * 1000
                rankings = await self._semantic(source, rankings)
                return source, await self._evidence(source, rankings)
            except SourceGone:
                pass  # no index (yet), or dropped meanwhile: Neo4j answers the whole search
        neo4j = self.neo4j()  # its lexical and vector queries run side by side
        lexical, semantic = await asyncio.gather(neo4j.lexical(self.probe), self._semantic(neo4j, {}))
        merge(lexical, semantic)
        return neo4j, await self._evidence(neo4j, lexical)

    async def _semantic(self, source: CandidateSource, rankings: Rankings) -> Rankings:
        if self.probe.vector_targets():
            merge(rankings, await source.semantic(self.probe, await self._embed()))
        return rankings

    async def _evidence(self, source: CandidateSource, rankings: Rankings) -> Rankings:
        """The evidence channel, from what both sources return: the fact channels named by
        ``evidence_from`` fused as the recipe fuses, the best ``candidates`` facts' visible evidence
        episodes (one read of the source), ranked by ``fusion.evidence_ranking``. The graph's
        knowledge thereby lifts the turns it came from, not only the facts' own rows."""
        cfg = self.cfg
        if not cfg.channel_on("evidence") or "episode" not in cfg.targets:
            return rankings
        facts = {c: h for c, h in ordered(rankings).items() if c[1] == "fact" and c[0] in cfg.evidence_from}
        if not any(facts.values()):
            return rankings
        keyed = {channel_name(c): [("fact", i) for i, _ in hits] for c, hits in facts.items()}
        scores: dict[Key, dict[str, float]] = {}
        for c, hits in facts.items():
            for i, score in hits:
                scores.setdefault(("fact", i), {})[channel_name(c)] = score
        weights = {channel_name(c): cfg.weights.get(c[0], 0.0) for c in facts}
        fused = fuse(keyed, scores, weights, cfg)
        top = sorted(fused, key=lambda key: (-fused[key], key))[: cfg.candidates]
        cited = await self.timer.timed("evidence", source.evidence(self.probe, [i for _, i in top]))
        best = {i: fused[("fact", i)] for _, i in top}
        rankings[("evidence", "episode")] = evidence_ranking(best, cited, limit=cfg.candidates)
        return rankings

    def _set_rankings(self, rankings: Rankings) -> None:
        """The rankings by channel name, in the fixed order fusion sums them in, and each
        candidate's per-channel scores (explain)."""
        for channel, hits in ordered(rankings).items():
            name, target = channel_name(channel), channel[1]
            keys = [(target, i) for i, _ in hits]
            self.rankings[name] = keys
            for key, (_, score) in zip(keys, hits, strict=True):
                self.channel_scores.setdefault(key, {})[name] = round(score, 6)

    def _fuse(self) -> dict[Key, float]:
        weights = {
            name: self.cfg.weights.get(name.split(":")[0], 0.0)
            * self.cfg.type_weights.get(name.split(":")[1], 1.0)
            for name in self.rankings
        }
        return fuse(self.rankings, self.channel_scores, weights, self.cfg)

    async def _focus(self, source: CandidateSource, fused: dict[Key, float]) -> dict[Key, float]:
        """Entity-centred search (``retrieval.focus``): when the query names someone and the recipe
        weighs ``weights["focus"]``, every candidate episode that person told is raised by that
        weight in the fused logit; when it points at a chat role (``focus.role_terms``: the user
        for a first-person question, the assistant for what "you" said) and the recipe weighs
        ``weights["role"]``, that role's turns are raised by that weight. Both sources read the same
        speaker terms: the tenant index's speaker codes (``fields.Speakers``), or one Neo4j read of
        the candidates' (also for an index restored from a snapshot written before the codes were
        kept)."""
        weight = self.cfg.weights.get("focus", 0.0)
        role_weight = self.cfg.weights.get("role", 0.0)
        terms = focus_terms(self.req.query) if weight > 0 else ()
        roles = role_terms(self.req.query) if role_weight > 0 else ()
        ids = [i for t, i in fused if t == "episode"]
        if not (terms or roles) or not ids:
            return fused
        began = time.perf_counter()
        held: list[set[Key]] | None = None
        if isinstance(source, IndexSource):
            async with source.indexes.acquire(self.group_id, source.state) as index:
                if index is not None and index.fields.speakers is not None:
                    held = _index_held(index, index.fields.speakers, ids, (terms, roles))
        if held is None:
            rows = await self.s.store.read(FOCUS_SPEAKERS, group_id=self.group_id, episode_ids=ids)
            held = [held_in_rows(rows, t) if t else set() for t in (terms, roles)]
        self.timings["focus"] = (time.perf_counter() - began) * 1000
        return boost(boost(fused, held[0], weight), held[1], role_weight)

    def _top(self, fused: dict[Key, float]) -> list[Key]:
        """The candidates the rerank orders: the best fused, three times the hits asked for."""
        return sorted(fused, key=lambda key: (-fused[key], key))[: max(self.req.k * 3, 30)]

    async def _hydrate(self, keys: list[Key], fused: dict[Key, float]) -> dict[Key, Hit]:
        """The hits for ``keys`` read from Neo4j, each re-checked against the time view there (one
        round trip); keys that are gone or outside the view are left out."""
        ids = {t: [i for tt, i in keys if tt == t] for t in ("fact", "episode", "entity")}
        fact_rows, episodes, entities = await self.timer.timed(
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


def _index_held(
    index: TenantIndex, speakers: Speakers, ids: list[str], term_sets: tuple[tuple[str, ...], ...]
) -> list[set[Key]]:
    """``focus.held_in_rows`` over the tenant index, for each of ``term_sets``: the episodes whose
    speaker terms hold one of its terms. The candidates' slots are looked up once for all sets."""
    wanted = [speakers.holding(set(terms)) if terms else set() for terms in term_sets]
    if not any(wanted):
        return [set() for _ in term_sets]
    slots = slots_of(index.targets["episode"].slots.index, ids)
    told = [(i, speakers.code_of(slot)) for i, slot in zip(ids, slots, strict=True) if slot is not None]
    return [{("episode", i) for i, code in told if code in codes} for codes in wanted]


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
