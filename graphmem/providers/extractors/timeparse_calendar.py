"""Calendar arithmetic and the rule shape shared by the English and Chinese time tables."""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from graphmem.clock import as_utc

Handler = Callable[[re.Match[str], datetime], datetime | None]
"""Resolves one matched phrase against the reference day (midnight UTC)."""


@dataclass(frozen=True, slots=True)
class TimeRule:
    """A phrase pattern (named groups allowed), its resolver, and whether it points ahead."""

    source: str
    handler: Handler
    future: bool = False


def midnight(value: datetime) -> datetime:
    return as_utc(value).replace(hour=0, minute=0, second=0, microsecond=0)


def add_months(value: datetime, months: int) -> datetime:
    years, month0 = divmod(value.month - 1 + months, 12)
    year = value.year + years
    day = min(value.day, calendar.monthrange(year, month0 + 1)[1])
    return value.replace(year=year, month=month0 + 1, day=day)


def shift(day: datetime, unit: str, amount: int) -> datetime:
    if unit.startswith("day"):
        return day + timedelta(days=amount)
    if unit.startswith("week"):
        return day + timedelta(days=7 * amount)
    if unit.startswith("month"):
        return add_months(day, amount)
    return add_months(day, 12 * amount)


def past_weekday(day: datetime, weekday: int) -> datetime:
    """The most recent ``weekday`` strictly before ``day``."""
    return day - timedelta(days=(day.weekday() - weekday) % 7 or 7)


def next_weekday(day: datetime, weekday: int) -> datetime:
    return day + timedelta(days=(weekday - day.weekday()) % 7 or 7)


def make_date(year: int, month: int, day: int = 1) -> datetime | None:
    """Midnight UTC on that day, or None for an impossible date (February 30th)."""
    try:
        return datetime(year, month, day, tzinfo=UTC)
    except ValueError:
        return None


def past_date(ref: datetime, month: int, day: int = 1) -> datetime | None:
    """``month``/``day`` in the reference year, or the year before when that is still ahead."""
    candidate = make_date(ref.year, month, day)
    if candidate is not None and candidate <= ref:
        return candidate
    return make_date(ref.year - 1, month, day)
