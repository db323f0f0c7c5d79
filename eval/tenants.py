"""``graphmem eval tenants``: many tenants, most of them cold, under Zipf traffic (docs/evals.md §9).

1. seed ``tenants`` groups of long-tailed sizes (Pareto quantiles from ``min_nodes`` up to
   ``max_nodes``: most small, a few large). By default (``seeding="copies"``) a few templates,
   synthetic tenants of ``eval.synthetic`` seeded through the library, are copied inside Neo4j
   (``eval.tenants_seed``: thousands of tenants in minutes); ``seeding="library"`` seeds each tenant
   through the library (episodes through extraction, plus explicit facts). Either way the hashing
   embedder by default, 384-d under the stored model's name;
2. start a fresh ``graphmem serve`` on a free loopback port (``eval.load.server``): every tenant
   index is cold;
3. drive ``searches`` searches from ``clients`` concurrent clients at tenants drawn by a Zipf law
   (popularity rank independent of size, a fixed seed), each query one of that tenant's own
   synthetic queries;
4. report first-search and steady-state latency p50/p99 by tenant size bucket, how each search was
   served (the in-process index or the Neo4j channels, read off the response's ``timings_ms``), the
   worker processes' resident memory, the index bytes and evictions where ``/metrics`` exposes
   them, and the load average around the traffic; with ``passes`` 2 a second fresh server drives
   the same traffic again: every worker is cold but the tenants have been searched before (their
   BM25 statistics are saved: a restart or a deploy rather than a tenant never searched);
5. forget the groups (unless ``keep``): templates and library-seeded tenants through the library,
   copies by deleting their nodes.

Loopback only, bounded by ``seconds`` and the request count.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import random
import re
import shutil
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import httpx

from eval import http_probe, tenants_seed
from eval.load import LoadConfig, server
from eval.metrics import percentile
from eval.synthetic import Tenant
from graphmem.memory import GraphMemory
from graphmem.providers.embedders.hashing import HashingEmbedder
from graphmem.store import snapshot

Log = Callable[[str], None]
BUCKETS = ((0, 100), (100, 1_000), (1_000, 5_000), (5_000, 20_000), (20_000, None))
QUERIES_PER_TENANT = 32
SEED_CONCURRENCY = 2
METRIC = re.compile(r"^(graphmem_tenant_index_[a-z_]+)(?:\{[^}]*\})?\s+([0-9.eE+-]+)$", re.M)


@dataclass(frozen=True)
class TenantsConfig:
    tenants: int = 40
    min_nodes: int = 40
    max_nodes: int = 5_000
    searches: int = 400
    clients: int = 1
    zipf: float = 1.1
    seconds: float = 300.0
    seed: int = 7
    k: int = 10
    workers: int | None = None
    url: str | None = None  # a running server (loopback only): not restarted
    prefix: str | None = None  # group names; with keep, a rerun reuses the seeded groups
    keep: bool = False
    load_embedder: str = "hashing"  # or "configured"
    index_max_bytes: int | None = None  # GRAPHMEM_INDEX_MAX_BYTES of the server this starts
    seeding: str = "copies"  # or "library": every tenant through the library (slow)
    seed_writers: int = tenants_seed.WRITERS  # copy transactions in flight at once
    passes: int = 1  # each a fresh server driving the same traffic (2: cold workers, tenants seen)
    snapshots: bool = False  # the servers share a temporary GRAPHMEM_INDEX_SNAPSHOT_DIR (else: off)
    snapshot_max_bytes: int | None = None  # its GRAPHMEM_INDEX_SNAPSHOT_MAX_BYTES (None: the default)
    timeout_s: float = 60.0


@dataclass(frozen=True)
class Spec:
    group: str
    target_nodes: int
    seed: int

    def tenant(self) -> Tenant:
        return Tenant(max(4, self.target_nodes // 4), self.target_nodes // 2, seed=self.seed)


@dataclass
class Sample:
    group: str
    first: bool
    ms: float
    served_by: str  # "index" | "neo4j" | "error"
    index_wait_ms: float | None = None
    timings: dict[str, float] = field(default_factory=dict)  # the response's ``timings_ms`` stages


@dataclass
class Traffic:
    samples: list[Sample] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)


def sizes(cfg: TenantsConfig) -> list[int]:
    """Long-tailed target sizes: Pareto quantiles ``min * u^(-1/alpha)`` at u = (r + 0.5) / T,
    with alpha chosen so that the largest is ``max_nodes``. Most tenants sit near ``min_nodes``."""
    t = cfg.tenants
    if cfg.max_nodes <= cfg.min_nodes or t == 1:
        return [cfg.max_nodes] * t
    alpha = math.log(2 * t) / math.log(cfg.max_nodes / cfg.min_nodes)
    return [min(cfg.max_nodes, round(cfg.min_nodes * ((r + 0.5) / t) ** (-1 / alpha))) for r in range(t)]


def specs(cfg: TenantsConfig, prefix: str) -> list[Spec]:
    return [Spec(f"{prefix}-{i:04d}-n{n}", n, cfg.seed * 10_007 + i) for i, n in enumerate(sizes(cfg))]


def zipf_picks(n_tenants: int, n: int, s: float, seed: int) -> list[int]:
    """``n`` tenant indexes drawn with P(rank r) ~ 1 / r^s, ranks a seeded permutation of the tenants."""
    rng = random.Random(seed)
    ranked = list(range(n_tenants))
    rng.shuffle(ranked)
    weights = [1.0 / (r + 1) ** s for r in range(n_tenants)]
    return [ranked[r] for r in rng.choices(range(n_tenants), weights=weights, k=n)]


def bucket(nodes: int) -> str:
    for low, high in BUCKETS:
        if high is None or nodes < high:
            return f"{low}-{high}" if high is not None else f">={low}"
    raise AssertionError("unreachable")


def seed_memory(memory: GraphMemory, cfg: TenantsConfig) -> GraphMemory:
    if cfg.load_embedder == "configured":
        return memory
    if cfg.load_embedder != "hashing":
        raise ValueError(f"unknown load embedder {cfg.load_embedder!r}")
    real = memory.ctx.embedder
    return GraphMemory(replace(memory.ctx, embedder=HashingEmbedder(real.dimension, name=real.model_name)))


async def node_count(memory: GraphMemory, group: str) -> int:
    state = await snapshot.group_state(memory.ctx.store, group_id=group)
    return 0 if state is None else state.episodes + state.facts + state.entities


async def seed_one(loader: GraphMemory, spec: Spec) -> None:
    tenant = spec.tenant()
    episodes = list(tenant.episodes())
    for start in range(0, len(episodes), 250):
        await loader.add_episodes(spec.group, episodes[start : start + 250])
    facts = list(tenant.facts())
    for start in range(0, len(facts), 500):
        await loader.add_facts(spec.group, facts[start : start + 500])


async def seed(memory: GraphMemory, cfg: TenantsConfig, plan: list[Spec], log: Log) -> dict[str, int]:
    """Seed every tenant through the library, unless seeded (a reused prefix keeps its groups);
    returns node counts."""
    loader = seed_memory(memory, cfg)
    gate = asyncio.Semaphore(SEED_CONCURRENCY)
    done = [0]
    began = time.perf_counter()

    async def one(spec: Spec) -> None:
        async with gate:
            if await node_count(memory, spec.group) == 0:
                await seed_one(loader, spec)
            done[0] += 1
            if done[0] % 10 == 0 or spec.target_nodes >= 1_000:
                log(f"tenants: seeded {done[0]}/{len(plan)} ({time.perf_counter() - began:.0f} s)")

    await asyncio.gather(*(one(s) for s in sorted(plan, key=lambda s: -s.target_nodes)))
    return {s.group: await node_count(memory, s.group) for s in plan}


def template_specs(cfg: TenantsConfig, prefix: str) -> dict[int, Spec]:
    """The templates copies are made of, by size (``tenants_seed.TEMPLATE_SIZES``)."""
    return {
        n: Spec(f"{prefix}-template-n{n}", n, cfg.seed * 10_007 + 7_000 + n)
        for n in tenants_seed.TEMPLATE_SIZES
    }


async def seed_copies(
    memory: GraphMemory, cfg: TenantsConfig, plan: list[Spec], log: Log
) -> tuple[list[Spec], dict[str, int], list[str]]:
    """Seed the templates through the library, then every tenant as copies of one (unless the
    prefix's tenants exist already). Returns the tenants (each with its template's size and seed,
    whose queries it answers), their node counts and the template groups."""
    templates = template_specs(cfg, prefix=plan[0].group.rsplit("-", 2)[0])
    seeded = await seed(memory, cfg, list(templates.values()), log)
    by_group = {spec.group: size for size, spec in templates.items()}
    # matched by the nodes each template holds (a 20-node synthetic tenant extracts into about 40)
    by_nodes = {seeded[t.group]: t.group for t in templates.values()}
    plans = [tenants_seed.Plan(s.group, *tenants_seed.template_for(s.target_nodes, by_nodes)) for s in plan]
    if await node_count(memory, plan[0].group) == 0:
        began = time.perf_counter()
        await tenants_seed.create(memory.ctx.store, plans, log, writers=cfg.seed_writers)
        log(f"tenants: {len(plans)} tenants copied in {time.perf_counter() - began:.0f} s")
    tenants = [
        replace(s, target_nodes=by_group[p.template], seed=templates[by_group[p.template]].seed)
        for s, p in zip(plan, plans, strict=True)
    ]
    nodes = {p.group: seeded[p.template] * p.copies for p in plans}
    return tenants, nodes, list(seeded)


def served_by(timings: dict[str, Any]) -> str:
    """The Neo4j source reads the tenant's sizes (``sizes``); the in-process index does not."""
    return "neo4j" if "sizes" in timings else "index"


