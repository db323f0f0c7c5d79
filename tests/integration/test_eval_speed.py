"""`graphmem eval speed` on a few hundred items: the synthetic tenant is deterministic and the report
has every field EVAL.md §3 names. No wall-clock thresholds: benchmarks measure, tests assert shape."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from eval.speed import SpeedOptions, run_speed
from eval.synthetic import Tenant
from graphmem.config import Settings
from graphmem.memory import GraphMemory
from graphmem.store import search as channels
from graphmem_cli.main import cli


def test_synthetic_tenant_is_deterministic() -> None:
    a, b = Tenant(300, 120, seed=3), Tenant(300, 120, seed=3)
    eps_a, eps_b = list(a.episodes()), list(b.episodes())
    assert len(eps_a) == 300 and eps_a == eps_b
    assert list(a.facts()) == list(b.facts()) and len(list(a.facts())) == 120
    assert a.queries(200) == b.queries(200) and len(set(a.queries(200))) > 150
    assert len({e.session_id for e in eps_a}) >= 10  # many sessions, not one giant one
    assert len({e.external_id for e in eps_a}) == 300
    assert list(Tenant(300, 120, seed=4).episodes()) != eps_a


def _check(result: dict, episodes: int, facts: int) -> None:
    for key in ("ingest_episodes_per_s", "ingest_facts_per_s", "embed_only_per_s", "ingest_vs_embed_ratio"):
        assert result[key] is not None and result[key] > 0
    assert result["group_size"]["episodes"] == episodes
    lib = result["search_ms"]["library"]
    assert set(lib) == {"p50", "p95", "p99"} and 0 < lib["p50"] <= lib["p99"]
    http = result["search_ms"]["http"]
    assert http is not None and 0 < http["p50"] <= http["p99"], result.get("http_error")
    added = result["http_added_per_request_ms"]  # client latency minus the search's own total
    assert 0 < added["p50"] < http["p50"]
    assert 0 < result["raw_ms"]["p50"] <= result["raw_ms"]["p99"]
    assert result["overhead_ratio"]["p50"] > 0
    assert result["peak_rss_mb"] > 0


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # graphiti-core's pydantic v1-style models
async def test_speed_report_shape_and_cleanup(memory: GraphMemory, settings: Settings) -> None:
    """Every figure of the report, HTTP and graphiti included, on a tenant just big enough for each
    (the shape is the point, not the numbers), and the eval's group removed."""
    opts = SpeedOptions(episodes=30, facts=10, queries=6, warmup=1, embed_sample=8, with_graphiti=True)
    result = await run_speed(memory, settings, opts)
    _check(result, 30, 10)
    assert result["n_queries"] == 6 and not result["reused_group"]
    graphiti = result["graphiti"]
    assert "error" in graphiti or graphiti["search_ms"]["p50"] > 0
    if hasattr(memory, "forget_group"):
        sizes = await channels.sizes(memory.ctx.store, group_id=result["group"])
        assert sizes["group"]["episodes"] == 0


async def test_reuse_group_skips_ingestion(memory: GraphMemory, settings: Settings, group: str) -> None:
    opts = SpeedOptions(
        episodes=30, facts=10, queries=4, warmup=1, embed_sample=8, http=False, reuse_group=group
    )
    first = await run_speed(memory, settings, opts)
    assert not first["reused_group"] and first["group"] == group
    episodes = await memory.ctx.store.read(
        "MATCH (e:Episode {group_id: $g}) RETURN count(e) AS n, count(DISTINCT e.external_id) AS distinct_ids",
        g=group,
    )
    assert episodes == [{"n": 30, "distinct_ids": 30}]
    again = await run_speed(memory, settings, opts)
    assert again["reused_group"] and again["ingest_seconds"] is None
    assert again["group_size"] == first["group_size"]  # nothing ingested twice
    if hasattr(memory, "forget_group"):
        await memory.forget_group(group, purge_tombstones=True)


def test_cli_json_last_line() -> None:
    res = CliRunner().invoke(
        cli, ["eval", "speed", "--episodes", "20", "--facts", "5", "--queries", "3", "--no-http", "--json"]
    )
    assert res.exit_code == 0, res.output
    result = json.loads(res.stdout.strip().splitlines()[-1])
    assert result["episodes"] == 20 and result["search_ms"]["http"] is None
    assert "library (query embedding included)" in res.stdout


async def test_hashing_load_and_ann_recall(memory: GraphMemory, settings: Settings, group: str) -> None:
    """The bulk-load option ingests through the product path with hashing vectors (queries keep the
    configured embedder), and the ANN-vs-exact recall report has its fields for both targets."""
    opts = SpeedOptions(
        episodes=40,
        facts=20,
        queries=4,
        warmup=1,
        embed_sample=4,
        http=False,
        reuse_group=group,
        load_embedder="hashing",
        ann_recall=True,
    )
    result = await run_speed(memory, settings, opts)
    assert result["load_embedder"] == "hashing"
    assert result["query_embedder"] == memory.ctx.embedder.model_name
    assert result["group_size"]["episodes"] == 40
    recall = result["ann_recall"]
    assert recall["query_embedder"] == "hashing"  # like vectors on both sides
    for target in ("episode", "fact"):
        row = recall[target]
        assert row["group_size"] > 0 and row["index_size"] >= row["group_size"]
        assert row["fetch"] >= 50 and 0.0 <= row["recall_at_10"] <= 1.0
        assert row["exact_ms_p50"] > 0 and row["ann_ms_p50"] > 0
    if hasattr(memory, "forget_group"):
        await memory.forget_group(group, purge_tombstones=True)
