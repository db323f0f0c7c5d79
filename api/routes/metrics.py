"""``/metrics``: Prometheus exposition of this process's registry."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from api.deps import MetricsDep
from api.metrics import CONTENT_TYPE

router = APIRouter(tags=["health"])


@router.get(
    "/metrics",
    operation_id="metrics",
    summary="Prometheus metrics",
    description="Request and search latency histograms, ingest counters, errors by code, tenant "
    "index memory and evictions, write transactions and the writes they carried, requests admitted, "
    "waiting and refused (no auth).",
    response_class=Response,
    responses={200: {"content": {CONTENT_TYPE.split(";")[0]: {"schema": {"type": "string"}}}}},
)
async def metrics(metrics: MetricsDep, request: Request) -> Response:
    memory = getattr(request.app.state, "memory", None)  # None while the service starts
    if memory is not None:
        metrics.observe_indexes(memory.index_stats())
        metrics.observe_writes(memory.write_stats())
    admission = getattr(request.app.state, "admission", None)  # None: no bound configured
    if admission is not None:
        metrics.observe_admission(admission.running, admission.waiting, admission.refused)
    return Response(metrics.render(), media_type=CONTENT_TYPE)
