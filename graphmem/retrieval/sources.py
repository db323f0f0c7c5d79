"""Candidate sources: where a search's per-channel rankings come from (DESIGN §4, STYLE 16).

A search asks one source for its rankings, one per (channel, target): ``bm25`` over episodes, facts
and entities, ``vector`` over the same, ``graph`` over facts and episodes from the entities BM25
finds. One executor (``retrieval.pipeline``) fuses them, reranks and hydrates, whichever source
answered. Two sources exist:

- ``IndexSource``: the in-process tenant index (``tenant_index``), numpy and HNSW, held current
  from the change feed;
- ``Neo4jSource``: Neo4j's own indexes, for a tenant without an index (cold, loading in the
  background, too big for the byte budget, or the index switched off).

Both rank with the same rules, each defined once: the analysed query terms (``graphmem.text``),
tenant-local BM25 (``retrieval.bm25``: constants, IDF, statistics over every node of the label in
the tenant), the time view (``View``; its Cypher and numpy spellings are held together by a
table-driven test), the graph's seeds (``GRAPH_SEEDS`` entities of the entity BM25 ranking) and
its hop limit (``HOP2_LIMIT``). tests/integration/test_engine_spec.py runs one tenant through both
and requires the same top 10; the differences that remain are listed there and in ``Neo4jSource``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import Counter, OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Protocol

import numpy as np

from graphmem.retrieval import bm25
from graphmem.retrieval.config import CHANNELS, TARGETS, SearchConfig
from graphmem.retrieval.fusion import Features, Key
from graphmem.retrieval.tenant_index.fields import split_fields
from graphmem.retrieval.tenant_index.index import TenantIndex, View
from graphmem.retrieval.tenant_index.registry import TenantIndexes
from graphmem.store import search
from graphmem.store.driver import Store
from graphmem.store.snapshot import GroupState
from graphmem.temporal.normalize import group_token
from graphmem.text import analyze, clean_text, escape_lucene, has_cjk

Hits = list[tuple[str, float]]
Channel = tuple[str, str]  # (channel, target), e.g. ("bm25", "entity")
Rankings = dict[Channel, Hits]
GRAPH_SEEDS = 3  # the graph channel expands from the entity BM25 ranking's first GRAPH_SEEDS
LEXICAL_MATCHES = 2_000  # a query's matching documents per target the Neo4j source scores itself
ORDER: tuple[Channel, ...] = tuple((c, t) for c in CHANNELS for t in TARGETS)  # fusion's order
# one thread: a search's first vector target runs there beside the others (1-2 ms saved at 100k)
_VECTOR_POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="graphmem-vector")


def channel_name(channel: Channel) -> str:
    return f"{channel[0]}:{channel[1]}"


def query_terms(text: str) -> tuple[str, ...]:
    """The distinct analysed terms of a query, in order: what every source searches for."""
    return tuple(dict.fromkeys(analyze(clean_text(text))))


@dataclass(frozen=True)
class Probe:
    """One search as every source sees it: the tenant, the query's terms, the time view, the recipe."""

    group_id: str
    terms: tuple[str, ...]
    view: View
    cfg: SearchConfig

    def bm25_targets(self) -> list[str]:
        return list(self.cfg.targets) if self.cfg.channel_on("bm25") and self.terms else []

    def graph_targets(self) -> list[str]:
        on = self.cfg.channel_on("graph") and self.terms
        return [t for t in self.cfg.targets if t != "entity"] if on else []

    def lexical_targets(self) -> list[str]:
        """The targets BM25 ranks: the recipe's, plus entities when the graph needs seeds."""
        targets = self.bm25_targets()
        if self.graph_targets() and "entity" not in targets:
            targets.append("entity")
        return targets

    def vector_targets(self) -> list[str]:
        return list(self.cfg.targets) if self.cfg.channel_on("vector") else []


class SourceGone(Exception):
    """The source can no longer answer this search (its tenant index was dropped meanwhile)."""


class CandidateSource(Protocol):
    """What the executor asks of a source. ``lexical`` returns the bm25 and graph rankings,
    ``semantic`` the vector rankings; ``features`` the rerank's inputs when the source holds them
    (None: the executor hydrates first and reads them off the hits)."""

    name: str

    async def lexical(self, probe: Probe) -> Rankings: ...

    async def semantic(self, probe: Probe, query: np.ndarray) -> Rankings: ...

    async def features(self, probe: Probe, keys: list[Key]) -> dict[Key, Features] | None: ...

    async def evidence(self, probe: Probe, fact_ids: list[str]) -> dict[str, tuple[str, ...]]:
        """Each fact's evidence episodes (EVIDENCED_BY) that the probe's view shows."""
        ...


