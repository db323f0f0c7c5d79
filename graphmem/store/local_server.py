"""The local Neo4j: resolved from Maven Central, run by a small embedded launcher (DESIGN §6).

``start`` resolves ``org.neo4j:neo4j`` with Maven into the cache directory (once), compiles
``neo4j-launcher/src/main/java/graphmem/Launcher.java`` (once per source change), starts it in the
background with explicit heap and page cache, and returns when Bolt answers ``RETURN 1``.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from neo4j import GraphDatabase
from neo4j.exceptions import Neo4jError, ServiceUnavailable

from graphmem.config import Settings
from graphmem.errors import ConfigError, StoreUnavailable

PROJECT_ROOT = Path(__file__).resolve().parents[2]
# Neo4j processes this process started: kept so they are reaped (no ResourceWarning, no zombies).
_CHILDREN: dict[int, subprocess.Popen[bytes]] = {}
LAUNCHER_DIR = PROJECT_ROOT / "neo4j-launcher"
LAUNCHER_SOURCE = LAUNCHER_DIR / "src" / "main" / "java" / "graphmem" / "Launcher.java"


@dataclass(frozen=True)
class ServerStatus:
    running: bool
    pid: int | None
    uri: str
    data_dir: Path
    log_file: Path
    bolt_ok: bool

    def describe(self) -> str:
        state = "running" if self.running else "stopped"
        bolt = "answers RETURN 1" if self.bolt_ok else "not answering"
        return (
            f"neo4j {state} (pid {self.pid or '-'}) at {self.uri}, bolt {bolt}; "
            f"data {self.data_dir}; log {self.log_file}"
        )


def _java(settings: Settings) -> str:
    home = settings.java_home
    candidate = home / "bin" / "java" if home else None
    if candidate and candidate.exists():
        return str(candidate)
    found = shutil.which("java")
    if not found:
        raise ConfigError("java (17+) not found on PATH; install a JDK 17")
    return found


def _run(cmd: list[str], *, what: str, cwd: Path | None = None) -> None:
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if proc.returncode != 0:
        tail = (proc.stdout + proc.stderr)[-3000:]
        raise ConfigError(f"{what} failed (exit {proc.returncode}): {tail}")


def runtime_dir(settings: Settings) -> Path:
    digest = hashlib.sha256((LAUNCHER_DIR / "pom.xml").read_bytes()).hexdigest()[:12]
    return settings.cache_dir / f"neo4j-runtime-{digest}"


def ensure_runtime(settings: Settings) -> Path:
    """Resolve the Neo4j jars and compile the launcher; idempotent. Returns the runtime dir."""
    root = runtime_dir(settings)
    lib = root / "lib"
    if not (root / ".resolved").exists():
        mvn = shutil.which("mvn")
        if not mvn:
            raise ConfigError("Maven (mvn) not found on PATH; it resolves Neo4j from Maven Central")
        started = time.monotonic()
        _run(
            [
                mvn,
                "-q",
                "-B",
                "-f",
                str(LAUNCHER_DIR / "pom.xml"),
                "dependency:copy-dependencies",
                f"-DoutputDirectory={lib}",
            ],
            what="resolving org.neo4j:neo4j with Maven",
        )
        size = sum(p.stat().st_size for p in lib.glob("*.jar"))
        (root / ".resolved").write_text(
            f"jars={len(list(lib.glob('*.jar')))} bytes={size} seconds={time.monotonic() - started:.1f}\n"
        )
    source_digest = hashlib.sha256(LAUNCHER_SOURCE.read_bytes()).hexdigest()
    classes = root / "classes"
    stamp = classes / ".source-sha256"
    if not stamp.exists() or stamp.read_text() != source_digest:
        javac = shutil.which("javac")
        if not javac:
            raise ConfigError("javac (JDK 17) not found on PATH")
        classes.mkdir(parents=True, exist_ok=True)
        _run(
            [javac, "-d", str(classes), "-cp", f"{lib}/*", str(LAUNCHER_SOURCE)],
            what="compiling the Neo4j launcher",
        )
        stamp.write_text(source_digest)
    return root


def _pid_file(settings: Settings) -> Path:
    return settings.neo4j_data_dir / "graphmem-neo4j.pid"


def _log_file(settings: Settings) -> Path:
    return settings.neo4j_data_dir / "neo4j-launcher.log"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie child counts as dead
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
        return state != "Z"
    except OSError:
        return True


def _read_pid(settings: Settings) -> int | None:
    try:
        pid = int(_pid_file(settings).read_text().strip())
    except (OSError, ValueError):
        return None
    return pid if _alive(pid) else None


def bolt_answers(settings: Settings, *, timeout: float = 3.0) -> bool:
    try:
        with GraphDatabase.driver(
            settings.local_uri,
            auth=settings.neo4j_auth_tuple,
            connection_timeout=timeout,
            notifications_min_severity="OFF",
        ) as driver:
            with driver.session() as session:  # no managed-transaction retries: answer now or not
                record = session.run("RETURN 1 AS one").single()
                return bool(record and record["one"] == 1)
    except (ServiceUnavailable, Neo4jError, OSError, ValueError):
        return False


def status(settings: Settings) -> ServerStatus:
    pid = _read_pid(settings)
    return ServerStatus(
        running=pid is not None,
        pid=pid,
        uri=settings.local_uri,
        data_dir=settings.neo4j_data_dir.resolve(),
        log_file=_log_file(settings).resolve(),
        bolt_ok=bolt_answers(settings) if pid is not None else False,
    )


def _log_tail(settings: Settings, chars: int = 3000) -> str:
    try:
        return _log_file(settings).read_text(errors="replace")[-chars:]
    except OSError:
        return "(no log)"


def start(settings: Settings) -> ServerStatus:
    """Start the local Neo4j unless it already runs; return once Bolt answers."""
    current = status(settings)
    if current.running and current.bolt_ok:
        return current
    if current.running:
        return _wait_for_bolt(settings, current.pid)
    root = ensure_runtime(settings)
    data = settings.neo4j_data_dir
    data.mkdir(parents=True, exist_ok=True)
    cmd = [
        _java(settings),
        f"-Xms{settings.neo4j_heap}",
        f"-Xmx{settings.neo4j_heap}",
        "-XX:+UseG1GC",
        "-cp",
        f"{root / 'lib'}/*:{root / 'classes'}",
        "graphmem.Launcher",
        str(data.resolve()),
        settings.neo4j_host,
        str(settings.neo4j_port),
        str(settings.neo4j_pagecache_mb),
        "true" if settings.neo4j_auth else "false",
        str(settings.neo4j_tx_timeout_s),
        str(settings.neo4j_tx_memory_mb),
        str(settings.neo4j_tx_total_memory_mb),
        str(settings.neo4j_stuck_query_grace_s),
        str(settings.neo4j_http_port),
    ]
    with open(_log_file(settings), "ab") as log:
        proc = subprocess.Popen(
            cmd,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            cwd=str(data),
        )
    _CHILDREN[proc.pid] = proc
    _pid_file(settings).write_text(str(proc.pid))
    return _wait_for_bolt(settings, proc.pid)


def _wait_for_bolt(settings: Settings, pid: int | None) -> ServerStatus:
    deadline = time.monotonic() + settings.neo4j_start_timeout_s
    while time.monotonic() < deadline:
        if pid is not None and not _alive(pid):
            raise StoreUnavailable(f"neo4j exited during start-up; log tail:\n{_log_tail(settings)}")
        if bolt_answers(settings, timeout=2.0):
            return status(settings)
        time.sleep(0.5)
    raise StoreUnavailable(
        f"neo4j did not answer RETURN 1 within {settings.neo4j_start_timeout_s:.0f}s; "
        f"log tail:\n{_log_tail(settings)}"
    )


def stop(settings: Settings, *, timeout: float = 60.0) -> bool:
    """Stop the local Neo4j cleanly (SIGTERM runs its shutdown hook). Returns whether one ran."""
    pid = _read_pid(settings)
    if pid is None:
        _pid_file(settings).unlink(missing_ok=True)
        return False
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and _alive(pid):
        time.sleep(0.2)
    if _alive(pid):
        os.kill(pid, signal.SIGKILL)
    _reap(pid)
    _pid_file(settings).unlink(missing_ok=True)
    return True


def kill(settings: Settings) -> bool:
    """``kill -9`` the local Neo4j (crash tests only)."""
    pid = _read_pid(settings)
    if pid is None:
        return False
    os.kill(pid, signal.SIGKILL)
    while _alive(pid):
        time.sleep(0.05)
    _reap(pid)
    return True


def _reap(pid: int) -> None:
    child = _CHILDREN.pop(pid, None)
    if child is not None:
        child.wait(timeout=5)
        return
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        pass
