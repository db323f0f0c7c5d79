"""Pipelined batches: a group's next batch is prepared (extracted, embedded) while the previous
one commits; commits stay in file order, checkpoints follow commits, keys stay idempotent. First
on an in-memory two-phase fake, then against the real Neo4j."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

from graphmem.errors import ConfigError, InvalidInput, StoreUnavailable
from graphmem.memory import GraphMemory
from graphmem.memory.ingestion import PreparedBatch
from graphmem.models.episode import EpisodeIn, IngestResult
from graphmem.store.driver import Store
from ingest.checkpoint import Checkpoint
from ingest.runner import PreparingSink, run_ingest
from tests.ingest.test_runner import FakeStore, dead_letters, message, options, stored_ids, write


@dataclass
class _Batch:
    group_id: str
    episodes: Sequence[EpisodeIn]


async def _refuse(group: str, episodes: Sequence[EpisodeIn]) -> None:
    if any(e.content == "refuse me" for e in episodes):
        raise InvalidInput("the store refuses this value")


class TwoPhaseFake(FakeStore):
    """``prepare_episodes`` (slow, lock-free) then ``commit_episodes``; records the order of events."""

    def __init__(self, fail_prepare: int = 0) -> None:
        super().__init__(_refuse)
        self.events: list[tuple[str, str]] = []
        self.fail_prepare = fail_prepare

    async def prepare_episodes(
        self, group_id: str, episodes: Sequence[EpisodeIn], *, allow_forgotten: bool = False
    ) -> _Batch:
        first = str(episodes[0].external_id)
        self.events.append(("prepare", first))
        if self.fail_prepare:
            self.fail_prepare -= 1
            raise StoreUnavailable("down while preparing")
        await asyncio.sleep(0.01)
        return _Batch(group_id, episodes)

    async def commit_episodes(self, batch: _Batch) -> IngestResult:
        first = str(batch.episodes[0].external_id)
        self.events.append(("commit", first))
        await asyncio.sleep(0.02)
        result = await self.add_episodes(batch.group_id, batch.episodes)
        self.events.append(("committed", first))
        return result


def test_graph_memory_is_a_preparing_sink() -> None:
    assert isinstance(TwoPhaseFake(), PreparingSink) and not isinstance(FakeStore(), PreparingSink)
    assert hasattr(GraphMemory, "prepare_episodes") and hasattr(GraphMemory, "commit_episodes")


async def test_next_batch_is_prepared_while_the_previous_commits(tmp_path: Path) -> None:
    path = write(tmp_path / "m.jsonl", [message(i) for i in range(12)])
    sink = TwoPhaseFake()
    summary = await run_ingest(sink, options(tmp_path, path, batch_size=3))
    assert (summary.ingested, summary.batches, summary.exit_code) == (12, 4, 0)
    commits = [first for kind, first in sink.events if kind == "commit"]
    assert commits == ["e0", "e3", "e6", "e9"]  # one group: commits in file order
    for earlier, later in pairwise(commits):
        committed = sink.events.index(("committed", earlier))
        assert sink.events.index(("prepare", later)) < committed  # overlapped
        assert sink.events.index(("commit", later)) > committed  # but written after
    assert Checkpoint.load(summary.checkpoint).get(path).count == 12

    again = await run_ingest(sink, options(tmp_path, path, batch_size=3))
    assert (again.ingested, again.duplicates) == (0, 12)


async def test_a_failed_prepare_falls_back_to_the_plain_path(tmp_path: Path) -> None:
    """Preparing is an optimisation: its errors are not reported out of turn, the batch is then
    written by ``add_episodes`` (with its retries and bad-record isolation)."""
    lines = [message(i) for i in range(6)]
    lines[4] = message(4, content="refuse me")
    path = write(tmp_path / "m.jsonl", lines)
    sink = TwoPhaseFake(fail_prepare=1)
    summary = await run_ingest(sink, options(tmp_path, path, batch_size=3))
    assert (summary.ingested, summary.rejected, summary.exit_code) == (5, 1, 3)
    assert [r["line"] for r in dead_letters(summary)] == [5]
    assert sink.external_ids() == ["e0", "e1", "e2", "e3", "e5"]


# --- against the real Neo4j ----------------------------------------------------------------------


async def test_keys_repeated_in_the_next_batch_are_stored_once(
    tmp_path: Path, memory: GraphMemory, store: Store, group: str
) -> None:
    """Batch 2 is prepared before batch 1 commits, so its pre-check cannot see batch 1's keys;
    the commit's re-check under the group lock must."""
    lines = [message(i) for i in range(4)] + [message(i) for i in range(2, 6)]
    path = write(tmp_path / "m.jsonl", lines)
    summary = await run_ingest(memory, options(tmp_path, path, group=group, batch_size=4))
    assert (summary.ingested, summary.duplicates, summary.exit_code) == (6, 2, 0)
    assert await stored_ids(store, group) == [f"e{i}" for i in range(6)]


async def test_crash_after_a_pipelined_commit_adds_no_duplicate(
    tmp_path: Path, memory: GraphMemory, store: Store, group: str
) -> None:
    """The second commit lands, then the run dies before checkpointing it: the checkpoint covers
    only the first batch, and resume re-sends the second as duplicates."""

    class DiesAfterSecondCommit:
        commits = 0

        async def add_episodes(self, group_id: str, episodes: Sequence[EpisodeIn], **kw: Any) -> IngestResult:
            return await memory.add_episodes(group_id, episodes, **kw)

        async def prepare_episodes(self, group_id: str, episodes: Sequence[EpisodeIn], **kw: Any) -> Any:
            return await memory.prepare_episodes(group_id, episodes, **kw)

        async def commit_episodes(self, batch: PreparedBatch) -> IngestResult:
            result = await memory.commit_episodes(batch)
            self.commits += 1
            if self.commits == 2:
                raise ConfigError("simulated crash after commit")
            return result

    path = write(tmp_path / "m.jsonl", [message(i) for i in range(10)])
    opts = options(tmp_path, path, group=group, batch_size=4)
    crashed = await run_ingest(DiesAfterSecondCommit(), opts)
    assert crashed.exit_code == 1 and Checkpoint.load(opts.checkpoint_path).get(path).count == 4

    resumed = await run_ingest(memory, options(tmp_path, path, group=group, batch_size=4, resume=True))
    assert (resumed.read, resumed.duplicates, resumed.ingested) == (6, 4, 2)
    assert await stored_ids(store, group) == sorted(f"e{i}" for i in range(10))


async def test_the_summary_adds_up_each_stage(tmp_path: Path) -> None:
    """``prepare_seconds`` and ``commit_seconds`` (what `graphmem eval ingest` reports to show which
    stage bounds the rate) are wall time, overlapping batches counted once: the fake sleeps 10 ms
    preparing and 20 ms committing, and one group's commits never overlap."""
    path = write(tmp_path / "m.jsonl", [message(i) for i in range(12)])
    summary = await run_ingest(TwoPhaseFake(), options(tmp_path, path, batch_size=3, concurrency=3))
    assert summary.batches == 4
    assert summary.commit_seconds >= 4 * 0.02 and summary.prepare_seconds >= 0.01
    assert max(summary.prepare_seconds, summary.commit_seconds) <= summary.seconds
    data = summary.to_dict()
    assert data["prepare_seconds"] > 0 and data["commit_seconds"] > 0
    assert "busy: preparing" in summary.render()
