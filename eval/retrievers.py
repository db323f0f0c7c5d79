"""The retrievers every retrieval eval compares (``eval locomo``, ``eval longmemeval``), behind one
small interface: ``search(group_id, query, k, as_of) -> external ids, best first``.

- ``rank-bm25``: the rank_bm25 package over the raw turns (``eval.baselines.bm25``), no Neo4j;
- ``vector``, ``hybrid``, ``graphmem``: ``GraphMemory.search`` with recipes ``vector``, ``hybrid``
  (bm25 + vector) and ``default`` (bm25 + vector + graph), mapped to external ids by
  ``SearchResult.source_external_ids()`` (a fact hit brings the turns that evidence it);
- ``graphmem-neo4j``: ``graphmem`` with the in-process tenant index off (every search served by the
  Neo4j source): beside ``graphmem`` in one run, it checks that both sources rank alike;
- ``graphiti``: graphiti-core's hybrid search over a copy of the same episodes and facts
  (``eval.baselines.graphiti``);
- any ``SearchConfig`` under a name of its own (``config_retriever``: the recipe selection).

A *corpus* is one group's episodes (a LoCoMo conversation, a LongMemEval haystack). The
graphmem-backed retrievers share one ingestion of every corpus (``ingest``), removed by ``forget``.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Protocol

from graphmem.config import Settings
from graphmem.memory import GraphMemory
from graphmem.models.episode import EpisodeIn
from graphmem.models.search import SearchRequest
from graphmem.retrieval.config import SearchConfig

RETRIEVERS = ("rank-bm25", "vector", "hybrid", "graphmem", "graphmem-neo4j", "graphiti")
RECIPES = {"vector": "vector", "hybrid": "hybrid", "graphmem": "default", "graphmem-neo4j": "default"}

Log = Callable[[str], None]


@dataclass(frozen=True)
class Corpus:
    """One group's episodes; ``name`` is what the log calls it (sample id, question id)."""

    name: str
    group_id: str
    episodes: Sequence[EpisodeIn]


class Retriever(Protocol):
    name: str
    seconds: float | None  # what it cost to make the corpora searchable (ingest / index / copy)

    async def prepare(self, group_id: str) -> None:
        """Make ``group_id`` searchable now (load its index), outside the timed searches."""

    async def search(self, group_id: str, query: str, k: int, as_of: datetime | None) -> list[str]: ...

    async def close(self) -> None: ...


def check_names(names: Sequence[str]) -> None:
    unknown = [r for r in names if r not in RETRIEVERS]
    if unknown:
        raise ValueError(f"unknown retriever(s) {unknown}; choose from {', '.join(RETRIEVERS)} or all")


def needs_ingest(names: Sequence[str]) -> bool:
    """Whether any of ``names`` searches graphmem's ingestion (graphiti copies it too)."""
    return any(r != "rank-bm25" for r in names)


async def ingest(memory: GraphMemory, corpora: Sequence[Corpus], batch: int, log: Log) -> float:
    """Ingest every corpus into its group through ``add_episodes``; the seconds it took."""
    began = time.perf_counter()
    for corpus in corpora:
        t0 = time.perf_counter()
        for start in range(0, len(corpus.episodes), batch):
            await memory.add_episodes(corpus.group_id, list(corpus.episodes[start : start + batch]))
        log(f"ingested {corpus.name}: {len(corpus.episodes)} turns in {time.perf_counter() - t0:.1f}s")
    return time.perf_counter() - began


async def forget(memory: GraphMemory, groups: Sequence[str], log: Log) -> None:
    """Remove the eval's groups, tombstones included (an eval group leaves nothing behind)."""
    for group in groups:
        try:
            await memory.forget_group(group, purge_tombstones=True)
        except Exception as exc:  # report and keep cleaning the others
            log(f"could not forget {group}: {type(exc).__name__}: {exc}")


@dataclass
class ConfigRetriever:
    """``GraphMemory.search`` under a named recipe, or with an explicit ``SearchConfig``."""

    name: str
    memory: GraphMemory
    recipe: str = "default"
    config: SearchConfig | None = None
    seconds: float | None = None

    async def prepare(self, group_id: str) -> None:
        await self.memory.warm_index(group_id)

    async def search(self, group_id: str, query: str, k: int, as_of: datetime | None) -> list[str]:
        req = SearchRequest(query=query[:2000], k=k, recipe=self.recipe, as_of=as_of)
        result = await self.memory.searcher.search(group_id, req, self.config)
        return result.source_external_ids()

    async def close(self) -> None:
        return None


def config_retriever(
    name: str, memory: GraphMemory, config: SearchConfig, seconds: float | None = None
) -> ConfigRetriever:
    return ConfigRetriever(name, memory, config=config, seconds=seconds)


