"""Admission control: a bounded number of API requests in flight per worker, a bounded FIFO queue
behind them, and ``429 overloaded`` with ``Retry-After`` past both.

Without a bound every request a client sends is accepted and joins the event loop's work, so when
more arrive than the worker serves its queue (and every request's latency) grows without limit.
``Admission`` lets ``limit`` requests run; the next ``queue`` wait their turn, FIFO, for at most
``wait_s``; any further request, or one that waited ``wait_s``, is refused at once, before any of its
work is done (nothing written), so the client backs off and the tail of the admitted stays bounded.
A finished request hands its slot straight to the oldest waiter: a waiting search (or other read)
before a waiting write, and a write only while fewer than ``write_limit`` writes run (a quarter of
``limit`` by default), so a burst of slow writes cannot take every slot and searches never queue
behind them. Health, readiness, metrics and the docs are never queued (``AdmissionMiddleware``
applies to ``/v1`` and ``/mcp`` only).

::

    request ─▶ running < limit ? ──yes──▶ run ─▶ done: next waiter runs (else running - 1)
                    │ no
                    ▼
               waiting < queue ? ──no──▶ 429 overloaded, Retry-After
                    │ yes
                    ▼
               wait (FIFO) ≤ wait_s ──timeout──▶ 429 overloaded, Retry-After
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass, field

from starlette.types import ASGIApp, Receive, Scope, Send

from api.errors import error_body
from api.middleware import send_json

ADMITTED_PREFIXES = ("/v1/", "/mcp")


@dataclass
class Admission:
    """``limit`` requests run at once, of which at most ``write_limit`` writes; waiting searches
    (and other reads) take a freed slot before waiting writes, so a search never queues behind a
    write that a slot's release could have let it pass. Writes wait in their own FIFO."""

    limit: int = 32  # requests running at once
    queue: int = 64  # requests waiting for a slot (reads and writes together)
    wait_s: float = 2.0  # longest wait before a waiting request is refused
    write_limit: int | None = None  # writes running at once (None: a quarter of ``limit``, >= 1)
    running: int = 0
    writes_running: int = 0
    refused: int = 0
    _waiters: deque[asyncio.Future[None]] = field(default_factory=deque)
    _write_waiters: deque[asyncio.Future[None]] = field(default_factory=deque)

    def __post_init__(self) -> None:
        if self.write_limit is None:
            self.write_limit = max(1, self.limit // 4)

    @property
    def waiting(self) -> int:
        return len(self._waiters) + len(self._write_waiters)

    def retry_after_s(self) -> int:
        """A hint for a refused client: about one second per ``limit`` requests ahead, capped."""
        return max(1, min(30, 1 + (self.running + self.waiting) // max(1, self.limit)))

    def _may_run(self, write: bool) -> bool:
        if self.running >= self.limit:
            return False
        if write:
            return not self._write_waiters and self.writes_running < (self.write_limit or 1)
        return not self._waiters

    async def enter(self, *, write: bool = False) -> bool:
        """Take a slot (True), waiting for one up to ``wait_s``; False: refused, no slot held."""
        if self._may_run(write):
            self.running += 1
            self.writes_running += write
            return True
        if self.waiting >= self.queue:
            self.refused += 1
            return False
        queue = self._write_waiters if write else self._waiters
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        queue.append(turn)
        try:
            async with asyncio.timeout(self.wait_s):
                await asyncio.shield(turn)
            return True
        except TimeoutError:
            if turn.done():  # the slot came as the wait ran out: use it
                return True
            queue.remove(turn)
            self.refused += 1
            return False
        except asyncio.CancelledError:
            if turn.done():  # handed a slot, then cancelled: pass it on
                self.leave(write=write)
            else:
                queue.remove(turn)
            raise

    def leave(self, *, write: bool = False) -> None:
        """Give the slot back: to the oldest waiting read, else to the oldest waiting write while
        fewer than ``write_limit`` writes run, else to the pool."""
        self.writes_running -= write
        while self._waiters:
            turn = self._waiters.popleft()
            if not turn.done():
                turn.set_result(None)  # ``running`` stays: the slot changes hands
                return
        while self._write_waiters and self.writes_running < (self.write_limit or 1):
            turn = self._write_waiters.popleft()
            if not turn.done():
                turn.set_result(None)
                self.writes_running += 1
                return
        self.running -= 1


WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def is_write(method: str, path: str) -> bool:
    """A request that writes a group: POST/PUT/PATCH/DELETE under ``/v1``, except searches and the
    analyst's read-only ``/v1/cypher``. ``/mcp`` counts as a read (its tool is in the body, unread)."""
    return (
        method in WRITE_METHODS
        and path.startswith("/v1/")
        and not path.endswith("/search")
        and path != "/v1/cypher"
    )


class AdmissionMiddleware:
    """``Admission`` around the API routes (``/v1``, ``/mcp``); a refusal is a JSON ``429 overloaded``
    with ``Retry-After``, sent before the request's body is read."""

    def __init__(self, app: ASGIApp, admission: Admission) -> None:
        self.app = app
        self.admission = admission

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "") if scope["type"] == "http" else ""
        if not path.startswith(ADMITTED_PREFIXES):
            await self.app(scope, receive, send)
            return
        write = is_write(scope.get("method", ""), path)
        if not await self.admission.enter(write=write):
            await self._refuse(scope, send)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self.admission.leave(write=write)

    async def _refuse(self, scope: Scope, send: Send) -> None:
        scope.setdefault("state", {})["error_code"] = "overloaded"
        after = self.admission.retry_after_s()
        details = {"retry_after_s": after, "reason": "too many requests in flight"}
        body = error_body("overloaded", "the server is busy; retry later", details)
        await send_json(send, 429, body, {"Retry-After": str(after)})
