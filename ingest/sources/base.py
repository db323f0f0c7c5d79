"""The item every reader yields, and the byte-offset line reader they share.

Resume contract: after handling an item, ``item.resume_from`` is the ``(start_offset, start_line)``
pair to hand back to ``open_source`` to continue *after* it. Byte offsets always count the
*uncompressed* stream; ``.gz`` files are re-read and skipped forward on resume. Delivery is
at-least-once: an item may be yielded again after a resume, never skipped.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime, tzinfo
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from graphmem.errors import InvalidInput
from graphmem.models.episode import EpisodeIn
from ingest.sources.timestamps import normalize_timestamp

RAW_LIMIT = 2000
MESSAGE_FIELDS = ("content", "timestamp", "speaker", "session_id", "external_id", "group_id")
MAX_LINE_BYTES = 16 * 1024 * 1024
_GZIP_MAGIC = b"\x1f\x8b"
_GROUP_RE = re.compile(r"^[A-Za-z0-9_.:\-]{1,128}$")  # graphmem.models.common.GroupId


class RecordError(ValueError):
    """One record cannot become an episode; the message is the dead-letter reason."""


@dataclass(frozen=True, slots=True)
class SourceItem:
    """One record read from a source: an episode, or a rejection with its reason.

    ``line`` is the 1-based physical line (record index for whole-file formats); ``offset`` the
    byte offset in the uncompressed stream after this record (0 for whole-file formats).
    ``resume_line`` is set only when the line to resume from differs from ``line`` (a record
    spanning several lines, or one of several episodes read from the same line).
    """

    path: str
    line: int
    offset: int
    group_id: str
    episode: EpisodeIn | None
    error: str | None = None
    raw: str | None = None
    resume_line: int | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def resume_from(self) -> tuple[int, int]:
        """``(start_offset, start_line)`` that continues right after this item."""
        return self.offset, self.line if self.resume_line is None else self.resume_line


@dataclass(frozen=True, slots=True)
class RawLine:
    """One physical line: its 1-based number, the offset after it, and its bytes."""

    number: int
    start: int
    end: int
    data: bytes
    too_long: bool = False


def open_binary(path: str | Path) -> io.BufferedIOBase:
    """Open ``path`` for binary reading, transparently decompressing gzip (by magic bytes)."""
    fh = open(path, "rb")
    if fh.read(2) == _GZIP_MAGIC:
        fh.close()
        return gzip.open(path, "rb")
    fh.seek(0)
    return fh


def _skip_to(fh: io.BufferedIOBase, offset: int, path: str | Path) -> None:
    """Move to ``offset`` (a real seek for plain files, read-and-discard for gzip), checking that
    it is a line start inside the stream: otherwise the file changed since the checkpoint."""
    if offset == 0:
        return
    if isinstance(fh, gzip.GzipFile):
        remaining, last = offset, b""
        while remaining > 0 and (chunk := fh.read(min(remaining, 1 << 20))):
            remaining, last = remaining - len(chunk), chunk[-1:]
    else:
        size = os.fstat(fh.fileno()).st_size
        fh.seek(max(min(offset, size) - 1, 0))
        last, remaining = fh.read(1), max(offset - size, 0)
    if remaining or last != b"\n":
        where = "past the end" if remaining else "not at a line start"
        raise InvalidInput(
            f"resume offset {offset} is {where} of {path}: the file changed since the checkpoint",
            details={"path": str(path), "offset": offset},
        )


def _read_line(fh: io.BufferedIOBase, limit: int) -> tuple[bytes, int, bool]:
    """Read one line of at most ``limit`` kept bytes; return (kept, consumed, too_long)."""
    data = fh.readline(limit + 1)
    if len(data) <= limit or data.endswith(b"\n"):
        return data, len(data), False
    consumed = len(data)
    while True:  # drain the rest of an over-long line without keeping it
        part = fh.readline(1 << 20)
        consumed += len(part)
        if not part or part.endswith(b"\n"):
            return data[:limit], consumed, True


def iter_lines(
    path: str | Path,
    *,
    start_offset: int = 0,
    start_line: int = 0,
    max_line_bytes: int = MAX_LINE_BYTES,
) -> Iterator[RawLine]:
    """Yield the lines of ``path`` (plain or gzip) from ``start_offset``, in constant memory.

    ``start_line`` is the number of lines before ``start_offset``; numbering continues from it.
    """
    if start_offset < 0 or start_line < 0:
        raise ValueError("start_offset and start_line must be >= 0")
    with open_binary(path) as fh:
        _skip_to(fh, start_offset, path)
        offset, number = start_offset, start_line
        while True:
            data, consumed, too_long = _read_line(fh, max_line_bytes)
            if not consumed:
                return
            number += 1
            yield RawLine(number, offset, offset + consumed, data, too_long)
            offset += consumed


def decode_line(raw: RawLine) -> str:
    """Decode one line as UTF-8 (a BOM on line 1 is dropped); raise RecordError otherwise."""
    if raw.too_long:
        raise RecordError(f"line too long: more than {len(raw.data)} bytes")
    data = raw.data[3:] if raw.number == 1 and raw.data.startswith(b"\xef\xbb\xbf") else raw.data
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(f"undecodable: {exc.reason} at byte {exc.start}") from None


def raw_text(data: bytes | str | None) -> str | None:
    """The dead-letter copy of a record: text, truncated to ``RAW_LIMIT`` characters."""
    if data is None:
        return None
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    return text.rstrip("\r\n")[:RAW_LIMIT]


def text_field(record: Mapping[str, Any], name: str, *, required: bool = False) -> str | None:
    """A string field of a record; numbers are turned into strings, blanks into None."""
    value = record.get(name)
    if isinstance(value, bool) or not isinstance(value, str | int | float | type(None)):
        raise RecordError(f"field {name} must be a string")
    text = None if value is None else str(value).strip() or None
    if required and text is None:
        raise RecordError(f"missing field: {name}")
    return text


def resolve_group(value: str | None, default: str | None) -> str:
    """The record's group id, else the run's default; both must be valid group ids."""
    group = value or default
    if not group:
        raise RecordError("missing field: group_id (and no default group given)")
    if not _GROUP_RE.match(group):
        raise RecordError(f"invalid group_id {group[:200]!r}")
    return group


def build_episode(**fields: Any) -> EpisodeIn:
    """Validate an episode, turning pydantic's errors into one short RecordError reason."""
    try:
        return EpisodeIn(**fields)
    except ValidationError as exc:
        parts = [f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()[:3]]
        raise RecordError("invalid episode: " + "; ".join(parts)) from None


