"""Admission for writes: one write transaction per group at a time in this process, FIFO, and
concurrent writes to one group committed together (group commit).

Every write takes its group's lock in Neo4j (``LOCK_GROUP``). Left to Neo4j, concurrent writers to
one group pile up on that lock, lock waits turn into deadlock-detected transient errors, their
retries compete again, and callers got ``503 store_unavailable`` under ordinary load. The gate
queues them in the process instead: a writer waits its turn (up to ``wait_s``), then holds the
group's only transaction. When the queue is full (``per_group`` waiting for one group, or ``total``
across groups) or the wait runs out, the write is refused with ``Overloaded`` (HTTP 429 +
``Retry-After``): the client retries later, and nothing was written. Several worker processes
still meet on the Neo4j lock, with one contender each instead of many.

Group commit (``commit``): writes that queue for one group while its transaction runs are taken
together, up to ``batch_max`` of them (and ``batch_rows`` rows), and run one after another inside
one transaction: one lock, one commit, one round of Neo4j's fsync for all. Each caller gets its own
result, and each write runs in its own caller's context (``changes.current()``: actor, reason and
consent of its own request, not the first writer's). With ``span_groups`` the writes queued for
any group share one transaction (one runner for the process; each group's lock taken in sorted
order, so two processes' combined transactions take the Neo4j group locks in the same order): a
commit's fixed cost (Neo4j applies the full-text and vector index updates and reopens their Lucene
readers once per transaction) is shared by writes to different tenants too. Callers validate before they join (a request that cannot succeed never reaches a batch);
if the combined transaction fails anyway, its writes are retried one by one, each in its own
transaction, so one bad write fails alone and the others are written as if they had come alone.

::

    commit(g, w1) ─┐  queue[g]: w1 w2 w3      runner[g]:  lock g ─ tx(w1; w2; w3) ─ unlock
    commit(g, w2) ─┤  (bounded, FIFO)                        ok → w1, w2, w3 get their results
    commit(g, w3) ─┘                                         error → tx(w1), tx(w2), tx(w3)
"""

from __future__ import annotations

import asyncio
import contextvars
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

from graphmem.errors import Overloaded

T = TypeVar("T")
Work = Callable[[Any], Awaitable[Any]]
Execute = Callable[[Work], Coroutine[Any, Any, Any]]


_SPAN = "\x00span"  # the one lane of a ``span_groups`` gate (group ids are never this)


@dataclass(eq=False)
class _Pending:
    group_id: str
    work: Work
    execute: Execute
    rows: int
    context: contextvars.Context
    done: asyncio.Future[Any]


@dataclass
class GateStats:
    """Counters since start: transactions run by ``commit``, writes they carried, and combined
    transactions that failed and were retried one write at a time."""

    transactions: int = 0
    writes: int = 0
    fallbacks: int = 0


