"""CPU time of processes from Linux ``/proc``: the load-independent cost of serving requests.

On a shared machine wall-clock throughput measures the neighbours; the CPU seconds a server spends
per request do not (up to cache effects), and ``cores / CPU per request`` predicts the rate of a
quiet host. ``Sampler`` reads a process tree's user + system time (the server and its uvicorn
workers), split into the main thread (the event loop) and every other thread (the thread pool:
embedding, extraction; ONNX Runtime's own threads), and Neo4j's JVM found by the port it listens on.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

PROC = Path("/proc")
TICK_S = 1.0 / os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 0.01


def _stat_fields(path: Path) -> list[str] | None:
    """Fields of a ``stat`` file after the command name (which may hold spaces and parentheses)."""
    try:
        text = path.read_text()
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None
    return text.rsplit(")", 1)[1].split()


def cpu_s(stat: Path) -> float:
    """utime + stime of one ``/proc/.../stat`` in seconds (0.0 when it is gone)."""
    fields = _stat_fields(stat)
    if fields is None:
        return 0.0
    # after the name: state(0) ppid(1) ... utime(11) stime(12)
    return (int(fields[11]) + int(fields[12])) * TICK_S


def threads_cpu_s(pid: int, prefix: str) -> float:
    """CPU seconds of ``pid``'s threads whose name starts with ``prefix`` (Neo4j's Bolt workers
    ``neo4j.BoltWorker``: the statements and commits, without the JIT's and GC's threads)."""
    total = 0.0
    try:
        tasks = list((PROC / str(pid) / "task").iterdir())
    except OSError:
        return 0.0
    for task in tasks:
        try:
            name = (task / "comm").read_text().strip()
        except OSError:
            continue
        if name.startswith(prefix):
            total += cpu_s(task / "stat")
    return total


def children(pid: int) -> list[int]:
    """Every live descendant of ``pid`` (uvicorn's workers and their helpers)."""
    parents: dict[int, list[int]] = {}
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        fields = _stat_fields(entry / "stat")
        if fields is not None:
            parents.setdefault(int(fields[1]), []).append(int(entry.name))
    out: list[int] = []
    frontier = [pid]
    while frontier:
        kids = parents.get(frontier.pop(), [])
        out += kids
        frontier += kids
    return out


@dataclass(frozen=True)
class TreeCpu:
    """CPU seconds of a process tree: ``loop`` (each process's main thread) and ``threads`` (the rest)."""

    loop: float = 0.0
    threads: float = 0.0

    @property
    def total(self) -> float:
        return self.loop + self.threads

    def __sub__(self, other: TreeCpu) -> TreeCpu:
        return TreeCpu(self.loop - other.loop, self.threads - other.threads)


def tree_cpu(pid: int) -> TreeCpu:
    loop = threads = 0.0
    for p in [pid, *children(pid)]:
        whole = cpu_s(PROC / str(p) / "stat")
        main = cpu_s(PROC / str(p) / "task" / str(p) / "stat")
        loop += main
        threads += max(0.0, whole - main)
    return TreeCpu(loop, threads)


def listening_pid(port: int) -> int | None:
    """The process with a TCP socket listening on ``port`` (any address), or None."""
    inodes: set[str] = set()
    for table in ("tcp", "tcp6"):
        try:
            lines = (PROC / "net" / table).read_text().splitlines()[1:]
        except FileNotFoundError:
            continue
        for line in lines:
            parts = line.split()
            if len(parts) > 9 and parts[3] == "0A" and int(parts[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(parts[9])
    if not inodes:
        return None
    wanted = {f"socket:[{i}]" for i in inodes}
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            for fd in (entry / "fd").iterdir():
                if os.readlink(fd) in wanted:
                    return int(entry.name)
        except (FileNotFoundError, PermissionError, ProcessLookupError):
            continue
    return None


@dataclass(frozen=True)
class Reading:
    server: TreeCpu
    neo4j: float | None


class Sampler:
    """Reads the server tree's and Neo4j's CPU; ``None`` pids are skipped (not on Linux, not found)."""

    def __init__(self, server_pid: int | None, neo4j_pid: int | None) -> None:
        self.server_pid = server_pid if PROC.exists() else None
        self.neo4j_pid = neo4j_pid if PROC.exists() else None

    @property
    def active(self) -> bool:
        return self.server_pid is not None

    def read(self) -> Reading:
        server = tree_cpu(self.server_pid) if self.server_pid is not None else TreeCpu()
        neo4j = cpu_s(PROC / str(self.neo4j_pid) / "stat") if self.neo4j_pid is not None else None
        return Reading(server, neo4j)


def per_request_ms(seconds: float, requests: int) -> float | None:
    return round(1000 * seconds / requests, 2) if requests else None