def rejected(
    path: str,
    line: int,
    offset: int,
    reason: str,
    raw: bytes | str | None,
    *,
    group_id: str = "",
    resume_line: int | None = None,
) -> SourceItem:
    """A rejected item (no episode) carrying the reason and the raw record."""
    return SourceItem(path, line, offset, group_id, None, reason, raw_text(raw), resume_line)


def reference_time(value: object, zone: tzinfo, *, field: str = "timestamp") -> datetime:
    """A record's timestamp as aware UTC; RecordError naming ``field`` when missing or absurd."""
    if value is None or (isinstance(value, str) and not value.strip()):
        raise RecordError(f"missing field: {field}")
    try:
        return normalize_timestamp(value, zone)
    except ValueError as exc:
        raise RecordError(f"bad {field}: {exc}") from None


def message_item(
    record: Mapping[str, Any],
    columns: Mapping[str, str],
    *,
    zone: tzinfo,
    default_group: str | None,
) -> tuple[str, EpisodeIn]:
    """Group id and episode of a flat message record; ``columns`` maps MESSAGE_FIELDS to keys."""
    content = text_field(record, columns["content"], required=True)
    when = reference_time(record.get(columns["timestamp"]), zone, field=columns["timestamp"])
    group_id = resolve_group(text_field(record, columns["group_id"]), default_group)
    episode = build_episode(
        content=content,
        reference_time=when,
        speaker=text_field(record, columns["speaker"]),
        session_id=text_field(record, columns["session_id"]),
        external_id=text_field(record, columns["external_id"]),
    )
    return group_id, episode


TurnOutcome = tuple[str, EpisodeIn | RecordError, Any]
"""(group id, the turn's episode or why it was refused, the raw turn) from a JSON document's unit."""


def load_json_list(path: str | Path) -> list[Any]:
    """A whole-file JSON document as a list of its units (a single object is one unit)."""
    with open_binary(path) as fh:
        data = fh.read()
    try:
        document = json.loads(data.decode("utf-8-sig"))
    except (ValueError, RecursionError) as exc:
        raise RecordError(f"malformed JSON document: {str(exc)[:200]}") from None
    return document if isinstance(document, list) else [document]


def dump_json(value: Any) -> str | None:
    """A refused JSON record, as the raw text kept with its rejection (bounded)."""
    return raw_text(json.dumps(value, ensure_ascii=False, default=str)[:4000])


def read_json_turns(
    path: str | Path, turns: Callable[[Any], Iterable[TurnOutcome]], start_line: int
) -> Iterator[SourceItem]:
    """One item per turn of every unit (a conversation, a question) of a whole-file JSON document,
    numbered across the file, from ``start_line`` on (resume); a malformed document is one rejection."""
    name = str(path)
    try:
        units = load_json_list(path)
    except RecordError as exc:
        yield rejected(name, 0, 0, str(exc), None)
        return
    index = 0
    for unit in units:
        for group_id, outcome, raw in turns(unit):
            index += 1
            if index <= start_line:
                continue
            if isinstance(outcome, RecordError):
                yield rejected(name, index, 0, str(outcome), dump_json(raw), group_id=group_id)
            else:
                yield SourceItem(name, index, 0, group_id, outcome)
