#!/usr/bin/env python3
"""Bounded load test of the graphmem API on loopback: N concurrent clients, a mix of searches and writes.

    # against a running server (loopback only), with a key that may write the group:
    python scripts/loadtest.py --url http://127.0.0.1:8000 --key "$KEY" --seconds 60
    # or let it start its own server (no-auth, loopback) against NEO4J_URI:
    NEO4J_URI=bolt://127.0.0.1:7687 python scripts/loadtest.py --spawn --seconds 60 --clients 32

It seeds ``--groups`` fresh groups (tenants; client i uses group i mod N), then each client loops:
80% ``POST .../search``, 20% ``POST .../episodes`` (``--write-ratio``), until ``--seconds`` pass or
``--max-requests`` are sent. It stops by itself, then forgets the groups (unless ``--keep``) and
prints errors, throughput and latency percentiles. Writes to one group serialise on that group's
lock, so ``--groups 1`` is the worst case.
Only loopback URLs are accepted: this is for a server on this machine.
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import json
import os
import random
import socket
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

import httpx

ROOT = Path(__file__).resolve().parents[1]
NAMES = ["Alice", "Bob", "Carol", "Dan", "Erin", "Frank", "Grace", "Heidi", "Ivan", "Judy"]
CITIES = ["Berlin", "Paris", "Rome", "Oslo", "Lima", "Quito", "Kyoto", "Cairo", "Dublin", "Austin"]
ORGS = ["Acme", "Globex", "Initech", "Umbrella", "Hooli", "Stark", "Wayne", "Wonka"]
BLAS_THREAD_VARS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
QUERIES = ["where does {n} live?", "who does {n} work for?", "{n} moved", "what does {n} like?", "{c}"]


@dataclass
class Stats:
    latencies: dict[str, list[float]] = field(default_factory=lambda: {"search": [], "write": []})
    errors: dict[str, int] = field(default_factory=dict)

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


def sentence(rng: random.Random) -> str:
    n, c, o = rng.choice(NAMES), rng.choice(CITIES), rng.choice(ORGS)
    return rng.choice(
        [f"{n} lives in {c}.", f"{n} works at {o}.", f"{n} moved to {c}.", f"{n} likes {c} and {o}."]
    )


def episode(rng: random.Random, day: int) -> dict[str, str]:
    return {
        "content": sentence(rng),
        "reference_time": f"2024-{1 + day % 12:02d}-{1 + day % 28:02d}T12:00:00Z",
        "speaker": rng.choice(NAMES).lower(),
        "session_id": f"load-{rng.randrange(8)}",
    }


async def one_request(
    client: httpx.AsyncClient, group: str, rng: random.Random, write_ratio: float
) -> tuple[str, str | None]:
    if rng.random() < write_ratio:
        kind, url = "write", f"/v1/groups/{group}/episodes"
        body: dict[str, object] = episode(rng, rng.randrange(365))
    else:
        kind, url = "search", f"/v1/groups/{group}/search"
        text = rng.choice(QUERIES).format(n=rng.choice(NAMES), c=rng.choice(CITIES))
        body = {"query": text, "k": 10}
    try:
        r = await client.post(url, json=body)
    except httpx.HTTPError as exc:
        return kind, type(exc).__name__
    return kind, None if r.status_code < 400 else f"http_{r.status_code}"


async def client_loop(
    args: argparse.Namespace, group: str, seed: int, deadline: float, budget: list[int], stats: Stats
) -> None:
    rng = random.Random(seed)
    async with httpx.AsyncClient(base_url=args.url, headers=auth(args), timeout=args.timeout) as client:
        while time.monotonic() < deadline and budget[0] > 0:
            budget[0] -= 1
            began = time.perf_counter()
            kind, outcome = await one_request(client, group, rng, args.write_ratio)
            stats.record(kind, time.perf_counter() - began, outcome)


def auth(args: argparse.Namespace) -> dict[str, str]:
    return {"Authorization": f"Bearer {args.key}"} if args.key else {}


async def seed_group(args: argparse.Namespace, group: str) -> None:
    rng = random.Random(1)
    async with httpx.AsyncClient(base_url=args.url, headers=auth(args), timeout=120) as client:
        batch = {"episodes": [episode(rng, day) for day in range(args.seed_episodes)]}
        r = await client.post(f"/v1/groups/{group}/episodes", json=batch)
        r.raise_for_status()


async def forget_group(args: argparse.Namespace, group: str) -> None:
    async with httpx.AsyncClient(base_url=args.url, headers=auth(args), timeout=120) as client:
        r = await client.delete(f"/v1/groups/{group}")
        if r.status_code >= 400:
            print(f"note: could not forget {group}: HTTP {r.status_code}", file=sys.stderr)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summary(stats: Stats, elapsed: float, args: argparse.Namespace) -> dict[str, object]:
    every = stats.latencies["search"] + stats.latencies["write"]
    out: dict[str, object] = {
        "clients": args.clients,
        "seconds": round(elapsed, 1),
        "requests": len(every),
        "errors": sum(stats.errors.values()),
        "error_kinds": stats.errors,
        "throughput_rps": round(len(every) / elapsed, 1) if elapsed else 0.0,
    }
    for kind, values in (("all", every), *stats.latencies.items()):
        out[kind] = {
            "n": len(values),
            "p50_ms": round(percentile(values, 0.50) * 1000, 1),
            "p90_ms": round(percentile(values, 0.90) * 1000, 1),
            "p99_ms": round(percentile(values, 0.99) * 1000, 1),
        }
    return out


def spawn(args: argparse.Namespace) -> subprocess.Popen[bytes]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    args.url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "GRAPHMEM_NO_AUTH": "1", "GRAPHMEM_HOST": "127.0.0.1", "HF_HUB_OFFLINE": "1"}
    env.update({name: str(args.blas_threads) for name in BLAS_THREAD_VARS})  # as the Dockerfile does
    command = [sys.executable, "-m", "uvicorn", "api.main:app_from_env", "--factory", "--host", "127.0.0.1"]
    command += ["--port", str(port), "--no-access-log", "--log-level", "warning"]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and process.poll() is None:
        try:
            if httpx.get(f"{args.url}/readyz", timeout=5).status_code == 200:
                return process
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    process.kill()
    raise SystemExit("the spawned API did not become ready")


async def run(args: argparse.Namespace) -> dict[str, object]:
    prefix = f"load-{uuid.uuid4().hex[:8]}"
    groups = [f"{prefix}-{i}" for i in range(args.groups)]
    await asyncio.gather(*(seed_group(args, g) for g in groups))
    stats = Stats()
    budget = [args.max_requests]
    began = time.monotonic()
    deadline = began + args.seconds
    loops = (
        client_loop(args, groups[i % len(groups)], i, deadline, budget, stats) for i in range(args.clients)
    )
    await asyncio.gather(*loops)
    elapsed = time.monotonic() - began
    if not args.keep:
        await asyncio.gather(*(forget_group(args, g) for g in groups))
    return {"groups": args.groups, **summary(stats, elapsed, args)}


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--url", default="http://127.0.0.1:8000", help="API base URL (loopback only)")
    p.add_argument("--spawn", action="store_true", help="start a no-auth server on a free loopback port")
    p.add_argument("--key", default=os.environ.get("GRAPHMEM_LOADTEST_KEY"), help="API key (admin or agent)")
    p.add_argument("--clients", type=int, default=32)
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument("--max-requests", type=int, default=200_000, help="hard bound on requests sent")
    p.add_argument("--write-ratio", type=float, default=0.2)
    p.add_argument("--groups", type=int, default=8, help="tenants; client i uses group i mod N")
    p.add_argument("--seed-episodes", type=int, default=20, help="episodes seeded per group")
    p.add_argument("--timeout", type=float, default=60.0, help="per-request timeout (s)")
    p.add_argument("--keep", action="store_true", help="keep the load group afterwards")
    p.add_argument("--blas-threads", type=int, default=1, help="BLAS threads of a --spawn server")
    args = p.parse_args(argv)
    if not 1 <= args.clients <= 256 or not 0 < args.seconds <= 3600 or not 0 <= args.write_ratio <= 1:
        p.error("--clients 1..256, --seconds (0, 3600], --write-ratio 0..1")
    if not 1 <= args.groups <= args.clients:
        p.error("--groups 1..clients")
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse(argv)
    process = spawn(args) if args.spawn else None
    try:
        if not is_loopback_url(args.url):
            raise SystemExit(f"refusing a non-loopback URL: {args.url}")
        print(json.dumps(asyncio.run(run(args)), indent=2))
    finally:
        if process is not None:
            process.terminate()
            process.wait(timeout=30)


if __name__ == "__main__":
    main()
