"""Admission control: a bounded number of API requests in flight per worker, a bounded FIFO queue
behind them, and ``429 overloaded`` with ``Retry-After`` past both.

Without a bound every request a client sends is accepted and joins the event loop's work, so when
more arrive than the worker serves its queue (and every request's latency) grows without limit.
``Admission`` lets ``limit`` requests run; the next ``queue`` wait their turn, FIFO, for at most
``wait_s``; any further request, or one that waited ``wait_s``, is refused at once, before any of its
work is done (nothing written), so the client backs off and the tail of the admitted stays bounded.
A finished request hands its slot straight to the oldest waiter. Health, readiness, metrics and the
docs are never queued (``AdmissionMiddleware`` applies to ``/v1`` and ``/mcp`` only).

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
    limit: int = 32  # requests running at once
    queue: int = 64  # requests waiting for a slot
    wait_s: float = 2.0  # longest wait before a waiting request is refused
    running: int = 0
    refused: int = 0
    _waiters: deque[asyncio.Future[None]] = field(default_factory=deque)

    @property
    def waiting(self) -> int:
        return len(self._waiters)

    def retry_after_s(self) -> int:
        """A hint for a refused client: about one second per ``limit`` requests ahead, capped."""
        return max(1, min(30, 1 + (self.running + self.waiting) // max(1, self.limit)))

    async def enter(self) -> bool:
        """Take a slot (True), waiting for one up to ``wait_s``; False: refused, no slot held."""
        if self.running < self.limit and not self._waiters:
            self.running += 1
            return True
        if len(self._waiters) >= self.queue:
            self.refused += 1
            return False
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append(turn)
        try:
            async with asyncio.timeout(self.wait_s):
                await asyncio.shield(turn)
            return True
        except TimeoutError:
            if turn.done():  # the slot came as the wait ran out: use it
                return True
            self._waiters.remove(turn)
            self.refused += 1
            return False
        except asyncio.CancelledError:
            if turn.done():  # handed a slot, then cancelled: pass it on
                self.leave()
            else:
                self._waiters.remove(turn)
            raise

    def leave(self) -> None:
        """Give the slot back: to the oldest waiter, else to the pool."""
        while self._waiters:
            turn = self._waiters.popleft()
            if not turn.done():
                turn.set_result(None)  # ``running`` stays: the slot changes hands
                return
        self.running -= 1


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
        if not await self.admission.enter():
            await self._refuse(scope, send)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self.admission.leave()

    async def _refuse(self, scope: Scope, send: Send) -> None:
        scope.setdefault("state", {})["error_code"] = "overloaded"
        after = self.admission.retry_after_s()
        details = {"retry_after_s": after, "reason": "too many requests in flight"}
        body = error_body("overloaded", "the server is busy; retry later", details)
        await send_json(send, 429, body, {"Retry-After": str(after)})
