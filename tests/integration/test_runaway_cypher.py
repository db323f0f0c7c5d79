"""A runaway analyst query is bounded: client deadline, server timeout, reaper, memory limits.

These run against the throwaway local Neo4j (tests/integration/conftest.py, started by the launcher
with the runaway-query bounds), never the shared test server: a query that loops inside one
expression would keep a core of that server busy until it restarts.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from graphmem.config import Settings
from graphmem.memory import GraphMemory
from graphmem.ports import Embedder
from graphmem.providers.extractors.rules import RulesExtractor
from graphmem.store import local_server
from graphmem.store.driver import Store
from tests.api.conftest import Api, make_api

TIMEOUT_S = 2.0
RUNAWAY = "RETURN reduce(s = '', i IN range(1, 100000000) | s + 'x') AS x"
HUNGRY = "UNWIND range(1, 30000000) AS i RETURN size(collect(i)) AS n"


@pytest.fixture(scope="module")
def own_neo4j(own: Settings) -> Settings:
    """The throwaway Neo4j (tests/integration/conftest.py), emptied for this module; it runs with
    the runaway-query bounds (small transaction memory limits) that these tests hit."""
    assert (own.neo4j_tx_memory_mb, own.neo4j_tx_total_memory_mb) == (64, 200)
    return own


@pytest.fixture
async def own_api(own_neo4j: Settings, embedder: Embedder) -> AsyncIterator[Api]:
    store = Store.connect(own_neo4j.local_uri, auth=None, database="neo4j")
    try:
        memory = await GraphMemory.open(store=store, embedder=embedder, extractor=RulesExtractor())
        settings = own_neo4j.model_copy(update={"neo4j_uri": own_neo4j.local_uri})
        async with make_api(memory, settings, cypher_timeout_s=TIMEOUT_S) as api:
            yield api
    finally:
        await store.close()


def _log(cfg: Settings) -> str:
    return Path(local_server.status(cfg).log_file).read_text()


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _settles(pid: int, *, window_s: float = 1.0, busy_below: float = 0.3, tries: int = 30) -> bool:
    """Whether the process's CPU use falls below ``busy_below`` cores over some ``window_s``."""
    for _ in range(tries):
        before = _cpu_seconds(pid)
        await asyncio.sleep(window_s)
        if (_cpu_seconds(pid) - before) / window_s < busy_below:
            return True
    return False


async def test_a_query_looping_in_one_expression_answers_504_and_the_server_goes_idle(
    own_api: Api, own_neo4j: Settings
) -> None:
    """Regression (issue 16, defect 5): ``RETURN reduce(s='', i IN range(1,100000000) | s + 'x')``
    never answered (the transaction timeout marks the transaction terminated, but an expression
    never looks at the mark) and kept a Neo4j core at 100% for minutes. The API now answers 504
    ``query_timeout`` at its deadline, the launcher's reaper stops the query's thread, and the
    server keeps serving."""
    pid = local_server.status(own_neo4j).pid
    assert pid is not None
    # the bound under test is the API's own deadline: without it the call waits for the query
    # (minutes) and this guard fails it; no tighter wall-clock limit, which a loaded host breaks
    async with asyncio.timeout(TIMEOUT_S + 30):
        r = await own_api.call("analyst", "POST", "/v1/cypher", json={"query": RUNAWAY})
    assert r.status_code == 504, r.text
    assert r.json()["code"] == "query_timeout" and r.json()["details"]["timeout_s"] == TIMEOUT_S
    assert await _settles(pid)
    ok = await own_api.call("analyst", "POST", "/v1/cypher", json={"query": "RETURN 1 AS one"})
    assert ok.status_code == 200 and ok.json()["rows"] == [{"one": 1}]
    assert "stopping thread" in _log(own_neo4j)


async def test_a_query_past_the_transaction_memory_limit_is_refused(own_api: Api) -> None:
    """Regression (issue 16, defect 5): the local Neo4j ran without per-transaction and total
    transaction memory limits, so one analyst query could take the heap; past
    ``db.memory.transaction.max`` it is a 400 ``invalid_query`` with ``reason: memory_limit``, not
    a retryable 503."""
    r = await own_api.call("analyst", "POST", "/v1/cypher", json={"query": HUNGRY})
    assert r.status_code == 400, r.text
    assert r.json()["code"] == "invalid_query" and r.json()["details"]["reason"] == "memory_limit"
