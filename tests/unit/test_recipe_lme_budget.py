"""eval.longmemeval's ingestion deadline and eval.longmemeval_budget's clock (pure, no database)."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from eval.longmemeval import LongMemEvalOptions, ingest_until
from eval.longmemeval_budget import deadline
from eval.longmemeval_data import Dataset, Haystack


class Memory:
    def __init__(self, stop_after: int, opts: LongMemEvalOptions) -> None:
        self.groups: list[str] = []
        self.stop_after, self.opts = stop_after, opts

    async def add_episodes(self, group_id: str, episodes: list[Any]) -> None:
        self.groups.append(group_id)
        if len(self.groups) >= self.stop_after:
            self.opts.ingest_until = time.time() - 1  # the deadline passes while this one ingests


def test_no_question_is_started_after_the_deadline_and_the_ingested_ones_are_scored() -> None:
    turn: Any = object()  # one turn a haystack: only its count matters here
    hays = [Haystack(f"q{i}", f"g{i}", "t", "?", None, ("s:0",), ("s",), episodes=[turn]) for i in range(5)]
    opts = LongMemEvalOptions(data=Path("x"), ingest_until=time.time() + 3600)
    memory = Memory(2, opts)
    done, seconds = asyncio.run(ingest_until(memory, Dataset(hays, skipped=1), opts, lambda _m: None))  # type: ignore[arg-type]
    assert [h.question_id for h in done.haystacks] == ["q0", "q1"]  # q1 finished, q2 never began
    assert done.skipped == 1 and seconds >= 0
    assert memory.groups == ["g0", "g1"]


def test_the_deadline_is_the_next_such_time_of_day_utc() -> None:
    now = datetime(2026, 12, 2, 5, 50, tzinfo=UTC)
    assert deadline("06:30", now) == datetime(2026, 12, 2, 6, 30, tzinfo=UTC).timestamp()
    assert deadline("05:00", now) == datetime(2026, 12, 3, 5, 0, tzinfo=UTC).timestamp()
