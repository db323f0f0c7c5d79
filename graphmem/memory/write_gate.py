"""Admission for writes: one write transaction per group at a time in this process, FIFO.

Every write takes its group's lock in Neo4j (``LOCK_GROUP``). Left to Neo4j, concurrent writers to
one group pile up on that lock, lock waits turn into deadlock-detected transient errors, their
retries compete again, and callers got ``503 store_unavailable`` under ordinary load. The gate
queues them in the process instead: a writer waits its turn (up to ``wait_s``), then holds the
group's only transaction. When the queue is full (``per_group`` waiting for one group, or ``total``
across groups) or the wait runs out, the write is refused with ``Overloaded`` (HTTP 429 +
``Retry-After``): the client retries later, and nothing was written. Several worker processes
still meet on the Neo4j lock, with one contender each instead of many.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from graphmem.errors import Overloaded


@dataclass
class WriteGate:
    per_group: int = 256
    total: int = 2048
    wait_s: float = 30.0
    _locks: dict[str, asyncio.Lock] = field(default_factory=dict)
    _waiting: dict[str, int] = field(default_factory=dict)

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

    @asynccontextmanager
    async def slot(self, group_id: str) -> AsyncIterator[None]:
        """Hold the group's write slot for one transaction."""
        if self._waiting.get(group_id, 0) >= self.per_group:
            raise self._refuse(group_id, "group queue full")
        if self.queued >= self.total:
            raise self._refuse(group_id, "write queue full")
        lock = self._locks.setdefault(group_id, asyncio.Lock())
        self._waiting[group_id] = self._waiting.get(group_id, 0) + 1
        try:
            async with asyncio.timeout(self.wait_s):
                await lock.acquire()
        except TimeoutError:
            raise self._refuse(group_id, f"waited {self.wait_s:g} s") from None
        finally:
            self._waiting[group_id] -= 1
            if not self._waiting[group_id]:
                del self._waiting[group_id]
        try:
            yield
        finally:
            lock.release()
            if not lock.locked() and group_id not in self._waiting:
                self._locks.pop(group_id, None)