async def _client(
    base: str,
    cfg: TenantsConfig,
    work: asyncio.Queue[tuple[str, str]],
    seen: set[str],
    deadline: float,
    traffic: Traffic,
) -> None:
    """One client: a keep-alive loopback connection on plain sockets (``http_probe.AsyncClient``;
    httpx added about 44 ms to every request on this host)."""
    client = http_probe.AsyncClient(int(base.rstrip("/").rsplit(":", 1)[1]), timeout_s=cfg.timeout_s)
    try:
        while time.monotonic() < deadline:
            try:
                group, query = work.get_nowait()
            except asyncio.QueueEmpty:
                return
            first = group not in seen
            seen.add(group)
            began = time.perf_counter()
            try:
                status, body = await client.post(f"/v1/groups/{group}/search", {"query": query, "k": cfg.k})
                ms = (time.perf_counter() - began) * 1000
                if status >= 400:
                    kind = f"http_{status}"
                    traffic.errors[kind] = traffic.errors.get(kind, 0) + 1
                    continue
                timings = json.loads(body).get("timings_ms") or {}
                wait = timings.get("index:wait")
                stages = {k: float(v) for k, v in timings.items() if isinstance(v, int | float)}
                traffic.samples.append(Sample(group, first, ms, served_by(timings), wait, stages))
            except (OSError, TimeoutError, ValueError, asyncio.IncompleteReadError) as exc:
                kind = type(exc).__name__
                traffic.errors[kind] = traffic.errors.get(kind, 0) + 1
    finally:
        await client.close()


