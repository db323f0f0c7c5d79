"""Streaming readers that turn log files into :class:`SourceItem` s (episodes or rejections).

``open_source(path, fmt, ...)`` picks the reader for ``fmt`` (one of ``FORMATS``). Plain and
gzip files are read in constant memory, except the whole-document formats (``locomo``,
``longmemeval``, and ``openai`` when the file is one JSON document) which load one file at a time.
To resume, pass ``start_offset, start_line = item.resume_from`` of the last item handled.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

from graphmem.errors import InvalidInput
from ingest.sources.base import SourceItem
from ingest.sources.csv_source import read_csv
from ingest.sources.jsonl import read_jsonl
from ingest.sources.locomo import read_locomo
from ingest.sources.longmemeval import read_longmemeval
from ingest.sources.openai_chat import read_openai_chat
from ingest.sources.timestamps import normalize_timestamp, resolve_timezone

FORMATS: tuple[str, ...] = ("csv", "jsonl", "locomo", "longmemeval", "openai")

__all__ = ["FORMATS", "SourceItem", "normalize_timestamp", "open_source"]


def open_source(
    path: str | Path,
    fmt: str,
    *,
    timezone: str = "UTC",
    group: str | None = None,
    group_field: str = "group_id",
    csv_mapping: Mapping[str, str] | None = None,
    start_offset: int = 0,
    start_line: int = 0,
) -> Iterator[SourceItem]:
    """Items of ``path`` read as ``fmt``, from ``start_offset``/``start_line`` on.

    ``timezone`` (a zoneinfo name) is how naive timestamps are read; ``group`` is the group id of
    records that carry none (LoCoMo: the prefix of ``<group>-<sample_id>``; LongMemEval: of
    ``<group>-<question_id>``). Raises InvalidInput for an unknown format or timezone, a missing
    file, or negative start positions.
    """
    if fmt not in FORMATS:
        raise InvalidInput(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
    if start_offset < 0 or start_line < 0:
        raise InvalidInput("start_offset and start_line must be >= 0")
    if not Path(path).is_file():
        raise InvalidInput(f"no such file: {path}", details={"path": str(path)})
    try:
        zone = resolve_timezone(timezone)
    except ValueError as exc:
        raise InvalidInput(str(exc), details={"timezone": timezone}) from None
    position = {"start_offset": start_offset, "start_line": start_line}
    if fmt == "locomo":
        return read_locomo(path, zone=zone, group=group, start_line=start_line)
    if fmt == "longmemeval":
        return read_longmemeval(path, zone=zone, group=group, start_line=start_line)
    if fmt == "csv":
        return read_csv(
            path, zone=zone, group=group, group_field=group_field, mapping=csv_mapping, **position
        )
    reader = read_jsonl if fmt == "jsonl" else read_openai_chat
    return reader(path, zone=zone, group=group, group_field=group_field, **position)
