"""One exception tree for graphmem, each class with a stable ``code``.

    GraphMemError (internal)
    ├── InvalidInput (invalid_input)
    │   ├── InvalidTimeRange (invalid_time_range)
    │   ├── InvalidQuery (invalid_query)
    │   ├── UnknownParameter (unknown_parameter)
    │   └── ResultTooDeep (result_too_deep)
    ├── NotFound (not_found)
    ├── AlreadyExists (already_exists)
    ├── Conflict (conflict)
    │   └── IdempotencyConflict (idempotency_conflict)
    ├── Forbidden (forbidden)
    ├── Unauthorized (unauthorized)
    ├── PayloadTooLarge (payload_too_large)
    ├── ExtractionFailed (extraction_failed)
    ├── ConfigError (config_error)
    │   └── EmbeddingMismatch (embedding_mismatch)
    ├── StoreUnavailable (store_unavailable, retryable)
    ├── Overloaded (overloaded, retryable: details.retry_after_s)
    ├── QueryTimeout (query_timeout)
    └── EmbedderUnavailable (embedder_unavailable, retryable)

The API maps ``code`` to an HTTP status in one table; the CLI prints ``code: message``.
"""

from __future__ import annotations

from typing import Any


class GraphMemError(Exception):
    """Root of every error graphmem raises on purpose."""

    code = "internal"
    retryable = False

    def __init__(self, message: str, *, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details: dict[str, Any] = details or {}

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "details": self.details}


class InvalidInput(GraphMemError):
    code = "invalid_input"


class InvalidTimeRange(InvalidInput):
    code = "invalid_time_range"


class InvalidQuery(InvalidInput):
    code = "invalid_query"


class UnknownParameter(InvalidInput):
    """A request parameter the operation does not take (a typo must not be silently ignored)."""

    code = "unknown_parameter"


class ResultTooDeep(InvalidInput):
    """A query's result nests values deeper than the encoder follows (``details.max_depth``)."""

    code = "result_too_deep"


class NotFound(GraphMemError):
    code = "not_found"


class AlreadyExists(GraphMemError):
    code = "already_exists"


class Conflict(GraphMemError):
    code = "conflict"


class IdempotencyConflict(Conflict):
    """An idempotency key (``external_id``) already names an episode with other content."""

    code = "idempotency_conflict"


class Forbidden(GraphMemError):
    code = "forbidden"


class Unauthorized(GraphMemError):
    code = "unauthorized"


class PayloadTooLarge(GraphMemError):
    code = "payload_too_large"


class ExtractionFailed(GraphMemError):
    code = "extraction_failed"


class ConfigError(GraphMemError):
    code = "config_error"


class EmbeddingMismatch(ConfigError):
    code = "embedding_mismatch"


class StoreUnavailable(GraphMemError):
    code = "store_unavailable"
    retryable = True


class Overloaded(GraphMemError):
    """Too much work is queued to take this request now; retry after ``details.retry_after_s``.
    Nothing was written (HTTP 429, where 503 would say the store is down)."""

    code = "overloaded"
    retryable = True


class QueryTimeout(GraphMemError):
    """A query ran past its deadline; the work was stopped (``details.timeout_s``)."""

    code = "query_timeout"


class EmbedderUnavailable(GraphMemError):
    """The embedding endpoint could not be used; ``details`` say what was tried (url, model, attempts)."""

    code = "embedder_unavailable"
    retryable = True
