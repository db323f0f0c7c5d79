"""Shared response pieces: the error body and the error responses each route documents."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class ErrorBody(BaseModel):
    """Every error: a stable ``code``, a readable ``message`` and structured ``details``."""

    code: str = Field(description="Stable error code, e.g. not_found, conflict, forbidden.")
    message: str
    details: dict[str, Any] = {}

    model_config = {
        "json_schema_extra": {
            "examples": [{"code": "not_found", "message": "fact not found", "details": {"fact_id": "…"}}]
        }
    }


_DESCRIPTIONS = {
    400: "Bad request: a body that is not UTF-8 JSON, or invalid Cypher",
    401: "Missing or invalid API key",
    403: "The key may not access this group or operation",
    404: "Not found in this group",
    409: "Conflict (stale version, already changed)",
    413: "Request body or batch too large",
    422: "Invalid input; `details.errors[].field` names the field",
    428: "A required precondition header (If-Match) is missing",
    503: "Neo4j unavailable; retry after `Retry-After` seconds",
}


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` for the given error statuses (plus 400, 401, 403, 413, 422, 503 always)."""
    wanted = sorted({400, 401, 403, 413, 422, 503, *statuses})
    return {s: {"model": ErrorBody, "description": _DESCRIPTIONS[s]} for s in wanted}