def merge(into: Rankings, found: Mapping[Channel, Hits]) -> None:
    """Add a source's rankings; a channel ranked twice is a bug (the entity BM25 ranking was once
    overwritten by the graph's three seeds, depending on which coroutine finished last)."""
    for channel, hits in found.items():
        if channel in into:
            raise ValueError(f"channel {channel_name(channel)} ranked twice")
        into[channel] = hits


def ordered(rankings: Rankings) -> Rankings:
    """The rankings in the one fixed order fusion sums them in (whichever finished first)."""
    return {c: rankings[c] for c in ORDER if c in rankings}


def seeds_of(entity_ranking: Hits) -> list[str]:
    return [i for i, _ in entity_ranking[:GRAPH_SEEDS]]


def lexical_rankings(bm25_hits: Mapping[str, Hits], probe: Probe) -> Rankings:
    """The bm25 rankings the recipe asked for (the entity ranking may be there for seeds only)."""
    return {("bm25", t): bm25_hits[t] for t in probe.bm25_targets()}


@dataclass
class Timer:
    """A search's timings in milliseconds, by step."""

    ms: dict[str, float] = field(default_factory=dict)

    async def timed(self, name: str, aw: Awaitable[Any]) -> Any:
        began = time.perf_counter()
        try:
            return await aw
        finally:
            self.ms[name] = (time.perf_counter() - began) * 1000

    def run(self, name: str, fn: Callable[[], Any]) -> Any:
        began = time.perf_counter()
        try:
            return fn()
        finally:
            self.ms[name] = (time.perf_counter() - began) * 1000


# --- the tenant index ---------------------------------------------------------------------------
class IndexSource:
    """The tenant's in-process index. Each step takes the tenant's lock (``TenantIndexes.acquire``)
    for its in-process work only: the query embedding is awaited outside it."""

    name = "index"

    def __init__(self, indexes: TenantIndexes, state: GroupState | None, timer: Timer) -> None:
        self.indexes, self.state, self.timer = indexes, state, timer

    async def lexical(self, probe: Probe) -> Rankings:
        async with self.indexes.acquire(probe.group_id, self.state) as index:
            if index is None:
                raise SourceGone(probe.group_id)
            return self._lexical(index, probe)

    def _lexical(self, index: TenantIndex, probe: Probe) -> Rankings:
        terms, n, view = list(probe.terms), probe.cfg.candidates, probe.view
        found: dict[str, Hits] = {}
        for target in probe.lexical_targets():
            fields = probe.cfg.field_weights if target == "episode" else None
            found[target] = self.timer.run(
                f"bm25:{target}", partial(index.bm25, target, terms, n, view, fields=fields)
            )
        rankings = lexical_rankings(found, probe)
        seeds = seeds_of(found.get("entity", []))
        for target in probe.graph_targets():
            rankings[("graph", target)] = self.timer.run(
                f"graph:{target}", partial(index.graph, target, seeds, n, view)
            )
        return rankings

    async def semantic(self, probe: Probe, query: np.ndarray) -> Rankings:
        async with self.indexes.acquire(probe.group_id, self.state) as index:
            if index is None:  # dropped meanwhile (evicted)
                raise SourceGone(probe.group_id)
            return self._semantic(index, probe, query)

    def _semantic(self, index: TenantIndex, probe: Probe, matrix: np.ndarray) -> Rankings:
        """The vector channel over every target; the first target's search runs in a thread beside
        the others (usearch and numpy release the GIL; the locked index is only read)."""
        targets = probe.vector_targets()
        if not targets:
            return {}
        query = np.array(matrix[0], dtype=np.float32)  # a copy: the caller's vector may be shared
        query /= max(float(np.linalg.norm(query)), 1e-12)
        n, view = probe.cfg.candidates, probe.view

        def one(target: str) -> tuple[Hits, float]:
            began = time.perf_counter()
            hits = _by_score(index.vector(target, query, n, view))
            return hits, (time.perf_counter() - began) * 1000

        first, *rest = targets
        aside = _VECTOR_POOL.submit(one, first)
        found = {target: one(target) for target in rest}
        found[first] = aside.result()
        rankings: Rankings = {}
        for target in targets:
            hits, ms = found[target]
            rankings[("vector", target)] = hits
            self.timer.ms[f"vector:{target}"] = ms
        return rankings

    async def features(self, probe: Probe, keys: list[Key]) -> dict[Key, Features] | None:
        async with self.indexes.acquire(probe.group_id, self.state) as index:
            if index is None:
                raise SourceGone(probe.group_id)
            return index.features(keys)

    async def evidence(self, probe: Probe, fact_ids: list[str]) -> dict[str, tuple[str, ...]]:
        async with self.indexes.acquire(probe.group_id, self.state) as index:
            if index is None:
                raise SourceGone(probe.group_id)
            return _index_evidence(index, probe.view, fact_ids)


