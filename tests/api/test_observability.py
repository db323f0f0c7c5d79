"""Errors when Neo4j is down, request ids, Prometheus metrics and JSON logs without content or keys."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator

import httpx
import pytest

from api.logs import LOGGER_NAME, JsonFormatter
from api.main import create_app
from graphmem.config import Settings
from graphmem.memory import GraphMemory
from graphmem.memory.context import MemoryContext
from graphmem.providers.embedders.minilm_numpy import MiniLMEmbedder
from graphmem.providers.extractors.rules import RulesExtractor
from graphmem.store.driver import Store
from tests.api.conftest import KEYS, Api


async def test_neo4j_down_is_503_with_retry_after(settings: Settings, embedder: MiniLMEmbedder) -> None:
    store = Store.connect("bolt://127.0.0.1:1", auth=None, database="neo4j")
    down = GraphMemory(MemoryContext(store=store, embedder=embedder, extractor=RulesExtractor()))
    app = create_app(settings.model_copy(update={"no_auth": True}), memory=down)
    try:
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
                calls = [
                    client.get("/v1/groups/g/facts"),
                    client.post("/v1/groups/g/search", json={"query": "anything"}),
                    client.post(
                        "/v1/groups/g/episodes",
                        json={"content": "hi", "reference_time": "2024-01-01T00:00:00Z"},
                    ),
                    client.post("/v1/cypher", json={"query": "RETURN 1"}),
                    client.get("/readyz"),
                ]
                for call in calls:
                    r = await call
                    assert r.status_code == 503, r.text
                    assert r.json()["code"] == "store_unavailable"
                    assert int(r.headers["Retry-After"]) > 0
                    assert "Traceback" not in r.text
    finally:
        await store.close()


async def test_request_id_is_echoed_or_generated(api: Api) -> None:
    r = await api.client.get("/healthz", headers={"X-Request-ID": "abc-123"})
    assert r.headers["X-Request-ID"] == "abc-123"
    generated = await api.client.get("/healthz", headers={"X-Request-ID": "bad id with spaces"})
    assert len(generated.headers["X-Request-ID"]) == 32
    error = await api.client.get("/v1/groups/x/facts")
    assert error.status_code == 401 and error.headers["X-Request-ID"]


async def test_metrics_count_requests_search_ingest_and_errors(api: Api) -> None:
    g = api.group_a
    await api.call(
        "agent_a", "POST", f"/v1/groups/{g}/facts", json={"subject": "a", "predicate": "likes", "value": "b"}
    )
    await api.call("agent_a", "POST", f"/v1/groups/{g}/search", json={"query": "likes"})
    await api.call("agent_b", "GET", f"/v1/groups/{g}/facts")
    await api.call("agent_a", "GET", f"/v1/groups/{g}/facts/nope")
    text = (await api.client.get("/metrics")).text
    assert (
        'graphmem_http_request_duration_seconds_count{method="POST",route="/v1/groups/{group}/search",status="200"} 1.0'
        in text
    )
    assert 'graphmem_search_duration_seconds_count{recipe="default"} 1.0' in text
    assert 'graphmem_ingested_facts_total{change="created"} 1.0' in text
    assert 'graphmem_errors_total{code="forbidden"} 1.0' in text
    assert 'graphmem_errors_total{code="not_found"} 1.0' in text
    assert g not in text  # tenants and ids never become labels
    written = {
        m: float(text.split(f"\n{m} ", 1)[1].split()[0])
        for m in ("graphmem_write_transactions", "graphmem_write_writes")
    }
    assert written["graphmem_write_writes"] >= written["graphmem_write_transactions"] >= 1
    # admission: nothing runs or waits once the requests are answered, nothing was refused
    for gauge in ("running", "waiting", "refused"):
        assert f"\ngraphmem_admission_{gauge} 0.0" in text


@pytest.fixture
def log_lines() -> Iterator[list[str]]:
    lines: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(JsonFormatter().format(record))

    logger = logging.getLogger(LOGGER_NAME)
    handler = Collect()
    logger.addHandler(handler)
    previous = logger.level
    logger.setLevel(logging.INFO)
    yield lines
    logger.removeHandler(handler)
    logger.setLevel(previous)


async def test_logs_are_json_with_request_id_and_no_content_or_keys(api: Api, log_lines: list[str]) -> None:
    secret_text = "Mallory's secret diary entry"
    r = await api.call(
        "agent_a",
        "POST",
        f"/v1/groups/{api.group_a}/episodes",
        json={"content": secret_text, "reference_time": "2024-01-01T00:00:00Z"},
        headers={"X-Request-ID": "req-42"},
    )
    assert r.status_code == 201
    await api.client.get(
        "/v1/groups/x/facts", headers={"Authorization": "Bearer " + KEYS["admin"] + "-wrong"}
    )
    records = [json.loads(line) for line in log_lines]
    mine = next(rec for rec in records if rec.get("request_id") == "req-42")
    assert mine["route"] == "/v1/groups/{group}/episodes" and mine["status"] == 201
    assert mine["key_id"] == "agent-a" and mine["group_id"] == api.group_a
    everything = "\n".join(log_lines)
    assert secret_text not in everything and "Mallory" not in everything
    assert not any(key in everything for key in KEYS.values())
    assert "embedding" not in everything


async def test_unexpected_errors_are_json_500_without_details(
    api: Api, memory: GraphMemory, log_lines: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    async def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("Mallory's private words")

    monkeypatch.setattr(memory, "get_fact", boom)
    r = await api.call(
        "agent_a", "GET", f"/v1/groups/{api.group_a}/facts/f1", headers={"X-Request-ID": "boom-1"}
    )
    assert r.status_code == 500 and r.json() == {
        "code": "internal",
        "message": "internal error",
        "details": {},
    }
    assert r.headers["X-Request-ID"] == "boom-1"
    crash = next(json.loads(line) for line in log_lines if "unhandled_error" in line)
    assert crash["error_type"] == "RuntimeError" and crash["request_id"] == "boom-1"
    assert "Mallory" not in "\n".join(log_lines)
    assert 'graphmem_errors_total{code="internal"} 1.0' in (await api.client.get("/metrics")).text
