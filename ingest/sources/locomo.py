"""LoCoMo conversations (``locomo10.json`` schema): one episode per dialogue turn.

Each conversation becomes group ``<group>-<sample_id>`` (or ``sample_id`` without a group); each
turn keeps its ``dia_id`` as external id, ``<sample_id>:session_<N>`` as session, its speaker, and
the session's date ("1:56 pm on 8 May, 2023") as reference time. An image's BLIP caption is
appended as `` [image: ...]``. ``line`` is a running turn index; a resume skips ``start_line``
turns. The file is one JSON document and is loaded whole.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime, tzinfo
from pathlib import Path
from typing import Any

from graphmem.models.episode import EpisodeIn
from ingest.sources.base import (
    RecordError,
    SourceItem,
    TurnOutcome,
    build_episode,
    read_json_turns,
    reference_time,
    resolve_group,
    text_field,
)

_SESSION_KEY = re.compile(r"^session_(\d+)$")


def read_locomo(
    path: str | Path,
    *,
    zone: tzinfo,
    group: str | None,
    start_line: int = 0,
) -> Iterator[SourceItem]:
    """Yield one item per turn of every conversation in a LoCoMo JSON file."""
    yield from read_json_turns(path, lambda sample: _sample_turns(sample, zone, group), start_line)


def _sample_turns(sample: Any, zone: tzinfo, group: str | None) -> Iterator[TurnOutcome]:
    """(group id, episode or error, source) per turn; one error for a malformed conversation."""
    try:
        sample_id, conversation = _unpack(sample)
        group_id = resolve_group(f"{group}-{sample_id}" if group else sample_id, None)
    except RecordError as exc:
        yield "", exc, sample
        return
    for number, turns in _sessions(conversation):
        session_id = f"{sample_id}:session_{number}"
        when: datetime | RecordError
        try:
            field = f"session_{number}_date_time"
            when = reference_time(conversation.get(field), zone, field=field)
        except RecordError as exc:
            when = exc
        for turn in turns:
            outcome = when if isinstance(when, RecordError) else _turn(turn, when, session_id)
            yield group_id, outcome, turn


def _unpack(sample: Any) -> tuple[str, dict[str, Any]]:
    if not isinstance(sample, dict):
        raise RecordError(f"expected a conversation object, got {type(sample).__name__}")
    sample_id = text_field(sample, "sample_id", required=True)
    conversation = sample.get("conversation")
    if not isinstance(conversation, dict):
        raise RecordError("missing field: conversation")
    return str(sample_id), conversation


def _sessions(conversation: dict[str, Any]) -> list[tuple[int, list[Any]]]:
    """``(N, turns)`` for every ``session_N`` list, in session order."""
    found = []
    for key, value in conversation.items():
        match = _SESSION_KEY.match(key)
        if match and isinstance(value, list):
            found.append((int(match.group(1)), value))
    return sorted(found, key=lambda pair: pair[0])


def _turn(turn: Any, when: datetime, session_id: str) -> EpisodeIn | RecordError:
    try:
        if not isinstance(turn, dict):
            raise RecordError(f"expected a turn object, got {type(turn).__name__}")
        text = text_field(turn, "text") or ""
        caption = text_field(turn, "blip_caption")
        content = f"{text} [image: {caption}]" if caption else text
        return build_episode(
            content=content.strip(),
            reference_time=when,
            speaker=text_field(turn, "speaker"),
            session_id=session_id,
            external_id=text_field(turn, "dia_id", required=True),
        )
    except RecordError as exc:
        return exc