def _index_evidence(index: TenantIndex, view: View, fact_ids: list[str]) -> dict[str, tuple[str, ...]]:
    """``FACT_EVIDENCE`` over the index: each fact's evidence episodes the view shows."""
    facts, episodes = index.targets["fact"].slots.index, index.targets["episode"].slots.index
    visible = index.mask("episode", view)
    out: dict[str, tuple[str, ...]] = {}
    for fact_id in fact_ids:
        slot = facts.get(fact_id)
        if slot is None:
            continue
        shown = []
        for episode_id in index.fields.evidence(slot):
            e = episodes.get(episode_id)
            if e is not None and (visible is None or bool(visible[e])):
                shown.append(episode_id)
        if shown:
            out[fact_id] = tuple(shown)
    return out


def _by_score(hits: Hits) -> Hits:
    """Ties by id (numpy breaks them by slot): the order Cypher's ``ORDER BY score DESC, id`` gives."""
    return sorted(hits, key=lambda h: (-h[1], h[0]))


# --- Neo4j ----------------------------------------------------------------------------------------
StateKey = tuple[int, int, int]
Sizes = dict[str, dict[str, Any]]  # ``search.sizes``: counters, revision state, saved statistics
_SAVING: set[asyncio.Task[None]] = set()  # statistics being saved (a reference until done)
log = logging.getLogger(__name__)


async def saving() -> None:
    """Wait for the statistics being saved in the background (tests, a clean shutdown)."""
    await asyncio.gather(*list(_SAVING), return_exceptions=True)


def encode_stats(key: StateKey, stats: Mapping[str, bm25.Stats]) -> str:
    """Statistics as saved on the Group node: with the revision state they hold for."""
    return json.dumps(
        {"key": list(key), "stats": {name: [s.n_docs, s.total_length] for name, s in sorted(stats.items())}}
    )


def decode_stats(saved: str | None, key: StateKey) -> dict[str, bm25.Stats] | None:
    """The saved statistics when they hold for ``key``; None when absent, unreadable or older."""
    if not saved:
        return None
    try:
        data = json.loads(saved)
        if tuple(data["key"]) != key:
            return None
        return {name: bm25.Stats(int(n), int(length)) for name, (n, length) in data["stats"].items()}
    except (ValueError, TypeError, KeyError):
        return None


@dataclass
class LexicalStats:
    """Each tenant's BM25 statistics by label, cached per revision state (any write changes it)."""

    capacity: int = 4_096
    entries: OrderedDict[str, tuple[StateKey, dict[str, bm25.Stats]]] = field(default_factory=OrderedDict)

    def get(self, group_id: str, key: StateKey) -> dict[str, bm25.Stats] | None:
        found = self.entries.get(group_id)
        if found is None or found[0] != key:
            return None
        self.entries.move_to_end(group_id)
        return found[1]

    def put(self, group_id: str, key: StateKey, stats: dict[str, bm25.Stats]) -> None:
        self.entries[group_id] = (key, stats)
        self.entries.move_to_end(group_id)
        while len(self.entries) > self.capacity:
            self.entries.popitem(last=False)


def counted(doc_id: str, text: str, terms: list[str], visible: bool) -> bm25.Match:
    """A matching document's frequency of each query term and its length, from its analysed
    text: its words, split as the tenant index splits them."""
    words = text.split()
    tf = Counter(words)
    return bm25.Match(doc_id, tuple(tf[t] for t in terms), len(words), visible)


def episode_fields(row: Mapping[str, Any]) -> dict[str, str]:
    """An episode's field texts (``own``, ``context``, ``facts``) from ``EPISODE_FIELD_MATCHES``'
    row: the split ``tenant_index.fields`` makes, and its live facts' texts."""
    own, context = split_fields(row)
    return {"own": own, "context": context, "facts": " ".join(row["facts"] or [])}


def lucene_query(token: str, terms: tuple[str, ...] | list[str]) -> str:
    """The tenant's documents holding any of ``terms``. A Chinese term is a phrase: Lucene's
    standard analyser cuts it into characters, and the phrase of its characters holds every
    document whose jieba segmentation produced the term (a superset: the tf counts decide)."""
    words = [f'"{escape_lucene(t)}"' if has_cjk(t) else escape_lucene(t) for t in terms]
    return f"+group_token:{token} +search_text:({' '.join(words)})"


