"""Structured JSON logs: one line per request, with a request id; never content, embeddings or keys.

Only whitelisted fields reach the output (``FIELDS``), so a stray ``extra=`` cannot leak a body.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any

LOGGER_NAME = "graphmem.api"
FIELDS = (
    "request_id",
    "method",
    "route",
    "status",
    "duration_ms",
    "group_id",
    "key_id",
    "error_code",
    "error_type",
    "where",
)

logger = logging.getLogger(LOGGER_NAME)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "event": record.getMessage(),
        }
        for name in FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                out[name] = value
        return json.dumps(out, ensure_ascii=False)


def configure_logging(level: str = "INFO") -> None:
    """Send ``graphmem.api`` logs to stderr as JSON lines (idempotent). Called at the edge only."""
    if any(getattr(h, "_graphmem", False) for h in logger.handlers):
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    handler._graphmem = True  # type: ignore[attr-defined]
    logger.addHandler(handler)
    logger.setLevel(level)
    logger.propagate = False
