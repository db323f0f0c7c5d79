"""Write admission (graphmem.memory.write_gate): FIFO per group, bounded, refusals are Overloaded."""

from __future__ import annotations

import asyncio

import pytest

from graphmem.errors import Overloaded
from graphmem.memory.write_gate import WriteGate


async def test_writes_to_one_group_run_one_at_a_time_in_arrival_order() -> None:
    gate = WriteGate()
    active, order = [0], []

    async def write(i: int) -> None:
        async with gate.slot("g"):
            active[0] += 1
            assert active[0] == 1
            order.append(i)
            await asyncio.sleep(0.001)
            active[0] -= 1

    await asyncio.gather(*(write(i) for i in range(20)))
    assert order == list(range(20))
    assert gate.queued == 0 and not gate._locks


async def test_other_groups_do_not_wait() -> None:
    gate = WriteGate()
    async with gate.slot("a"):
        async with asyncio.timeout(1):
            async with gate.slot("b"):
                pass


async def test_a_full_queue_or_a_long_wait_is_overloaded_with_a_retry_hint() -> None:
    """Regression (load issue): writers piling on one group's Neo4j lock got 503 store_unavailable;
    past the queue bound they now get Overloaded (429 + Retry-After) before anything is written."""
    gate = WriteGate(per_group=2, total=10, wait_s=0.05)
    release = asyncio.Event()

    async def holder() -> None:
        async with gate.slot("g"):
            await release.wait()

    task = asyncio.create_task(holder())
    await asyncio.sleep(0)
    with pytest.raises(Overloaded) as waited:  # the holder keeps the slot past wait_s
        async with gate.slot("g"):
            pass
    assert waited.value.details["retry_after_s"] >= 1

    async def waiter() -> None:
        async with gate.slot("g"):
            pass

    waiting = [asyncio.create_task(waiter()) for _ in range(2)]
    await asyncio.sleep(0)
    with pytest.raises(Overloaded, match="group queue full"):
        async with gate.slot("g"):
            pass
    release.set()
    await task
    await asyncio.gather(*waiting, return_exceptions=True)
    assert gate.queued == 0 and not gate._locks