async def drive(base: str, cfg: TenantsConfig, plan: list[Spec]) -> Traffic:
    queries = {s.group: s.tenant().queries(QUERIES_PER_TENANT) for s in plan}
    rng = random.Random(cfg.seed + 1)
    work: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
    for i in zipf_picks(len(plan), cfg.searches, cfg.zipf, cfg.seed):
        group = plan[i].group
        work.put_nowait((group, rng.choice(queries[group])))
    traffic, seen = Traffic(), set[str]()
    deadline = time.monotonic() + cfg.seconds
    await asyncio.gather(*(_client(base, cfg, work, seen, deadline, traffic) for _ in range(cfg.clients)))
    return traffic


def _ms(values: list[float]) -> dict[str, Any]:
    if not values:
        return {"n": 0, "p50_ms": None, "p99_ms": None}
    return {
        "n": len(values),
        "p50_ms": round(percentile(values, 50), 1),
        "p99_ms": round(percentile(values, 99), 1),
    }


def stage_medians(samples: list[Sample]) -> dict[str, float]:
    """The median of each ``timings_ms`` stage over ``samples`` (over those that timed it)."""
    stages: dict[str, list[float]] = {}
    for sample in samples:
        for name, value in sample.timings.items():
            stages.setdefault(name, []).append(value)
    return {k: round(statistics.median(v), 2) for k, v in sorted(stages.items())}


