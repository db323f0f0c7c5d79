"""The one source of 'now' (timezone-aware UTC) and time normalisation helpers."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


def as_utc(value: datetime) -> datetime:
    """Return ``value`` as aware UTC; naive datetimes are taken to be UTC."""
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


def parse_iso(text: str) -> datetime:
    """Parse an ISO 8601 timestamp (``Z`` accepted) into aware UTC."""
    return as_utc(datetime.fromisoformat(text.strip().replace("Z", "+00:00")))
