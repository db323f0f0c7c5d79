"""Export and import of a group over HTTP (admin keys): the JSONL of `graphmem export`/`import`."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import StreamingResponse

from api.deps import AdminGroup, MemoryDep
from api.schemas.common import errors
from api.schemas.lifecycle import ImportResponse
from graphmem.memory.lifecycle import records
from graphmem.models.common import UtcDatetime

router = APIRouter(prefix="/v1/groups/{group}", tags=["lifecycle"])

JSONL = "application/x-ndjson"


@router.get(
    "/export",
    operation_id="export_group",
    summary="Export a group as JSONL (admin)",
    description=(
        "Streams the group as JSONL, line for line what `graphmem export --group G` writes: a "
        "header, then nodes, then relationships (docs/lifecycle.md). `since` keeps nodes created or "
        "updated at or after it. The export reads one consistent snapshot: writes to the group wait "
        "until the stream ends."
    ),
    response_class=StreamingResponse,
    responses={200: {"content": {JSONL: {}}, "description": "JSONL records"}, **errors()},
)
async def export_group(
    group: AdminGroup,
    memory: MemoryDep,
    since: Annotated[
        UtcDatetime | None, Query(description="Only nodes created or updated since (ISO 8601).")
    ] = None,
) -> StreamingResponse:
    stream = memory.export_group(group, since)
    first = await anext(stream)  # the header: a store error is still a JSON error answer here
    return StreamingResponse(_lines(first, stream), media_type=JSONL)


async def _lines(first: dict[str, Any], rest: AsyncIterator[dict[str, Any]]) -> AsyncIterator[bytes]:
    yield (records.dumps(first) + "\n").encode("utf-8")
    async for record in rest:
        yield (records.dumps(record) + "\n").encode("utf-8")


@router.post(
    "/import",
    operation_id="import_group",
    summary="Import a JSONL export into this group (admin)",
    description=(
        "The body is an export's JSONL (of this group or another: ids are rewritten into this one), "
        "imported as `graphmem import FILE --group G` does: idempotent, re-embedded when the file's "
        "model differs. Episodes a forget tombstoned stay forgotten (`forgotten` in the report) "
        "unless `allow_forgotten=true`, which brings them back and deletes their tombstones. Every "
        "line is parsed before anything is written (a bad line is a 422 naming it). The body is "
        "bounded by `GRAPHMEM_MAX_BODY_BYTES`; import bigger files with the CLI."
    ),
    # the body is JSONL, sent as application/x-ndjson or text/plain (the route reads it either way);
    # declared as text/plain, a media type OpenAPI tools can generate and send
    openapi_extra={
        "requestBody": {
            "required": True,
            "description": "An export's JSONL: one JSON record per line.",
            "content": {"text/plain": {"schema": {"type": "string"}}},
        }
    },
    responses=errors(),
)
async def import_group(
    group: AdminGroup,
    request: Request,
    memory: MemoryDep,
    allow_forgotten: Annotated[
        bool, Query(description="Bring back episodes a forget tombstoned, deleting their tombstones.")
    ] = False,
) -> ImportResponse:
    body = (await request.body()).decode("utf-8", errors="strict")
    parsed = [
        records.loads(line, line_no=n) for n, line in enumerate(body.splitlines(), start=1) if line.strip()
    ]
    report = await memory.import_records(parsed, target_group=group, allow_forgotten=allow_forgotten)
    return ImportResponse.model_validate(report.model_dump())
