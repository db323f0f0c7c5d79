"""Forgetting survives a re-import: import, restore and renamed imports honour tombstones; with PII
redaction on, the vault forgets too, and the proof of forgetting checks every store."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from graphmem.errors import NotFound
from graphmem.memory import GraphMemory
from graphmem.models.fact import FactIn
from graphmem.privacy import Redactor
from graphmem.store.driver import Store
from graphmem_cli.main import cli
from tests.integration.test_lifecycle_support import (
    STORY,
    Gone,
    assert_gone,
    counts,
    episode,
    export_lines,
    ingest,
    node_embedding,
    seed_file,
    utc,
)

EMPTY = {"episodes": 0, "facts": 0, "entities": 0}


async def _export(memory: GraphMemory, group: str) -> list[dict[str, Any]]:
    return [r async for r in memory.export_group(group)]


def _sizes(c: dict[str, int]) -> dict[str, int]:
    return {k: c[k] for k in EMPTY}


async def test_a_forgotten_group_stays_forgotten_when_its_export_is_imported(
    memory: GraphMemory, store: Store, group: str
) -> None:
    """Regression (issue 16, defect 1): ingest a group, export it, forget the group, import the
    export: the forgotten episodes and facts came back and search found them. They are left out
    and reported as ``forgotten`` (an explicit fact, which has no episode tombstone, too: the
    group's marker covers everything exported before the forget); ``allow_forgotten`` brings them
    back and removes the tombstones, so the graph never holds an episode and its tombstone."""
    ids = await ingest(memory, group)
    await memory.add_facts(group, [FactIn(subject="Bob", predicate="likes", object="oolong tea")])
    exported = await _export(memory, group)
    fact_ids = [f.id for f in await memory.list_facts(group, include_history=True)]
    entity_ids = [r["properties"]["id"] for r in exported if r.get("label") == "Entity"]
    await memory.forget_group(group)

    report = await memory.import_records(exported)

    assert report.forgotten == len(STORY) and report.forgotten_facts == len(fact_ids)
    assert _sizes(await counts(store, group)) == EMPTY
    assert (await counts(store, group))["tombstones"] == len(STORY)
    gone = Gone(
        texts=["I moved to Paris.", "Alice lives in Paris", "我住在上海。", "Bob likes oolong tea"],
        episode_ids=list(ids.values()),
        fact_ids=fact_ids,
        entity_ids=entity_ids,
        vectors={},
    )
    await assert_gone(memory, store, group, gone)
    again = await memory.import_records(exported)
    assert again.forgotten == len(STORY) and _sizes(await counts(store, group)) == EMPTY

    back = await memory.import_records(exported, allow_forgotten=True)

    assert back.forgotten == 0 and back.tombstones_removed == len(STORY)
    restored = await counts(store, group)
    assert restored["tombstones"] == 0 and restored["episodes"] == len(STORY)
    result = await memory.search(group, "Where does Alice live?")
    assert "Alice lives in Paris" in {h.fact.statement for h in result.facts}
    assert "Bob likes oolong tea" in {f.statement for f in await memory.facts_about(group, "Bob")}
    await memory.forget_group(group, purge_tombstones=True)
    purged = await memory.import_records(exported)  # no tombstones left: a plain restore
    assert purged.forgotten == 0 and _sizes(await counts(store, group)) == _sizes(restored)
    await memory.forget_group(group, purge_tombstones=True)


async def test_one_forgotten_episode_stays_forgotten_and_its_slot_is_re_resolved(
    memory: GraphMemory, store: Store, group: str
) -> None:
    """Regression (issue 16, defect 1): an export taken before ``forget_episode`` brought the
    episode and its fact back on import. Importing it now gives the graph the forget left: the
    episode is out, its claims are stripped, and Berlin is current again instead of Paris."""
    ids = await ingest(memory, group)
    exported = await _export(memory, group)
    await memory.forget_episode(group, ids["e4"])  # "I moved to Paris."
    after_forget = await export_lines(memory, group)
    sizes = _sizes(await counts(store, group))

    report = await memory.import_records(exported)

    assert report.forgotten == 1 and report.forgotten_facts >= 1
    assert _sizes(await counts(store, group)) == sizes
    current = {f.statement for f in await memory.facts_about(group, "Alice")}
    assert "Alice lives in Berlin" in current and "Alice lives in Paris" not in current
    assert _facts_view(await export_lines(memory, group)) == _facts_view(after_forget)
    await memory.forget_group(group, purge_tombstones=True)


def _facts_view(lines: list[str]) -> list[str]:
    """The exported records without the bookkeeping a re-resolution stamps anew."""
    out = []
    for line in lines:
        record = json.loads(line)
        if record["type"] == "header":
            continue
        props = record.get("properties", {})
        for key in ("updated_at", "recorded_at", "version", "embedding", "forgotten_at", "at"):
            props.pop(key, None)
        out.append(json.dumps(record, sort_keys=True))
    return sorted(out)


async def test_an_import_into_a_renamed_group_honours_the_source_tombstones(
    memory: GraphMemory, store: Store, group: str
) -> None:
    """Regression (issue 16, defect 1): importing the export of a forgotten group under another
    group name resurrected its content there (the renamed keys match no tombstone); the source
    group's tombstones are checked as well."""
    await ingest(memory, group)
    exported = await _export(memory, group)
    await memory.forget_group(group)
    copy = group + "-copy"

    report = await memory.import_records(exported, target_group=copy)

    assert report.forgotten == len(STORY) and _sizes(await counts(store, copy)) == EMPTY
    await memory.forget_group(copy, purge_tombstones=True)
    await memory.forget_group(group, purge_tombstones=True)


async def test_a_renamed_import_leaves_out_an_episode_forgotten_in_the_source_group(
    memory: GraphMemory, store: Store, group: str
) -> None:
    """Regression (issue 16, defect 1): an episode forgotten in the source group came back in a
    copy imported under another name (its key is rewritten for the copy and matched no tombstone);
    the source key is checked too."""
    ids = await ingest(memory, group)
    exported = await _export(memory, group)
    await memory.forget_episode(group, ids["e4"])  # "I moved to Paris."
    copy = group + "-copy"

    report = await memory.import_records(exported, target_group=copy)

    assert report.forgotten == 1
    assert _sizes(await counts(store, copy)) == _sizes(await counts(store, group))
    current = {f.statement for f in await memory.facts_about(copy, "Alice")}
    assert "Alice lives in Berlin" in current and "Alice lives in Paris" not in current
    await memory.forget_group(copy, purge_tombstones=True)
    await memory.forget_group(group, purge_tombstones=True)


async def test_restore_honours_tombstones_written_after_the_backup(
    memory: GraphMemory, store: Store, group: str, tmp_path: Path
) -> None:
    """Regression (issue 16, defect 1): ``restore`` of a backup taken before a forget brought the
    forgotten episode back; it runs the same check as import."""
    ids = await ingest(memory, group)
    await memory.backup(tmp_path / "b", group_ids=[group])
    await memory.forget_episode(group, ids["e5"])  # "I work at Globex."

    report = await memory.restore(tmp_path / "b")

    assert report.forgotten == 1
    statements = {f.statement for f in await memory.list_facts(group, include_history=True)}
    assert not any("Globex" in s for s in statements)
    back = await memory.restore(tmp_path / "b", allow_forgotten=True)
    assert back.tombstones_removed == 1 and (await counts(store, group))["tombstones"] == 0
    await memory.forget_group(group, purge_tombstones=True)


def test_cli_import_reports_forgotten_and_allow_forgotten_brings_it_back(
    memory: GraphMemory, group: str, tmp_path: Path
) -> None:
    """Regression (issue 16, defect 1): ``graphmem import`` reports the forgotten episodes it left
    out, and only ``--allow-forgotten`` brings them back."""
    del memory  # the fixture stamped and migrated the database
    runner = CliRunner()
    path = tmp_path / "seed.jsonl"
    path.write_text(seed_file(group), encoding="utf-8")
    assert runner.invoke(cli, ["import", str(path)]).exit_code == 0
    assert runner.invoke(cli, ["forget", "--group", group, "--yes"]).exit_code == 0

    skipped = runner.invoke(cli, ["import", str(path)])

    assert skipped.exit_code == 0 and "left out 1 forgotten episodes" in skipped.output, skipped.output
    back = runner.invoke(cli, ["import", str(path), "--allow-forgotten"])
    assert back.exit_code == 0 and "brought back 1 forgotten episodes" in back.output, back.output
    assert "--allow-forgotten" in runner.invoke(cli, ["restore", "--help"]).output
    runner.invoke(cli, ["forget", "--group", group, "--purge-tombstones", "--yes"])


PII_KEY = "lifecycle-test-vault-key-0123456789"
PII_STORY = [
    episode("Reach me at zq.marlowe@example.org or (415) 555-0132.", utc(2024, 3, 1), "p1", speaker="Quinn"),
    episode("我的手机是13912345678，邮箱zq.marlowe@example.org。", utc(2024, 3, 2), "p2", speaker="张伟"),
]


@pytest.fixture
def redacting(memory: GraphMemory) -> GraphMemory:
    """The session's memory (its store, embedder and warm extractor) with PII redaction on."""
    return GraphMemory(replace(memory.ctx, redactor=Redactor(PII_KEY)))


async def _vault(store: Store, group: str) -> set[str]:
    rows = await store.read("MATCH (v:PiiVault {group_id: $g}) RETURN v.token AS t", g=group)
    return {r["t"] for r in rows}


async def test_a_forgotten_group_with_pii_stays_gone_after_import_and_restore(
    redacting: GraphMemory, store: Store, group: str, tmp_path: Path
) -> None:
    """Issue 21, item 4 (acceptance): ingest (PII redacted), export, back up, forget the group,
    then import the export and restore the backup: nothing comes back through any channel (text,
    id, nearest vector), the change log keeps no content, the vault is empty, and the proof of
    forgetting says so for every store, naming the backup as a copy the forget could not reach."""
    ids = await ingest(redacting, group, [STORY[3], *PII_STORY])  # Paris, and PII in EN and ZH
    assert len(await _vault(store, group)) == 3  # one email (twice), two phones
    exported = await _export(redacting, group)
    await redacting.backup(tmp_path / "b", group_ids=[group])
    paris = (await redacting.search(group, "I moved to Paris.", k=1)).ranked[0].id
    vectors = {"episode_embedding": await node_embedding(store, "Episode", paris)}
    fact_ids = [f.id for f in await redacting.list_facts(group, include_history=True)]
    await redacting.forget_group(group)

    imported = await redacting.import_records(exported)
    restored = await redacting.restore(tmp_path / "b")

    assert imported.forgotten == restored.forgotten == len(ids)
    redacted = [str(r["properties"]["content"]) for r in exported if r.get("label") == "Episode"]
    gone = Gone(
        texts=["I moved to Paris.", "Alice lives in Paris", "zq.marlowe@example.org", "13912345678"]
        + [t for t in redacted if "[" in t],
        episode_ids=list(ids.values()),
        fact_ids=fact_ids,
        entity_ids=[r["properties"]["id"] for r in exported if r.get("label") == "Entity"],
        vectors=vectors,
    )
    await assert_gone(redacting, store, group, gone)
    assert await _vault(store, group) == set()
    proof = await redacting.forget_proof(group, export_dir=tmp_path)
    assert proof.forgotten and {s.store for s in proof.stores} >= {
        "graph", "fulltext", "vector", "tenant_index", "change_log", "vault", "export_dir", "tombstones"
    }  # fmt: skip
    exports = next(s for s in proof.stores if s.store == "export_dir")
    assert exports.found == 1 and exports.ids[0].endswith(".jsonl")
    await redacting.forget_group(group, purge_tombstones=True)


async def test_forgetting_one_external_id_clears_its_own_vault_entries_only(
    redacting: GraphMemory, store: Store, group: str
) -> None:
    """Issue 21, item 4: forget removes the vault entries that no remaining text names (the phone
    of p1) and keeps those still in use (the email p2 also holds); the proof for the external id
    finds nothing of it, before and after a re-import of an earlier export."""
    ids = await ingest(redacting, group, PII_STORY)
    exported = await _export(redacting, group)
    before = await _vault(store, group)
    await redacting.forget_episode(group, ids["p1"])

    after = await _vault(store, group)
    assert len(after) == len(before) - 1 and after < before  # the phone of p1 only
    await redacting.import_records(exported)
    assert await _vault(store, group) == after
    raw = PII_STORY[0].content
    proof = await redacting.forget_proof(group, external_id="p1", probes=[raw, "(415) 555-0132"])
    assert proof.forgotten, proof
    assert proof.probes == 4  # each probe as given and tokenised
    leftover = await redacting.forget_proof(group, external_id="p2")
    assert not leftover.forgotten  # p2 is still there, and the proof says so
    await redacting.forget_group(group, purge_tombstones=True)


def test_cli_proof_reports_every_store(memory: GraphMemory, group: str, tmp_path: Path) -> None:
    """``graphmem proof`` prints one line per store and exits 0 only when nothing was found."""
    del memory  # the fixture stamped and migrated the database
    runner = CliRunner()
    path = tmp_path / "seed.jsonl"
    path.write_text(seed_file(group), encoding="utf-8")
    assert runner.invoke(cli, ["import", str(path)]).exit_code == 0

    present = runner.invoke(cli, ["proof", "--group", group])
    assert present.exit_code == 1 and "NOT forgotten" in present.output, present.output
    assert runner.invoke(cli, ["forget", "--group", group, "--yes"]).exit_code == 0
    proof = runner.invoke(cli, ["proof", "--group", group, "--export-dir", str(tmp_path), "--json"])

    assert proof.exit_code == 0, proof.output
    body = json.loads(proof.output)
    assert body["forgotten"] and next(s for s in body["stores"] if s["store"] == "export_dir")["found"] == 1
    runner.invoke(cli, ["forget", "--group", group, "--purge-tombstones", "--yes"])


async def test_a_forgotten_entity_stays_forgotten_when_an_earlier_export_is_imported(
    memory: GraphMemory, store: Store, group: str, tmp_path: Path
) -> None:
    """Regression (issue 21, item 4; docs said so: "forget_entity leaves no tombstone"): an export
    or backup taken before ``forget_entity`` brought the entity and every fact about it back on
    import and restore. The forget leaves an entity tombstone (a hash of its id, no content); import and
    restore leave the entity out and re-resolve its slots as the forget did (Paris supersedes
    Munich directly once Berlin is forgotten), also into a renamed group; ``allow_forgotten``
    brings it back and removes the tombstone."""
    await ingest(memory, group)
    exported = await _export(memory, group)
    await memory.backup(tmp_path / "b", group_ids=[group])
    berlin = next(e.id for e in await memory.find_entities(group, "Berlin") if e.name == "Berlin")
    await memory.forget_entity(group, berlin)
    after_forget = _facts_view(await export_lines(memory, group))

    report = await memory.import_records(exported)
    restored = await memory.restore(tmp_path / "b")

    assert report.forgotten_entities == 1 and restored.forgotten_entities == 1
    assert _facts_view(await export_lines(memory, group)) == after_forget
    await _not_found_entity(memory, group, berlin)
    statements = {f.statement for f in await memory.list_facts(group, include_history=True)}
    assert not any("Berlin" in s for s in statements) and "Alice lives in Paris" in statements
    copy = group + "-copy"
    renamed = await memory.import_records(exported, target_group=copy)
    assert renamed.forgotten_entities == 1
    assert not any("Berlin" in f.statement for f in await memory.list_facts(copy, include_history=True))

    back = await memory.import_records(exported, allow_forgotten=True)
    assert back.forgotten_entities == 0 and back.tombstones_removed == 1
    assert any("Berlin" in f.statement for f in await memory.list_facts(group, include_history=True))
    await memory.forget_group(copy, purge_tombstones=True)
    await memory.forget_group(group, purge_tombstones=True)


async def _not_found_entity(memory: GraphMemory, group: str, entity_id: str) -> None:
    with pytest.raises(NotFound):
        await memory.get_entity(group, entity_id)
