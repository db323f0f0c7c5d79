"""The time view exists twice, as Cypher (``FACT_VISIBLE`` / ``EPISODE_VISIBLE``, every Neo4j
channel and hydration) and as numpy (``TenantIndex._mask``, the tenant index's channels). One table
of facts, episodes and views runs through both; they must show the same nodes. The Cypher is
evaluated over parameter maps (nothing is written)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from graphmem.retrieval.tenant_index.index import TenantIndex, View
from graphmem.store.cypher.search import EPISODE_VISIBLE, FACT_VISIBLE
from graphmem.store.driver import Store
from tests.conftest import utc

G = "t-view-rules"


def fact(
    fid: str,
    valid_from: datetime | None,
    valid_to: datetime | None,
    *,
    expired: bool = False,
    status: str = "active",
) -> dict[str, Any]:
    return {
        "id": fid,
        "group_id": G,
        "search_text": fid,
        "status": status,
        "valid_from": valid_from,
        "valid_to": valid_to,
        "expired_at": utc(2024, 8, 1) if expired else None,
        "recorded_at": utc(2024, 1, 1),
        "evidence": 0,
        "text": fid,
    }


FACTS = [
    fact("open", utc(2024, 1, 1), None),
    fact("no-start", None, None),
    fact("ended-june", utc(2024, 2, 1), utc(2024, 6, 1)),
    fact("ended-no-start", None, utc(2024, 3, 1)),
    fact("future", utc(2025, 1, 1), None),
    fact("expired", utc(2024, 1, 1), None, expired=True),
    fact("archived", utc(2024, 1, 1), None, status="archived"),
    fact("archived-ended", utc(2024, 1, 1), utc(2024, 4, 1), status="archived"),
    fact("one-day", utc(2024, 5, 10), utc(2024, 5, 11)),
]
EPISODES = [
    {"id": f"e{m}", "group_id": G, "reference_time": utc(2024, m, 15), "search_text": "x", "text": "x"}
    for m in (1, 3, 5, 7)
] + [{"id": "e-boundary", "group_id": G, "reference_time": utc(2024, 5, 1), "search_text": "x", "text": "x"}]

VIEWS = [
    View(),
    View(history=True),
    View(as_of=utc(2024, 3, 1)),
    View(as_of=utc(2024, 5, 10, 12)),
    View(as_of=utc(2024, 6, 1)),
    View(as_of=utc(2023, 1, 1), history=True),
    View(since=utc(2024, 5, 1), until=utc(2024, 7, 1)),
    View(since=utc(2024, 6, 1)),
    View(until=utc(2024, 3, 1)),
    View(since=utc(2024, 5, 11), until=utc(2024, 5, 12)),
    View(as_of=utc(2024, 5, 10, 12), since=utc(2024, 5, 1), until=utc(2024, 6, 1)),
    View(history=True, since=utc(2024, 4, 1), until=utc(2024, 5, 1)),
]


def numpy_view(label: str, rows: list[dict[str, Any]], view: View) -> set[str]:
    index = TenantIndex(G, dimension=4)
    index.apply(label, rows)
    ids = index.targets[label].slots.ids
    mask = index.mask(label, view)
    return set(ids) if mask is None else {i for i, shown in zip(ids, mask.tolist(), strict=True) if shown}


async def cypher_view(
    store: Store, variable: str, rule: str, rows: list[dict[str, Any]], view: View
) -> set[str]:
    query = f"UNWIND $rows AS {variable} WITH {variable} WHERE {rule} RETURN {variable}.id AS id"
    found = await store.read(query, rows=rows, group_id=G, **view.params())
    return {r["id"] for r in found}


@pytest.mark.parametrize("view", VIEWS, ids=repr)
async def test_facts_the_view_shows_are_the_same_in_cypher_and_numpy(store: Store, view: View) -> None:
    assert await cypher_view(store, "f", FACT_VISIBLE, FACTS, view) == numpy_view("fact", FACTS, view)


@pytest.mark.parametrize("view", VIEWS, ids=repr)
async def test_episodes_the_view_shows_are_the_same_in_cypher_and_numpy(store: Store, view: View) -> None:
    assert await cypher_view(store, "e", EPISODE_VISIBLE, EPISODES, view) == numpy_view(
        "episode", EPISODES, view
    )


def test_the_table_covers_each_kind_of_view() -> None:
    """The views above are not alike: they show seven different sets of facts."""
    shown = {frozenset(numpy_view("fact", FACTS, v)) for v in VIEWS}
    assert len(shown) >= 7
    assert numpy_view("fact", FACTS, View(since=utc(2024, 5, 1), until=utc(2024, 7, 1))) == {
        "open",
        "no-start",
        "ended-june",
        "one-day",
    }
