"""``graphmem eval load``: many concurrent agents against one API, on loopback (EVAL.md §6).

It seeds ``groups`` fresh tenants, then for each client count runs that many clients for ``seconds``
(client i uses group i mod G): each loops a search (``1 - write_ratio``) or a one-episode write, until
the time or the request bound is spent. A client honours ``429`` + ``Retry-After`` the way an agent's
SDK should (it waits, then retries the same request, at most ``MAX_RETRIES`` times): a shed request
is counted under ``shed``, never as an error unless it is finally refused. Every acknowledged write
is checked afterwards: the groups must hold exactly the seeded episodes plus the acknowledged ones.
It stops by itself and forgets its groups.

CPU accounting (``eval.proc_cpu``): around each client count it reads the CPU seconds of the server
(its process tree: event-loop threads and the rest) and of Neo4j's process, and reports them per
request. Neo4j's figure is net of its CPU rate in the seconds before the phase (other clients,
housekeeping); on a shared Neo4j whose other load varies it stays approximate. With
``cpu_split`` a search-only phase follows each mix: it gives the CPU of one search, and a write is
charged the rest of the mix's CPU (``(mix - searches x search) / writes``).
"""

from __future__ import annotations

import asyncio
import ipaddress
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx

from eval.metrics import percentile
from eval.proc_cpu import Reading, Sampler, per_request_ms

ROOT = Path(__file__).resolve().parents[1]
NAMES = ["Alice", "Bob", "Carol", "Dan", "Erin", "Frank", "Grace", "Heidi", "Ivan", "Judy"]
CITIES = ["Berlin", "Paris", "Rome", "Oslo", "Lima", "Quito", "Kyoto", "Cairo", "Dublin", "Austin"]
ORGS = ["Acme", "Globex", "Initech", "Umbrella", "Hooli", "Stark", "Wayne", "Wonka"]
QUERIES = ["where does {n} live?", "who does {n} work for?", "{n} moved", "what does {n} like?", "{c}"]
MAX_RETRIES = 8
MAX_REQUESTS = 200_000  # per client count: a hard bound besides the time
LOG_TAIL_LINES = 12  # of the server's output, on a failed start
BACKGROUND_S = 3.0  # Neo4j's CPU rate is sampled this long before each phase, then subtracted


@dataclass(frozen=True)
class LoadConfig:
    clients: tuple[int, ...] = (1, 8, 32, 128)
    seconds: float = 30.0
    write_ratio: float = 0.2
    groups: int = 8
    seed_episodes: int = 20
    timeout_s: float = 60.0
    url: str | None = None  # a running server (loopback only); None: start one
    key: str | None = None
    workers: int | None = None  # of the server this command starts (None: the serve default)
    cpu_split: bool = False  # a search-only phase after each mix: CPU per search and per write


@dataclass
class Stats:
    latencies: dict[str, list[float]] = field(default_factory=lambda: {"search": [], "write": []})
    errors: dict[str, int] = field(default_factory=dict)
    shed: int = 0
    written: dict[str, int] = field(default_factory=dict)  # group -> acknowledged new episodes

    def record(self, kind: str, seconds: float, outcome: str | None) -> None:
        self.latencies[kind].append(seconds)
        if outcome:
            self.errors[outcome] = self.errors.get(outcome, 0) + 1


