"""``graphmem eval tenants``' pure parts: long-tailed sizes, Zipf picks, buckets, the summary."""

from __future__ import annotations

from collections import Counter

from eval.tenants import Sample, TenantsConfig, Traffic, bucket, served_by, sizes, summarise, zipf_picks


def test_sizes_are_long_tailed_from_min_to_max() -> None:
    got = sizes(TenantsConfig(tenants=40, min_nodes=40, max_nodes=5_000))
    assert len(got) == 40
    assert max(got) == 5_000
    assert min(got) >= 40
    assert got == sorted(got, reverse=True)
    assert sum(n < 200 for n in got) > 30  # most are small
    assert sum(n >= 1_000 for n in got) <= 3  # a few are large


def test_zipf_picks_favour_a_few_tenants_and_are_seeded() -> None:
    picks = zipf_picks(50, 2_000, 1.1, seed=3)
    assert picks == zipf_picks(50, 2_000, 1.1, seed=3)
    counts = Counter(picks).most_common()
    assert counts[0][1] > 10 * counts[-1][1]
    assert all(0 <= p < 50 for p in picks)


def test_buckets_cover_every_size() -> None:
    assert [bucket(n) for n in (0, 99, 100, 999, 1_000, 5_000, 19_999, 20_000, 10**6)] == [
        "0-100",
        "0-100",
        "100-1000",
        "100-1000",
        "1000-5000",
        "5000-20000",
        "5000-20000",
        ">=20000",
        ">=20000",
    ]


def test_summary_splits_first_from_steady_searches_by_bucket() -> None:
    traffic = Traffic(
        samples=[
            Sample("a", True, 50.0, "neo4j"),
            Sample("a", False, 10.0, "index"),
            Sample("a", False, 12.0, "index"),
            Sample("b", True, 300.0, "index", index_wait_ms=250.0),
        ]
    )
    out = summarise(traffic, {"a": 50, "b": 3_000, "c": 60})
    small, big = out["by_size"]["0-100"], out["by_size"]["1000-5000"]
    assert (small["tenants"], small["tenants_searched"]) == (2, 1)
    assert small["first"]["n"] == 1 and small["first_served_by"] == {"neo4j": 1}
    assert small["steady"] == {"n": 2, "p50_ms": 11.0, "p99_ms": 12.0}
    assert big["first_index_wait"]["p50_ms"] == 250.0
    assert out["searches"] == 4 and out["first"]["n"] == 2


def test_served_by_reads_the_neo4j_sources_sizes_stage() -> None:
    """Regression: served_by read the ``fuse`` stage, which every search now times, so each
    search counted as served by the index; only the Neo4j source reads the tenant's sizes."""
    assert served_by({"index:state": 1.0, "bm25:episode": 0.4, "fuse": 0.3}) == "index"
    assert served_by({"index:state": 1.0, "sizes": 4.0, "bm25:episode": 5.0, "fuse": 0.3}) == "neo4j"


def test_the_index_bytes_are_sampled_while_the_traffic_runs(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import asyncio

    from eval import tenants

    values = iter([10.0, 30.0, 20.0] + [5.0] * 1000)
    monkeypatch.setattr(tenants, "index_metrics", lambda base: {"graphmem_tenant_index_bytes": next(values)})

    async def run() -> list[float]:
        seen: list[float] = []
        task = asyncio.create_task(tenants._sample_bytes("http://127.0.0.1:1", seen, every_s=0.001))
        await asyncio.sleep(0.2)  # a thread hop and a sleep per sample: many samples by then
        task.cancel()
        return seen

    seen = asyncio.run(run())
    assert seen[:3] == [10.0, 30.0, 20.0] and max(seen) == 30.0


def test_the_summary_gives_each_stage_s_median_for_first_and_steady_searches() -> None:
    """The quiet-host re-measure compares stages (where a first search's time goes), not only totals."""
    traffic = Traffic(
        samples=[
            Sample("a", True, 50.0, "index", 30.0, {"index:wait": 30.0, "hydrate": 5.0}),
            Sample("b", True, 70.0, "index", 50.0, {"index:wait": 50.0, "hydrate": 7.0}),
            Sample("a", False, 10.0, "index", 1.0, {"index:wait": 1.0, "hydrate": 4.0, "focus": 0.2}),
        ]
    )
    out = summarise(traffic, {"a": 50, "b": 60})
    assert out["first_stages_median_ms"] == {"hydrate": 6.0, "index:wait": 40.0}
    assert out["steady_stages_median_ms"] == {"focus": 0.2, "hydrate": 4.0, "index:wait": 1.0}
    assert out["by_size"]["0-100"]["first_stages_median_ms"] == out["first_stages_median_ms"]
