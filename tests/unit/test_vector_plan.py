"""The vector channel's exact-or-ANN plan (pure)."""

from graphmem.store.search import overfetch, vector_plan


def test_overfetch_scales_with_the_tenant_share() -> None:
    assert overfetch(50, 100_000, 100_000) == 200  # alone in the index: 4x
    assert overfetch(50, 100_000, 300_000) == 300  # a third of the index: 2x / share
    assert overfetch(50, 10, 1_000_000) == 10_000  # capped


def test_small_tenants_are_scored_exactly() -> None:
    assert vector_plan(50, 500, 1_000_000, exact_threshold=2_000)[0]
    assert vector_plan(50, 0, 0, exact_threshold=0)[0]


def test_exact_when_ann_would_fetch_as_many_nodes_as_the_tenant_holds() -> None:
    exact, fetch = vector_plan(50, 5_000, 1_000_000, exact_threshold=0)
    assert exact and fetch == 10_000


def test_large_tenants_use_the_ann_index() -> None:
    exact, fetch = vector_plan(50, 100_000, 300_000, exact_threshold=2_000)
    assert not exact and fetch == 300
