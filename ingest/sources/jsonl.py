"""JSONL messages: one JSON object per line.

Fields: ``content`` and ``timestamp`` (required), ``speaker`` (or ``role``), ``session_id``,
``external_id``, and the group id under ``group_id`` (or the field named by ``group_field``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import tzinfo
from pathlib import Path
from typing import Any

from ingest.sources.base import (
    MESSAGE_FIELDS,
    RecordError,
    SourceItem,
    decode_line,
    iter_lines,
    message_item,
    rejected,
)


def read_jsonl(
    path: str | Path,
    *,
    zone: tzinfo,
    group: str | None,
    group_field: str = "group_id",
    start_offset: int = 0,
    start_line: int = 0,
) -> Iterator[SourceItem]:
    """Yield one item per non-blank line of a JSONL file, resuming at ``start_offset``."""
    name = str(path)
    columns = {field: field for field in MESSAGE_FIELDS} | {"group_id": group_field}
    for raw in iter_lines(path, start_offset=start_offset, start_line=start_line):
        if not raw.data.strip():
            continue
        try:
            record = parse_object(decode_line(raw))
            if not record.get("speaker") and record.get("role"):
                record["speaker"] = record["role"]
            group_id, episode = message_item(record, columns, zone=zone, default_group=group)
        except RecordError as exc:
            yield rejected(name, raw.number, raw.end, str(exc), raw.data)
            continue
        yield SourceItem(name, raw.number, raw.end, group_id, episode)


def parse_object(text: str) -> dict[str, Any]:
    """Parse one line as a JSON object; RecordError when it is not valid JSON or not an object."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise RecordError(f"malformed JSON: {str(exc)[:200]}") from None
    if not isinstance(value, dict):
        raise RecordError(f"expected a JSON object, got {type(value).__name__}")
    return value