@dataclass
class WriteGate:
    per_group: int = 256
    total: int = 2048
    wait_s: float = 30.0
    batch_max: int = 32  # writes per group commit; 1 = every write its own transaction
    batch_rows: int = 500  # rows (episodes + facts) per group commit, past the first write
    span_groups: bool = False  # one group commit for writes to any group (module docstring)
    stats: GateStats = field(default_factory=GateStats)
    _locks: dict[str, asyncio.Lock] = field(default_factory=dict)
    _waiting: dict[str, int] = field(default_factory=dict)
    _pending: dict[str, deque[_Pending]] = field(default_factory=dict)
    _runners: dict[str, asyncio.Task[None]] = field(default_factory=dict)

    @property
    def queued(self) -> int:
        return sum(self._waiting.values())

    def _refuse(self, group_id: str, why: str) -> Overloaded:
        return Overloaded(
            f"too many writes waiting ({why}); retry later",
            details={"group_id": group_id, "retry_after_s": self._retry_after(group_id), "reason": why},
        )

    def _retry_after(self, group_id: str) -> int:
        # about one second a queued write, capped: a hint, the client may retry earlier
        return max(1, min(30, self._waiting.get(group_id, 0) // 4 + 1))

    def _admit(self, group_id: str) -> None:
        if self._waiting.get(group_id, 0) >= self.per_group:
            raise self._refuse(group_id, "group queue full")
        if self.queued >= self.total:
            raise self._refuse(group_id, "write queue full")
        self._waiting[group_id] = self._waiting.get(group_id, 0) + 1

    def _leave(self, group_id: str, n: int = 1) -> None:
        self._waiting[group_id] -= n
        if not self._waiting[group_id]:
            del self._waiting[group_id]

    def _lane(self, group_id: str) -> str:
        return _SPAN if self.span_groups else group_id

    def _forget_lock(self, group_id: str) -> None:
        lock = self._locks.get(group_id)
        idle = (
            group_id not in self._waiting and self._lane(group_id) not in self._runners
        )  # a runner keeps its lock
        if lock is not None and not lock.locked() and idle:
            del self._locks[group_id]

    @asynccontextmanager
    async def slot(self, group_id: str) -> AsyncIterator[None]:
        """Hold the group's write slot for one transaction."""
        self._admit(group_id)
        lock = self._locks.setdefault(group_id, asyncio.Lock())
        try:
            async with asyncio.timeout(self.wait_s):
                await lock.acquire()
        except TimeoutError:
            raise self._refuse(group_id, f"waited {self.wait_s:g} s") from None
        finally:
            self._leave(group_id)
        try:
            yield
        finally:
            lock.release()
            self._forget_lock(group_id)

    async def commit(
        self, group_id: str, work: Callable[[Any], Awaitable[T]], execute: Execute, rows: int = 1
    ) -> T:
        """``execute(work)`` in the group's slot, in one transaction with the other writes queued
        for this group meanwhile (``work(tx)`` runs after theirs, in arrival order, and sees what
        they wrote). Returns this ``work``'s own result, or raises its own error."""
        if self.batch_max <= 1:
            async with self.slot(group_id):
                self.stats.transactions += 1
                self.stats.writes += 1
                result: T = await execute(work)
                return result
        self._admit(group_id)
        entry = _Pending(
            group_id,
            work,
            execute,
            rows,
            contextvars.copy_context(),
            asyncio.get_running_loop().create_future(),
        )
        entry.done.add_done_callback(_retrieved)
        lane = self._lane(group_id)
        queue = self._pending.setdefault(lane, deque())
        queue.append(entry)
        if lane not in self._runners:
            self._runners[lane] = asyncio.create_task(self._run(lane))
        try:
            async with asyncio.timeout(self.wait_s):
                out: T = await asyncio.shield(entry.done)
                return out
        except TimeoutError:
            if self._drop(group_id, entry):
                raise self._refuse(group_id, f"waited {self.wait_s:g} s") from None
            return await entry.done  # its transaction is running: the outcome is a moment away
        except asyncio.CancelledError:
            self._drop(group_id, entry)  # a caller gone before its turn writes nothing
            raise

    def _drop(self, group_id: str, entry: _Pending) -> bool:
        queue = self._pending.get(self._lane(group_id))
        if queue is None or entry not in queue:
            return False
        queue.remove(entry)
        self._leave(group_id)
        return True

    def _take(
        self, queue: deque[_Pending], groups: set[str] | None = None, *, pop: bool = True
    ) -> list[_Pending]:
        """The next batch in arrival order, within ``batch_max`` and ``batch_rows``; only writes to
        ``groups`` (the groups whose locks are held) when given. ``pop=False`` only looks."""
        batch: list[_Pending] = []
        rows = 0
        for e in list(queue):
            if groups is not None and e.group_id not in groups:
                continue  # a later write to the same group is skipped too: per-group order holds
            if batch and (len(batch) >= self.batch_max or rows + e.rows > self.batch_rows):
                break
            batch.append(e)
            rows += e.rows
        if pop:
            for e in batch:
                queue.remove(e)
        return batch

    async def _run(self, lane: str) -> None:
        queue = self._pending[lane]
        touched: set[str] = set()
        batch: list[_Pending] = []
        try:
            while queue:
                groups = sorted({e.group_id for e in self._take(queue, pop=False)})
                touched.update(groups)
                locks = [self._locks.setdefault(g, asyncio.Lock()) for g in groups]
                held: list[asyncio.Lock] = []
                try:
                    for lock in locks:  # sorted: slot() holds one lock at a time, so no cycle
                        await lock.acquire()
                        held.append(lock)
                    batch = self._take(queue, set(groups))
                    if not batch:  # every waiter left while a lock was held elsewhere
                        continue
                    for g in {e.group_id for e in batch}:
                        self._leave(g, sum(1 for e in batch if e.group_id == g))
                    await self._commit_batch(batch)
                    batch = []
                finally:
                    for lock in held:
                        lock.release()
        except BaseException:  # the loop is shutting down: nobody waits forever
            for e in batch + list(queue):
                if not e.done.done():
                    e.done.set_exception(self._refuse(e.group_id, "writer stopped"))
            for e in queue:
                self._leave(e.group_id)
            queue.clear()
            raise
        finally:
            del self._runners[lane]
            if not queue:
                self._pending.pop(lane, None)
            for g in touched:
                self._forget_lock(g)

    async def _commit_batch(self, batch: list[_Pending]) -> None:
        if len(batch) == 1:
            await self._commit_one(batch[0])
            return

        async def combined(tx: Any) -> list[Any]:
            # each write in its own caller's context (its request's ChangeMeta), one after another
            async def one(e: _Pending) -> Any:
                return await e.work(tx)

            return [await asyncio.create_task(one(e), context=e.context.copy()) for e in batch]

        first = batch[0]
        self.stats.transactions += 1
        try:
            results = await asyncio.create_task(first.execute(combined), context=first.context.copy())
        except Exception:
            self.stats.fallbacks += 1
            for e in batch:
                await self._commit_one(e)
            return
        self.stats.writes += len(batch)
        for e, result in zip(batch, results, strict=True):
            if not e.done.done():
                e.done.set_result(result)

    async def _commit_one(self, e: _Pending) -> None:
        self.stats.transactions += 1
        self.stats.writes += 1
        try:
            result = await asyncio.create_task(e.execute(e.work), context=e.context.copy())
        except Exception as exc:
            if not e.done.done():
                e.done.set_exception(exc)
            return
        if not e.done.done():
            e.done.set_result(result)


def _retrieved(future: asyncio.Future[Any]) -> None:
    """A caller that left (cancelled) never reads its outcome: mark it read, so asyncio does not
    log the error as never retrieved."""
    if not future.cancelled():
        future.exception()