def is_loopback_url(url: str) -> bool:
    host = urlparse(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _episode(rng: random.Random) -> dict[str, str]:
    n, c, o = rng.choice(NAMES), rng.choice(CITIES), rng.choice(ORGS)
    day = rng.randrange(365)
    return {
        "content": rng.choice(
            [f"{n} lives in {c}.", f"{n} works at {o}.", f"{n} moved to {c}.", f"{n} likes {c} and {o}."]
        ),
        "reference_time": f"2024-{1 + day % 12:02d}-{1 + day % 28:02d}T12:00:00Z",
        "speaker": rng.choice(NAMES).lower(),
        "session_id": f"load-{rng.randrange(8)}",
        "external_id": uuid.uuid4().hex,  # distinct: every acknowledged write is a new episode
    }


async def _post(client: httpx.AsyncClient, url: str, body: dict[str, Any], stats: Stats) -> httpx.Response:
    """POST, honouring 429 + Retry-After (a shed request is retried, the same body, later)."""
    for _ in range(MAX_RETRIES):
        response = await client.post(url, json=body)
        if response.status_code != 429:
            return response
        stats.shed += 1
        await asyncio.sleep(min(5.0, float(response.headers.get("Retry-After", "1"))))
    return response


async def _one(
    client: httpx.AsyncClient, group: str, rng: random.Random, write_ratio: float, stats: Stats
) -> None:
    write = rng.random() < write_ratio
    kind = "write" if write else "search"
    body: dict[str, Any]
    if write:
        url, body = f"/v1/groups/{group}/episodes", _episode(rng)
    else:
        query = rng.choice(QUERIES).format(n=rng.choice(NAMES), c=rng.choice(CITIES))
        url, body = f"/v1/groups/{group}/search", {"query": query, "k": 10}
    began = time.perf_counter()
    try:
        response = await _post(client, url, body, stats)
        outcome = None if response.status_code < 400 else f"http_{response.status_code}"
    except httpx.HTTPError as exc:
        outcome = type(exc).__name__
    stats.record(kind, time.perf_counter() - began, outcome)
    if write and outcome is None:
        stats.written[group] = stats.written.get(group, 0) + 1


def _headers(cfg: LoadConfig) -> dict[str, str]:
    return {"Authorization": f"Bearer {cfg.key}"} if cfg.key else {}


async def _client_loop(
    base: str,
    cfg: LoadConfig,
    write_ratio: float,
    group: str,
    seed: int,
    deadline: float,
    budget: list[int],
    stats: Stats,
) -> None:
    rng = random.Random(seed)
    async with httpx.AsyncClient(base_url=base, headers=_headers(cfg), timeout=cfg.timeout_s) as client:
        while time.monotonic() < deadline and budget[0] > 0:
            budget[0] -= 1
            await _one(client, group, rng, write_ratio, stats)


def _latency(values: list[float]) -> dict[str, float | int]:
    ms = [v * 1000 for v in values]
    return {
        "n": len(ms),
        "p50_ms": round(percentile(ms, 50), 1),
        "p90_ms": round(percentile(ms, 90), 1),
        "p99_ms": round(percentile(ms, 99), 1),
    }


async def _episode_counts(base: str, cfg: LoadConfig, groups: list[str]) -> dict[str, int]:
    """The groups' episode counts from ``GET /v1/groups``, paged until every group is seen (a
    shared database lists more than one page; the groups are in id order)."""
    counts: dict[str, int] = {}
    params: dict[str, str | int] = {"limit": 1000}
    async with httpx.AsyncClient(base_url=base, headers=_headers(cfg), timeout=60) as client:
        for _ in range(10_000):  # bounded: 10 million groups
            page = (await client.get("/v1/groups", params=params)).json()
            counts.update({g["group_id"]: int(g["episodes"]) for g in page["groups"]})
            if not page.get("has_more") or all(g in counts for g in groups):
                break
            params["cursor"] = page["next_cursor"]
    return {g: counts.get(g, 0) for g in groups}


async def _background_cores(sampler: Sampler) -> float | None:
    """Neo4j's CPU rate with none of this run's requests in flight (other clients, its own
    housekeeping), over ``BACKGROUND_S`` just before a phase."""
    first = sampler.read().neo4j
    if first is None:
        return None
    await asyncio.sleep(BACKGROUND_S)
    last = sampler.read().neo4j
    return max(0.0, (last or first) - first) / BACKGROUND_S


def _cpu(
    before: Reading,
    after: Reading,
    elapsed: float,
    searches: int,
    writes: int,
    background: float | None = None,
) -> dict[str, Any]:
    """CPU of the server and of Neo4j over a phase: ms per request, and cores busy on average.
    Neo4j's figure is net of its ``background`` rate (cores) measured before the phase."""
    server = after.server - before.server
    requests = searches + writes
    out: dict[str, Any] = {
        "server_ms_per_request": per_request_ms(server.total, requests),
        "server_loop_ms_per_request": per_request_ms(server.loop, requests),
        "server_threads_ms_per_request": per_request_ms(server.threads, requests),
        "server_cores": round(server.total / elapsed, 2) if elapsed else None,
    }
    if before.neo4j is not None and after.neo4j is not None:
        gross = after.neo4j - before.neo4j
        neo4j = max(0.0, gross - (background or 0.0) * elapsed)
        out["neo4j_ms_per_request"] = per_request_ms(neo4j, requests)
        out["neo4j_gross_ms_per_request"] = per_request_ms(gross, requests)
        out["neo4j_cores"] = round(gross / elapsed, 2) if elapsed else None
        out["neo4j_background_cores"] = round(background, 3) if background is not None else None
    return out


async def _phase(
    base: str, cfg: LoadConfig, groups: list[str], clients: int, write_ratio: float, sampler: Sampler
) -> tuple[Stats, float, dict[str, Any]]:
    stats = Stats()
    budget = [MAX_REQUESTS]
    background = await _background_cores(sampler) if sampler.active else None
    load_before = os.getloadavg()[0]
    cpu_before = sampler.read()
    began = time.monotonic()
    deadline = began + cfg.seconds
    await asyncio.gather(
        *(
            _client_loop(
                base, cfg, write_ratio, groups[i % len(groups)], 1000 * clients + i, deadline, budget, stats
            )
            for i in range(clients)
        )
    )
    elapsed = time.monotonic() - began
    cpu_after = sampler.read()
    searches, writes = len(stats.latencies["search"]), len(stats.latencies["write"])
    cpu = _cpu(cpu_before, cpu_after, elapsed, searches, writes, background) if sampler.active else {}
    cpu["load_average"] = [round(load_before, 1), round(os.getloadavg()[0], 1)]
    return stats, elapsed, cpu


def _split(mix: dict[str, Any], alone: dict[str, Any], stats: Stats, search_stats: Stats) -> dict[str, Any]:
    """CPU ms per search (the search-only phase) and per write (the mix's rest, charged to writes)."""
    searches, writes = len(stats.latencies["search"]), len(stats.latencies["write"])
    out: dict[str, Any] = {"search_only_requests": len(search_stats.latencies["search"])}
    for who in ("server", "neo4j"):
        per_search, per_mixed = alone.get(f"{who}_ms_per_request"), mix.get(f"{who}_ms_per_request")
        if per_search is None or per_mixed is None:
            continue
        out[f"{who}_ms_per_search"] = per_search
        if writes:
            rest = per_mixed * (searches + writes) - per_search * searches
            out[f"{who}_ms_per_write"] = round(rest / writes, 2)
    out["search_only_load_average"] = alone.get("load_average")
    return out


async def _write_counters(base: str) -> dict[str, float]:
    """The server's group-commit counters from ``/metrics`` (one worker's, with several)."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        response = await client.get("/metrics")
    out: dict[str, float] = {}
    for line in response.text.splitlines():
        name, _, value = line.partition(" ")
        if name in ("graphmem_write_transactions", "graphmem_write_writes", "graphmem_write_fallbacks"):
            out[name.removeprefix("graphmem_write_")] = float(value)
    return out


def _group_commit(before: dict[str, float], after: dict[str, float]) -> dict[str, Any]:
    delta = {k: int(after.get(k, 0) - before.get(k, 0)) for k in ("transactions", "writes", "fallbacks")}
    per = round(delta["writes"] / delta["transactions"], 2) if delta["transactions"] else None
    return {**delta, "writes_per_transaction": per}


async def _run_clients(
    base: str, cfg: LoadConfig, groups: list[str], clients: int, sampler: Sampler
) -> dict[str, Any]:
    before = await _episode_counts(base, cfg, groups)
    counters = await _write_counters(base)
    stats, elapsed, cpu = await _phase(base, cfg, groups, clients, cfg.write_ratio, sampler)
    commit = _group_commit(counters, await _write_counters(base))
    after = await _episode_counts(base, cfg, groups)
    lost = sum(before[g] + stats.written.get(g, 0) - after[g] for g in groups)
    every = stats.latencies["search"] + stats.latencies["write"]
    run: dict[str, Any] = {
        "clients": clients,
        "seconds": round(elapsed, 1),
        "requests": len(every),
        "errors": sum(stats.errors.values()),
        "error_kinds": stats.errors,
        "shed_429": stats.shed,
        "acknowledged_writes": sum(stats.written.values()),
        "acknowledged_writes_missing": lost,
        "throughput_rps": round(len(every) / elapsed, 1) if elapsed else 0.0,
        "search": _latency(stats.latencies["search"]),
        "write": _latency(stats.latencies["write"]),
        "cpu": cpu,
        "group_commit": commit,
    }
    if cfg.cpu_split and sampler.active and cfg.write_ratio > 0:
        search_stats, _, alone = await _phase(base, cfg, groups, clients, 0.0, sampler)
        run["cpu_by_kind"] = _split(cpu, alone, stats, search_stats)
        run["errors"] += sum(search_stats.errors.values())
        for kind, n in search_stats.errors.items():
            run["error_kinds"][kind] = run["error_kinds"].get(kind, 0) + n
    return run


async def _seed(base: str, cfg: LoadConfig, group: str) -> None:
    rng = random.Random(group)
    async with httpx.AsyncClient(base_url=base, headers=_headers(cfg), timeout=300) as client:
        batch = {"episodes": [_episode(rng) for _ in range(cfg.seed_episodes)]}
        (await client.post(f"/v1/groups/{group}/episodes", json=batch)).raise_for_status()


async def _forget(base: str, cfg: LoadConfig, group: str) -> None:
    async with httpx.AsyncClient(base_url=base, headers=_headers(cfg), timeout=300) as client:
        await client.delete(f"/v1/groups/{group}")


async def run_load(
    base: str, cfg: LoadConfig, progress: Callable[[str], None], sampler: Sampler | None = None
) -> dict[str, Any]:
    sampler = sampler or Sampler(None, None)
    prefix = f"load-{uuid.uuid4().hex[:8]}"
    groups = [f"{prefix}-{i}" for i in range(cfg.groups)]
    await asyncio.gather(*(_seed(base, cfg, g) for g in groups))
    runs = []
    try:
        for clients in cfg.clients:
            progress(f"load: {clients} clients for {cfg.seconds:.0f} s")
            runs.append(await _run_clients(base, cfg, groups, clients, sampler))
    finally:
        await asyncio.gather(*(_forget(base, cfg, g) for g in groups), return_exceptions=True)
    return {
        "groups": cfg.groups,
        "write_ratio": cfg.write_ratio,
        "seconds": cfg.seconds,
        "url": base,
        "workers": cfg.workers,
        "server_pid": sampler.server_pid,
        "neo4j_pid": sampler.neo4j_pid,
        "runs": runs,
    }


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def server(cfg: LoadConfig, env: dict[str, str]) -> Iterator[str]:
    """The target: ``cfg.url`` (loopback only), or a no-auth ``graphmem serve`` on a free loopback port."""
    with server_process(cfg, env) as (base, _):
        yield base


def _wait_ready(base: str, process: subprocess.Popen[bytes], workers: int, timeout_s: float = 300) -> None:
    """Until ``workers`` distinct workers have answered ``/readyz`` 200 (each new connection may
    reach another; ``worker`` is its pid): a worker still loading its model would otherwise charge
    its warm-up's CPU to the first client count."""
    ready: set[object] = set()
    deadline = time.monotonic() + timeout_s
    while len(ready) < workers:
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError("the API server this load test started did not become ready")
        try:
            response = httpx.get(f"{base}/readyz", timeout=5)
            if response.status_code == 200:
                ready.add(response.json().get("worker", len(ready)))
                time.sleep(0.05)
                continue
        except httpx.HTTPError:
            pass
        time.sleep(0.5)


@contextmanager
def server_process(cfg: LoadConfig, env: dict[str, str]) -> Iterator[tuple[str, int | None]]:
    """``server``, with the pid of the process it started (None for ``cfg.url``)."""
    if cfg.url is not None:
        if not is_loopback_url(cfg.url):
            raise ValueError(f"refusing a non-loopback URL: {cfg.url}")
        yield cfg.url.rstrip("/"), None
        return
    port = _free_port()
    full = {**os.environ, **env, "GRAPHMEM_NO_AUTH": "1", "GRAPHMEM_HOST": "127.0.0.1"}
    full["GRAPHMEM_PORT"] = str(port)
    if cfg.workers is not None:
        full["GRAPHMEM_WORKERS"] = str(cfg.workers)
    command = [str(Path(sys.executable).with_name("graphmem")), "serve"]
    log = tempfile.TemporaryFile()  # the server's output: its last lines explain a failed start
    process = subprocess.Popen(command, cwd=ROOT, env=full, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        try:
            _wait_ready(base, process, int(full.get("GRAPHMEM_WORKERS") or 1))
        except RuntimeError as exc:
            log.seek(0)
            tail = log.read().decode(errors="replace").strip().splitlines()[-LOG_TAIL_LINES:]
            raise RuntimeError("\n".join([str(exc), *tail])) from None
        yield base, process.pid
    finally:
        log.close()
        process.terminate()
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def plot(result: dict[str, Any], out: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    runs = result["runs"]
    clients = [r["clients"] for r in runs]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
    left.plot(clients, [r["throughput_rps"] for r in runs], marker="o")
    left.set(xscale="log", xlabel="clients", ylabel="requests/s", title="throughput")
    for kind, style in (("search", "-"), ("write", "--")):
        for q in ("p50_ms", "p99_ms"):
            right.plot(clients, [r[kind][q] for r in runs], style, marker="o", label=f"{kind} {q[:3]}")
    right.set(xscale="log", yscale="log", xlabel="clients", ylabel="ms", title="latency")
    right.legend()
    fig.tight_layout()
    out.mkdir(parents=True, exist_ok=True)
    path = out / "load.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