class Neo4jSource:
    """Neo4j's full-text, vector and graph queries, every one scoped by ``group_id`` and the view.

    BM25: Lucene finds the tenant's documents matching any query term and Cypher returns each one's
    term frequencies, length and visibility; ``bm25.score`` ranks them with the tenant's statistics
    (``LEXICAL_STATS``, read once per revision state). The ranking is the tenant index's while a
    query matches at most ``LEXICAL_MATCHES`` documents of a target; past that Lucene's best
    ``LEXICAL_MATCHES`` are scored and each term's document frequency is Lucene's in-tenant count
    (by field, the count over those matches). A recipe's ``field_weights`` score episodes field by
    field (``EPISODE_FIELD_MATCHES``), as ``tenant_index.fields`` does.
    Vectors: Neo4j's cosine is (1 + cos) / 2, mapped back to cos. Known differences from the index:
    past ``exact_threshold`` nodes Neo4j's ANN index answers (the index scores exactly up to its
    own ``ann_threshold``); facts merged away by ingestion linger in a tenant index's statistics until it reloads.
    """

    name = "neo4j"

    def __init__(self, store: Store, timer: Timer, *, stats: LexicalStats, exact_threshold: int) -> None:
        self.store, self.timer, self.stats, self.exact_threshold = store, timer, stats, exact_threshold
        self._sizes: asyncio.Future[Sizes] | None = None
        self.group_id = ""

    def sizes(self, group_id: str) -> asyncio.Future[Sizes]:
        """The tenant's and the database's sizes and the tenant's state, read once per search."""
        if self._sizes is None:
            read = search.sizes(self.store, group_id=group_id)
            self._sizes = asyncio.ensure_future(self.timer.timed("sizes", read))
        return self._sizes

    async def lexical(self, probe: Probe) -> Rankings:
        targets = probe.lexical_targets()
        if not targets:
            return {}
        sizes = self.sizes(probe.group_id)
        found = dict(
            zip(targets, await asyncio.gather(*(self._bm25(probe, t, sizes) for t in targets)), strict=True)
        )
        rankings = lexical_rankings(found, probe)
        seeds = seeds_of(found.get("entity", []))
        graph_targets = probe.graph_targets()
        hits = await asyncio.gather(*(self._graph(probe, t, seeds) for t in graph_targets))
        for target, ranked in zip(graph_targets, hits, strict=True):
            rankings[("graph", target)] = ranked
        return rankings

    async def _bm25(self, probe: Probe, target: str, sizes: Awaitable[Sizes]) -> Hits:
        if target == "episode" and probe.cfg.field_weights:
            return await self._bm25_fields(probe, probe.cfg.field_weights, sizes)
        terms, g = list(probe.terms), probe.group_id
        lucene = lucene_query(group_token(g), terms)
        rows, stats = await asyncio.gather(
            self.timer.timed(
                f"bm25:{target}",
                search.lexical_matches(
                    self.store,
                    target=target,
                    group_id=g,
                    lucene=lucene,
                    limit=LEXICAL_MATCHES,
                    view=probe.view.params(),
                ),
            ),
            self._stats(g, sizes),
        )
        matches = [counted(r["id"], r["text"], terms, bool(r["visible"])) for r in rows]
        df = None
        if len(rows) >= LEXICAL_MATCHES:  # cut short: count each term's documents instead
            tok = group_token(g)
            queries = [(t, lucene_query(tok, [t])) for t in terms]
            df = await self.timer.timed(
                f"bm25:{target}:df",
                search.term_counts(
                    self.store, target=target, group_id=g, queries=queries, cap=max(stats[target].n_docs, 1)
                ),
            )
        return bm25.score(terms, matches, stats[target], df=df)[: probe.cfg.candidates]

    async def _bm25_fields(self, probe: Probe, weights: Mapping[str, float], sizes: Awaitable[Sizes]) -> Hits:
        """Episodes scored field by field, each with its own statistics, summed by weight: what
        ``tenant_index.fields`` computes. A term found only in an episode's facts makes it a
        candidate through the facts' full-text index."""
        terms, g = list(probe.terms), probe.group_id
        rows, stats = await asyncio.gather(
            self.timer.timed(
                "bm25:episode",
                search.episode_field_matches(
                    self.store,
                    group_id=g,
                    lucene=lucene_query(group_token(g), terms),
                    limit=LEXICAL_MATCHES,
                    view=probe.view.params(),
                ),
            ),
            self._stats(g, sizes, fields=True),
        )
        texts = [(r, episode_fields(r)) for r in rows]
        total: dict[str, float] = {}
        for name, weight in weights.items():
            if weight <= 0 or f"episode:{name}" not in stats:
                continue
            matches = [counted(r["id"], fields[name], terms, bool(r["visible"])) for r, fields in texts]
            for doc_id, value in bm25.score(terms, matches, stats[f"episode:{name}"]):
                total[doc_id] = total.get(doc_id, 0.0) + weight * value
        ranked = sorted(((i, v) for i, v in total.items() if v > 0), key=lambda h: (-h[1], h[0]))
        return ranked[: probe.cfg.candidates]

    async def _stats(
        self, group_id: str, sizes: Awaitable[Sizes], *, fields: bool = False
    ) -> dict[str, bm25.Stats]:
        """The tenant's statistics by target (and by episode field, ``episode:own`` ...): this
        process's cache, else the ones saved on the Group node for the same revision state (read
        with the sizes), else counted over the tenant (O(nodes): 0.1-0.25 s at 2k nodes, 1.3-1.8 s
        at 20k on the loaded dev VM) and then saved there in the background, so a cold worker
        (restart, deploy, eviction, an idle tenant) does not count them again."""
        known = await sizes
        state = known["state"]
        key = (state["seq"], state["reset_seq"], state["created_at"])
        name = f"{group_id}\x00fields" if fields else group_id
        kind = "fields" if fields else "labels"
        cached = self.stats.get(name, key)
        if cached is None:
            cached = decode_stats(known.get("saved", {}).get(kind), key)
            if cached is not None:
                self.stats.put(name, key, cached)
        if cached is not None:
            return cached
        if fields:
            n, lengths = await self.timer.timed(
                "bm25:field_stats", search.episode_field_stats(self.store, group_id=group_id)
            )
            stats = {f"episode:{f}": bm25.Stats(n, length) for f, length in lengths.items()}
        else:
            counted = await self.timer.timed(
                "bm25:stats", search.lexical_stats(self.store, group_id=group_id)
            )
            stats = {t: bm25.Stats(n, length) for t, (n, length) in counted.items()}
        self.stats.put(name, key, stats)
        self._save_later(group_id, kind, state, encode_stats(key, stats))
        return stats

    def _save_later(self, group_id: str, kind: str, state: dict[str, int], value: str) -> None:
        """Save counted statistics on the Group node, off the search's path; a failure (a
        read-only replica, a busy lock) only means the next cold worker counts them again."""

        async def save() -> None:
            try:
                await search.save_stats(self.store, group_id=group_id, kind=kind, state=state, value=value)
            except Exception:
                log.debug("saving the BM25 statistics of %s failed", group_id, exc_info=True)

        task = asyncio.create_task(save())
        _SAVING.add(task)
        task.add_done_callback(_SAVING.discard)

    async def _graph(self, probe: Probe, target: str, seeds: list[str]) -> Hits:
        return await self.timer.timed(
            f"graph:{target}",
            search.graph(
                self.store,
                target=target,
                group_id=probe.group_id,
                seeds=seeds,
                limit=probe.cfg.candidates,
                **probe.view.params(),
            ),
        )

    async def semantic(self, probe: Probe, query: np.ndarray) -> Rankings:
        targets = probe.vector_targets()
        if not targets:
            return {}
        sizes = await self.sizes(probe.group_id)
        embedding = [float(x) for x in query[0]]
        plural = {"episode": "episodes", "fact": "facts", "entity": "entities"}
        n = probe.cfg.candidates

        async def one(target: str) -> Hits:
            size, total = int(sizes["group"][plural[target]]), int(sizes["total"][plural[target]])
            exact, fetch = search.vector_plan(n, size, total, self.exact_threshold)
            hits = await self.timer.timed(
                f"vector:{target}",
                search.vector(
                    self.store,
                    target=target,
                    group_id=probe.group_id,
                    embedding=embedding,
                    limit=n,
                    exact=exact,
                    fetch=fetch,
                    **probe.view.params(),
                ),
            )
            return [(i, 2.0 * s - 1.0) for i, s in hits]  # Neo4j's (1 + cos) / 2 as cos

        found = await asyncio.gather(*(one(t) for t in targets))
        return {("vector", t): hits for t, hits in zip(targets, found, strict=True)}

    async def features(self, probe: Probe, keys: list[Key]) -> dict[Key, Features] | None:
        return None  # read off the hydrated hits

    async def evidence(self, probe: Probe, fact_ids: list[str]) -> dict[str, tuple[str, ...]]:
        return await search.fact_evidence(
            self.store, group_id=probe.group_id, fact_ids=fact_ids, **probe.view.params()
        )
