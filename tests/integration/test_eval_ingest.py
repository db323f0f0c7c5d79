"""`graphmem eval ingest` on a small synthetic tenant: the report has every field docs/ingest.md
names and the group is forgotten afterwards. No wall-clock thresholds: benchmarks measure."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from eval.ingest_speed import IngestSpeedOptions, run_ingest_speed, write_tenant
from graphmem.memory import GraphMemory
from graphmem.store.driver import Store, run
from graphmem_cli.main import cli

GROUP_EPISODES = "MATCH (e:Episode {group_id: $g}) RETURN count(e) AS n"


def test_tenant_file_is_one_group_of_jsonl_lines(tmp_path: Path) -> None:
    path = write_tenant(tmp_path / "t.jsonl", 50, seed=3)
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(records) == 50 and len({r["external_id"] for r in records}) == 50
    assert all(set(r) == {"session_id", "speaker", "content", "timestamp", "external_id"} for r in records)


async def test_eval_ingest_reports_rates_and_forgets_its_group(
    memory: GraphMemory, store: Store, group: str
) -> None:
    opts = IngestSpeedOptions(episodes=40, batch_size=16, embed_sample=20, group=group)
    report = await run_ingest_speed(memory, opts, lambda message: None)
    assert (report["episodes"], report["ingested"], report["batches"], report["error"]) == (40, 40, 3, None)
    assert (report["duplicates"], report["rejected"]) == (0, 0)
    for key in ("ingest_episodes_per_s", "embed_only_per_s", "ratio", "peak_rss_mb", "commit_seconds"):
        assert report[key] > 0
    assert set(report["load_average"]) == {"before", "ingest_start", "ingest_end"}
    async with store.transaction(write=False) as tx:
        assert (await run(tx, GROUP_EPISODES, g=group))[0]["n"] == 0


def test_the_endpoint_concurrency_sweep_needs_the_endpoint_embedder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHMEM_EMBEDDER", "hashing")
    result = CliRunner().invoke(cli, ["eval", "ingest", "--embed-concurrency", "1,2"])
    assert result.exit_code == 1 and "needs GRAPHMEM_EMBEDDER=openai" in result.output


@pytest.mark.parametrize("value", ["0", "1,x", ","])
def test_the_endpoint_concurrencies_are_counts(value: str) -> None:
    result = CliRunner().invoke(cli, ["eval", "ingest", "--embed-concurrency", value])
    assert result.exit_code == 2
    assert "each concurrency must be 1..256" in result.output or "comma-separated" in result.output


def test_cli_help_has_an_example() -> None:
    result = CliRunner().invoke(cli, ["eval", "ingest", "--help"])
    assert result.exit_code == 0 and "graphmem eval ingest --episodes" in result.output
