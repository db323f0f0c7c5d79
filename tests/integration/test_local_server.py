"""The local Neo4j launcher: start/stop, idempotence, persistence, crash recovery (real processes).

Each test starts the server it needs (start is idempotent), so any one runs alone; in file order they
share one server and its restarts, and the last one stops it (a start and a stop each take seconds)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from neo4j import GraphDatabase

from graphmem.config import Settings
from graphmem.store import local_server

PORT = 7699
HTTP_PORT = 7698


@pytest.fixture(scope="module")
def own(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    base = Settings()
    cfg = base.model_copy(
        update={
            "neo4j_uri": None,
            "neo4j_dir": tmp_path_factory.mktemp("n4"),
            "neo4j_port": PORT,
            "neo4j_http_port": HTTP_PORT,
            "neo4j_heap": "512m",
            "neo4j_pagecache_mb": 64,
        }
    )
    yield cfg
    local_server.stop(cfg)


def _count(cfg: Settings) -> int:
    with GraphDatabase.driver(cfg.local_uri, auth=None, notifications_min_severity="OFF") as d:
        records, _, _ = d.execute_query("MATCH (n:LauncherProbe) RETURN count(n) AS c")
        return int(records[0]["c"])


def test_start_is_idempotent_and_status_reports(own: Settings) -> None:
    first = local_server.start(own)
    assert first.running and first.bolt_ok
    again = local_server.start(own)
    assert again.pid == first.pid
    assert "answers RETURN 1" in local_server.status(own).describe()


def test_data_survives_stop_and_start(own: Settings) -> None:
    local_server.start(own)
    with GraphDatabase.driver(own.local_uri, auth=None) as d:
        d.execute_query("UNWIND range(1, 10) AS i CREATE (:LauncherProbe {i: i})")
    assert local_server.stop(own)
    assert not local_server.status(own).running
    local_server.start(own)
    assert _count(own) == 10


def test_kill_9_during_writes_loses_no_committed_write(own: Settings) -> None:
    """Every write acknowledged before a SIGKILL is there after restart (transaction log recovery)."""
    local_server.start(own)
    before = _count(own)
    committed = 0
    with GraphDatabase.driver(own.local_uri, auth=None) as d:
        for i in range(200):
            d.execute_query("CREATE (:LauncherProbe {i: $i})", i=i)
            committed += 1
    assert local_server.kill(own)
    assert not local_server.status(own).running
    local_server.start(own)
    assert _count(own) == before + committed


def test_neo4j_browser_is_served_on_the_http_connector(own: Settings) -> None:
    """The local Neo4j starts as the community server does (server.http.enabled): Neo4j's HTTP API
    and Neo4j Browser answer on loopback beside Bolt."""
    local_server.start(own)
    page = httpx.get(f"http://127.0.0.1:{HTTP_PORT}/browser/", timeout=30)
    assert page.status_code == 200
    assert "text/html" in page.headers["content-type"] and "Neo4j Browser" in page.text
    discovery = httpx.get(
        f"http://127.0.0.1:{HTTP_PORT}/", headers={"Accept": "application/json"}, timeout=30
    )
    assert discovery.json()["bolt_direct"].endswith(f":{PORT}")


def test_stop_when_not_running_says_so(own: Settings) -> None:
    local_server.stop(own)
    assert local_server.stop(own) is False


def test_log_file_is_written(own: Settings) -> None:
    assert Path(local_server.status(own).log_file).exists()
