"""Re-embedding (issue 7) and the local Neo4j's backup/restore.

A full re-embed rewrites every vector and the vector indexes of the whole database, so it runs
against the throwaway Neo4j (`own` in tests/integration/conftest.py: port 7697, emptied for this
module), never the shared one; on the shared database only a group-scoped re-embed with the stamped
model runs.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from graphmem.config import Settings
from graphmem.errors import ConfigError, EmbeddingMismatch, InvalidInput
from graphmem.memory import GraphMemory
from graphmem.memory.lifecycle import records
from graphmem.providers.embedders.hashing import HashingEmbedder
from graphmem.providers.embedders.minilm_numpy import MiniLMEmbedder
from graphmem.providers.extractors.rules import RulesExtractor
from graphmem.store.driver import Store
from graphmem_cli.main import cli
from tests.integration.test_lifecycle_support import STORY, counts, export_lines, ingest, seed_file

OLD = HashingEmbedder(32, name="fake/old")
NEW = HashingEmbedder(48, name="fake/new")


@pytest.fixture
async def own_store(own: Settings) -> AsyncIterator[Store]:
    store = Store.connect(own.local_uri, auth=None, database="neo4j")
    yield store
    await store.close()


class Flaky:
    """The new embedder, failing after ``calls`` batches (an interrupted re-embed)."""

    def __init__(self, inner: HashingEmbedder, calls: int) -> None:
        self.inner, self.calls = inner, calls
        self.model_name, self.dimension = inner.model_name, inner.dimension

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls -= 1
        if self.calls < 0:
            raise RuntimeError("interrupted")
        return self.inner.embed(texts)


async def _open(store: Store, embedder: Any, *, migrate: bool = True) -> GraphMemory:
    return await GraphMemory.open(store=store, embedder=embedder, extractor=RulesExtractor(), migrate=migrate)


async def _vectors(store: Store) -> list[tuple[str, list[float]]]:
    rows = await store.read(
        "MATCH (n) WHERE n:Episode OR n:Fact OR n:Entity "
        "RETURN coalesce(n.speaker + ': ' + n.content, n.content, n.statement, n.name) AS text, "
        "n.embedding AS v"
    )
    return [(r["text"], r["v"]) for r in rows]


async def test_full_reembed_to_another_dimension_resumes_after_an_interruption(own_store: Store) -> None:
    old = await _open(own_store, OLD)
    await ingest(old, "alice", STORY[:5])
    await ingest(old, "zhang", STORY[5:])
    total = len(await _vectors(own_store))
    with pytest.raises(EmbeddingMismatch, match="graphmem reembed"):
        await _open(own_store, NEW)

    broken = await _open(own_store, Flaky(NEW, calls=2), migrate=False)
    with pytest.raises(RuntimeError, match="interrupted"):
        await broken.reembed(batch_size=5)
    report = await (await _open(own_store, NEW, migrate=False)).reembed(batch_size=5)

    assert report.resumed and report.indexes_recreated
    assert (report.previous_model, report.previous_dimension) == ("fake/old", 32)
    assert report.episodes + report.facts + report.entities == total
    assert report.batches > 2
    vectors = await _vectors(own_store)
    assert all(len(v) == 48 for _, v in vectors)
    expected = NEW.embed([t for t, _ in vectors])
    assert np.allclose(np.asarray([v for _, v in vectors]), expected, atol=1e-6)
    assert await own_store.read("MATCH (m:GraphmemMeta {key: 'reembed'}) RETURN m") == []
    new = await _open(own_store, NEW)  # the start-up check passes again
    result = await new.search("alice", "I moved to Paris.", recipe="default")
    assert "I moved to Paris." in {h.episode.content for h in result.episodes}
    assert result.timings_ms.get("vector:episode") is not None


def test_cli_reembed_backup_and_restore_of_the_local_neo4j(own: Settings, tmp_path: Path) -> None:
    """`graphmem reembed`, then a stop-free logical backup of every group and its restore."""
    env = {"NEO4J_URI": own.local_uri, "GRAPHMEM_EMBEDDER": "hashing", "GRAPHMEM_EMBEDDING_DIMENSION": "64"}
    runner = CliRunner()
    reembedded = runner.invoke(cli, ["reembed", "--batch-size", "50"], env=env)
    assert reembedded.exit_code == 0, reembedded.output
    assert "with graphmem/hashing (64-d)" in reembedded.output
    seeded = runner.invoke(cli, ["import", "-"], input=seed_file("cli-zh"), env=env)
    assert seeded.exit_code == 0, seeded.output

    backup = runner.invoke(cli, ["backup", "--out", str(tmp_path / "b")], env=env)

    assert backup.exit_code == 0, backup.output
    manifest = json.loads((tmp_path / "b" / "manifest.json").read_text(encoding="utf-8"))
    groups = [g["group_id"] for g in manifest["groups"]]
    assert "cli-zh" in groups and manifest["dimension"] == 64
    before = {g: _cli_export(runner, env, g) for g in groups}
    for group in groups:
        purged = runner.invoke(cli, ["forget", "--group", group, "--purge-tombstones", "--yes"], env=env)
        assert purged.exit_code == 0, purged.output
    assert all(len(_cli_export(runner, env, g)) == 1 for g in groups)  # header only: empty
    restored = runner.invoke(cli, ["restore", str(tmp_path / "b")], env=env)
    assert restored.exit_code == 0, restored.output
    assert {g: _cli_export(runner, env, g) for g in groups} == before
    maintained = runner.invoke(cli, ["maintain", "--group", "cli-zh"], env=env)
    assert maintained.exit_code == 0 and "maintained group cli-zh" in maintained.output
    again = runner.invoke(cli, ["backup", "--out", str(tmp_path / "b")], env=env)
    assert again.exit_code != 0 and "already holds a backup" in again.output


def _cli_export(runner: CliRunner, env: dict[str, str], group: str) -> list[str]:
    result = runner.invoke(cli, ["export", "--group", group], env=env)
    assert result.exit_code == 0, result.output
    return records.canonical(json.loads(line) for line in result.stdout.splitlines())


async def test_logical_backup_of_chosen_groups_round_trips(
    memory: GraphMemory, store: Store, group: str, tmp_path: Path
) -> None:
    groups = [group, group + "-zh"]
    await ingest(memory, groups[0], STORY[:4])
    await ingest(memory, groups[1], STORY[5:])
    exports = [await export_lines(memory, g) for g in groups]
    sizes = [await counts(store, g) for g in groups]

    report = await memory.backup(tmp_path / "bk", group_ids=groups)

    assert [g.group_id for g in report.groups] == groups
    for g in groups:
        await memory.forget_group(g, purge_tombstones=True)
    restored = await memory.restore(tmp_path / "bk")
    assert sorted(restored.groups) == sorted(groups)
    assert [await export_lines(memory, g) for g in groups] == exports
    assert [await counts(store, g) for g in groups] == sizes
    damaged = tmp_path / "bk" / report.groups[1].file
    damaged.write_text(damaged.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    with pytest.raises(InvalidInput, match="checksum"):
        await memory.restore(tmp_path / "bk")


async def test_group_reembed_on_the_shared_database(
    memory: GraphMemory, store: Store, embedder: MiniLMEmbedder, group: str
) -> None:
    """Scoped to one group with the stamped model: repairs that group only, keeps the indexes."""
    await ingest(memory, group, STORY[:2])
    await store.write(
        "MATCH (n {group_id: $g}) WHERE n:Episode OR n:Fact OR n:Entity "
        "CALL db.create.setNodeVectorProperty(n, 'embedding', $v)",
        g=group,
        v=[1.0] + [0.0] * 383,
    )
    meta = await store.read("MATCH (m:GraphmemMeta {key: 'embedding'}) RETURN properties(m) AS p")

    report = await memory.reembed(group_id=group, batch_size=3)

    assert report.group_id == group and not report.indexes_recreated
    rows = await store.read(
        "MATCH (e:Episode {group_id: $g}) RETURN coalesce(e.speaker + ': ' + e.content, e.content) AS t, "
        "e.embedding AS v ORDER BY e.id",
        g=group,
    )
    assert np.allclose(np.asarray([r["v"] for r in rows]), embedder.embed([r["t"] for r in rows]), atol=1e-5)
    assert await store.read("MATCH (m:GraphmemMeta {key: 'embedding'}) RETURN properties(m) AS p") == meta
    other = await _open(store, HashingEmbedder(128, name="other/model"), migrate=False)
    with pytest.raises(ConfigError, match="full `graphmem reembed`"):
        await other.reembed(group_id=group)
