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
result. Callers validate before they join (a request that cannot succeed never reaches a batch);
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


@dataclass(eq=False)
class _Pending:
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

    def _forget_lock(self, group_id: str) -> None:
        lock = self._locks.get(group_id)
        idle = group_id not in self._waiting and group_id not in self._runners  # a runner keeps its lock
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
            work, execute, rows, contextvars.copy_context(), asyncio.get_running_loop().create_future()
        )
        entry.done.add_done_callback(_retrieved)
        queue = self._pending.setdefault(group_id, deque())
        queue.append(entry)
        if group_id not in self._runners:
            self._runners[group_id] = asyncio.create_task(self._run(group_id))
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
        queue = self._pending.get(group_id)
        if queue is None or entry not in queue:
            return False
        queue.remove(entry)
        self._leave(group_id)
        return True

    def _take(self, queue: deque[_Pending]) -> list[_Pending]:
        batch = [queue.popleft()]
        rows = batch[0].rows
        while queue and len(batch) < self.batch_max and rows + queue[0].rows <= self.batch_rows:
            rows += queue[0].rows
            batch.append(queue.popleft())
        return batch

    async def _run(self, group_id: str) -> None:
        queue = self._pending[group_id]
        lock = self._locks.setdefault(group_id, asyncio.Lock())
        batch: list[_Pending] = []
        try:
            while queue:
                async with lock:
                    if not queue:  # every waiter left while the lock was held elsewhere
                        break
                    batch = self._take(queue)
                    self._leave(group_id, len(batch))
                    await self._commit_batch(batch)
                    batch = []
        except BaseException:  # the loop is shutting down: nobody waits forever
            stopped = self._refuse(group_id, "writer stopped")
            for e in batch + list(queue):
                if not e.done.done():
                    e.done.set_exception(stopped)
            if queue:
                self._leave(group_id, len(queue))
                queue.clear()
            raise
        finally:
            del self._runners[group_id]
            if not queue:
                self._pending.pop(group_id, None)
            self._forget_lock(group_id)

    async def _commit_batch(self, batch: list[_Pending]) -> None:
        if len(batch) == 1:
            await self._commit_one(batch[0])
            return

        async def combined(tx: Any) -> list[Any]:
            return [await e.work(tx) for e in batch]

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
