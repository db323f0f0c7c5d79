"""Speed benchmark (EVAL.md §3) over the synthetic tenant of ``eval.synthetic``.

Phases (all in one process, sequential, so the numbers do not compete with each other):
1. ingest: episodes through ``GraphMemory.add_episodes`` in batches, then facts through ``add_facts``
   (skipped with ``reuse_group`` when that group already holds the tenant);
2. embed only: the embedder alone on the same episode texts (a sample of ``embed_sample``);
3. search through the library: ``GraphMemory.search`` with the default recipe, query embedding
   included, after a few warm-up queries — over the tenant index (loaded first, ``index_warm_s``)
   unless ``GRAPHMEM_SEARCH_INDEX`` is off, and then again with the index off (``neo4j_channels``);
4. search through HTTP: the API app (``api.main.create_app`` with this memory, no-auth on loopback)
   under uvicorn in this event loop on a random loopback port, ``POST /v1/groups/{group}/search``
   sent by a keep-alive client in its own process (``eval.http_probe``);
5. raw: the Neo4j calls a search makes, issued directly. Over the tenant index: the group's
   revision state and one hydration of the hits (``raw_ms``). With the index off
   (``neo4j_channels.raw_ms``): the channel queries (``graphmem.store.search``: the tenant-local
   BM25 candidates and document frequencies over episodes, bm25 over facts, vector over facts and
   episodes with the same exact/ANN plan, entity seeds and the graph expansion), run concurrently
   as the pipeline runs them, with the query vectors and the sizes precomputed — no embedding,
   sizes read, fusion, hydration or rerank;
6. optionally graphiti-core's search over a copy of the same tenant (``eval.baselines.graphiti``).
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import statistics
import sys
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from eval.ann_recall import ann_recall
from eval.metrics import latency_summary, peak_rss_mb
from eval.synthetic import Tenant
from graphmem.config import Settings
from graphmem.memory import GraphMemory
from graphmem.models.search import SearchRequest
from graphmem.providers.embedders.hashing import HashingEmbedder
from graphmem.retrieval.config import recipe
from graphmem.retrieval.pipeline import DF_CAP
from graphmem.store import search as channels
from graphmem.store import snapshot
from graphmem.temporal.normalize import group_token
from graphmem.text import has_cjk, query_terms

Log = Callable[[str], None]


@dataclass
class SpeedOptions:
    episodes: int
    facts: int
    seed: int = 7
    queries: int = 240
    k: int = 10
    batch: int = 250
    fact_batch: int = 500
    embed_sample: int = 2000
    warmup: int = 10
    http: bool = True
    with_graphiti: bool = False
    graphiti_queries: int = 40  # graphiti's search takes seconds at 100k: the first N queries
    reuse_group: str | None = None
    keep: bool = False
    # "hashing": ingest the tenant with the hashing embedder (384-d, under the stored model's name so
    # the vector indexes are shared) instead of the configured one; queries still use the configured
    # embedder. Loading is then bounded by extraction and Neo4j, not by MiniLM; the vectors carry no
    # meaning, but the index and exact-scoring work per query is the same.
    load_embedder: str | None = None
    ann_recall: bool = False  # also measure ANN-vs-exact vector recall on this tenant (eval.ann_recall)


def default_group(opts: SpeedOptions) -> str:
    """A fresh group per run; pass it back as ``reuse_group`` (with ``keep``) to rerun the search part."""
    return f"speed-{opts.episodes}-{opts.facts}-s{opts.seed}-{uuid.uuid4().hex[:8]}"


async def _group_size(memory: GraphMemory, group: str) -> dict[str, int]:
    sizes = await channels.sizes(memory.ctx.store, group_id=group)
    return {k: int(v) for k, v in sizes["group"].items()}


def _loader(memory: GraphMemory, opts: SpeedOptions) -> GraphMemory:
    """The memory the tenant is ingested through (see ``SpeedOptions.load_embedder``)."""
    if opts.load_embedder in (None, "configured"):
        return memory
    if opts.load_embedder != "hashing":
        raise ValueError(f"unknown load embedder {opts.load_embedder!r}")
    real = memory.ctx.embedder
    fake = HashingEmbedder(real.dimension, name=real.model_name)
    return GraphMemory(replace(memory.ctx, embedder=fake))


async def _ingest(
    memory: GraphMemory, tenant: Tenant, group: str, opts: SpeedOptions, log: Log
) -> dict[str, Any]:
    memory = _loader(memory, opts)
    batch: list[Any] = []
    began = time.perf_counter()
    done = 0
    for ep in tenant.episodes():
        batch.append(ep)
        if len(batch) == opts.batch:
            await memory.add_episodes(group, batch)
            done += len(batch)
            batch = []
            if done % (opts.batch * 20) == 0:
                rate = done / (time.perf_counter() - began)
                log(f"episodes {done}/{opts.episodes} ({rate:.0f}/s)")
    if batch:
        await memory.add_episodes(group, batch)
    episodes_s = time.perf_counter() - began
    began = time.perf_counter()
    facts: list[Any] = []
    for fact in tenant.facts():
        facts.append(fact)
        if len(facts) == opts.fact_batch:
            await memory.add_facts(group, facts)
            facts = []
    if facts:
        await memory.add_facts(group, facts)
    facts_s = time.perf_counter() - began
    log(f"ingested {opts.episodes} episodes in {episodes_s:.1f}s, {opts.facts} facts in {facts_s:.1f}s")
    return {"episodes": round(episodes_s, 2), "facts": round(facts_s, 2)}


def _embed_only(memory: GraphMemory, tenant: Tenant, opts: SpeedOptions) -> tuple[float, int]:
    texts = []
    for ep in tenant.episodes():
        texts.append(ep.content)
        if len(texts) >= opts.embed_sample:
            break
    began = time.perf_counter()
    for start in range(0, len(texts), opts.batch):
        memory.ctx.embedder.embed(texts[start : start + opts.batch])
    return len(texts) / (time.perf_counter() - began), len(texts)


async def _timed(queries: list[str], call: Callable[[str], Awaitable[Any]], warmup: int) -> list[float]:
    for q in queries[:warmup]:
        await call(q)
    out = []
    for q in queries:
        began = time.perf_counter()
        await call(q)
        out.append((time.perf_counter() - began) * 1000)
    return out


async def _http(
    memory: GraphMemory, settings: Settings, group: str, queries: list[str], opts: SpeedOptions
) -> dict[str, Any]:
    import uvicorn

    from api.main import create_app

    app = create_app(settings.model_copy(update={"no_auth": True, "host": "127.0.0.1"}), memory=memory)
    # IPPROTO_TCP, not 0: asyncio sets TCP_NODELAY only on sockets whose proto says TCP; with proto 0
    # the responses met Nagle and the client's delayed ACK: +40 ms a request (the old "HTTP overhead")
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on"))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        while not server.started:
            if task.done():
                task.result()
            await asyncio.sleep(0.05)
        # the client runs as its own process (eval.http_probe): this loop only serves
        probe = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "eval.http_probe",
            str(port),
            group,
            str(opts.k),
            str(opts.warmup),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await probe.communicate(json.dumps(queries).encode())
        if probe.returncode != 0:
            return {"error": f"eval.http_probe exited {probe.returncode}: {err.decode()[-300:]}"}
        result: dict[str, Any] = json.loads(out)
        return result
    finally:
        server.should_exit = True
        await task
        sock.close()


async def _raw(memory: GraphMemory, group: str, queries: list[str], opts: SpeedOptions) -> list[float]:
    """The default recipe's Neo4j calls alone, concurrently as the pipeline issues them."""
    cfg = recipe("default")
    store, n, targets = memory.ctx.store, cfg.candidates, list(cfg.targets)
    vectors = memory.ctx.embedder.embed(queries)
    sizes = await channels.sizes(store, group_id=group)
    plural = {"episode": "episodes", "fact": "facts", "entity": "entities"}
    tok = group_token(group)
    time_args: dict[str, Any] = {"as_of": None, "history": cfg.include_history}

    def vector_args(target: str) -> dict[str, Any]:
        size, total = int(sizes["group"][plural[target]]), int(sizes["total"][plural[target]])
        exact, fetch = channels.vector_plan(n, size, total, memory.ctx.vector_exact_threshold)
        return {"exact": exact, "fetch": fetch}

    plans = {t: vector_args(t) for t in targets}
    by_query = {q: [float(x) for x in v] for q, v in zip(queries, vectors, strict=True)}

    async def graph(lucene: str) -> None:
        seeds = await channels.bm25(
            store, target="entity", group_id=group, lucene=lucene, limit=3, **time_args
        )
        ids = [i for i, _ in seeds]
        await asyncio.gather(
            *(
                channels.graph(store, target=t, group_id=group, seeds=ids, limit=n, **time_args)
                for t in targets
                if t != "entity"
            )
        )

    async def bm25(target: str, q: str, lucene: str) -> None:
        if target != "episode" or has_cjk(q):
            await channels.bm25(store, target=target, group_id=group, lucene=lucene, limit=n, **time_args)
            return
        # the tenant-local BM25 path: Lucene candidates and in-tenant document frequencies
        terms = sorted(set(query_terms(q)))
        await asyncio.gather(
            channels.bm25_episode_candidates(
                store, group_id=group, lucene=lucene, limit=max(4 * n, 200), **time_args
            ),
            channels.term_document_frequency(store, token=tok, terms=terms, cap=DF_CAP),
        )

    async def call(q: str) -> None:
        terms = query_terms(q)
        lucene = f"+group_token:{tok} +search_text:({' '.join(terms)})" if terms else None
        jobs: list[Awaitable[Any]] = []
        if lucene and cfg.channel_on("bm25"):
            jobs += [bm25(t, q, lucene) for t in targets]
        if cfg.channel_on("vector"):
            jobs += [
                channels.vector(
                    store, target=t, group_id=group, embedding=by_query[q], limit=n, **plans[t], **time_args
                )
                for t in targets
            ]
        if lucene and cfg.channel_on("graph"):
            jobs.append(graph(lucene))
        await asyncio.gather(*jobs)

    return await _timed(queries, call, opts.warmup)


