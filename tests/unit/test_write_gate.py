"""Write admission (graphmem.memory.write_gate): FIFO per group, bounded, refusals are Overloaded."""

from __future__ import annotations

import asyncio
import contextvars

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


class FakeStore:
    """A transaction runner that records what each transaction ran (no database: the gate's logic)."""

    def __init__(self) -> None:
        self.transactions: list[list[int]] = []

    async def execute(self, work):  # type: ignore[no-untyped-def]
        tx: list[int] = []
        await asyncio.sleep(0.005)  # a transaction takes a while, so writes queue behind it
        result = await work(tx)
        if -1 in tx:
            raise ValueError("the transaction failed")  # rolled back: nothing of it is kept
        self.transactions.append(tx)
        return result


def _work(i: int):  # type: ignore[no-untyped-def]
    async def work(tx: list[int]) -> str:
        if i < 0:
            tx.append(-1)
            return "bad"
        tx.append(i)
        return f"result {i}"

    return work


async def test_group_commit_gives_each_writer_its_own_result_in_fewer_transactions() -> None:
    store, gate = FakeStore(), WriteGate()
    results = await asyncio.gather(*(gate.commit("g", _work(i), store.execute) for i in range(20)))
    assert results == [f"result {i}" for i in range(20)]
    assert sorted(i for tx in store.transactions for i in tx) == list(range(20))
    assert [i for tx in store.transactions for i in tx] == list(range(20))  # arrival order
    assert len(store.transactions) < 20 and gate.stats.transactions == len(store.transactions)
    assert gate.queued == 0 and not gate._locks and not gate._pending and not gate._runners


async def test_one_failing_write_fails_alone_the_others_are_written_one_by_one() -> None:
    """A combined transaction that fails is retried write by write: the bad write gets its own
    error, every other write its own result, and nothing of the failed combination is kept."""
    store, gate = FakeStore(), WriteGate()
    ids = [0, 1, 2, -1, 4, 5]
    first = asyncio.create_task(gate.commit("g", _work(100), store.execute))
    await asyncio.sleep(0)  # the first write runs alone; the rest queue behind it, together
    outcomes = await asyncio.gather(
        *(gate.commit("g", _work(i), store.execute) for i in ids), return_exceptions=True
    )
    assert await first == "result 100"
    assert [str(o) for o in outcomes] == [
        "result 0",
        "result 1",
        "result 2",
        "the transaction failed",
        "result 4",
        "result 5",
    ]
    assert store.transactions == [[100], [0], [1], [2], [4], [5]]
    assert gate.stats.fallbacks == 1


async def test_batch_bounds_and_batch_max_one_turns_group_commit_off() -> None:
    store, gate = FakeStore(), WriteGate(batch_max=3)
    await asyncio.gather(*(gate.commit("g", _work(i), store.execute) for i in range(10)))
    assert max(len(tx) for tx in store.transactions) <= 3
    store, gate = FakeStore(), WriteGate(batch_max=1)
    await asyncio.gather(*(gate.commit("g", _work(i), store.execute) for i in range(5)))
    assert store.transactions == [[0], [1], [2], [3], [4]]
    store, gate = FakeStore(), WriteGate(batch_rows=10)
    await asyncio.gather(*(gate.commit("g", _work(i), store.execute, rows=4) for i in range(6)))
    assert max(len(tx) for tx in store.transactions) <= 2  # 4 + 4 rows fit, a third does not


async def test_group_commit_queue_is_bounded_and_a_writer_gone_before_its_turn_writes_nothing() -> None:
    store, gate = FakeStore(), WriteGate(per_group=2, wait_s=5)
    release = asyncio.Event()

    async def holder() -> None:
        async with gate.slot("g"):
            await release.wait()

    task = asyncio.create_task(holder())
    await asyncio.sleep(0)
    queued = [asyncio.create_task(gate.commit("g", _work(i), store.execute)) for i in range(2)]
    await asyncio.sleep(0)
    with pytest.raises(Overloaded, match="group queue full"):
        await gate.commit("g", _work(9), store.execute)
    queued[0].cancel()
    await asyncio.sleep(0)
    release.set()
    await task
    assert await queued[1] == "result 1"
    assert store.transactions == [[1]]
    assert gate.queued == 0 and not gate._locks and not gate._pending


async def test_group_commit_wait_is_bounded_by_wait_s() -> None:
    store, gate = FakeStore(), WriteGate(wait_s=0.05)
    release = asyncio.Event()

    async def holder() -> None:
        async with gate.slot("g"):
            await release.wait()

    task = asyncio.create_task(holder())
    await asyncio.sleep(0)
    with pytest.raises(Overloaded, match="waited"):
        await gate.commit("g", _work(1), store.execute)
    release.set()
    await task
    assert store.transactions == [] and gate.queued == 0 and not gate._pending


