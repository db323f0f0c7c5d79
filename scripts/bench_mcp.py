"""MCP ``search_memory`` over streamable HTTP against the plain HTTP search route: p50/p99 per call.

Starts one API process (uvicorn, loopback, no-auth) over NEO4J_URI, seeds a small group, then
alternates the two kinds of call so both see the same server state and noise:

    NEO4J_URI=bolt://127.0.0.1:7688 .venv/bin/python scripts/bench_mcp.py --queries 200

All are measured from the client: the plain route with one keep-alive httpx client; ``mcp`` with the
official SDK's client (the protocol it negotiates); ``mcp_raw`` as one JSON-RPC POST per call from
the same httpx client (the server's share without the SDK client's). A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

import httpx
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.api.servers import start_server  # noqa: E402

TURNS = [
    "Alice moved to Paris.",
    "Bob works at Globex as an engineer.",
    "Carol adopted a dog named Rex.",
    "Dan studies at MIT.",
    "Alice started at Initech.",
    "Erin likes jazz and hiking.",
]
QUERIES = [
    "where does Alice live?",
    "who works at Globex?",
    "what pet does Carol have?",
    "what does Erin like?",
]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def run(url: str, group: str, n: int, mode: str) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {"http": [], "mcp": [], "mcp_raw": []}
    raw_headers = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25"}
    async with httpx.AsyncClient(base_url=url, timeout=60) as http, httpx2.AsyncClient(timeout=60) as h2:
        episodes = [
            {"content": t, "reference_time": f"2024-0{i + 1}-01T00:00:00Z", "external_id": f"b{i}"}
            for i, t in enumerate(TURNS)
        ]
        assert (
            await http.post(f"/v1/groups/{group}/episodes", json={"episodes": episodes})
        ).status_code < 300
        async with Client(streamable_http_client(f"{url}/mcp", http_client=h2), mode=mode) as mcp:
            for i in range(n + 10):  # the first 10 of each warm up
                query = QUERIES[i % len(QUERIES)]
                began = time.perf_counter()
                r = await http.post(f"/v1/groups/{group}/search", json={"query": query, "k": 10})
                http_s = time.perf_counter() - began
                assert r.status_code == 200
                began = time.perf_counter()
                result = await mcp.call_tool("search_memory", {"query": query, "k": 10, "group_id": group})
                mcp_s = time.perf_counter() - began
                assert not result.is_error
                call = {"name": "search_memory", "arguments": {"query": query, "k": 10, "group_id": group}}
                message = {"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": call}
                began = time.perf_counter()
                raw = await http.post("/mcp", json=message, headers=raw_headers)
                raw_s = time.perf_counter() - began
                assert raw.status_code == 200 and "error" not in raw.json()
                if i >= 10:
                    times["http"].append(http_s * 1000)
                    times["mcp"].append(mcp_s * 1000)
                    times["mcp_raw"].append(raw_s * 1000)
        await http.delete(f"/v1/groups/{group}", params={"purge_tombstones": "true"})
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--mode", default="auto", help="SDK client mode: auto (2026 protocol) or legacy")
    args = parser.parse_args()
    uri = os.environ.get("NEO4J_URI")
    if not uri:
        sys.exit("set NEO4J_URI")
    server = start_server(uri, {"GRAPHMEM_NO_AUTH": "1"})
    try:
        times = asyncio.run(run(server.url, f"bench-mcp-{uuid.uuid4().hex[:8]}", args.queries, args.mode))
    finally:
        server.stop()
    for name, values in times.items():
        print(
            f"{name:5s} n={len(values)} p50={pct(values, 0.5):.2f} ms p99={pct(values, 0.99):.2f} ms "
            f"mean={statistics.fmean(values):.2f} ms"
        )
    for name in ("mcp", "mcp_raw"):
        added = [m - h for m, h in zip(times[name], times["http"], strict=True)]
        print(
            f"added by {name}: p50={pct(added, 0.5):.2f} ms p99={pct(added, 0.99):.2f} ms (paired per query)"
        )


if __name__ == "__main__":
    main()
