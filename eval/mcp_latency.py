"""What MCP adds to a search: ``search_memory`` over streamable HTTP (``POST /mcp``, JSON-RPC
``tools/call``) against ``POST /v1/groups/{g}/search``, on the same server, group and queries.

A benchmark, not a test: ``python -m eval.mcp_latency [--turns 200] [--rounds 300]`` starts the API
(``uvicorn api.main:app_from_env``, one worker, over ``NEO4J_URI``) on a free loopback port with one
agent key, ingests a synthetic conversation into a fresh group, then times both calls interleaved
(order alternating per round, one keep-alive socket each, after a warm-up) and prints p50/p95/p99 of
each and the difference, then the server's CPU time per call of each kind (blocks of one kind,
from /proc: on a loaded machine wall-clock percentiles carry the scheduler's delays, CPU time
does not). The group is forgotten at the end. Both calls run the same search (k=10,
token budget 1000); MCP answers with its compact hit list, the route with the full ``SearchResult``.
Plain sockets, as ``eval.http_probe`` (httpx adds a constant of its own to every request here).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from eval.metrics import latency_summary

ROOT = Path(__file__).resolve().parents[1]
KEY = "mcp-latency-agent-key-0001"
PEOPLE = ["Alice", "Bruno", "Chen", "Dana", "Emeka", "Farah", "Goran", "Hana", "Ivo", "Jun"]
PLACES = ["Berlin", "Lisbon", "Osaka", "Quito", "Nairobi", "Oslo", "Lima", "Hanoi", "Porto", "Seoul"]
WORK = ["Acme", "Globex", "Initech", "Umbrella", "Hooli", "Vandelay", "Stark", "Wayne", "Tyrell", "Cyberdyne"]
QUERIES = [
    "where does {p} live?",
    "who works at {w}?",
    "what does {p} do for work?",
    "has {p} moved recently?",
    "who lives in {c}?",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Client:
    """One keep-alive HTTP/1.1 connection (Content-Length or chunked answers)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.connect()

    def connect(self) -> None:
        self.sock = socket.create_connection(("127.0.0.1", self.port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.file = self.sock.makefile("rb")

    def post(
        self, path: str, payload: dict[str, Any], headers: dict[str, str] | None = None
    ) -> tuple[int, bytes]:
        body = json.dumps(payload).encode()
        lines = [f"POST {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}", "Content-Type: application/json"]
        lines += [f"Authorization: Bearer {KEY}", f"Content-Length: {len(body)}"]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        request = ("\r\n".join(lines) + "\r\n\r\n").encode() + body
        self.sock.sendall(request)
        first = self.file.readline()
        if not first:  # the server closed the idle keep-alive connection (uvicorn: after 5 s)
            self.close()
            self.connect()
            self.sock.sendall(request)
            first = self.file.readline()
        status = int(first.split()[1])
        length, chunked = 0, False
        while (line := self.file.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
            elif name.strip().lower() == "transfer-encoding" and "chunked" in value.lower():
                chunked = True
        if not chunked:
            return status, self.file.read(length)
        parts = []
        while (size := int(self.file.readline().strip(), 16)) > 0:
            parts.append(self.file.read(size))
            self.file.readline()
        self.file.readline()
        return status, b"".join(parts)

    def close(self) -> None:
        self.file.close()
        self.sock.close()


def start(port: int, group: str) -> tuple[subprocess.Popen[bytes], Path]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_")}
    keys = [{"key": KEY, "role": "agent", "groups": [group]}, {"key": KEY + "-admin", "role": "admin"}]
    env.update({"GRAPHMEM_API_KEYS": json.dumps(keys), "GRAPHMEM_HOST": "127.0.0.1", "HF_HUB_OFFLINE": "1"})
    env.update({"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"})
    log = Path(tempfile.mkstemp(prefix="mcp-latency-", suffix=".log")[1])
    command = [sys.executable, "-m", "uvicorn", "api.main:app_from_env", "--factory", "--host", "127.0.0.1"]
    command += ["--port", str(port), "--no-access-log", "--log-level", "warning"]
    with log.open("wb") as out:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"error: the API exited:\n{log.read_text()[-2000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=2) as s:
                s.sendall(
                    f"GET /readyz HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode()
                )
                if b" 200 " in s.recv(64):
                    return process, log
        except OSError:
            pass
        time.sleep(0.5)
    process.terminate()
    raise SystemExit("error: the API was not ready in 180 s")


def cpu_ms(pid: int) -> float:
    """The process's user + system CPU time so far, in ms (Linux /proc; load-independent)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def conversation(turns: int) -> list[dict[str, Any]]:
    out = []
    for i in range(turns):
        p, c, w = PEOPLE[i % 10], PLACES[(i * 3 + i // 10) % 10], WORK[(i * 7 + i // 10) % 10]
        text = [f"I live in {c}.", f"I work at {w}.", f"I moved to {c} last month."][i % 3]
        day = 1 + i % 28
        out.append(
            {
                "content": text,
                "speaker": p,
                "session_id": f"chat-{i // 20}",
                "external_id": f"turn-{i}",
                "reference_time": f"2024-{1 + (i // 28) % 12:02d}-{day:02d}T09:00:00Z",
            }
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=200, help="Conversation turns ingested first.")
    parser.add_argument("--rounds", type=int, default=300, help="Timed rounds (one call of each per round).")
    parser.add_argument("--warmup", type=int, default=30, help="Untimed rounds first.")
    args = parser.parse_args()
    group = f"mcp-latency-{uuid.uuid4().hex[:8]}"
    port = free_port()
    process, log = start(port, group)
    try:
        http, mcp = Client(port), Client(port)
        episodes = conversation(args.turns)
        for i in range(0, len(episodes), 100):
            status, text = http.post(f"/v1/groups/{group}/episodes", {"episodes": episodes[i : i + 100]})
            if status not in (200, 201):
                raise SystemExit(f"error: ingest -> {status}: {text[:200]!r}")
        queries = [
            QUERIES[i % 5].format(p=PEOPLE[i % 10], c=PLACES[i % 10], w=WORK[i % 10]) for i in range(50)
        ]
        rpc_headers = {"Accept": "application/json, text/event-stream"}
        times: dict[str, list[float]] = {"http": [], "mcp": []}
        inside: list[float] = []

        def one(kind: str, query: str, n: int, timed: bool = False) -> float:
            began = time.perf_counter()
            if kind == "http":
                status, text = http.post(f"/v1/groups/{group}/search", {"query": query, "k": 10})
            else:
                call = {"name": "search_memory", "arguments": {"query": query, "k": 10}}
                rpc = {"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": call}
                status, text = mcp.post("/mcp", rpc, rpc_headers)
            took = (time.perf_counter() - began) * 1000
            if status != 200 or (kind == "mcp" and b'"isError":true' in text):
                raise SystemExit(f"error: {kind} search -> {status}: {text[:300]!r}")
            if kind == "http" and timed:
                inside.append(float(json.loads(text)["timings_ms"]["total"]))
            return took

        for n in range(args.warmup + args.rounds):
            query = queries[n % len(queries)]
            order = ("http", "mcp") if n % 2 == 0 else ("mcp", "http")
            for kind in order:
                took = one(kind, query, n, timed=n >= args.warmup)
                if n >= args.warmup:
                    times[kind].append(took)
        # the server's CPU per call, each kind in a block of its own: what the machine's load does
        # to wall-clock latency it does not do to CPU time
        cpu: dict[str, float] = {}
        for kind in ("http", "mcp", "http", "mcp"):
            before = cpu_ms(process.pid)
            for n in range(args.rounds):
                one(kind, queries[n % len(queries)], n)
            cpu[kind] = cpu.get(kind, 0.0) + (cpu_ms(process.pid) - before) / (2 * args.rounds)
        http_ms, mcp_ms = latency_summary(times["http"]), latency_summary(times["mcp"])
        report = {
            "turns": args.turns,
            "rounds": args.rounds,
            "http_search_ms": http_ms,
            "mcp_search_memory_ms": mcp_ms,
            "search_inside_ms": latency_summary(inside),
            "mcp_added_ms": {
                q: round((mcp_ms[q] or 0) - (http_ms[q] or 0), 2) for q in ("p50", "p95", "p99")
            },
            "server_cpu_ms_per_call": {k: round(v, 2) for k, v in cpu.items()},
            "mcp_added_cpu_ms": round(cpu["mcp"] - cpu["http"], 2),
            "cpus": os.cpu_count(),
            "load_avg_1m": round(os.getloadavg()[0], 2),
        }
        print(json.dumps(report, indent=2))
        admin = {"Authorization": f"Bearer {KEY}-admin"}
        http.close()
        cleaner = Client(port)
        cleaner.sock.sendall(
            f"DELETE /v1/groups/{group}?purge_tombstones=true HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Authorization: {admin['Authorization']}\r\nContent-Length: 0\r\n\r\n".encode()
        )
        cleaner.file.readline()
        cleaner.close()
        mcp.close()
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
