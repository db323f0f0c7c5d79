"""Admission by route class (api.admission, issue 17): searches before writes, writes capped."""

from __future__ import annotations

import asyncio

import pytest

from api.admission import Admission, is_write


@pytest.mark.parametrize(
    ("method", "path", "write"),
    [
        ("POST", "/v1/groups/g/episodes", True),
        ("DELETE", "/v1/groups/g", True),
        ("PATCH", "/v1/groups/g/facts/f1", True),
        ("POST", "/v1/groups/g/search", False),
        ("POST", "/v1/search", False),
        ("POST", "/v1/cypher", False),
        ("GET", "/v1/groups/g/facts", False),
        ("POST", "/mcp", False),
    ],
)
def test_route_class(method: str, path: str, write: bool) -> None:
    assert is_write(method, path) is write


async def test_writes_beyond_write_limit_wait_and_searches_pass_them() -> None:
    """Regression (issue 17): at 32 clients searches queued behind slow writes (search p99 3.3 s
    against 7-9 ms of CPU a search); a write may hold at most ``write_limit`` slots, and a freed
    slot goes to a waiting search before a waiting write."""
    adm = Admission(limit=3, queue=10, wait_s=5, write_limit=1)
    assert await adm.enter(write=True)
    second_write = asyncio.create_task(adm.enter(write=True))
    await asyncio.sleep(0)
    assert (adm.running, adm.writes_running, adm.waiting) == (1, 1, 1)  # capped, though slots are free
    assert await adm.enter() and await adm.enter()  # searches run beside it
    late_search = asyncio.create_task(adm.enter())
    await asyncio.sleep(0)
    assert adm.waiting == 2
    adm.leave(write=True)  # the write's slot: the search first, though the write waited longer
    assert await asyncio.wait_for(late_search, 1)
    assert not second_write.done()
    adm.leave()  # a search's slot: now the write may run (fewer than write_limit writes run)
    assert await second_write
    assert (adm.running, adm.writes_running, adm.waiting) == (3, 1, 0)
    adm.leave(write=True)
    adm.leave()
    adm.leave()
    assert (adm.running, adm.writes_running) == (0, 0)


async def test_a_waiting_write_handed_a_slot_then_cancelled_passes_it_on_as_a_write() -> None:
    adm = Admission(limit=1, queue=5, wait_s=5, write_limit=1)
    assert await adm.enter(write=True)
    handed = asyncio.create_task(adm.enter(write=True))
    last = asyncio.create_task(adm.enter(write=True))
    await asyncio.sleep(0)
    adm.leave(write=True)  # handed gets it ...
    handed.cancel()  # ... and is cancelled before it ran: ``last`` gets it
    await asyncio.gather(handed, return_exceptions=True)
    assert await last
    assert (adm.running, adm.writes_running, adm.waiting) == (1, 1, 0)
    adm.leave(write=True)
    assert (adm.running, adm.writes_running) == (0, 0)


def test_the_default_write_limit_is_a_quarter_of_the_slots() -> None:
    assert Admission(limit=32).write_limit == 8
    assert Admission(limit=2).write_limit == 1
