"""``Store.write`` retries a transient error (a deadlock) as ``Store.execute`` does (issue 17)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from neo4j import Record

from graphmem.errors import StoreUnavailable
from graphmem.store.driver import Store, caller_retries


class _Result:
    def __aiter__(self) -> _Result:
        self._rows = iter([Record({"n": 1})])
        return self

    async def __anext__(self) -> Record:
        try:
            return next(self._rows)
        except StopIteration:
            raise StopAsyncIteration from None


class _Tx:
    async def run(self, query: str, params: dict[str, Any]) -> _Result:
        return _Result()


class _Flaky(Store):
    """The first ``fails`` transactions end in a deadlock (transient); then they commit."""

    def __init__(self, fails: int) -> None:
        self.fails, self.tries = fails, 0

    @asynccontextmanager
    async def transaction(self, *, write: bool = True, timeout: float | None = None) -> AsyncIterator[Any]:
        self.tries += 1
        yield _Tx()
        if self.tries <= self.fails:
            raise StoreUnavailable(
                "deadlock", details={"neo4j_code": "Neo.TransientError", "transient": True}
            )


async def test_a_one_statement_write_is_retried_after_a_deadlock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression (issue 17): a search's access-count TOUCH and a group commit on the same facts
    can deadlock; ``Store.write`` (TOUCH and every other one-statement write) failed at once."""
    monkeypatch.setattr("graphmem.store.driver.asyncio.sleep", _no_sleep)
    store = _Flaky(fails=2)
    assert await store.write("MATCH (n) RETURN 1 AS n") == [{"n": 1}]
    assert store.tries == 3
    once = _Flaky(fails=1)
    with caller_retries(), pytest.raises(StoreUnavailable):  # the caller owns retrying: one try
        await once.write("RETURN 1 AS n")
    assert once.tries == 1


async def _no_sleep(_: float) -> None:
    return None
