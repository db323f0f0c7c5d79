"""Admission control (api.admission): bounded in-flight requests, a bounded FIFO queue, 429 past them."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from api.admission import Admission, AdmissionMiddleware


async def test_at_most_limit_run_waiters_go_fifo_and_a_slot_changes_hands() -> None:
    adm = Admission(limit=2, queue=10, wait_s=5)
    release = asyncio.Event()
    peak, order = [0], []

    async def request(i: int) -> None:
        assert await adm.enter()
        peak[0] = max(peak[0], adm.running)
        order.append(i)
        await release.wait()
        adm.leave()

    tasks = []
    for i in range(6):
        tasks.append(asyncio.create_task(request(i)))
        await asyncio.sleep(0)  # arrival order is the order they were started in
    await asyncio.sleep(0)
    assert (adm.running, adm.waiting) == (2, 4)
    release.set()
    await asyncio.gather(*tasks)
    assert order == list(range(6)) and peak[0] == 2
    assert (adm.running, adm.waiting, adm.refused) == (0, 0, 0)


async def test_a_full_queue_is_refused_at_once_and_a_long_wait_is_refused_after_wait_s() -> None:
    """Regression (load issue): requests beyond what one worker serves queued without bound, so
    every request's latency grew with the offered load; now they are refused (429) past the bounds."""
    adm = Admission(limit=1, queue=1, wait_s=0.05)
    assert await adm.enter()  # the one slot, held throughout
    waiter = asyncio.create_task(adm.enter())
    await asyncio.sleep(0)
    assert adm.waiting == 1
    assert not await adm.enter()  # the queue is full: refused without waiting
    assert not await waiter  # waited wait_s, refused
    assert (adm.running, adm.waiting, adm.refused) == (1, 0, 2)
    assert adm.retry_after_s() >= 1
    adm.leave()
    assert adm.running == 0


async def test_a_cancelled_waiter_holds_no_slot_and_passes_on_one_it_was_handed() -> None:
    adm = Admission(limit=1, queue=5, wait_s=5)
    assert await adm.enter()
    gone = asyncio.create_task(adm.enter())
    handed = asyncio.create_task(adm.enter())
    last = asyncio.create_task(adm.enter())
    await asyncio.sleep(0)
    gone.cancel()  # left before its turn
    await asyncio.gather(gone, return_exceptions=True)
    assert adm.waiting == 2
    adm.leave()  # the slot goes to ``handed``
    handed.cancel()  # cancelled before it ran: the slot goes on to ``last``
    await asyncio.gather(handed, return_exceptions=True)
    assert await last
    assert (adm.running, adm.waiting) == (1, 0)
    adm.leave()
    assert adm.running == 0


async def _call(app: AdmissionMiddleware, path: str) -> tuple[int, dict[str, str], dict[str, Any]]:
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b""}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "path": path, "method": "POST", "headers": []}
    await app(scope, receive, send)
    headers = {k.decode(): v.decode() for k, v in sent[0].get("headers", [])}
    body = json.loads(sent[1]["body"]) if sent[1].get("body") else {}
    return sent[0]["status"], headers, body


async def test_the_middleware_answers_429_with_retry_after_and_never_queues_health() -> None:
    async def ok(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    adm = Admission(limit=1, queue=0, wait_s=1)
    app = AdmissionMiddleware(ok, adm)
    assert (await _call(app, "/v1/groups/g/search"))[0] == 200
    assert adm.running == 0
    assert await adm.enter()  # the worker is full
    status, headers, body = await _call(app, "/v1/groups/g/search")
    assert status == 429 and int(headers["retry-after"]) >= 1
    assert body["code"] == "overloaded" and body["details"]["retry_after_s"] >= 1
    assert (await _call(app, "/healthz"))[0] == 200
    assert (await _call(app, "/metrics"))[0] == 200
