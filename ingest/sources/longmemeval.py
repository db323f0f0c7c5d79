"""LongMemEval questions (the benchmark's native JSON): one group per question, one episode per turn.

Each question is its own user: its haystack becomes group ``<group>-<question_id>`` (or
``question_id`` without a group). Every turn of every haystack session is an episode with external
id ``<session_id>:<turn index>`` (0-based within the session), the session id as session, the turn's
``role`` (user / assistant) as speaker, and the session's date (``"2023/05/30 (Tue) 23:40"``, read in
the run's timezone) as reference time. ``has_answer`` and the question itself are not ingested (the
eval reads them: ``eval.longmemeval_data``). ``line`` is a running turn index; a resume skips
``start_line`` turns. The file is one JSON document (plain or gzip) and is loaded whole.
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
    load_json_list,
    read_json_turns,
    reference_time,
    resolve_group,
    text_field,
)

# "2023/05/30 (Tue) 23:40": the weekday is optional and not checked against the date.
_DATE = re.compile(r"^(\d{4})/(\d{1,2})/(\d{1,2})\s*(?:\([A-Za-z]{3}\))?\s*(\d{1,2}):(\d{2})$")


def parse_date(value: object, zone: tzinfo, *, field: str) -> datetime:
    """A LongMemEval date (``"2023/05/30 (Tue) 23:40"``; ISO 8601 also accepted) as aware UTC."""
    if isinstance(value, str) and (match := _DATE.match(value.strip())):
        year, month, day, hour, minute = (int(g) for g in match.groups())
        try:
            local = datetime(year, month, day, hour, minute)
        except ValueError as exc:
            raise RecordError(f"bad {field}: {exc}") from None
        return reference_time(local, zone, field=field)
    return reference_time(value, zone, field=field)


def read_longmemeval(
    path: str | Path,
    *,
    zone: tzinfo,
    group: str | None,
    start_line: int = 0,
) -> Iterator[SourceItem]:
    """Yield one item per haystack turn of every question in a LongMemEval JSON file."""
    yield from read_json_turns(path, lambda q: _question_turns(q, zone, group), start_line)


def load_questions(path: str | Path) -> list[Any]:
    """The file's questions (a list; a single question object is accepted too)."""
    return load_json_list(path)


def question_group(question_id: str, group: str | None) -> str:
    """The group id of a question's haystack (``<group>-<question_id>``, or the id alone)."""
    return resolve_group(f"{group}-{question_id}" if group else question_id, None)


def _question_turns(question: Any, zone: tzinfo, group: str | None) -> Iterator[TurnOutcome]:
    """(group id, episode or error, source) per turn; one error for a malformed question."""
    try:
        if not isinstance(question, dict):
            raise RecordError(f"expected a question object, got {type(question).__name__}")
        group_id = question_group(str(text_field(question, "question_id", required=True)), group)
        sessions = _sessions(question)
    except RecordError as exc:
        yield "", exc, question
        return
    for position, (session_id, date, turns) in enumerate(sessions):
        when: datetime | RecordError
        try:
            when = parse_date(date, zone, field=f"haystack_dates[{position}]")
        except RecordError as exc:
            when = exc
        for number, turn in enumerate(turns):
            outcome = when if isinstance(when, RecordError) else _turn(turn, when, session_id, number)
            yield group_id, outcome, turn


def _sessions(question: dict[str, Any]) -> list[tuple[str, Any, list[Any]]]:
    """``(session_id, date, turns)`` per haystack session, in the file's order."""
    ids, dates, sessions = (
        question.get(k) for k in ("haystack_session_ids", "haystack_dates", "haystack_sessions")
    )
    if not isinstance(sessions, list):
        raise RecordError("missing field: haystack_sessions")
    if not isinstance(ids, list) or len(ids) != len(sessions):
        raise RecordError("haystack_session_ids must list one id per haystack session")
    if not isinstance(dates, list) or len(dates) != len(sessions):
        raise RecordError("haystack_dates must list one date per haystack session")
    out = []
    for session_id, date, turns in zip(ids, dates, sessions, strict=True):
        if not isinstance(turns, list):
            raise RecordError(f"session {str(session_id)[:80]!r} must be a list of turns")
        out.append((str(session_id), date, turns))
    return out


def _turn(turn: Any, when: datetime, session_id: str, number: int) -> EpisodeIn | RecordError:
    try:
        if not isinstance(turn, dict):
            raise RecordError(f"expected a turn object, got {type(turn).__name__}")
        return build_episode(
            content=text_field(turn, "content", required=True),
            reference_time=when,
            speaker=text_field(turn, "role"),
            session_id=session_id,
            external_id=f"{session_id}:{number}",
        )
    except RecordError as exc:
        return exc