def summarise(traffic: Traffic, nodes: dict[str, int]) -> dict[str, Any]:
    """First-search and steady-state latency by size bucket, how the searches were served, and the
    median of each stage of the first and the steady searches."""
    by: dict[str, dict[str, Any]] = {}
    for low, _high in BUCKETS:
        name = bucket(low)
        groups = [g for g, n in nodes.items() if bucket(n) == name]
        if groups:
            by[name] = {"tenants": len(groups), "nodes_max": max(nodes[g] for g in groups)}
    for name, row in by.items():
        picked = [s for s in traffic.samples if bucket(nodes[s.group]) == name]
        first = [s for s in picked if s.first]
        row["tenants_searched"] = len({s.group for s in picked})
        row["first"] = _ms([s.ms for s in first])
        row["first_index_wait"] = _ms([s.index_wait_ms for s in first if s.index_wait_ms is not None])
        row["first_served_by"] = _counts(s.served_by for s in first)
        row["steady"] = _ms([s.ms for s in picked if not s.first])
        row["steady_served_by"] = _counts(s.served_by for s in picked if not s.first)
        row["first_stages_median_ms"] = stage_medians(first)
    every = traffic.samples
    return {
        "searches": len(every),
        "errors": sum(traffic.errors.values()),
        "error_kinds": traffic.errors,
        "first": _ms([s.ms for s in every if s.first]),
        "steady": _ms([s.ms for s in every if not s.first]),
        "first_stages_median_ms": stage_medians([s for s in every if s.first]),
        "steady_stages_median_ms": stage_medians([s for s in every if not s.first]),
        "by_size": by,
    }


