"""``graphmem eval load``'s bookkeeping (eval.load): the groups' episode counts it checks writes by."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from eval import load


def test_episode_counts_page_through_a_shared_database_until_every_group_is_seen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Regression: the counts read only the first page of ``GET /v1/groups`` (1,000 groups); on a
    shared database holding more, a load group past it counted 0 episodes before and after, so
    every acknowledged write into it was reported missing."""
    pages = {
        None: {"groups": [{"group_id": "a", "episodes": 1}], "has_more": True, "next_cursor": "c1"},
        "c1": {"groups": [{"group_id": "load-x", "episodes": 5}], "has_more": True, "next_cursor": "c2"},
    }
    asked: list[str | None] = []

    def answer(request: httpx.Request) -> httpx.Response:
        cursor = request.url.params.get("cursor")
        asked.append(cursor)
        return httpx.Response(200, json=pages[cursor])

    real = httpx.AsyncClient
    monkeypatch.setattr(
        load.httpx, "AsyncClient", lambda **kw: real(transport=httpx.MockTransport(answer), **kw)
    )
    counts = asyncio.run(load._episode_counts("http://127.0.0.1:9", load.LoadConfig(), ["load-x"]))
    assert counts == {"load-x": 5}
    assert asked == [None, "c1"]  # stops once every group is seen
