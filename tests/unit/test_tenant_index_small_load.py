"""A small group's first load is one round trip (``snapshot.load_small``: the three labels' first
page in one statement) and one thread hand-off, and builds the index a paged load builds; a label
that fills the page (more nodes than the group's counters said) is paged as before."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from graphmem.retrieval.tenant_index import registry as reg
from graphmem.retrieval.tenant_index.index import TARGETS, TenantIndex, View
from graphmem.retrieval.tenant_index.registry import TenantIndexes
from graphmem.store.cypher import snapshot as q
from tests.unit.test_tenant_index_budget import FakeFeed


class RecordingFeed(FakeFeed):
    """Records the load statements sent; ``understate`` makes the group's counters say one node."""

    def __init__(self, sizes: dict[str, int], understate: bool = False) -> None:
        super().__init__(sizes)
        self.understate = understate
        self.sent: list[str] = []

    def check(self) -> None:
        pass  # no budget here

    async def read(self, query: str, **params: Any) -> list[dict[str, Any]]:
        rows = await super().read(query, **params)
        if query == q.GROUP_STATE and rows and self.understate:
            return [{**rows[0], "episodes": 1, "facts": 0, "entities": 0}]
        return rows

    async def read_values(self, query: str, **params: Any) -> list[list[Any]]:
        self.sent.append("small" if query == q.LOAD_SMALL else "page")
        return await super().read_values(query, **params)


def _alone(feed: FakeFeed, index: TenantIndex) -> TenantIndex:
    alone = TenantIndex("g", feed.dimension, index.ann_threshold, index.seq, index.created_at)
    for label in TARGETS:
        alone.apply(label, sorted(feed.tenants["g"][label], key=lambda r: r["id"]))
    alone.finish()
    return alone


def _assert_equal(index: TenantIndex, alone: TenantIndex, feed: FakeFeed) -> None:
    query = np.random.default_rng(7).standard_normal(feed.dimension).astype(np.float32)
    query /= float(np.linalg.norm(query))
    words = feed.tenants["g"]["episode"][0]["search_text"].split()[:3]
    for label in TARGETS:
        assert list(index.targets[label].slots.ids) == list(alone.targets[label].slots.ids)
        assert index.vector(label, query, 20, View()) == alone.vector(label, query, 20, View())
        assert index.bm25(label, words, 20, View()) == alone.bm25(label, words, 20, View())
    weights = {"own": 1.0, "context": 0.5, "facts": 0.5}
    assert index.bm25("episode", words, 20, View(), fields=weights) == alone.bm25(
        "episode", words, 20, View(), fields=weights
    )


async def test_a_small_group_loads_in_one_read_and_equals_a_label_by_label_build() -> None:
    feed = RecordingFeed({"g": 12})
    registry = TenantIndexes(feed, dimension=feed.dimension)  # type: ignore[arg-type]
    index = await registry.ready("g")
    await registry.close()
    assert index is not None
    assert feed.sent == ["small"]
    _assert_equal(index, _alone(feed, index), feed)


async def test_a_label_filling_the_page_is_paged_and_the_index_is_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The counters said one node, a label returned a full page: the one read is dropped and the
    group is paged label by label (nothing past the page is missed)."""
    monkeypatch.setattr(reg, "PAGE", 5)
    feed = RecordingFeed({"g": 12}, understate=True)
    registry = TenantIndexes(feed, dimension=feed.dimension)  # type: ignore[arg-type]
    index = await registry.ready("g")
    await registry.close()
    assert index is not None
    assert feed.sent[0] == "small" and feed.sent.count("page") >= 3
    _assert_equal(index, _alone(feed, index), feed)
