"""Import into another group: rewrite ids, keys and group fields so the copy lives beside the original.

Ids become ``uuid5(target, old id)``: deterministic, so importing the same file twice into the same
target is still idempotent. Derived keys are recomputed for the target (episode idempotency keys,
fact slots, the full-text group token); claims follow their episodes and objects. Tombstones cannot
follow (their key hashes the original group and they hold no content to rehash), so they are skipped.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from pydantic import ValidationError

from graphmem.models.episode import EpisodeIn
from graphmem.temporal.normalize import group_token, slot_key

_NAMESPACE = uuid.UUID("6f1d3c1e-4b4a-4f39-9a51-1f7f3c0d2b10")


def new_id(target: str, old: str) -> str:
    return str(uuid.uuid5(_NAMESPACE, f"{target}\x1f{old}"))


def node(label: str, properties: dict[str, Any], target: str) -> dict[str, Any] | None:
    """The properties for ``target``; None for a tombstone (it cannot be carried over)."""
    if label == "Tombstone":
        return None
    out = dict(properties)
    out["id"] = new_id(target, str(properties["id"]))
    out["group_id"] = target
    out["group_token"] = group_token(target)
    if label == "Episode":
        out["key"] = _episode_key(properties, target)
    if label == "Fact":
        _fact(out, target)
    return out


def rel(record: dict[str, Any], target: str) -> dict[str, Any]:
    return {
        **record,
        "start_id": new_id(target, str(record["start_id"])),
        "end_id": new_id(target, str(record["end_id"])),
    }


def _episode_key(properties: dict[str, Any], target: str) -> str:
    try:
        episode = EpisodeIn(
            content=properties["content"],
            reference_time=properties["reference_time"],
            speaker=properties.get("speaker"),
            session_id=properties.get("session_id"),
            external_id=properties.get("external_id"),
            source=properties.get("source") or "message",
        )
    except (KeyError, ValidationError):
        return new_id(target, str(properties.get("key") or properties["id"])).replace("-", "")
    return episode.idempotency_key(target)


def _fact(out: dict[str, Any], target: str) -> None:
    out["subject_id"] = new_id(target, str(out["subject_id"]))
    if out.get("object_id"):
        out["object_id"] = new_id(target, str(out["object_id"]))
    out["slot"] = slot_key(out["subject_id"], out["predicate"], out["value"], out.get("qualifier") or "")
    out["claims"] = [_claim(text, target) for text in out.get("claims") or []]


def _claim(text: str, target: str) -> str:
    data = json.loads(text)
    for key in ("episode_id", "object_id"):
        if data.get(key):
            data[key] = new_id(target, data[key])
    head, sep, tail = str(data.get("ref", "")).partition(":")
    if sep and head != "explicit":
        data["ref"] = f"{new_id(target, head)}:{tail}"
    return json.dumps(data, ensure_ascii=False, sort_keys=True)
