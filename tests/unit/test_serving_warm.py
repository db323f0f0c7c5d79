"""A worker warms its tenant indexes before /readyz says ready (api.main._warm_indexes, issue 22)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from api.main import _warm_indexes


class _Indexes:
    def __init__(self, fail: bool = False) -> None:
        self.fail, self.calls = fail, 0

    async def warm_up(self) -> dict[str, float]:
        self.calls += 1
        if self.fail:
            raise RuntimeError("no connection")
        return {"connections": 1.0}


def _memory(indexes: Any) -> Any:
    return SimpleNamespace(searcher=SimpleNamespace(indexes=indexes))


async def test_the_indexes_are_warmed_once_and_a_failure_does_not_stop_the_warm_up() -> None:
    """Regression (issue 22): a fresh worker's first cold search paid the index's first restore,
    HNSW view and Neo4j connections (382/667 ms against 55/132 for later cold ones)."""
    ok, broken = _Indexes(), _Indexes(fail=True)
    await _warm_indexes(_memory(ok))
    await _warm_indexes(_memory(broken))  # logged, not raised: it only costs the first search
    await _warm_indexes(_memory(None))  # search index off: nothing to warm
    assert (ok.calls, broken.calls) == (1, 1)
