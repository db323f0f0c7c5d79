"""The batch runner: sources → per-group batches → ``add_episodes`` → checkpoint.

One run reads its sources in order and sorts good records into one buffer per group. A full
buffer becomes a batch and is written with ``add_episodes`` (one transaction). Batches of
*different* groups run concurrently (up to ``concurrency``); batches of one group commit one after
another, in reading order. When the sink can split the call (``prepare_episodes``, then
``commit_episodes``), a batch is prepared (extracted and embedded, lock-free) while the previous
batch of its group commits, and only its commit waits for that one. At most ``prepare_slots``
batches prepare at once (``concurrency - 1`` unless set): the prepare is the CPU-bound stage, and
batches that prepare side by side also commit side by side, leaving the embedder idle. Transient store errors
(``retryable``) are retried with exponential backoff; record-level errors split the batch until the
bad record is isolated and dead-lettered.

Checkpoint invariant: a source's checkpoint only ever covers a contiguous prefix of records that
were either committed to the store or written (fsynced) to the dead-letter file. So ``--resume``
never skips a record; what it may re-send (a batch committed just before a crash) is absorbed by
the store's idempotency keys and counted as duplicates.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import random
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from graphmem.errors import (
    ExtractionFailed,
    GraphMemError,
    IdempotencyConflict,
    InvalidInput,
    PayloadTooLarge,
)
from graphmem.models.episode import EpisodeIn, IngestResult
from graphmem.store.driver import caller_retries
from ingest.checkpoint import Checkpoint, Position
from ingest.progress import NoProgress, Progress
from ingest.sources import FORMATS, SourceItem, open_source
from ingest.sources.base import raw_text
from ingest.summary import BatchTimes, Summary
from ingest.tracking import DeadLetters, SourceTracker, Ticket

RECORD_ERRORS = (InvalidInput, ExtractionFailed, PayloadTooLarge, IdempotencyConflict)
MAX_BACKOFF_S = 30.0
SETTLE_EVERY = 1024
# batches in flight: with at most concurrency - 1 preparing, 3 keeps two preparations (one's
# extraction beside the other's embedding) on two cores while a third commits (docs/ingest.md)
DEFAULT_CONCURRENCY = 3


class EpisodeSink(Protocol):
    """What the runner writes to: ``GraphMemory`` (or a test double)."""

    async def add_episodes(
        self, group_id: str, episodes: Sequence[EpisodeIn], *, allow_forgotten: bool = False
    ) -> IngestResult: ...


@runtime_checkable
class PreparingSink(EpisodeSink, Protocol):
    """A sink that splits ``add_episodes`` in two (``GraphMemory`` does): ``prepare_episodes``
    takes no lock and writes nothing; ``commit_episodes`` writes, re-checking episode keys."""

    async def prepare_episodes(
        self, group_id: str, episodes: Sequence[EpisodeIn], *, allow_forgotten: bool = False
    ) -> Any: ...

    async def commit_episodes(self, batch: Any) -> IngestResult: ...


@dataclass(frozen=True)
class IngestOptions:
    """One run. ``checkpoint``/``dead_letter`` default to files under ``home/ingest/``."""

    paths: tuple[Path, ...]
    fmt: str
    group: str | None = None
    group_field: str = "group_id"
    timezone: str = "UTC"
    csv_mapping: Mapping[str, str] | None = None
    batch_size: int = 256
    concurrency: int = DEFAULT_CONCURRENCY
    resume: bool = False
    checkpoint: Path | None = None
    dead_letter: Path | None = None
    allow_forgotten: bool = False
    max_retries: int = 5
    backoff_s: float = 0.5
    home: Path = Path(".graphmem")
    max_buffered: int = field(default=0)
    # batches preparing (extracting, embedding) at once; None: concurrency - 1, at least 1
    prepare_concurrency: int | None = None

    def __post_init__(self) -> None:
        if not self.paths:
            raise InvalidInput("no input paths given")
        if self.fmt not in FORMATS:
            raise InvalidInput(f"unknown format {self.fmt!r}; expected one of {', '.join(FORMATS)}")
        if self.batch_size < 1 or self.concurrency < 1 or self.max_retries < 0:
            raise InvalidInput("batch_size and concurrency must be >= 1, max_retries >= 0")
        if self.prepare_concurrency is not None and self.prepare_concurrency < 1:
            raise InvalidInput("prepare_concurrency must be >= 1")
        missing = [str(p) for p in self.paths if not Path(p).is_file()]
        if missing:
            raise InvalidInput(f"no such file: {', '.join(missing)}", details={"paths": missing})
        unique: dict[str, Path] = {}
        for path in self.paths:
            unique.setdefault(os.path.abspath(path), Path(path))
        object.__setattr__(self, "paths", tuple(unique.values()))  # a file named twice is read once

    @property
    def checkpoint_path(self) -> Path:
        return self.checkpoint or state_paths(self.paths, self.group, self.home)[0]

    @property
    def dead_letter_path(self) -> Path:
        return self.dead_letter or state_paths(self.paths, self.group, self.home)[1]

    @property
    def prepare_slots(self) -> int:
        """Batches that may prepare at once. With a local embedder the prepare is CPU-bound: two
        batches preparing side by side share the cores and then commit side by side while nothing
        embeds; one at a time, the next batch prepares while the previous ones commit."""
        return self.prepare_concurrency or max(1, self.concurrency - 1)

    @property
    def buffer_limit(self) -> int:
        """Most good records held in group buffers before the fullest one is sent early."""
        return self.max_buffered or self.batch_size * (self.concurrency + 1)


def state_paths(paths: Sequence[Path], group: str | None, home: Path) -> tuple[Path, Path]:
    """Default checkpoint and dead-letter files: named by a hash of the absolute paths + group."""
    basis = "\n".join(sorted(os.path.abspath(p) for p in paths)) + "\x1f" + (group or "")
    stem = hashlib.sha256(basis.encode("utf-8")).hexdigest()[:16]
    folder = home / "ingest"
    return folder / f"{stem}.checkpoint.json", folder / f"{stem}.deadletter.jsonl"


async def run_ingest(
    memory: EpisodeSink, options: IngestOptions, *, progress: Progress | None = None
) -> Summary:
    """Run one ingestion; a fatal error stops it and is reported in ``summary.error``
    (``exit_code`` 1) after everything committed so far has been checkpointed."""
    run = _Run(memory, options, progress or NoProgress())
    return await run.execute()


class _Busy:
    """Wall time during which at least one batch is in a stage (batches overlapping count once)."""

    def __init__(self) -> None:
        self.active = 0
        self.since = 0.0
        self.total = 0.0

    @contextmanager
    def during(self) -> Iterator[None]:
        if self.active == 0:
            self.since = time.perf_counter()
        self.active += 1
        try:
            yield
        finally:
            self.active -= 1
            if self.active == 0:
                self.total += time.perf_counter() - self.since


@dataclass(eq=False)
class _Entry:
    item: SourceItem
    episode: EpisodeIn
    ticket: Ticket


class _Run:
    """State of one run; ``execute`` reads as the list of its steps."""

    def __init__(self, memory: EpisodeSink, options: IngestOptions, progress: Progress) -> None:
        self.memory = memory
        self.options = options
        self.progress = progress
        self.summary = Summary(
            checkpoint=str(options.checkpoint_path), dead_letter=str(options.dead_letter_path)
        )
        self.checkpoint = (
            Checkpoint.load(options.checkpoint_path)
            if options.resume
            else Checkpoint(options.checkpoint_path)
        )
        self.dead = DeadLetters(options.dead_letter_path)
        self.trackers: list[SourceTracker] = []
        self.buffers: dict[str, list[_Entry]] = {}
        self.buffered = 0
        self.tasks: set[asyncio.Task[None]] = set()
        self.tails: dict[str, asyncio.Task[None]] = {}
        self.preparing, self.committing = _Busy(), _Busy()
        self.prepare_slots = asyncio.Semaphore(options.prepare_slots)
        self.started = time.perf_counter()

    async def execute(self) -> Summary:
        started = self.started = time.perf_counter()
        try:
            for path in self.options.paths:
                await self._read_source(path)
            for group in list(self.buffers):
                await self._dispatch(group)
            while self.tasks:
                await self._wait_one()
            self._settle()
        except GraphMemError as exc:
            self.summary.error = f"{exc.code}: {exc.message}"
            await self._abort()
        finally:
            self.dead.close()
            self.summary.dead_letters_written = self.dead.written
            self.summary.seconds = time.perf_counter() - started
            self.progress.show(self.summary)
            self.progress.close()
        return self.summary

    def resume_position(self, path: Path) -> Position:
        return self.checkpoint.get(path) if self.options.resume else Position()

    async def _read_source(self, path: Path) -> None:
        o = self.options
        tracker = SourceTracker(str(path), self.resume_position(path))
        self.trackers.append(tracker)
        items = open_source(
            path,
            o.fmt,
            timezone=o.timezone,
            group=o.group,
            group_field=o.group_field,
            csv_mapping=o.csv_mapping,
            start_offset=tracker.position.offset,
            start_line=tracker.position.line,
        )
        for item in items:
            full = self._take(tracker, item)
            if full is not None:
                await self._dispatch(full)
            elif self.buffered >= o.buffer_limit:
                await self._dispatch(max(self.buffers, key=lambda g: len(self.buffers[g])))
            if self.summary.read % SETTLE_EVERY == 0:
                self._settle()
                self.progress.show(self.summary)
                await asyncio.sleep(0)  # let finished batches report

    def _take(self, tracker: SourceTracker, item: SourceItem) -> str | None:
        """File one item; the group whose buffer just became full, if any."""
        self.summary.read += 1
        self.progress.advance(nbytes=tracker.advance_read(item.offset), records=1)
        if item.episode is None:
            self._reject(item)
            tracker.read(item.resume_from, done=True)
            return None
        buffer = self.buffers.setdefault(item.group_id, [])
        buffer.append(_Entry(item, item.episode, tracker.read(item.resume_from)))
        self.buffered += 1
        return item.group_id if len(buffer) >= self.options.batch_size else None

    def _reject(self, item: SourceItem) -> None:
        self.summary.rejected += 1
        self.dead.add(item)

    async def _dispatch(self, group: str) -> None:
        """Send ``group``'s buffer as a batch, after that group's previous batch."""
        entries = self.buffers.pop(group)
        self.buffered -= len(entries)
        while len(self.tasks) >= self.options.concurrency:
            await self._wait_one()
        task = asyncio.create_task(self._process(group, entries, self.tails.get(group)))
        self.tasks.add(task)
        self.tails[group] = task

    async def _wait_one(self) -> None:
        done, _ = await asyncio.wait(self.tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            self.tasks.discard(task)
            task.result()  # a fatal error surfaces here

    async def _process(self, group: str, entries: list[_Entry], after: asyncio.Task[None] | None) -> None:
        dispatched = self._clock()
        async with self.prepare_slots:
            prepare_from = self._clock()
            with self.preparing.during():
                prepared = await self._prepare(group, entries)  # overlaps the previous batch's commit
            ready = self._clock()
        self.summary.prepare_seconds = self.preparing.total
        if after is not None:
            await asyncio.wait([after])
            if after.cancelled() or after.exception() is not None:
                return  # the run is failing; this batch stays unacknowledged
        commit_from = self._clock()
        with self.committing.during():
            await self._commit(group, entries, prepared)
        committed = self._clock()
        self.summary.commit_seconds = self.committing.total
        stages = dict(getattr(prepared, "stage_seconds", None) or {})
        self.summary.timeline.append(
            BatchTimes(group, len(entries), dispatched, prepare_from, ready, commit_from, committed, stages)
        )
        for entry in entries:
            entry.ticket.done = True
        self._settle()
        self.progress.show(self.summary)
        if self.tails.get(group) is asyncio.current_task():
            del self.tails[group]

    def _clock(self) -> float:
        return time.perf_counter() - self.started

    async def _prepare(self, group: str, entries: list[_Entry]) -> Any:
        """The batch prepared ahead of its turn, when the sink can; None when it cannot or when
        preparing failed: the batch then takes the plain path, which retries, isolates bad records
        and reports a fatal error in its turn."""
        if not isinstance(self.memory, PreparingSink):
            return None
        episodes = [e.episode for e in entries]
        allow = self.options.allow_forgotten
        try:
            return await self.memory.prepare_episodes(group, episodes, allow_forgotten=allow)
        except GraphMemError:
            return None

    async def _commit(self, group: str, entries: list[_Entry], prepared: Any = None) -> None:
        """Write a batch; on a record-level error, halve it until the culprit stands alone."""
        try:
            result = await self._with_retry(self._writer(group, entries, prepared))
        except RECORD_ERRORS as exc:
            if len(entries) > 1:
                middle = len(entries) // 2
                await self._commit(group, entries[:middle])
                await self._commit(group, entries[middle:])
                return
            entry = entries[0]
            raw = entry.item.raw or raw_text(entry.episode.model_dump_json())
            self._reject(replace(entry.item, episode=None, error=f"{exc.code}: {exc.message}", raw=raw))
            return
        self.summary.add_result(result)

    def _writer(
        self, group: str, entries: list[_Entry], prepared: Any
    ) -> Callable[[], Awaitable[IngestResult]]:
        if prepared is not None and isinstance(self.memory, PreparingSink):
            sink = self.memory
            return lambda: sink.commit_episodes(prepared)
        episodes = [e.episode for e in entries]
        allow = self.options.allow_forgotten
        return lambda: self.memory.add_episodes(group, episodes, allow_forgotten=allow)

    async def _with_retry(self, write: Callable[[], Awaitable[IngestResult]]) -> IngestResult:
        """The one retry layer of batch ingestion (``--retries``): the store does not retry inside."""
        o = self.options
        for attempt in range(o.max_retries + 1):
            try:
                with caller_retries():
                    return await write()
            except GraphMemError as exc:
                if not exc.retryable or attempt == o.max_retries:
                    raise
            self.summary.retries += 1
            delay = min(o.backoff_s * 2**attempt, MAX_BACKOFF_S)
            await asyncio.sleep(delay * random.uniform(0.5, 1.0))
        raise AssertionError("unreachable")

    def _settle(self) -> None:
        """Advance every source over its done prefix; dead letters are made durable first."""
        moved = [tracker for tracker in self.trackers if tracker.settle()]
        if not moved:
            return
        self.dead.flush()
        for tracker in moved:
            p = tracker.position
            self.checkpoint.commit(tracker.path, p.offset, p.line, p.count)

    async def _abort(self) -> None:
        """Stop in-flight batches, keeping the checkpoint of everything that did commit."""
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        self.tasks.clear()
        self._settle()