@dataclass
class BM25Retriever:
    """rank_bm25 over each corpus's raw turns (no time view: every turn is searched)."""

    indexes: dict[str, Any]
    name: str = "rank-bm25"
    seconds: float | None = None

    @classmethod
    def build(cls, corpora: Sequence[Corpus]) -> BM25Retriever:
        from eval.baselines.bm25 import RankBM25Index

        indexes = {c.group_id: RankBM25Index(c.episodes) for c in corpora}
        return cls(indexes, seconds=sum(i.build_seconds for i in indexes.values()))

    async def prepare(self, group_id: str) -> None:
        return None

    async def search(self, group_id: str, query: str, k: int, as_of: datetime | None) -> list[str]:
        found: list[str] = self.indexes[group_id].search(query, k)
        return found

    async def close(self) -> None:
        return None


@dataclass
class GraphitiRetriever:
    """graphiti-core over a copy of each corpus's group (episodes, entities, facts)."""

    run: Any
    target: dict[str, str]
    keep: bool
    name: str = "graphiti"
    seconds: float | None = None

    @classmethod
    async def build(
        cls, memory: GraphMemory, settings: Settings, corpora: Sequence[Corpus], keep: bool, log: Log
    ) -> GraphitiRetriever:
        from eval.baselines.graphiti import GraphitiRun, graphiti_group

        run = await GraphitiRun.connect(settings, memory.ctx.embedder)
        target = {c.group_id: graphiti_group(f"graphiti_{c.group_id}") for c in corpora}
        made = cls(run, target, keep, seconds=0.0)
        try:
            for corpus in corpora:
                stats = await run.load(memory.ctx.store, corpus.group_id, target[corpus.group_id])
                made.seconds = (made.seconds or 0.0) + stats["seconds"]
                log(f"graphiti loaded {corpus.name}: {stats}")
        except BaseException:
            await made.close()
            raise
        return made

    async def prepare(self, group_id: str) -> None:
        return None

    async def search(self, group_id: str, query: str, k: int, as_of: datetime | None) -> list[str]:
        found: list[str] = await self.run.search(self.target[group_id], query, k)
        return found

    async def close(self) -> None:
        if self.keep:
            self.run.groups.clear()
        await self.run.close()


async def open_retriever(
    name: str,
    memory: GraphMemory,
    settings: Settings,
    corpora: Sequence[Corpus],
    *,
    ingest_seconds: float | None,
    keep: bool = False,
    log: Log = lambda _m: None,
) -> Retriever:
    """The retriever ``name`` over ``corpora`` (already ingested for the graphmem-backed ones)."""
    if name == "rank-bm25":
        return BM25Retriever.build(corpora)
    if name == "graphiti":
        return await GraphitiRetriever.build(memory, settings, corpora, keep, log)
    if name == "graphmem-neo4j":  # the same store and caches, no tenant index
        memory = GraphMemory(replace(memory.ctx, search_index=False))
    return ConfigRetriever(name, memory, recipe=RECIPES[name], seconds=ingest_seconds)


async def timed_search(
    retriever: Retriever, group_id: str, query: str, k: int, as_of: datetime | None
) -> tuple[list[str], float]:
    """The top ``k`` external ids and the search's wall time in milliseconds (the group's index is
    loaded first, untimed: a tenant's first search otherwise pays for loading it)."""
    await retriever.prepare(group_id)
    began = time.perf_counter()
    ranked = await retriever.search(group_id, query, k, as_of)
    return list(ranked)[:k], (time.perf_counter() - began) * 1000


def failure(name: str, exc: BaseException) -> dict[str, Any]:
    """The result object of a retriever that could not run (the others still report)."""
    return {"retriever": name, "error": f"{type(exc).__name__}: {exc}"}


async def run_all(
    memory: GraphMemory,
    settings: Settings,
    names: Sequence[str],
    corpora: Sequence[Corpus],
    score: Callable[[Retriever], Awaitable[dict[str, Any]]],
    *,
    batch: int,
    keep: bool,
    log: Log,
    ingested_seconds: float | None = None,
) -> list[dict[str, Any]]:
    """Ingest the corpora once (when a graphmem-backed retriever is asked for; not when the caller
    did, ``ingested_seconds``), score every retriever in turn, and forget the groups (unless
    ``keep``); one result object per retriever, an ``error`` one for a retriever that could not
    start or failed."""
    check_names(names)
    ingested = needs_ingest(names)
    if ingested_seconds is not None:
        ingest_s: float | None = ingested_seconds
    else:
        ingest_s = await ingest(memory, corpora, batch, log) if ingested else None
    results: list[dict[str, Any]] = []
    try:
        for name in names:
            log(f"retriever {name} ...")
            try:
                retriever = await open_retriever(
                    name, memory, settings, corpora, ingest_seconds=ingest_s, keep=keep, log=log
                )
            except Exception as exc:  # report and keep the other retrievers
                log(f"{name} could not start: {type(exc).__name__}: {exc}")
                results.append(failure(name, exc))
                continue
            try:
                results.append(await score(retriever))
            except Exception as exc:
                log(f"{name} failed: {type(exc).__name__}: {exc}")
                results.append(failure(name, exc))
            finally:
                await retriever.close()
    finally:
        if ingested and not keep:
            await forget(memory, [c.group_id for c in corpora], log)
    return results
