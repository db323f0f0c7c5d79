"""The runner's prepare slots: batches prepare one at a time by default (``concurrency - 1``),
the next one while earlier ones commit, so the CPU-bound stage never runs twice side by side and
then leaves the embedder idle; each committed batch leaves its stage times in the timeline, which
``eval.ingest_speed.stage_report`` turns into where the wall time went."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

import pytest

from eval.ingest_speed import _both, _union, stage_report
from graphmem.errors import InvalidInput
from graphmem.models.episode import EpisodeIn, IngestResult
from ingest.runner import IngestOptions, run_ingest
from ingest.summary import BatchTimes
from tests.ingest.test_runner import FakeStore, message, options, write


@dataclass
class _Prepared:
    group_id: str
    episodes: Sequence[EpisodeIn]
    stage_seconds: dict[str, float] = field(default_factory=dict)


class SlotFake(FakeStore):
    """Two-phase sink that records how many batches prepare and commit at once."""

    def __init__(self, prepare_s: float = 0.02, commit_s: float = 0.01) -> None:
        super().__init__()
        self.prepare_s, self.commit_s = prepare_s, commit_s
        self.preparing = self.most_preparing = 0
        self.committing = self.most_committing_while_preparing = 0

    async def prepare_episodes(
        self, group_id: str, episodes: Sequence[EpisodeIn], *, allow_forgotten: bool = False
    ) -> _Prepared:
        self.preparing += 1
        self.most_preparing = max(self.most_preparing, self.preparing)
        try:
            await asyncio.sleep(self.prepare_s)
        finally:
            self.preparing -= 1
        return _Prepared(group_id, episodes, {"extract": 0.5, "extract_cpu": 0.25})

    async def commit_episodes(self, batch: _Prepared) -> IngestResult:
        self.committing += 1
        if self.preparing:
            self.most_committing_while_preparing = max(self.most_committing_while_preparing, self.committing)
        try:
            await asyncio.sleep(self.commit_s)
            return await self.add_episodes(batch.group_id, batch.episodes)
        finally:
            self.committing -= 1


def _groups(tmp_path: Path, groups: int, per_group: int) -> Path:
    lines = [message(g * 100 + i, group_id=f"g{g}") for g in range(groups) for i in range(per_group)]
    return write(tmp_path / "m.jsonl", lines)


def test_prepare_slots_default_to_concurrency_minus_one() -> None:
    opts = [IngestOptions(paths=(Path(__file__),), fmt="jsonl", concurrency=c) for c in (1, 2, 5)]
    assert [o.prepare_slots for o in opts] == [1, 1, 4]
    both = IngestOptions(paths=(Path(__file__),), fmt="jsonl", concurrency=2, prepare_concurrency=2)
    assert both.prepare_slots == 2
    with pytest.raises(InvalidInput):
        IngestOptions(paths=(Path(__file__),), fmt="jsonl", prepare_concurrency=0)


async def test_batches_of_different_groups_prepare_one_at_a_time_while_others_commit(tmp_path: Path) -> None:
    path = _groups(tmp_path, groups=4, per_group=6)
    sink = SlotFake()
    summary = await run_ingest(
        sink, options(tmp_path, path, group_field="group_id", batch_size=3, concurrency=2)
    )
    assert (summary.ingested, summary.batches, summary.exit_code) == (24, 8, 0)
    assert sink.most_preparing == 1
    assert sink.most_committing_while_preparing >= 1  # the overlap that keeps the embedder busy
    assert len(summary.timeline) == 8 and sum(t.size for t in summary.timeline) == 24
    for t in summary.timeline:
        assert t.dispatched <= t.prepare_from <= t.prepared <= t.commit_from <= t.committed
        assert t.stages == {"extract": 0.5, "extract_cpu": 0.25}
    spans = sorted((t.prepare_from, t.prepared) for t in summary.timeline)
    assert all(b[0] >= a[1] for a, b in pairwise(spans))  # never side by side


async def test_more_prepare_slots_let_batches_prepare_side_by_side(tmp_path: Path) -> None:
    path = _groups(tmp_path, groups=4, per_group=3)
    sink = SlotFake(prepare_s=0.05)
    opts = options(tmp_path, path, group_field="group_id", batch_size=3, concurrency=4, prepare_concurrency=4)
    summary = await run_ingest(sink, opts)
    assert summary.ingested == 12 and sink.most_preparing >= 2


def test_union_counts_overlapping_spans_once() -> None:
    assert _union([]) == 0
    assert _union([(0, 1), (2, 3)]) == 2
    assert _union([(0, 2), (1, 3), (1.5, 2.5)]) == 3
    assert _union([(5, 6), (0, 10)]) == 10


def test_both_is_the_time_two_span_sets_cover_together() -> None:
    assert _both([], [(0, 1)]) == 0
    assert _both([(0, 2), (3, 5)], [(1, 4)]) == 2  # 1-2 and 3-4
    assert _both([(0, 10)], [(1, 2), (1.5, 3), (8, 12)]) == 4  # 1-3 and 8-10
    assert _both([(0, 1)], [(1, 2)]) == 0


def test_stage_report_says_where_the_wall_time_went() -> None:
    timeline = [
        BatchTimes("a", 10, 0.0, 0.0, 2.0, 2.0, 3.0, {"embed": 1.5, "embed_cpu": 1.0}),
        BatchTimes("b", 10, 0.0, 1.0, 4.0, 4.5, 5.0, {"embed": 2.5, "embed_cpu": 2.0, "extract_cpu": 0.5}),
    ]
    report = stage_report(timeline, seconds=6.0, episodes=20)
    assert report["no_prepare_s"] == 2.0  # 0-4 covered, 4-6 not
    assert report["prepares_overlapping_s"] == 1.0  # 1-2
    assert report["commit_beside_prepare_s"] == 1.0  # a commits 2-3 while b prepares (1-4)
    assert report["commit_alone_s"] == 0.5  # b commits 4.5-5
    assert report["waiting_for_group_s"] == 0.5
    assert report["wall_s"] == {"embed": 4.0}
    assert report["cpu_ms_per_episode"] == {"embed": 150.0, "extract": 25.0}