def _counts(values: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for v in values:
        out[v] = out.get(v, 0) + 1
    return out


def _listening_pids(port: int) -> list[int]:
    """This user's processes holding the loopback socket listening on ``port`` (server + workers)."""
    inodes: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            cols = line.split()
            if cols[3] == "0A" and int(cols[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(cols[9])
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            links = {os.readlink(fd) for fd in (entry / "fd").iterdir()}
        except OSError:
            continue
        if any(f"socket:[{i}]" in links for i in inodes):
            pids.append(int(entry.name))
    return sorted(pids)


def _cpu_s(pids: list[int]) -> float | None:
    """User + system CPU seconds of ``pids`` (the server's workers) so far; None when unreadable."""
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _rss_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None


def worker_memory(base: str) -> dict[str, Any]:
    """Resident memory of the processes serving ``base`` (with several workers, the supervisor too)."""
    port = int(base.rsplit(":", 1)[1])
    return {str(pid): _rss_mb(pid) for pid in _listening_pids(port)}


def index_metrics(base: str) -> dict[str, float]:
    """``graphmem_tenant_index_*`` samples of ``/metrics`` (one worker's), summed over labels; empty
    when the server exposes none."""
    try:
        text = httpx.get(f"{base}/metrics", timeout=10).text
    except httpx.HTTPError:
        return {}
    out: dict[str, float] = {}
    for name, value in METRIC.findall(text):
        out[name] = out.get(name, 0.0) + float(value)
    return out


async def forget(memory: GraphMemory, groups: list[str]) -> None:
    for group in groups:
        await memory.forget_group(group, purge_tombstones=True)


async def cleanup(
    memory: GraphMemory, cfg: TenantsConfig, plan: list[Spec], templates: list[str], log: Log
) -> None:
    """Copies go by deleting their nodes, templates and library-seeded tenants through the library."""
    if cfg.seeding == "copies":
        await tenants_seed.delete(memory.ctx.store, [s.group for s in plan], log)
        await forget(memory, templates)
    else:
        await forget(memory, [s.group for s in plan])


async def run_tenants(
    memory: GraphMemory, cfg: TenantsConfig, env: dict[str, str], log: Log
) -> dict[str, Any]:
    prefix = cfg.prefix or f"tenants-{uuid.uuid4().hex[:8]}"
    plan = specs(cfg, prefix)
    began = time.perf_counter()
    templates: list[str] = []
    snapshot_dir: str | None = None
    try:
        if cfg.seeding == "copies":
            plan, nodes, templates = await seed_copies(memory, cfg, plan, log)
        else:
            nodes = await seed(memory, cfg, plan, log)
        seed_s = time.perf_counter() - began
        log(
            f"tenants: {len(plan)} seeded, {sum(nodes.values())} nodes in {seed_s:.0f} s; starting the server"
        )
        if cfg.index_max_bytes is not None:
            env = {**env, "GRAPHMEM_INDEX_MAX_BYTES": str(cfg.index_max_bytes)}
        if cfg.snapshots:
            snapshot_dir = tempfile.mkdtemp(prefix="graphmem-tenants-snapshots-")
            env = {**env, "GRAPHMEM_INDEX_SNAPSHOTS": "true", "GRAPHMEM_INDEX_SNAPSHOT_DIR": snapshot_dir}
            if cfg.snapshot_max_bytes is not None:
                env = {**env, "GRAPHMEM_INDEX_SNAPSHOT_MAX_BYTES": str(cfg.snapshot_max_bytes)}
        else:  # every cold load from Neo4j (the service's default directory left alone)
            env = {**env, "GRAPHMEM_INDEX_SNAPSHOTS": "false"}
        passes = []
        for number in range(1, cfg.passes + 1):
            with server(LoadConfig(url=cfg.url, workers=cfg.workers), env) as base:
                began, load_before = time.perf_counter(), os.getloadavg()[0]
                workers = _listening_pids(int(base.rstrip("/").rsplit(":", 1)[1]))
                cpu_before = _cpu_s(workers)
                seen: list[float] = []
                sampler = asyncio.create_task(_sample_bytes(base, seen))
                try:
                    traffic = await drive(base, cfg, plan)
                finally:
                    sampler.cancel()
                drive_s = time.perf_counter() - began
                cpu_after = _cpu_s(workers)
                cpu_s = None if cpu_before is None or cpu_after is None else cpu_after - cpu_before
                memory_mb = worker_memory(base)
                metrics = index_metrics(base)
                passes.append(
                    {
                        "pass": number,
                        "drive_seconds": round(drive_s, 1),
                        "loadavg_1m": [round(load_before, 2), round(os.getloadavg()[0], 2)],
                        **summarise(traffic, nodes),
                        "server_cpu_s": None if cpu_s is None else round(cpu_s, 2),
                        "server_cpu_ms_per_search": None
                        if cpu_s is None or not traffic.samples
                        else round(cpu_s * 1000 / len(traffic.samples), 1),
                        "worker_rss_mb": memory_mb,
                        "index_bytes": metrics.get("graphmem_tenant_index_bytes"),
                        "index_bytes_max_seen": max(seen, default=None),
                        "index_bytes_samples": len(seen),
                        "index_tenants": metrics.get("graphmem_tenant_index_tenants"),
                        "evictions": metrics.get("graphmem_tenant_index_evictions"),
                        "snapshot_files": _files(snapshot_dir),
                    }
                )
            log(f"tenants: pass {number} done in {drive_s:.0f} s")
    finally:
        if snapshot_dir is not None:
            shutil.rmtree(snapshot_dir, ignore_errors=True)
        if not cfg.keep:
            await cleanup(memory, cfg, plan, templates, log)
    return {
        "prefix": prefix,
        "tenants": len(plan),
        "nodes": {"total": sum(nodes.values()), "max": max(nodes.values()), "median": _median(nodes)},
        "seeding": cfg.seeding,
        "restarted": cfg.url is None,
        "workers": cfg.workers,
        "index_max_bytes": cfg.index_max_bytes,
        "snapshots": cfg.snapshots,
        "snapshot_max_bytes": cfg.snapshot_max_bytes,
        "clients": cfg.clients,
        "zipf": cfg.zipf,
        "seed_seconds": round(seed_s, 1),
        **passes[0],
        "passes": passes,
        "kept": cfg.keep,
    }


async def _sample_bytes(base: str, seen: list[float], every_s: float = 1.0) -> None:
    """``graphmem_tenant_index_bytes`` (held plus reserved for loads in flight) every ``every_s``
    while the traffic runs: the budget must hold at every sample, not only at the end."""
    while True:
        value = (await asyncio.to_thread(index_metrics, base)).get("graphmem_tenant_index_bytes")
        if value is not None:
            seen.append(value)
        await asyncio.sleep(every_s)


def _files(directory: str | None) -> dict[str, int] | None:
    """The snapshot files a pass leaves: how many, and their bytes."""
    if directory is None:
        return None
    sizes = [p.stat().st_size for p in Path(directory).glob("*.tix")]
    return {"files": len(sizes), "bytes": sum(sizes)}


def _median(nodes: dict[str, int]) -> int:
    values = sorted(nodes.values())
    return values[len(values) // 2] if values else 0