async def _raw_indexed(
    memory: GraphMemory, group: str, queries: list[str], opts: SpeedOptions
) -> list[float]:
    """The Neo4j calls of a search over the tenant index: the group's revision state, then one
    hydration of the hits (here: the ids each query's search returned)."""
    store, cfg = memory.ctx.store, recipe("default")
    ids: dict[str, dict[str, list[str]]] = {}
    for q in queries:
        res = await memory.search(group, SearchRequest(query=q, k=opts.k))
        ids[q] = {t: [h.id for h in res.ranked if h.type == t] for t in ("fact", "episode", "entity")}

    async def call(q: str) -> None:
        await snapshot.group_state(store, group_id=group)
        await channels.hydrate(store, group_id=group, ids=ids[q], as_of=None, history=cfg.include_history)

    return await _timed(queries, call, opts.warmup)


async def _graphiti(
    memory: GraphMemory, settings: Settings, group: str, queries: list[str], opts: SpeedOptions, log: Log
) -> dict[str, Any]:
    from eval.baselines.graphiti import GraphitiRun, graphiti_group

    try:
        run = await GraphitiRun.connect(settings, memory.ctx.embedder)
    except Exception as exc:
        return {"error": f"{type(exc).__name__}: {exc}"}
    target = graphiti_group(f"graphiti_{group}")
    try:
        stats = await run.load(memory.ctx.store, group, target)
        log(f"graphiti loaded {stats}")
        if opts.keep or opts.reuse_group:
            run.groups.clear()  # keep the copy for the next run (100k episodes: ~8 minutes to copy)

        async def call(q: str) -> None:
            await run.search(target, q, opts.k)

        asked = queries[: opts.graphiti_queries]
        ms = await _timed(asked, call, min(opts.warmup, 3))
        return {"load": stats, "queries": len(asked), "search_ms": latency_summary(ms)}
    except Exception as exc:
        return {"error": f"{type(exc).__name__}: {exc}"}
    finally:
        await run.close()


