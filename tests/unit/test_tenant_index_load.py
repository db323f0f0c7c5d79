"""A load from Neo4j reads the three labels side by side and applies each page as it arrives, with
at most ``registry.PAGES_HELD`` pages held: the index equals one built label by label."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from graphmem.retrieval.tenant_index import registry as reg
from graphmem.retrieval.tenant_index.index import TARGETS, TenantIndex, View
from graphmem.retrieval.tenant_index.registry import TenantIndexes
from tests.unit.test_tenant_index_budget import FakeFeed


class CountingFeed(FakeFeed):
    """Counts pages returned and not yet applied (``held``), and the most at once."""

    def __init__(self, sizes: dict[str, int]) -> None:
        super().__init__(sizes)
        self.held = self.most = self.pages = 0

    def check(self) -> None:
        pass  # no budget here

    async def read_values(self, query: str, **params: Any) -> list[list[Any]]:
        self.held += 1
        self.pages += 1
        self.most = max(self.most, self.held)
        return await super().read_values(query, **params)


async def test_a_load_holds_few_pages_and_equals_a_label_by_label_build(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Regression: ``_build`` read every page of every label before applying any, so a 100k +
    155k-fact tenant sat in memory as Python rows (5,732 MiB peak RSS in ``eval speed`` against
    1,469 before the labels were read side by side)."""
    feed = CountingFeed({"g": 300})
    applied = TenantIndex.apply

    def apply(index: TenantIndex, label: str, rows: list[dict[str, Any]]) -> int:
        feed.held -= 1
        return applied(index, label, rows)

    monkeypatch.setattr(TenantIndex, "apply", apply)
    monkeypatch.setattr(reg, "PAGE", 40)  # 8 pages a label
    registry = TenantIndexes(feed, dimension=feed.dimension, sync_limit=10**6)  # type: ignore[arg-type]
    index = await registry.ready("g")
    await registry.close()
    assert index is not None
    assert feed.pages >= 3 * 8 and 1 < feed.most <= reg.PAGES_HELD

    monkeypatch.setattr(TenantIndex, "apply", applied)
    alone = TenantIndex("g", feed.dimension, index.ann_threshold, index.seq, index.created_at)
    rows = feed.tenants["g"]
    for label in TARGETS:
        alone.apply(label, sorted(rows[label], key=lambda r: r["id"]))
    alone.finish()
    query = np.random.default_rng(4).standard_normal(feed.dimension).astype(np.float32)
    query /= float(np.linalg.norm(query))
    words = rows["episode"][0]["search_text"].split()[:3]
    for label in TARGETS:
        assert list(index.targets[label].slots.ids) == list(alone.targets[label].slots.ids)
        assert index.vector(label, query, 20, View()) == alone.vector(label, query, 20, View())
        assert index.bm25(label, words, 20, View()) == alone.bm25(label, words, 20, View())
    weights = {"own": 1.0, "context": 0.5, "facts": 0.5}
    assert index.bm25("episode", words, 20, View(), fields=weights) == alone.bm25(
        "episode", words, 20, View(), fields=weights
    )
    facts = alone.targets["fact"].slots.ids
    assert [index.fields.evidence(s) for s in range(len(facts))] == [
        alone.fields.evidence(s) for s in range(len(facts))
    ]
