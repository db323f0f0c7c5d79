"""The throwaway Neo4j (port 7697, a temporary data directory) that whole-database tests and runaway
queries use instead of the shared one: started once per session, with the runaway-query bounds
(small transaction memory limits), and emptied to a new database's state for each module."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest
from neo4j import GraphDatabase

from graphmem.config import Settings
from graphmem.store import local_server

THROWAWAY_PORT = 7697  # 7698-7699 are test_local_server's
TX_MEMORY_MB, TX_TOTAL_MEMORY_MB = 64, 200  # what test_runaway_cypher's memory-limit test runs into


@pytest.fixture(scope="session")
def throwaway_neo4j(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Settings]:
    data = tmp_path_factory.mktemp("n4-throwaway")
    cfg = Settings().model_copy(
        update={
            "neo4j_uri": None,
            "neo4j_dir": data,
            "neo4j_port": THROWAWAY_PORT,
            "neo4j_http_port": 0,
            "neo4j_heap": "512m",
            "neo4j_pagecache_mb": 64,
            "neo4j_tx_memory_mb": TX_MEMORY_MB,
            "neo4j_tx_total_memory_mb": TX_TOTAL_MEMORY_MB,
        }
    )
    # `graphmem neo4j start` in a child process: the detached server's Popen handle stays there
    env = {k: v for k, v in os.environ.items() if k != "NEO4J_URI"}
    env |= {
        "GRAPHMEM_NEO4J_DIR": str(data),
        "GRAPHMEM_NEO4J_PORT": str(THROWAWAY_PORT),
        "GRAPHMEM_NEO4J_HTTP_PORT": "0",  # Bolt only: the suite's own Neo4j holds the HTTP port
        "GRAPHMEM_NEO4J_HEAP": "512m",
        "GRAPHMEM_NEO4J_PAGECACHE_MB": "64",
        "GRAPHMEM_NEO4J_TX_MEMORY_MB": str(TX_MEMORY_MB),
        "GRAPHMEM_NEO4J_TX_TOTAL_MEMORY_MB": str(TX_TOTAL_MEMORY_MB),
    }
    started = subprocess.run(
        [sys.executable, "-m", "graphmem_cli.main", "neo4j", "start"], env=env, capture_output=True, text=True
    )
    assert started.returncode == 0, started.stdout + started.stderr
    yield cfg
    local_server.stop(cfg)


def empty_database(cfg: Settings) -> None:
    """Back to a new database: no nodes (so no model record or applied migrations), no constraints,
    no indexes but Neo4j's own token lookups."""
    with GraphDatabase.driver(cfg.local_uri, auth=None, notifications_min_severity="OFF") as driver:
        for (name,) in driver.execute_query("SHOW CONSTRAINTS YIELD name").records:
            driver.execute_query(f"DROP CONSTRAINT `{name}`")
        for (name,) in driver.execute_query(
            "SHOW INDEXES YIELD name, type WHERE type <> 'LOOKUP' RETURN name"
        ).records:
            driver.execute_query(f"DROP INDEX `{name}`")
        driver.execute_query("MATCH (n) DETACH DELETE n")
        left = driver.execute_query("MATCH (n) RETURN count(n) AS c").records[0]["c"]
        indexes = driver.execute_query("SHOW INDEXES YIELD type WHERE type <> 'LOOKUP' RETURN count(*) AS c")
    assert (left, indexes.records[0]["c"]) == (0, 0)


@pytest.fixture(scope="module")
def own(throwaway_neo4j: Settings) -> Settings:
    """The throwaway Neo4j for this module alone: what an earlier module left (its embedding model,
    vector dimensions, groups) is gone."""
    empty_database(throwaway_neo4j)
    return throwaway_neo4j
