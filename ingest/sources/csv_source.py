"""CSV messages with a header row, streamed through the csv module one record at a time.

A column mapping (episode field → column name) overrides the defaults, which are the field names
themselves (``content``, ``timestamp``, ``speaker``, ``session_id``, ``external_id``,
``group_id``; the group column defaults to ``group_field``). Quoted fields may span lines; such a
record's ``line`` is its first line and its resume position its last.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator, Mapping
from datetime import tzinfo
from pathlib import Path

from graphmem.errors import InvalidInput
from ingest.sources.base import (
    MESSAGE_FIELDS,
    RawLine,
    RecordError,
    SourceItem,
    decode_line,
    iter_lines,
    message_item,
    raw_text,
    rejected,
)

REQUIRED_FIELDS = ("content", "timestamp")


class _LineFeed:
    """Feeds decoded lines to ``csv.reader`` and remembers which lines made up the last record."""

    def __init__(self, lines: Iterator[RawLine]) -> None:
        self._lines = lines
        self.first = self.last = self.end = 0
        self.error: str | None = None
        self.raw: list[str] = []

    def __iter__(self) -> _LineFeed:
        return self

    def __next__(self) -> str:
        raw = next(self._lines)
        if not self.first:
            self.first = raw.number
        self.last, self.end = raw.number, raw.end
        try:
            text = decode_line(raw)
        except RecordError as exc:
            self.error = self.error or str(exc)
            text = raw.data.decode("utf-8", "replace")
        if sum(map(len, self.raw)) < 2000:
            self.raw.append(text)
        return text

    def reset(self) -> None:
        self.first, self.error, self.raw = 0, None, []


def read_csv(
    path: str | Path,
    *,
    zone: tzinfo,
    group: str | None,
    group_field: str = "group_id",
    mapping: Mapping[str, str] | None = None,
    start_offset: int = 0,
    start_line: int = 0,
) -> Iterator[SourceItem]:
    """Yield one item per data row of a CSV file, resuming at ``start_offset``."""
    name = str(path)
    header, header_end, header_lines = _read_header(path)
    if header is None:
        return
    columns = resolve_columns(header, mapping, group_field)
    lines = iter_lines(
        path, start_offset=max(start_offset, header_end), start_line=max(start_line, header_lines)
    )
    feed = _LineFeed(lines)
    reader = csv.reader(feed)
    while True:
        feed.reset()
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            yield _reject(name, feed, f"malformed CSV: {exc}")
            continue
        if row:
            yield _row_item(name, feed, header, row, columns, zone, group)


def _row_item(
    name: str,
    feed: _LineFeed,
    header: list[str],
    row: list[str],
    columns: Mapping[str, str],
    zone: tzinfo,
    group: str | None,
) -> SourceItem:
    if feed.error:
        return _reject(name, feed, feed.error)
    if len(row) != len(header):
        return _reject(name, feed, f"expected {len(header)} columns, got {len(row)}")
    try:
        group_id, episode = message_item(
            dict(zip(header, row, strict=True)), columns, zone=zone, default_group=group
        )
    except RecordError as exc:
        return _reject(name, feed, str(exc))
    resume = None if feed.first == feed.last else feed.last
    return SourceItem(name, feed.first, feed.end, group_id, episode, resume_line=resume)


def _reject(name: str, feed: _LineFeed, reason: str) -> SourceItem:
    resume = None if feed.first == feed.last else feed.last
    raw = raw_text("".join(feed.raw))
    return rejected(name, feed.first or feed.last, feed.end, reason, raw, resume_line=resume)


def _read_header(path: str | Path) -> tuple[list[str] | None, int, int]:
    """The header row (None for an empty file), the offset after it and its last line number."""
    feed = _LineFeed(iter_lines(path))
    try:
        row = next(row for row in csv.reader(feed) if row)
    except StopIteration:
        return None, 0, 0
    except csv.Error as exc:
        feed.error = f"malformed CSV: {exc}"
    if feed.error:
        raise InvalidInput(f"{path}: bad CSV header: {feed.error}", details={"path": str(path)})
    return [column.strip() for column in row], feed.end, feed.last


def resolve_columns(header: list[str], mapping: Mapping[str, str] | None, group_field: str) -> dict[str, str]:
    """Episode field → column name; InvalidInput for unknown fields or missing required columns."""
    columns = {field: field for field in MESSAGE_FIELDS} | {"group_id": group_field}
    unknown = sorted(set(mapping or {}) - set(MESSAGE_FIELDS))
    if unknown:
        raise InvalidInput(f"unknown CSV mapping fields: {', '.join(unknown)}")
    columns |= dict(mapping or {})
    missing = [columns[field] for field in REQUIRED_FIELDS if columns[field] not in header]
    if missing:
        raise InvalidInput(
            f"CSV header lacks column(s): {', '.join(missing)}", details={"header": header[:50]}
        )
    return columns
