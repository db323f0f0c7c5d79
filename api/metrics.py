"""Prometheus metrics, one registry per app (no global state; several apps can live in one process).

- ``graphmem_http_request_duration_seconds{method,route,status}``: latency by route *template*
  (``/v1/groups/{group}/search``), never by concrete path, so tenants and ids do not become labels;
- ``graphmem_search_duration_seconds{recipe}``: time inside ``GraphMemory.search``;
- ``graphmem_ingested_episodes_total{status}``, ``graphmem_ingested_facts_total{change}``;
- ``graphmem_errors_total{code}``: error responses by stable error code;
- ``graphmem_tenant_index_tenants``, ``graphmem_tenant_index_bytes`` (estimated) and
  ``graphmem_tenant_index_evictions``: this worker's in-process tenant indexes, read at each scrape;
- ``graphmem_write_transactions``, ``graphmem_write_writes``, ``graphmem_write_fallbacks`` and
  ``graphmem_write_queued``: group commit (writes per transaction) and the write queue, read likewise;
- ``graphmem_admission_running``, ``graphmem_admission_waiting`` and ``graphmem_admission_refused``:
  the worker's admission (``api/admission.py``): requests running and waiting now, 429s since start.

With ``uvicorn --workers N`` each worker keeps its own registry and a scrape reaches one of them;
run one worker per container (docs/deploy.md) to scrape each process separately.
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from graphmem.models.episode import IngestResult

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
CONTENT_TYPE = CONTENT_TYPE_LATEST


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.requests = Histogram(
            "graphmem_http_request_duration_seconds",
            "HTTP request latency by route template and status.",
            ["method", "route", "status"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.search = Histogram(
            "graphmem_search_duration_seconds",
            "Search latency inside GraphMemory.search, by recipe.",
            ["recipe"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.episodes = Counter(
            "graphmem_ingested_episodes", "Episodes received, by outcome.", ["status"], registry=self.registry
        )
        self.facts = Counter(
            "graphmem_ingested_facts", "Facts written, by kind of change.", ["change"], registry=self.registry
        )
        self.errors = Counter(
            "graphmem_errors", "Error responses by error code.", ["code"], registry=self.registry
        )

        self.indexes = {
            name: Gauge(f"graphmem_tenant_index_{name}", text, registry=self.registry)
            for name, text in (
                ("tenants", "Tenant indexes this worker holds."),
                ("bytes", "Estimated bytes of this worker's tenant indexes."),
                ("evictions", "Tenant indexes this worker has dropped for its budget since it started."),
            )
        }

        self.writes = {
            name: Gauge(f"graphmem_write_{name}", text, registry=self.registry)
            for name, text in (
                ("transactions", "Write transactions this worker has run since it started."),
                ("writes", "Writes those transactions carried (group commit: several a transaction)."),
                ("fallbacks", "Combined write transactions that failed and were retried write by write."),
                ("queued", "Writes waiting for their group's transaction now."),
            )
        }

        self.admission = {
            name: Gauge(f"graphmem_admission_{name}", text, registry=self.registry)
            for name, text in (
                ("running", "API requests this worker runs now."),
                ("waiting", "API requests waiting for a slot now."),
                ("refused", "API requests refused with 429 by admission since the worker started."),
            )
        }

    def observe_admission(self, running: int, waiting: int, refused: int) -> None:
        for name, value in (("running", running), ("waiting", waiting), ("refused", refused)):
            self.admission[name].set(value)

    def observe_writes(self, stats: dict[str, int]) -> None:
        for name, gauge in self.writes.items():
            gauge.set(stats.get(name, 0))

    def observe_indexes(self, stats: dict[str, int]) -> None:
        for name, gauge in self.indexes.items():
            gauge.set(stats.get(name, 0))

    def observe_ingest(self, result: IngestResult) -> None:
        for episode in result.episodes:
            self.episodes.labels(status=episode.status).inc()
        for fact in result.facts:
            self.facts.labels(change=fact.change).inc()

    def render(self) -> bytes:
        return generate_latest(self.registry)