async def test_a_runner_whose_writers_all_left_keeps_the_group_lock() -> None:
    """Regression: when every write queued behind a slot holder timed out, the holder's release
    forgot the group's lock while the runner still waited on it; a write queued at that moment ran
    under the forgotten lock, and a slot() beside it made a second one and ran too. The lock now
    stays while a runner exists."""
    store, gate = FakeStore(), WriteGate(wait_s=0.05)
    release = asyncio.Event()
    inside: list[bool] = []
    later: list[str] = []

    async def watched(tx: list[int]) -> str:
        inside.append("g" in gate._locks and gate._locks["g"].locked())
        with pytest.raises(TimeoutError):  # nobody else may take the group's slot meanwhile
            async with asyncio.timeout(0.01):
                async with gate.slot("g"):
                    pass
        return "ok"

    async def holder() -> None:
        async with gate.slot("g"):
            await release.wait()
        later.append(await gate.commit("g", watched, store.execute))  # queued before the runner wakes

    task = asyncio.create_task(holder())
    await asyncio.sleep(0)
    with pytest.raises(Overloaded):
        await gate.commit("g", _work(1), store.execute)  # times out behind the holder; its runner waits on
    gate.wait_s = 5
    release.set()
    await task
    assert later == ["ok"]
    assert inside == [True] and gate.queued == 0 and not gate._locks and not gate._runners


async def test_each_write_of_a_group_commit_runs_in_its_own_callers_context() -> None:
    """Regression: the combined transaction ran every write in the first writer's context, so a
    change record (``changes.current()``: actor, reason, consent) of the second write named the
    first request's actor. Each write now runs in the context its caller queued it from."""
    store, gate = FakeStore(), WriteGate()
    who: contextvars.ContextVar[str] = contextvars.ContextVar("who", default="nobody")
    seen: list[tuple[int, str]] = []

    def work(i: int):  # type: ignore[no-untyped-def]
        async def run(tx: list[int]) -> str:
            tx.append(i)
            seen.append((i, who.get()))
            return who.get()

        return run

    async def caller(i: int) -> str:
        who.set(f"caller {i}")
        return await gate.commit("g", work(i), store.execute)

    results = await asyncio.gather(*(caller(i) for i in range(6)))
    assert results == [f"caller {i}" for i in range(6)]
    assert all(name == f"caller {i}" for i, name in seen)
    assert len(store.transactions) < 6  # they did share transactions


async def test_span_groups_commits_writes_to_several_groups_together_in_order() -> None:
    """``span_groups``: writes queued for different groups share one transaction; each group's
    writes keep their arrival order and each writer gets its own result."""
    store, gate = FakeStore(), WriteGate(span_groups=True)
    groups = ["b", "a", "c"]
    results = await asyncio.gather(*(gate.commit(groups[i % 3], _work(i), store.execute) for i in range(12)))
    assert results == [f"result {i}" for i in range(12)]
    assert [i for tx in store.transactions for i in tx] == list(range(12))  # arrival order
    assert len(store.transactions) < 12 and max(len(tx) for tx in store.transactions) > 3
    assert gate.queued == 0 and not gate._locks and not gate._pending and not gate._runners


async def test_span_groups_waits_for_a_slot_holder_and_keeps_other_writes_apart_from_it() -> None:
    """A group whose slot() is held (a correction) is not written meanwhile; the writes queued
    for it wait and then run, after the holder, in order."""
    store, gate = FakeStore(), WriteGate(span_groups=True)
    release = asyncio.Event()
    order: list[str] = []

    async def holder() -> None:
        async with gate.slot("a"):
            await release.wait()
            order.append("holder done")

    task = asyncio.create_task(holder())
    await asyncio.sleep(0)
    pending = [asyncio.create_task(gate.commit(g, _work(i), store.execute)) for i, g in enumerate("aab")]
    await asyncio.sleep(0.02)
    assert store.transactions == []  # the lane waits for group a's lock
    release.set()
    await task
    assert [await p for p in pending] == ["result 0", "result 1", "result 2"]
    assert order == ["holder done"] and [i for tx in store.transactions for i in tx] == [0, 1, 2]
    assert not gate._locks and not gate._runners


async def test_span_groups_one_failing_write_fails_alone() -> None:
    store, gate = FakeStore(), WriteGate(span_groups=True)
    first = asyncio.create_task(gate.commit("x", _work(100), store.execute))
    await asyncio.sleep(0)
    outcomes = await asyncio.gather(
        *(gate.commit(g, _work(i), store.execute) for g, i in [("a", 0), ("b", -1), ("a", 2)]),
        return_exceptions=True,
    )
    assert await first == "result 100"
    assert [str(o) for o in outcomes] == ["result 0", "the transaction failed", "result 2"]
    assert store.transactions == [[100], [0], [2]] and gate.stats.fallbacks == 1
