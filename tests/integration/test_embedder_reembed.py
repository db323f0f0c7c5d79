"""Switching embedders through the CLI on a database of its own (issue 19): ingest with the
``openai`` endpoint (a local stub, 48-d), see every command refuse a local model directory (a tiny
BERT, 24-d) until ``graphmem reembed`` has run with it, then search with it, and switch back.

The throwaway Neo4j (`own`, tests/integration/conftest.py: port 7697, emptied for this module) holds
it, so the shared database's model record is never touched.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from graphmem.config import Settings
from graphmem_cli.main import cli
from tests.stubs.embeddings_stub import EmbeddingsStub
from tests.stubs.tiny_bert import TinyShape, write_tiny_bert

TURNS = [
    ("Alice", "I moved to Paris last spring."),
    ("Bob", "I work at Acme in the city."),
    ("张伟", "我昨天去了北京，见到了老朋友。"),
]


@pytest.fixture(scope="module")
def stub() -> Iterator[EmbeddingsStub]:
    with EmbeddingsStub(dimension=48) as s:
        yield s


def _env(server: Settings, **extra: str) -> dict[str, str]:
    return {"NEO4J_URI": server.local_uri, "HF_HUB_OFFLINE": "1", **extra}


def _search(runner: CliRunner, env: dict[str, str], text: str) -> list[str]:
    done = runner.invoke(cli, ["search", text, "--group", "switch", "--recipe", "vector", "--json"], env=env)
    assert done.exit_code == 0, done.output
    return [hit["episode"]["content"] for hit in json.loads(done.stdout)["episodes"]]


def test_switching_between_endpoint_and_local_directory_needs_reembed(
    own: Settings,
    stub: EmbeddingsStub,
    tmp_path: Path,
) -> None:
    tiny = write_tiny_bert(tmp_path / "tiny-zh", TinyShape(pooling="mean"), seed=11)
    endpoint = _env(
        own,
        GRAPHMEM_EMBEDDER="openai",
        GRAPHMEM_EMBED_BASE_URL=stub.base_url,
        GRAPHMEM_EMBED_MODEL="stub-48",
        GRAPHMEM_EMBED_DIMENSION="48",
    )
    local = _env(own, GRAPHMEM_EMBEDDER="local", GRAPHMEM_EMBED_MODEL_DIR=str(tiny))
    turns = tmp_path / "turns.jsonl"
    turns.write_text(
        "".join(
            json.dumps({"speaker": who, "content": text, "timestamp": f"2024-0{i + 1}-01T00:00:00Z"}) + "\n"
            for i, (who, text) in enumerate(TURNS)
        ),
        encoding="utf-8",
    )
    runner = CliRunner()
    ingested = runner.invoke(
        cli, ["ingest", str(turns), "--format", "jsonl", "--group", "switch"], env=endpoint
    )
    assert ingested.exit_code == 0, ingested.output
    assert _search(runner, endpoint, "Alice: I moved to Paris last spring.")[0] == TURNS[0][1]

    refused = runner.invoke(cli, ["search", "Paris", "--group", "switch"], env=local)
    assert refused.exit_code != 0
    assert "embedding_mismatch" in refused.output and "graphmem reembed" in refused.output

    switched = runner.invoke(cli, ["reembed", "--batch-size", "2"], env=local)
    assert switched.exit_code == 0, switched.output
    assert "local:tiny-zh (24-d)" in switched.output
    for who, text in TURNS:
        assert _search(runner, local, f"{who}: {text}")[0] == text  # its own vector, from the new model
    assert runner.invoke(cli, ["search", "Paris", "--group", "switch"], env=endpoint).exit_code != 0

    back = runner.invoke(cli, ["reembed"], env=endpoint)
    assert back.exit_code == 0, back.output
    assert _search(runner, endpoint, "Bob: I work at Acme in the city.")[0] == TURNS[1][1]


def test_eval_ingest_runs_once_per_endpoint_concurrency(
    own: Settings,
    stub: EmbeddingsStub,
) -> None:
    """`graphmem eval ingest --embed-concurrency 1,2` (docs/evals.md §7): one run per concurrency, each
    with an embedder of its own bound, every episode ingested and its group forgotten."""
    endpoint = _env(
        own,
        GRAPHMEM_EMBEDDER="openai",
        GRAPHMEM_EMBED_BASE_URL=stub.base_url,
        GRAPHMEM_EMBED_MODEL="stub-48",
        GRAPHMEM_EMBED_DIMENSION="48",
        GRAPHMEM_EMBED_BATCH_SIZE="4",
    )
    args = ["eval", "ingest", "--episodes", "12", "--batch-size", "6", "--embed-sample", "8"]
    done = CliRunner().invoke(cli, [*args, "--embed-concurrency", "1,2", "--json"], env=endpoint)
    assert done.exit_code == 0, done.output
    runs = json.loads(done.stdout.strip().splitlines()[-1])["runs"]
    assert [(r["embed_concurrency"], r["embed_batch_size"]) for r in runs] == [(1, 4), (2, 4)]
    assert all((r["ingested"], r["batches"], r["error"], r["group"]) == (12, 2, None, None) for r in runs)
    assert all(r["embed_only_per_s"] > 0 and r["commit_seconds"] > 0 for r in runs)
