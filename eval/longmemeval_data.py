"""LongMemEval (native JSON, .gz accepted) for the retrieval metric: one haystack per question.

Episodes come from the ingest reader (``ingest.sources``, format ``longmemeval``), so the eval
ingests exactly what ``graphmem ingest --format longmemeval`` would. Questions are read here:
evidence = the external ids (``<session_id>:<turn index>``) of the ``has_answer`` turns; a question
without any is skipped and counted. The data is read from ``../shared/data/longmemeval/`` at run
time, never copied here.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from graphmem.models.episode import EpisodeIn
from ingest.sources import open_source
from ingest.sources.base import RecordError
from ingest.sources.longmemeval import load_questions, parse_date, question_group


@dataclass
class Haystack:
    """One question, its group and haystack, and what the metrics need."""

    question_id: str
    group_id: str
    question_type: str
    question: str
    question_date: datetime | None
    evidence: tuple[str, ...]  # external ids of the has_answer turns, file order
    answer_sessions: tuple[str, ...]  # answer_session_ids, else the evidence turns' sessions
    session_dates: dict[str, datetime] = field(default_factory=dict)
    episodes: list[EpisodeIn] = field(default_factory=list)


@dataclass
class Dataset:
    haystacks: list[Haystack]
    skipped: int = 0  # questions without has_answer turns
    rejected_turns: int = 0

    @property
    def n_questions(self) -> int:
        return len(self.haystacks)

    def type_counts(self) -> dict[str, int]:
        counts: dict[str, int] = defaultdict(int)
        for h in self.haystacks:
            counts[h.question_type] += 1
        return dict(sorted(counts.items()))


def session_of(external_id: str) -> str:
    """The session of a turn's external id (``<session_id>:<turn index>``)."""
    return external_id.rsplit(":", 1)[0]


def load(path: str | Path, *, group_prefix: str, limit: int | None = None) -> Dataset:
    """Read the file; ``limit`` keeps at most N questions, taken round-robin over the question types
    in file order (so a small run still covers every type)."""
    raw = load_questions(path)
    wanted, skipped = _select([q for q in raw if isinstance(q, dict)], limit)
    for haystack in wanted:
        haystack.group_id = question_group(haystack.question_id, group_prefix)
    by_group = {h.group_id: h for h in wanted}
    rejected = 0
    for item in open_source(path, "longmemeval", group=group_prefix):
        owner = by_group.get(item.group_id)
        if owner is None:
            continue
        if item.episode is None:
            rejected += 1
        else:
            owner.episodes.append(item.episode)
    return Dataset(wanted, skipped, rejected)


def _select(questions: list[dict[str, Any]], limit: int | None) -> tuple[list[Haystack], int]:
    parsed: list[Haystack] = []
    skipped = 0
    for q in questions:
        haystack = _haystack(q)
        if haystack is None:
            skipped += 1
        else:
            parsed.append(haystack)
    if limit is None:
        return parsed, skipped
    return round_robin(parsed, limit), skipped


def round_robin(parsed: list[Haystack], limit: int) -> list[Haystack]:
    """At most ``limit`` questions, one of each type in turn (types in file order), in that order:
    the first K of a larger run are the K a ``--limit K`` run takes, so the groups a stopped
    ``--keep`` run had ingested serve a smaller rerun."""
    queues: dict[str, list[Haystack]] = defaultdict(list)
    for h in parsed:
        queues[h.question_type].append(h)
    chosen: list[Haystack] = []
    while len(chosen) < min(limit, len(parsed)):
        for queue in queues.values():
            if queue and len(chosen) < limit:
                chosen.append(queue.pop(0))
    return chosen


def _haystack(q: dict[str, Any]) -> Haystack | None:
    ids = [str(s) for s in q.get("haystack_session_ids") or []]
    sessions = q.get("haystack_sessions") or []
    dates = q.get("haystack_dates") or []
    evidence = tuple(
        f"{sid}:{i}"
        for sid, turns in zip(ids, sessions, strict=False)
        if isinstance(turns, list)
        for i, turn in enumerate(turns)
        if isinstance(turn, dict) and turn.get("has_answer")
    )
    question = str(q.get("question") or "").strip()
    if not evidence or not question or not q.get("question_id"):
        return None
    answer = tuple(str(s) for s in q.get("answer_session_ids") or []) or tuple(
        dict.fromkeys(session_of(e) for e in evidence)
    )
    qid = str(q["question_id"])
    return Haystack(
        question_id=qid,
        group_id=qid,  # prefixed by ``load``
        question_type=str(q.get("question_type") or "unknown"),
        question=question,
        question_date=_date(q.get("question_date")),
        evidence=evidence,
        answer_sessions=answer,
        session_dates={s: d for s, raw in zip(ids, dates, strict=False) if (d := _date(raw)) is not None},
    )


def _date(value: Any) -> datetime | None:
    try:
        return parse_date(value, UTC, field="date")
    except RecordError:
        return None