class Phases:
    """Peak and current resident memory by phase (``/proc/self/status`` VmHWM and VmRSS, in MiB):
    the peak is reset to the current RSS after each phase (``/proc/self/clear_refs``), so a phase's
    peak is its own, not the run's so far. Empty where ``/proc`` does not offer it (not Linux)."""

    def __init__(self) -> None:
        self.peaks: dict[str, dict[str, float]] = {}
        self._reset()

    @staticmethod
    def _status() -> dict[str, float]:
        try:
            lines = Path("/proc/self/status").read_text().splitlines()
        except OSError:
            return {}
        out = {}
        for line in lines:
            key, _, value = line.partition(":")
            if key in ("VmHWM", "VmRSS"):
                out[key] = round(int(value.split()[0]) / 1024, 1)
        return out

    @staticmethod
    def _reset() -> None:
        try:
            with open("/proc/self/clear_refs", "w") as f:
                f.write("5")  # resets the peak RSS (VmHWM) to the current RSS
        except OSError:
            pass

    def mark(self, phase: str) -> None:
        status = self._status()
        if status:
            self.peaks[phase] = {"peak_mb": status.get("VmHWM", 0.0), "end_mb": status.get("VmRSS", 0.0)}
        self._reset()


async def run_speed(
    memory: GraphMemory, settings: Settings, opts: SpeedOptions, log: Log = lambda _m: None
) -> dict[str, Any]:
    load_before = [round(x, 2) for x in os.getloadavg()]
    phases = Phases()
    tenant = Tenant(opts.episodes, opts.facts, seed=opts.seed)
    group = opts.reuse_group or default_group(opts)
    reused = bool(opts.reuse_group) and (await _group_size(memory, group)).get("episodes", 0) > 0
    memory.ctx.embedder.embed(["warm-up"])
    ingest_s: dict[str, Any] | None = None
    if not reused:
        ingest_s = await _ingest(memory, tenant, group, opts, log)
    phases.mark("ingest")
    embed_rate, embed_n = _embed_only(memory, tenant, opts)
    phases.mark("embed_only")
    queries = tenant.queries(opts.queries)
    result: dict[str, Any] = {
        "group": group,
        "reused_group": reused,
        "episodes": opts.episodes,
        "facts": opts.facts,
        # what embedded the tenant's nodes; unknown to a run that reuses a group
        "load_embedder": None
        if reused
        else ("hashing" if opts.load_embedder == "hashing" else memory.ctx.embedder.model_name),
        "query_embedder": memory.ctx.embedder.model_name,
        "group_size": await _group_size(memory, group),
        "ingest_seconds": ingest_s,
        "ingest_episodes_per_s": round(opts.episodes / ingest_s["episodes"], 1) if ingest_s else None,
        "ingest_facts_per_s": round(opts.facts / ingest_s["facts"], 1)
        if ingest_s and ingest_s["facts"]
        else None,
        "embed_only_per_s": round(embed_rate, 1),
        "embed_only_texts": embed_n,
    }
    result["ingest_vs_embed_ratio"] = (
        round(result["ingest_episodes_per_s"] / embed_rate, 3) if result["ingest_episodes_per_s"] else None
    )
    try:
        indexed = memory.searcher.indexes is not None
        if indexed:
            log("loading the tenant index ...")
            began = time.perf_counter()
            await memory.warm_index(group)
            result["index_warm_s"] = round(time.perf_counter() - began, 1)
            phases.mark("index_load")
        log(f"searching {len(queries)} queries through the library ...")

        stages: dict[str, list[float]] = {}

        async def library(q: str) -> None:
            found = await memory.search(group, SearchRequest(query=q, k=opts.k))
            for stage, ms in found.timings_ms.items():
                stages.setdefault(stage, []).append(ms)

        lib_ms = await _timed(queries, library, opts.warmup)
        # where a search's time goes (its own timings, medians; channels overlap in the Neo4j path)
        result["stages_ms_p50"] = {k: round(statistics.median(v), 2) for k, v in sorted(stages.items())}
        phases.mark("library")
        log("raw Neo4j calls ...")
        raw_ms = await _raw(memory, group, queries, opts)
        if indexed:
            log("the Neo4j channels (tenant index off) ...")
            neo4j_only = GraphMemory(replace(memory.ctx, search_index=False))

            async def channels_in_neo4j(q: str) -> None:
                await neo4j_only.search(group, SearchRequest(query=q, k=opts.k))

            neo4j_ms = await _timed(queries, channels_in_neo4j, opts.warmup)
            phases.mark("neo4j_channels")
            result["neo4j_channels"] = {
                "library_ms": latency_summary(neo4j_ms),
                "raw_ms": latency_summary(raw_ms),
            }
            raw_ms = await _raw_indexed(memory, group, queries, opts)
        http: dict[str, Any] = {"error": "skipped (--no-http)"}
        if opts.http:
            log("searching through HTTP ...")
            http = await _http(memory, settings, group, queries, opts)
            phases.mark("http")
        lib, raw = latency_summary(lib_ms), latency_summary(raw_ms)
        http_ms = latency_summary(http["ms"]) if "ms" in http else None
        result["n_queries"] = len(queries)
        result["k"] = opts.k
        result["search_ms"] = {"library": lib, "http": http_ms}
        if http_ms is None:
            result["http_error"] = http.get("error")
        http_p50, lib_p50 = (http_ms or {}).get("p50"), lib["p50"]
        result["http_added_ms_p50"] = (
            round(http_p50 - lib_p50, 2) if http_p50 is not None and lib_p50 is not None else None
        )
        if http_ms is not None:
            # per request: the latency the client saw minus the search's own total in the response
            # (the same request on both sides, so the two phases' drift does not enter)
            added = [a - b for a, b in zip(http["ms"], http["search_ms"], strict=True)]
            result["http_added_per_request_ms"] = latency_summary(added)
        result["raw_ms"] = raw
        result["overhead_ratio"] = {
            q: round(a / b, 2) if (a := lib[q]) is not None and (b := raw[q]) else None
            for q in ("p50", "p95", "p99")
        }
        if opts.ann_recall:
            log("ANN vs exact vector recall ...")
            embedder = _loader(memory, opts).ctx.embedder
            result["ann_recall"] = await ann_recall(
                memory.ctx.store, embedder, group, queries, embedder_name=result["load_embedder"]
            )
            phases.mark("ann_recall")
        if opts.with_graphiti:
            log("graphiti-core on the same tenant ...")
            result["graphiti"] = await _graphiti(memory, settings, group, queries, opts, log)
            phases.mark("graphiti")
    finally:
        if not (opts.keep or opts.reuse_group):
            forget = getattr(memory, "forget_group", None)
            if forget is not None:
                await forget(group, purge_tombstones=True)
            else:
                log(f"GraphMemory.forget_group is not available: group {group} left in Neo4j")
    result["peak_rss_mb"] = peak_rss_mb()
    phases.mark("end")
    result["rss_by_phase_mb"] = phases.peaks  # each phase's own peak (where the peak came from)
    # the machine's 1/5/15-minute load averages before and after: latencies mean little on a busy host
    result["loadavg"] = {"start": load_before, "end": [round(x, 2) for x in os.getloadavg()]}
    return result
