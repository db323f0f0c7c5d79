"""Real uvicorn processes on random loopback ports, for tests that need a real server."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    url: str
    log: Path

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)

    def log_tail(self) -> str:
        return self.log.read_text(errors="replace")[-3000:]


def start_server(neo4j_uri: str, env: dict[str, str], *, timeout_s: float = 180.0) -> Server:
    """``uvicorn api.main:app_from_env`` with ``env`` on top of ours; returns once /readyz is 200."""
    port = free_port()
    log = Path(tempfile.mkstemp(prefix="graphmem-api-", suffix=".log")[1])
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_")}
    full_env.update({"NEO4J_URI": neo4j_uri, "HF_HUB_OFFLINE": "1", "GRAPHMEM_HOST": "127.0.0.1"})
    full_env.update({"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", **env})  # as the Dockerfile
    command = [sys.executable, "-m", "uvicorn", "api.main:app_from_env", "--factory"]
    command += ["--host", "127.0.0.1", "--port", str(port), "--no-access-log", "--log-level", "warning"]
    with log.open("wb") as out:
        process = subprocess.Popen(command, cwd=ROOT, env=full_env, stdout=out, stderr=subprocess.STDOUT)
    server = Server(process, f"http://127.0.0.1:{port}", log)
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the API process exited ({process.returncode}):\n{server.log_tail()}")
        try:
            if httpx.get(f"{server.url}/readyz", timeout=5).status_code == 200:
                return server
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    server.stop()
    raise RuntimeError(f"the API process was not ready in {timeout_s:.0f}s:\n{server.log_tail()}")
