"""One table from ``GraphMemError.code`` to HTTP status; JSON bodies ``{code, message, details}``."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from api.logs import logger
from graphmem.errors import GraphMemError

STATUS_BY_CODE: dict[str, int] = {
    "invalid_input": 422,
    "invalid_time_range": 422,
    "invalid_query": 400,
    "unknown_parameter": 422,
    "result_too_deep": 422,
    "not_found": 404,
    "already_exists": 409,
    "conflict": 409,
    "idempotency_conflict": 409,
    "forbidden": 403,
    "unauthorized": 401,
    "payload_too_large": 413,
    "extraction_failed": 502,
    "config_error": 500,
    "embedding_mismatch": 500,
    "store_unavailable": 503,
    "overloaded": 429,
    "query_timeout": 504,
    "embedder_unavailable": 503,
    "internal": 500,
}

HEADERS_BY_CODE: dict[str, dict[str, str]] = {
    "store_unavailable": {"Retry-After": "5"},
    "embedder_unavailable": {"Retry-After": "5"},
    "unauthorized": {"WWW-Authenticate": 'Bearer realm="graphmem"'},
}

LOCATIONS = ("body", "query", "path", "header", "cookie")
# Tags of the discriminated unions in api/schemas (single item or batch); not part of a field's path.
UNION_TAGS = frozenset({"one", "batch"})

HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "invalid_input",
    428: "precondition_required",
    429: "too_many_requests",
}


def error_body(code: str, message: str, details: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"code": code, "message": message, "details": details or {}}


async def _graphmem_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, GraphMemError)
    status = STATUS_BY_CODE.get(exc.code, 500)
    request.state.error_code = exc.code
    headers = HEADERS_BY_CODE.get(exc.code)
    if exc.code == "overloaded":
        headers = {"Retry-After": str(exc.details.get("retry_after_s", 1))}
    if status == 503:  # the store is really unreachable: say why, once per response, for operators
        logger.warning("store_unavailable", extra={"error_code": exc.code, "details": exc.details})
    return JSONResponse(exc.to_dict(), status_code=status, headers=headers)


def _field(error: dict[str, Any]) -> tuple[str, str]:
    """(field path, location) of one pydantic error: ``episodes.0.content``, ``body``."""
    loc = [str(p) for p in error.get("loc", ())]
    where = loc[0] if loc and loc[0] in LOCATIONS else "body"
    parts = [p for p in (loc[1:] if loc and loc[0] in LOCATIONS else loc) if p not in UNION_TAGS]
    if error.get("type") == "json_invalid":
        parts = []
    return ".".join(parts) or where, where


async def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = []
    for e in exc.errors():
        field, where = _field(e)
        errors.append(
            {"field": field, "in": where, "message": str(e.get("msg", "invalid")), "type": e.get("type")}
        )
    first = errors[0] if errors else {"field": "body", "message": "invalid request"}
    request.state.error_code = "invalid_input"
    return JSONResponse(
        error_body("invalid_input", f"{first['field']}: {first['message']}", {"errors": errors}),
        status_code=422,
    )


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    code = HTTP_CODES.get(exc.status_code, "http_error")
    request.state.error_code = code
    return JSONResponse(
        error_body(code, str(exc.detail)), status_code=exc.status_code, headers=getattr(exc, "headers", None)
    )


async def _unhandled(request: Request, exc: Exception) -> JSONResponse:
    request.state.error_code = "internal"
    return JSONResponse(error_body("internal", "internal error"), status_code=500)


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(GraphMemError, _graphmem_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(Exception, _unhandled)
