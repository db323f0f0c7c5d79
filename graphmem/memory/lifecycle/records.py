"""The JSONL export format (docs/lifecycle.md): one header, then nodes, then relationships.

    {"type": "header", "format_version": 1, "embedding_model": ..., "dimension": ...,
     "group_id": ..., "exported_at": ..., "since": null}
    {"type": "node", "label": "Fact", "properties": {...}, "datetimes": ["recorded_at", ...]}
    {"type": "node", "label": "Entity", "labels": ["Aliased", "Entity"], "properties": {...}}
    {"type": "rel", "rel_type": "SUPERSEDES", "start_id": ..., "end_id": ..., "properties": {...}}

Datetimes are ISO 8601 strings; ``datetimes`` names the properties that hold one, so a text that
merely looks like a timestamp stays text. Embeddings are plain lists of floats.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from graphmem.clock import parse_iso
from graphmem.errors import InvalidInput
from graphmem.models.lifecycle import EXPORT_FORMAT_VERSION


def header(
    *, group_id: str, model: str, dimension: int, exported_at: datetime, since: datetime | None
) -> dict[str, Any]:
    return {
        "type": "header",
        "format_version": EXPORT_FORMAT_VERSION,
        "embedding_model": model,
        "dimension": dimension,
        "group_id": group_id,
        "exported_at": exported_at.isoformat(),
        "since": since.isoformat() if since else None,
    }


def _encode(properties: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    stamps = sorted(k for k, v in properties.items() if isinstance(v, datetime))
    plain = {k: v.isoformat() if isinstance(v, datetime) else v for k, v in properties.items()}
    return plain, stamps


def node_record(label: str, properties: dict[str, Any], labels: list[str] | None = None) -> dict[str, Any]:
    """``labels``: every label of the node; listed in the record only when there is more than one."""
    plain, stamps = _encode(properties)
    record: dict[str, Any] = {"type": "node", "label": label, "properties": plain}
    if stamps:
        record["datetimes"] = stamps
    if labels and set(labels) != {label}:
        record["labels"] = sorted(set(labels) | {label})
    return record


def extra_labels(record: dict[str, Any]) -> list[str]:
    labels = record.get("labels") or []
    if not isinstance(labels, list) or not all(isinstance(x, str) for x in labels):
        raise InvalidInput("'labels' must be a list of strings", details={"record": _brief(record)})
    return sorted(set(labels) - {record.get("label")})


def rel_record(rel_type: str, start_id: str, end_id: str, properties: dict[str, Any]) -> dict[str, Any]:
    plain, stamps = _encode(properties)
    record: dict[str, Any] = {
        "type": "rel",
        "rel_type": rel_type,
        "start_id": start_id,
        "end_id": end_id,
        "properties": plain,
    }
    if stamps:
        record["datetimes"] = stamps
    return record


def decode_properties(record: dict[str, Any]) -> dict[str, Any]:
    """The record's properties with the named datetimes parsed back (aware UTC)."""
    properties = record.get("properties")
    if not isinstance(properties, dict):
        raise InvalidInput("record without a 'properties' object", details={"record": _brief(record)})
    out = dict(properties)
    for key in record.get("datetimes") or []:
        if isinstance(out.get(key), str):
            out[key] = parse_iso(out[key])
    return out


def check_header(record: dict[str, Any]) -> dict[str, Any]:
    if record.get("type") != "header":
        raise InvalidInput("an export starts with a header record", details={"record": _brief(record)})
    version = record.get("format_version")
    if not isinstance(version, int) or version > EXPORT_FORMAT_VERSION:
        raise InvalidInput(
            f"unsupported export format_version {version!r} (this graphmem reads up to "
            f"{EXPORT_FORMAT_VERSION})",
            details={"format_version": version},
        )
    if not record.get("group_id") or not record.get("embedding_model"):
        raise InvalidInput("the header needs group_id and embedding_model", details={})
    return record


def dumps(record: dict[str, Any]) -> str:
    """One JSONL line, keys sorted, Unicode kept (Chinese stays readable)."""
    return json.dumps(record, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def loads(line: str, *, line_no: int = 0) -> dict[str, Any]:
    try:
        record = json.loads(line)
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"line {line_no}: not JSON ({exc.msg})", details={"line": line_no}) from exc
    if not isinstance(record, dict):
        raise InvalidInput(f"line {line_no}: not a JSON object", details={"line": line_no})
    return record


def canonical(records: Iterable[dict[str, Any]]) -> list[str]:
    """Sorted lines without the header's ``exported_at``: two exports of the same graph compare equal."""
    lines = []
    for record in records:
        if record.get("type") == "header":
            record = {k: v for k, v in record.items() if k != "exported_at"}
        lines.append(dumps(record))
    return sorted(lines)


def _brief(record: dict[str, Any]) -> dict[str, Any]:
    return {k: record.get(k) for k in ("type", "label", "rel_type") if k in record}
