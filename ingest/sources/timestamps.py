"""Turn the timestamps found in logs into aware UTC datetimes, refusing absurd ones.

Accepted: ISO 8601 strings (naive ones are read in ``tz``), epoch numbers or numeric strings,
and LoCoMo's "1:56 pm on 8 May, 2023". Anything before 1970, after ``MAX_YEAR``, or more than a day
after ``now`` raises ``ValueError`` with the reason.

Epoch numbers carry no unit, so the magnitude picks one (``EPOCH_UNITS``): below 1e11 seconds,
below 1e14 milliseconds, below 1e17 microseconds, else nanoseconds. A number that is also a
date (up to year 9999) in the next smaller unit is refused as ambiguous instead of guessed:
253402300799 is 9999-12-31 in seconds and 1978-01-11 in milliseconds. So milliseconds (and micro-,
nanoseconds) before 1978-01-12 are refused; send ISO 8601 for those (docs/ingest.md).
"""

from __future__ import annotations

import math
import re
from datetime import UTC, datetime, timedelta, tzinfo
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from graphmem.clock import utc_now
from graphmem.models.episode import REFERENCE_TIME_MAX, REFERENCE_TIME_MIN

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
MAX_YEAR = REFERENCE_TIME_MAX.year  # the episode model's range, one rule for the API and ingest
FUTURE_SLACK = timedelta(days=1)
# (lower bound of the magnitude, units per second, name), largest first: the first bound the
# magnitude reaches picks the unit.
EPOCH_UNITS = (
    (1e17, 1_000_000_000, "nanoseconds"),
    (1e14, 1_000_000, "microseconds"),
    (1e11, 1_000, "milliseconds"),
    (0.0, 1, "seconds"),
)
_NUMERIC = re.compile(r"^[+-]?\d+(\.\d+)?$")
_LOCOMO = re.compile(
    r"^(\d{1,2}):(\d{2})\s*([ap])\.?m\.?\s+on\s+(\d{1,2})\s+([a-z]+)\.?,?\s+(\d{4})$", re.IGNORECASE
)
_MONTHS = (
    "january", "february", "march", "april", "may", "june",
    "july", "august", "september", "october", "november", "december",
)  # fmt: skip


@lru_cache(maxsize=64)
def resolve_timezone(name: str) -> tzinfo:
    """The tzinfo for a zoneinfo name ("UTC", "Asia/Shanghai"); ValueError when unknown."""
    if name.upper() in ("UTC", "Z"):
        return UTC
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"unknown timezone {name!r}") from None


def normalize_timestamp(value: object, tz: str | tzinfo = "UTC", *, now: datetime | None = None) -> datetime:
    """Return ``value`` as an aware UTC datetime, or raise ValueError saying why it is refused."""
    zone = resolve_timezone(tz) if isinstance(tz, str) else tz
    moment = _parse(value, zone)
    _check_plausible(moment, utc_now() if now is None else now)
    return moment


def _parse(value: object, zone: tzinfo) -> datetime:
    if isinstance(value, bool) or value is None:
        raise ValueError(f"not a timestamp: {value!r}")
    if isinstance(value, datetime):
        return _localize(value, zone)
    if isinstance(value, int | float):
        return _from_epoch(value)
    if not isinstance(value, str):
        raise ValueError(f"not a timestamp: {type(value).__name__}")
    text = value.strip()
    if not text:
        raise ValueError("empty timestamp")
    if _NUMERIC.match(text):
        return _from_epoch(float(text) if "." in text else int(text))
    match = _LOCOMO.match(text)
    if match:
        return _localize(_from_locomo(match), zone)
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"unrecognised timestamp {text[:80]!r}") from None
    return _localize(parsed, zone)


def _localize(moment: datetime, zone: tzinfo) -> datetime:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=zone)
    try:
        return moment.astimezone(UTC)
    except OverflowError:
        raise ValueError(f"timestamp {moment.isoformat()} is out of range") from None


def _from_epoch(number: float) -> datetime:
    if not math.isfinite(number):
        raise ValueError(f"not a timestamp: {number!r}")
    index = next(i for i, (bound, _, _) in enumerate(EPOCH_UNITS) if abs(number) >= bound)
    moment = _epoch_in(number, EPOCH_UNITS[index][1])
    if moment is None:
        raise ValueError(f"epoch timestamp {number!r} is out of range")
    if index + 1 < len(EPOCH_UNITS):  # the next smaller unit, the one the magnitude passed over
        _, per_second, unit = EPOCH_UNITS[index + 1]
        other = _epoch_in(number, per_second)
        if other is not None and other >= EPOCH:
            raise ValueError(
                f"ambiguous epoch timestamp {number!r}: {moment.isoformat()} in "
                f"{EPOCH_UNITS[index][2]} or {other.isoformat()} in {unit}; send ISO 8601"
            )
    return moment


def _epoch_in(number: float, per_second: int) -> datetime | None:
    try:
        if isinstance(number, int):
            return EPOCH + timedelta(microseconds=number * 1_000_000 // per_second)
        return EPOCH + timedelta(seconds=number / per_second)
    except OverflowError:
        return None


def _from_locomo(match: re.Match[str]) -> datetime:
    hour, minute, half, day, month_name, year = match.groups()
    month = _month_number(month_name)
    hour_24 = int(hour) % 12 + (12 if half.lower() == "p" else 0)
    if int(hour) > 12:
        raise ValueError(f"hour {hour} is not a 12-hour clock hour")
    return datetime(int(year), month, int(day), hour_24, int(minute))


def _month_number(name: str) -> int:
    """1-12 for a month name or an abbreviation of at least three letters ("Sept", "may")."""
    lowered = name.lower()
    for number, month in enumerate(_MONTHS, start=1):
        if len(lowered) >= 3 and month.startswith(lowered):
            return number
    raise ValueError(f"unknown month {name!r}")


def _check_plausible(moment: datetime, now: datetime) -> None:
    if moment < REFERENCE_TIME_MIN:
        raise ValueError(f"absurd timestamp {moment.isoformat()}: before 1970-01-01")
    if moment.year > MAX_YEAR:
        raise ValueError(f"absurd timestamp {moment.isoformat()}: after year {MAX_YEAR}")
    if moment > now + FUTURE_SLACK:
        raise ValueError(f"absurd timestamp {moment.isoformat()}: more than 1 day in the future")
