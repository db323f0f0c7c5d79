"""OpenAI chat-completions conversations: ``{"messages": [{"role", "content", ...}], ...}``.

Either one conversation per line (JSONL), or a whole file holding one conversation or a list of
them (detected when the first non-blank byte is ``[`` or the first line is not a JSON value on its
own). Each non-system message becomes one episode with ``external_id`` =
``<conversation id or line>:<message index>``; its time is the message's ``timestamp``, else the
conversation's, else the message is rejected.

Resume: in JSONL mode every message of a line but the last points back to the line's start, so a
resume re-reads a partly handled conversation (idempotent by external id). In whole-file mode
``line`` is a running message index and a resume skips ``start_line`` messages.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import tzinfo
from pathlib import Path
from typing import Any

from graphmem.models.episode import EpisodeIn
from ingest.sources.base import (
    RawLine,
    RecordError,
    SourceItem,
    build_episode,
    decode_line,
    iter_lines,
    open_binary,
    raw_text,
    reference_time,
    rejected,
    resolve_group,
    text_field,
)
from ingest.sources.jsonl import parse_object

SKIPPED_ROLES = frozenset({"system", "developer"})


@dataclass(frozen=True, slots=True)
class _Options:
    zone: tzinfo
    group: str | None
    group_field: str


@dataclass(frozen=True, slots=True)
class _Entry:
    """One message's outcome: an episode, or the reason and raw text of a rejection."""

    group_id: str
    episode: EpisodeIn | None
    error: str | None = None
    raw: str | None = None


def read_openai_chat(
    path: str | Path,
    *,
    zone: tzinfo,
    group: str | None,
    group_field: str = "group_id",
    start_offset: int = 0,
    start_line: int = 0,
) -> Iterator[SourceItem]:
    """Yield one item per non-system message, from JSONL or from a whole JSON document."""
    options = _Options(zone, group, group_field)
    document = _load_document(path) if _looks_like_document(path) else None
    if document is None:
        yield from _read_lines(path, options, start_offset, start_line)
    else:
        yield from _read_document(str(path), document, options, start_line)


def _looks_like_document(path: str | Path) -> bool:
    """True when the first value starts with ``[`` or runs past the end of its first line."""
    first = next((raw for raw in iter_lines(path) if raw.data.strip()), None)
    if first is None or first.too_long:
        return False
    text = first.data.strip()
    if text.startswith(b"["):
        return True
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        return exc.pos >= len(exc.doc.rstrip())  # the value goes on: a pretty-printed document
    except (ValueError, RecursionError):  # undecodable bytes: read line by line, reject it
        return False
    return False


def _load_document(path: str | Path) -> Any | None:
    """The parsed file; None when it does not parse as a whole (then read it line by line)."""
    with open_binary(path) as fh:
        data = fh.read()
    try:
        return json.loads(data.decode("utf-8-sig"))
    except (ValueError, RecursionError):
        return None


def _read_lines(
    path: str | Path, options: _Options, start_offset: int, start_line: int
) -> Iterator[SourceItem]:
    name = str(path)
    for raw in iter_lines(path, start_offset=start_offset, start_line=start_line):
        if not raw.data.strip():
            continue
        try:
            conversation = parse_object(decode_line(raw))
        except RecordError as exc:
            yield rejected(name, raw.number, raw.end, str(exc), raw.data)
            continue
        entries = [e for e in _conversation(conversation, str(raw.number), options) if e]
        for index, entry in enumerate(entries):
            yield _line_item(name, raw, entry, last=index == len(entries) - 1)


def _line_item(name: str, raw: RawLine, entry: _Entry, *, last: bool) -> SourceItem:
    offset, resume_line = (raw.end, None) if last else (raw.start, raw.number - 1)
    return SourceItem(
        name,
        raw.number,
        offset,
        entry.group_id,
        entry.episode,
        entry.error,
        entry.raw,
        resume_line,
    )


def _read_document(name: str, document: Any, options: _Options, start_line: int) -> Iterator[SourceItem]:
    conversations = document if isinstance(document, list) else [document]
    index = 0
    for number, conversation in enumerate(conversations, start=1):
        for entry in _conversation(conversation, str(number), options):
            index += 1
            if entry is None or index <= start_line:
                continue
            yield SourceItem(name, index, 0, entry.group_id, entry.episode, entry.error, entry.raw)


def _conversation(conversation: Any, line_key: str, options: _Options) -> Iterator[_Entry | None]:
    """One entry per message (None for skipped roles); one rejection for a malformed whole."""
    try:
        messages = _messages_of(conversation)
        group_id = resolve_group(text_field(conversation, options.group_field), options.group)
        key = text_field(conversation, "id") or line_key
    except RecordError as exc:
        yield _Entry("", None, str(exc), raw_text(_dump(conversation)))
        return
    for index, message in enumerate(messages):
        if isinstance(message, dict) and message.get("role") in SKIPPED_ROLES:
            yield None
            continue
        try:
            episode = _episode(message, conversation, f"{key}:{index}", options.zone)
        except RecordError as exc:
            yield _Entry(group_id, None, str(exc), raw_text(_dump(message)))
            continue
        yield _Entry(group_id, episode)


def _messages_of(conversation: Any) -> list[Any]:
    if not isinstance(conversation, dict):
        raise RecordError(f"expected a conversation object, got {type(conversation).__name__}")
    messages = conversation.get("messages")
    if not isinstance(messages, list):
        raise RecordError("missing field: messages (a list)")
    return messages


def _episode(message: Any, conversation: dict[str, Any], external_id: str, zone: tzinfo) -> EpisodeIn:
    if not isinstance(message, dict):
        raise RecordError(f"expected a message object, got {type(message).__name__}")
    stamp = message.get("timestamp") or conversation.get("timestamp")
    if stamp is None:
        raise RecordError("missing field: timestamp (on neither the message nor the conversation)")
    return build_episode(
        content=_content(message.get("content")),
        reference_time=reference_time(stamp, zone),
        speaker=text_field(message, "name") or text_field(message, "role"),
        session_id=text_field(conversation, "session_id") or text_field(conversation, "id"),
        external_id=external_id,
    )


def _content(value: Any) -> str:
    """Message content: a string, or the text parts of a multi-part content list."""
    if isinstance(value, list):
        parts = [p.get("text") if isinstance(p, dict) else p for p in value]
        value = "\n".join(p for p in parts if isinstance(p, str) and p.strip())
    if not isinstance(value, str) or not value.strip():
        raise RecordError("missing field: content")
    return value


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)[:4000]
